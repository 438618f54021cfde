"""Names are one line of visible text: control characters and huge names are refused at their
file, line and column, by `validate` and by every loader."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.content.content_helpers import Write, only, problems_in

from game.content.loader import ContentError, load_setup
from game.content.text import NAME_MAX, printable

UNIT = """
units:
  - id: grunt
    name: {name}
    ap: 14
    hp: 20
"""


@pytest.mark.parametrize("written, shown", [
    ('"\\e]0;PWNED\\a"', "\\x1b at character 1"),     # sets the terminal's window title
    ('"\\e[2J"', "\\x1b at character 1"),             # clears the screen
    ('"Gr\\x00unt"', "\\x00 at character 3"),
    ('"A\\u202eB"', "\\u202e at character 2"),        # reverses the rest of the line
    ('"two\\nlines"', "\\x0a at character 4"),
])
def test_control_characters_in_a_name_are_refused_where_written(
    write: Write, written: str, shown: str
) -> None:
    path = write("u.yaml", UNIT.format(name=written))
    problem = only(problems_in(path), "units[0].name")
    assert (problem.line, problem.column) == (3, 12)   # inside the quotes
    assert shown in problem.message
    assert printable(str(problem)) == str(problem)


def test_a_huge_name_is_refused(write: Write) -> None:
    path = write("u.yaml", UNIT.format(name="x" * 900_000))
    problem = only(problems_in(path), "units[0].name")
    assert problem.message == f"a name is at most {NAME_MAX} characters (this one has 900000)"
    assert len(str(problem)) < 200


def test_a_blank_name_is_refused(write: Write) -> None:
    path = write("u.yaml", UNIT.format(name='"   "'))
    assert "visible character" in only(problems_in(path), "units[0].name").message


def test_markup_and_any_script_are_names_like_any_other(write: Write) -> None:
    path = write("u.yaml", UNIT.format(name='"[/red] [b]Zoë 张伟 🙂"'))
    assert problems_in(path) == []


def test_a_glyph_may_not_be_a_control_character(write: Write) -> None:
    path = write("t.yaml", """
        terrain:
          - {id: void, name: Void, glyph: "\\e"}
    """)
    assert "control character" in only(problems_in(path), "terrain[0].glyph").message


def test_descriptions_keep_line_breaks_but_not_escapes(write: Write) -> None:
    text = 'id: m\nname: M\ndescription: "{}"\nrows: ["..", ".."]\n'
    fine = write("fine/m.yaml", text.format("one\\ntwo\\tthree"))
    assert problems_in(fine) == []
    bad = write("bad/m.yaml", text.format("one\\e[8mhidden"))
    assert "\\x1b at character 4" in only(problems_in(bad), "description").message


@pytest.mark.parametrize("raw, column", [(b"\x00", 13), (b"\x1b", 13), (b"\x9b", 13)])
def test_a_raw_control_byte_is_reported_at_line_and_column(
    tmp_path: Path, raw: bytes, column: int
) -> None:
    path = tmp_path / "u.yaml"
    text = "units:\n  - id: grunt\n    name: Gr" + raw.decode("latin-1") + "unt\n"
    path.write_bytes(text.encode("utf-8"))
    problem = only(problems_in(path), "")
    assert (problem.line, problem.column) == (3, column)
    assert problem.message.startswith("control character \\x")


def test_loading_a_scenario_file_refuses_a_hostile_side_name(write: Write) -> None:
    path = write("s.yaml", """
        id: hostile
        name: Hostile
        map: alley
        sides:
          - {id: a, name: "\\e]0;PWNED\\a", zone: alpha, members: [{unit: olea_guard}]}
          - {id: b, name: B, zone: bravo, members: [{unit: olea_guard}]}
    """)
    with pytest.raises(ContentError) as caught:
        load_setup(str(path))
    assert any(p.key == "sides[0].name" and p.line == 5 for p in caught.value.problems)
