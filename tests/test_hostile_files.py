"""Files that are not files, save folders that are not the player's, and saves killed mid-write."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from game.cli import main
from game.saves import SaveError, list_saves, read_save, resolve_save_dir, write_save

posix = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe.yaml"
    os.mkfifo(path)
    return path


@posix
def test_reading_a_save_refuses_a_fifo_at_once(fifo: Path) -> None:
    start = time.monotonic()
    with pytest.raises(SaveError) as caught:
        read_save(fifo.parent, str(fifo))
    assert caught.value.reason == "it is a pipe, not a file"
    assert time.monotonic() - start < 1


def test_reading_a_save_refuses_a_folder(tmp_path: Path) -> None:
    with pytest.raises(SaveError) as caught:
        read_save(tmp_path, str(tmp_path))
    assert "folder" in caught.value.reason


@posix
@pytest.mark.parametrize("command", [["resolve"], ["resolve", "--odds"], ["validate"], ["sim"]])
def test_the_command_line_refuses_a_fifo_at_once(fifo: Path, command: list[str], capsys) -> None:
    start = time.monotonic()
    assert main([*command, str(fifo)]) != 0
    assert time.monotonic() - start < 5
    out = capsys.readouterr()
    assert "pipe" in out.out + out.err


def test_validate_refuses_a_device() -> None:
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero")
    from game.content.loader import validate_paths
    problems = [p for p in validate_paths(["/dev/zero"]) if p.file == "/dev/zero"]
    assert len(problems) == 1 and "device" in problems[0].message


@pytest.mark.parametrize("folder", ["/proc/self", "/sys", "/dev"])
def test_system_folders_are_refused_as_save_folders(folder: str) -> None:
    if not Path(folder).is_dir():
        pytest.skip(f"no {folder}")
    with pytest.raises(SaveError) as caught:
        resolve_save_dir(folder)
    assert "system's own folders" in caught.value.reason


def test_a_file_is_refused_as_a_save_folder(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(SaveError):
        resolve_save_dir(blocker)


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root may write anywhere")
def test_a_read_only_folder_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(SaveError) as caught:
            resolve_save_dir(folder)
        assert caught.value.reason == "it is not writable"
    finally:
        folder.chmod(0o700)


def test_temporary_files_of_killed_saves_are_removed(tmp_path: Path) -> None:
    old = time.time() - 3600
    orphans = [tmp_path / f".battle.{n}abc.tmp" for n in range(17)]
    for path in orphans:
        path.write_bytes(b'{"format": "skirmish-save", "vers')
        os.utime(path, (old, old))
    fresh = tmp_path / ".other.xyz.tmp"             # a save being written right now
    fresh.write_bytes(b"{")
    assert list_saves(tmp_path) == []
    assert not any(path.exists() for path in orphans)
    assert fresh.exists()
    os.utime(fresh, (old, old))
    write_save(tmp_path, "battle", {"a": 1})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["battle.json"]


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                    reason="only root can give a folder away")
def test_a_folder_of_another_user_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "theirs"
    folder.mkdir()
    os.chown(folder, 54321, -1)
    with pytest.raises(SaveError) as caught:
        resolve_save_dir(folder)
    assert caught.value.reason == "it belongs to another user"
