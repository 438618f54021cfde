"""Whatever a file or an argument holds, `sim`, `resolve` and `validate` print no raw control
character: a terminal would obey it (set the window title, clear the screen, hide text)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from game.cli import main

RAW = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
HOSTILE = "\x1b]0;PWNED\x07\x1b[2J\x1b[8m\x00"


def printed(capsys) -> str:
    captured = capsys.readouterr()
    return captured.out + captured.err


def test_validate_escapes_a_hostile_file_name(tmp_path: Path, capsys) -> None:
    path = tmp_path / f"units{HOSTILE.replace(chr(0), '')}.yaml"
    path.write_text("units:\n  - id: grunt\n    nme: Grunt\n")
    assert main(["validate", str(path)]) == 1
    out = printed(capsys)
    assert "unknown key 'nme'" in out and "\\x1b]0;PWNED\\x07" in out
    assert not RAW.search(out)


@pytest.mark.skipif(os.name != "posix", reason="file names of any bytes are POSIX")
def test_validate_prints_a_file_name_that_is_not_utf8(tmp_path: Path, capsys) -> None:
    path = Path(os.fsdecode(bytes(tmp_path) + b"/bad\xff\x1b.yaml"))
    path.write_text("units: []\n")
    main(["validate", str(path)])
    out = printed(capsys)
    assert "bad\\xff\\x1b.yaml" in out and not RAW.search(out)


def test_sim_escapes_a_hostile_scenario_argument(capsys) -> None:
    assert main(["sim", HOSTILE]) == 2
    out = printed(capsys)
    assert "no scenario with this id" in out and not RAW.search(out)


def test_resolve_escapes_what_its_file_holds(tmp_path: Path, capsys) -> None:
    path = tmp_path / "r.yaml"
    path.write_text('ruleset: skirmish\nattacker: {unit: "\\e]0;PWNED\\a"}\n'
                    "defender: {unit: olea_trooper}\nweapon: es63_custom\n")
    assert main(["resolve", "--odds", str(path)]) == 2
    out = printed(capsys)
    assert "PWNED" in out and not RAW.search(out)


def test_sim_prints_hostile_free_names_as_they_are(tmp_path: Path, capsys) -> None:
    path = tmp_path / "s.yaml"
    path.write_text("id: brackets\nname: '[/] [b]Brackets'\nmap: alley\nsides:\n"
                    "  - {id: a, name: '[/red]', zone: alpha, members: [{unit: olea_trooper}]}\n"
                    "  - {id: b, name: B, zone: bravo, members: [{unit: olea_trooper}]}\n")
    assert main(["sim", str(path), "--seed", "1"]) == 0
    out = printed(capsys)
    assert "Winner:" in out and not RAW.search(out)


def test_a_resolve_title_with_control_characters_is_refused_where_written(
    tmp_path: Path, capsys
) -> None:
    path = tmp_path / "r.yaml"
    path.write_text('ruleset: skirmish\ntitle: "a\\e[2Jb"\nattacker: {unit: hollis}\n'
                    "defender: {unit: olea_trooper}\nweapon: es63_custom\n")
    assert main(["resolve", "--odds", str(path)]) == 2
    out = printed(capsys)
    assert f"{path}:2:9: title: a description may not hold control characters" in out
