"""`skirmish replay SAVE`: the app's Replay screen, or the log step by step with --text."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from game.cli import main
from game.replay import log_lines, seen
from game.saves import write_save
from tests.replay_helpers import played
from tests.ui.ui_helpers import FOG

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def fought():
    return played(str(FOG), 3)


@pytest.fixture
def saves(tmp_path, fought):
    folder = tmp_path / "saves"
    folder.mkdir()
    write_save(folder, "fight", fought[0])
    return folder


def test_text_prints_every_line_of_the_battle_step_by_step(saves, fought, capsys):
    state, live = fought
    assert main(["--save-dir", str(saves), "replay", "fight", "--text"]) == 0
    out = capsys.readouterr().out.splitlines()
    headers = [line for line in out if line.startswith("-- step ")]
    told = [line for line in out[:-1] if not line.startswith("-- step ")]
    everything = [event for step in live for event in step]
    names = {}
    from game.rulesets import load_battle
    with load_battle(state) as battle:
        names = battle.names()
    assert told == log_lines(seen(everything, None), lambda i: names.get(i, i))
    assert headers[0] == f"-- step 0 of {len(live) - 1}, the opening --"
    assert headers[-1].startswith(f"-- step {len(live) - 1} of {len(live) - 1}, round ")
    assert out[-1] == f"Winner: none (a draw); {state['summary']['round']} rounds, " \
                      f"{len(live) - 1} commands, seed 3."
    assert "acts, out of sight" not in "\n".join(out)          # the all-seeing log


def test_text_with_a_view_prints_only_what_that_side_saw(saves, capsys):
    assert main(["--save-dir", str(saves), "replay", "fight", "--text", "--view", "red"]) == 0
    red = capsys.readouterr().out
    assert main(["--save-dir", str(saves), "replay", "fight", "--text"]) == 0
    everything = capsys.readouterr().out
    assert "acts, out of sight" in red
    assert len(red.splitlines()) < len(everything.splitlines())


def test_a_save_file_is_found_by_its_path_too(saves, capsys, monkeypatch):
    monkeypatch.chdir(saves)
    assert main(["replay", "fight.json", "--text"]) == 0
    assert "Battle begins: Divided yard" in capsys.readouterr().out


@pytest.mark.parametrize("args, words", [
    (["replay", "nothing", "--text"], "Cannot load save"),
    (["replay", "fight", "--text", "--view", "purple"], "has no side 'purple'"),
    (["replay", "fight", "--view", "red"], "--view goes with --text"),
])
def test_bad_requests_are_told_in_a_sentence(saves, capsys, args, words):
    assert main(["--save-dir", str(saves), *args]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_a_log_that_does_not_replay_is_refused(saves, fought, capsys):
    state = copy.deepcopy(fought[0])
    state["commands"].insert(3, state["commands"][5])
    write_save(saves, "odd", state)
    (saves / "junk.json").write_text("{not json")
    assert main(["--save-dir", str(saves), "replay", "odd", "--text"]) == 2
    assert "Cannot replay save odd: command 4 of" in capsys.readouterr().err
    assert main(["--save-dir", str(saves), "replay", "junk"]) == 2
    assert "not a valid save file" in capsys.readouterr().err


def test_without_text_the_app_opens_on_the_replay(saves, fought, monkeypatch):
    import game.ui.app
    opened = []
    monkeypatch.setattr(game.ui.app, "run_app", lambda **kw: opened.append(kw))
    assert main(["--save-dir", str(saves), "replay", "fight"]) == 0
    assert opened == [{"save_dir": str(saves), "watch": json.loads(json.dumps(fought[0]))}]


def test_a_missing_save_exits_2_without_a_traceback(tmp_path):
    done = subprocess.run([sys.executable, "-m", "game", "--save-dir", str(tmp_path), "replay",
                           "gone"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 2
    assert "does not exist" in done.stderr and "Traceback" not in done.stderr


def test_text_of_an_unfinished_battle_is_one_persons_side_not_everything(tmp_path, capsys):
    state = played(str(FOG), 3, commands=25)[0]
    state["seats"] = {"red": {"human": False, "name": "Computer", "level": "simple"},
                      "blue": {"human": True, "name": "Ann"},
                      "green": {"human": True, "name": "Bo"}}
    write_save(tmp_path, "going", state)
    assert main(["--save-dir", str(tmp_path), "replay", "going", "--text"]) == 0
    default = capsys.readouterr().out.splitlines()
    assert default[0].startswith("-- The battle is not over: its log as ")
    assert "(blue) saw it" in default[0]                        # the first person's side
    assert main(["--save-dir", str(tmp_path), "replay", "going", "--text", "--view", "blue"]) == 0
    assert default[1:] == capsys.readouterr().out.splitlines()
    assert main(["--save-dir", str(tmp_path), "replay", "going", "--text", "--view", "red"]) == 0
    assert capsys.readouterr().out.splitlines() != default[1:]
