"""`skirmish serve` before any browser: its command, its address, and bad flags refused plainly."""

from __future__ import annotations

import shlex
import socket
import subprocess
import sys

from game.cli import main
from game.serve import game_command, is_loopback, public_url


def test_each_page_runs_this_game_with_the_servers_save_folder(tmp_path):
    folder = tmp_path / "a folder with spaces"
    words = shlex.split(game_command(folder))
    assert words == [sys.executable, "-m", "game", "--save-dir", str(folder), "play"]


def test_only_loopback_addresses_count_as_this_machine_only():
    assert is_loopback("localhost") and is_loopback("127.0.0.1") and is_loopback("::1")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.4")
    assert not is_loopback("example.org")


def test_the_page_calls_back_an_address_a_browser_can_reach():
    assert public_url("localhost", 8000, None) == "http://localhost:8000"
    assert public_url("::1", 9000, None) == "http://[::1]:9000"
    assert public_url("0.0.0.0", 8000, None) == f"http://{socket.getfqdn()}:8000"
    assert public_url("0.0.0.0", 8000, "https://table.example/") == "https://table.example"


def test_a_port_out_of_range_is_refused(capsys, tmp_path):
    assert main(["--save-dir", str(tmp_path), "serve", "--port", "70000"]) == 2
    assert "--port must be between 1 and 65535" in capsys.readouterr().err


def test_a_taken_port_is_refused_with_the_reason_and_no_traceback(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "game", "--save-dir", str(tmp_path), "serve",
                               "--host", "127.0.0.1", "--port", str(port)],
                              capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr + done.stdout
    assert "address already in use" in done.stderr.lower()


def test_listening_beyond_this_machine_warns_who_can_play(capsys, tmp_path, monkeypatch):
    served = []
    monkeypatch.setattr("game.serve.serve", lambda *args: served.append(args))
    assert main(["--save-dir", str(tmp_path), "serve", "--host", "0.0.0.0", "--port", "8123"]) == 0
    err = capsys.readouterr().err
    assert "anyone who can reach this machine on port 8123 can play" in err
    assert served == [("0.0.0.0", 8123, tmp_path.resolve(), None)]
