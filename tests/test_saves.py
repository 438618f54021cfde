from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from game import saves
from game.saves import (
    SAVE_FORMAT,
    SAVE_VERSION,
    SaveError,
    default_save_dir,
    delete_save,
    list_saves,
    read_save,
    resolve_save_dir,
    sanitize_name,
    write_save,
)

STATE = {
    "turn": 7,
    "units": [{"id": "u1", "hp": 12, "pos": [3, 4]}, {"id": "u2", "hp": 0, "pos": [5, 1]}],
    "rng": {"seed": 1234, "calls": 56},
    "summary": {"ruleset": "dnd5e", "turn": 7, "map": "Ford"},
    "note": "ünïcode ✓",
}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "saves"
    path.mkdir()
    return path


def _refused_unchanged(folder: Path, path: Path, *fragments: str) -> SaveError:
    before = path.read_bytes()
    with pytest.raises(SaveError) as info:
        read_save(folder, path)
    message = str(info.value)
    assert path.name in message
    assert "Traceback" not in message
    for fragment in fragments:
        assert fragment in message
    assert path.read_bytes() == before
    return info.value


# --- round trip ---------------------------------------------------------------


def test_round_trip(folder: Path) -> None:
    path = write_save(folder, "first battle", STATE)
    assert path == folder.resolve() / "first battle.json"
    assert read_save(folder, "first battle") == STATE
    assert read_save(folder, "first battle.json") == STATE
    assert read_save(folder, path) == STATE
    assert read_save(folder, str(path)) == STATE


def test_envelope_contents(folder: Path) -> None:
    path = write_save(folder, "env", STATE)
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert set(doc) == {"format", "version", "checksum", "saved_at", "state"}
    assert doc["format"] == SAVE_FORMAT
    assert doc["version"] == SAVE_VERSION
    assert doc["state"] == STATE
    assert len(doc["checksum"]) == 64


def test_overwrite_replaces_previous_save(folder: Path) -> None:
    write_save(folder, "slot", STATE)
    write_save(folder, "slot", {"turn": 8})
    assert read_save(folder, "slot") == {"turn": 8}
    assert sorted(p.name for p in folder.iterdir()) == ["slot.json"]


def test_non_string_keys_and_tuples_still_verify(folder: Path) -> None:
    write_save(folder, "odd", {"grid": {10: "a", 9: "b"}, "pos": (1, 2)})
    assert read_save(folder, "odd") == {"grid": {"10": "a", "9": "b"}, "pos": [1, 2]}


def test_unserialisable_state_is_refused_and_nothing_written(folder: Path) -> None:
    with pytest.raises(SaveError, match="not valid JSON"):
        write_save(folder, "bad", {"x": object()})
    with pytest.raises(SaveError, match="not valid JSON"):
        write_save(folder, "nan", {"x": float("nan")})
    assert list(folder.iterdir()) == []


def test_read_explicit_path_outside_folder(folder: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "inbox"
    elsewhere.mkdir()
    sent = write_save(elsewhere, "from a friend", STATE)
    assert read_save(folder, sent) == STATE


# --- refusing bad files ---------------------------------------------------------


def test_corrupt_state_is_refused(folder: Path) -> None:
    path = write_save(folder, "flip", STATE)
    raw = bytearray(path.read_bytes())
    index = raw.index(b'"hp":12') + len(b'"hp":1')
    raw[index] ^= 0x01  # "12" -> "13": still valid JSON, wrong checksum
    path.write_bytes(bytes(raw))
    json.loads(path.read_text(encoding="utf-8"))  # the damage is not a syntax error
    _refused_unchanged(folder, path, "corrupt")


def test_truncated_file_is_refused(folder: Path) -> None:
    path = write_save(folder, "cut", STATE)
    path.write_bytes(path.read_bytes()[:40])
    _refused_unchanged(folder, path, "truncated")


def test_non_json_file_is_refused(folder: Path) -> None:
    path = folder / "junk.json"
    path.write_bytes(b"\x00\xffthis is not json at all")
    _refused_unchanged(folder, path, "not a valid save file")


def test_newer_version_is_refused(folder: Path) -> None:
    path = write_save(folder, "future", STATE)
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["version"] = SAVE_VERSION + 1
    path.write_text(json.dumps(doc), encoding="utf-8")
    _refused_unchanged(folder, path, "newer version of skirmish")


def test_older_unsupported_version_is_refused(folder: Path) -> None:
    path = write_save(folder, "past", STATE)
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["version"] = 0
    path.write_text(json.dumps(doc), encoding="utf-8")
    _refused_unchanged(folder, path, "no longer supported")


def test_wrong_format_is_refused(folder: Path) -> None:
    path = folder / "other.json"
    path.write_text(json.dumps({"format": "chess-save", "version": 1, "state": {}}))
    _refused_unchanged(folder, path, "not a skirmish save")


def test_missing_keys_are_refused(folder: Path) -> None:
    path = write_save(folder, "holes", STATE)
    doc = json.loads(path.read_text(encoding="utf-8"))
    del doc["checksum"]
    path.write_text(json.dumps(doc), encoding="utf-8")
    _refused_unchanged(folder, path, "missing checksum")


def test_too_large_file_is_refused(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_save(folder, "big", STATE)
    monkeypatch.setattr(saves, "MAX_SAVE_BYTES", 50)
    _refused_unchanged(folder, path, "larger than")


def test_missing_file_is_refused(folder: Path) -> None:
    with pytest.raises(SaveError, match="does not exist") as info:
        read_save(folder, "nobody")
    assert "nobody.json" in str(info.value)
    assert list(folder.iterdir()) == []


# --- names and paths ----------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["../x", "/etc/passwd", "a/b", "..", ".", "", "   ", ".json", "..\\x", "a\\b",
     "bad\nname", "tab\there", "nul\x00byte", ".hidden", "x" * 65, "what?", "star*",
     "trailing.", "CON", "nul.txt"],
)
def test_bad_names_are_refused(folder: Path, tmp_path: Path, name: str) -> None:
    with pytest.raises(SaveError, match="is not allowed: "):
        sanitize_name(name)
    with pytest.raises(SaveError):
        write_save(folder, name, STATE)
    with pytest.raises(SaveError):
        delete_save(folder, name)
    assert list(folder.iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["saves"]


@pytest.mark.parametrize(
    ("name", "expected"),
    [("Battle 1", "Battle 1"), ("battle-2_b.v3", "battle-2_b.v3"), ("slot.json", "slot"),
     ("slot.JSON", "slot"), ("  padded  ", "padded"), ("x" * 64, "x" * 64), ("a..b", "a..b")],
)
def test_good_names(name: str, expected: str) -> None:
    assert sanitize_name(name) == expected


def test_symlink_escaping_folder_is_refused(folder: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.json"
    outside.write_text("precious")
    try:
        (folder / "link.json").symlink_to(outside)
    except (OSError, NotImplementedError):
        pytest.skip("symlinks not available")
    with pytest.raises(SaveError, match="outside the save folder"):
        write_save(folder, "link", STATE)
    assert outside.read_text() == "precious"


# --- atomicity ----------------------------------------------------------------


def test_failed_replace_keeps_old_save_and_leaves_no_temp_file(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_save(folder, "slot", STATE)
    before = path.read_bytes()
    calls: list[tuple[str, str]] = []

    def broken_replace(src: str, dst: str) -> None:
        calls.append((str(src), str(dst)))
        assert Path(src).parent == path.parent  # temp file lives in the save folder
        assert Path(src).read_bytes() != before  # the new save was fully written first
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(SaveError, match="No space left on device") as info:
        write_save(folder, "slot", {"turn": 99})
    assert "slot.json" in str(info.value)
    assert len(calls) == 1
    assert path.read_bytes() == before
    assert sorted(p.name for p in folder.iterdir()) == ["slot.json"]
    monkeypatch.undo()
    assert read_save(folder, "slot") == STATE


def test_failed_write_leaves_no_temp_file(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken_fsync(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(SaveError, match="Input/output error"):
        write_save(folder, "new", STATE)
    assert list(folder.iterdir()) == []


# --- save folder ----------------------------------------------------------------


def test_default_save_dir_without_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SKIRMISH_SAVE_DIR", raising=False)
    assert default_save_dir() == Path(saves.__file__).resolve().parents[1] / "saves"


def test_env_var_sets_default(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SKIRMISH_SAVE_DIR", str(tmp_path / "from-env"))
    assert default_save_dir() == tmp_path / "from-env"
    got = resolve_save_dir(None)
    assert got == (tmp_path / "from-env").resolve()
    assert got.is_dir()


def test_override_beats_env_var(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SKIRMISH_SAVE_DIR", str(tmp_path / "from-env"))
    got = resolve_save_dir(tmp_path / "from-flag" / "nested")
    assert got == (tmp_path / "from-flag" / "nested").resolve()
    assert got.is_dir()
    assert not (tmp_path / "from-env").exists()
    assert resolve_save_dir(str(tmp_path / "as-str")) == (tmp_path / "as-str").resolve()


def test_unusable_save_dir_is_reported(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(SaveError, match="Cannot use save folder"):
        resolve_save_dir(blocker / "sub")


# --- listing and deleting -------------------------------------------------------


def test_list_saves_good_and_broken(folder: Path) -> None:
    good = write_save(folder, "good", STATE)
    broken = folder / "broken.json"
    broken.write_text('{"format": "skirmish-save", "vers')
    (folder / "notes.txt").write_text("ignored")
    os.utime(good, (1_000_000, 1_000_000))
    os.utime(broken, (2_000_000, 2_000_000))
    before = broken.read_bytes()

    infos = list_saves(folder)

    assert [info.name for info in infos] == ["broken", "good"]  # newest first
    bad, ok = infos
    assert ok.ok and ok.problem is None
    assert ok.summary == STATE["summary"]
    assert ok.path == good and ok.modified == 1_000_000
    assert not bad.ok and bad.summary is None
    assert bad.problem is not None and "truncated" in bad.problem
    assert broken.read_bytes() == before


def test_list_saves_missing_folder_and_no_summary(tmp_path: Path) -> None:
    assert list_saves(tmp_path / "nope") == []
    write_save(tmp_path, "plain", {"turn": 1, "summary": "not a dict"})
    [info] = list_saves(tmp_path)
    assert info.ok and info.summary is None


def test_delete_save(folder: Path) -> None:
    write_save(folder, "gone", STATE)
    write_save(folder, "kept", STATE)
    delete_save(folder, "gone")
    assert [info.name for info in list_saves(folder)] == ["kept"]
    with pytest.raises(SaveError, match="does not exist"):
        delete_save(folder, "gone")
