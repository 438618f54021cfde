"""Reading YAML: safe loading, aliases refused, size capped, every error placed on its line."""

from __future__ import annotations

from pathlib import Path

import yaml

from game.content import yaml_marks
from game.content.loader import MAX_FILE_BYTES, Problem
from game.content.yaml_marks import read_document
from tests.content.content_helpers import Write, problems_in


def test_uses_libyaml_safe_loader_when_available() -> None:
    if yaml.__with_libyaml__:
        assert yaml_marks.Loader is yaml.CSafeLoader
    else:
        assert yaml_marks.Loader is yaml.SafeLoader


def test_problem_reads_file_line_column_key_message() -> None:
    message = "Input should be a valid integer"
    problem = Problem("path/to/file.yaml", 12, 5, "units[2].skills.aim", message)
    assert str(problem) == f"path/to/file.yaml:12:5: units[2].skills.aim: {message}"
    assert str(Problem("a.yaml", None, None, "", "file is empty")) == "a.yaml: file is empty"


def test_marks_point_at_keys_and_values(write: Write) -> None:
    path = write("u.yaml", """
        units:
          - id: a
            skills: {aim: 3}
    """)
    doc, problems = read_document(path)
    assert doc is not None and problems == []
    assert doc.data == {"units": [{"id": "a", "skills": {"aim": 3}}]}
    assert doc.marks.locate(("units", 0, "skills", "aim")) == (3, 19)
    assert doc.marks.locate(("units", 0, "skills", "aim"), key=True) == (3, 14)
    assert doc.marks.locate(("units", 0, "missing")) == (2, 5)


def test_alias_and_anchor_refused_with_their_lines(write: Write) -> None:
    path = write("w.yaml", """
        weapons:
          - &knife
            id: knife
            name: Knife
            kind: melee
            damage: 1d4
            modes: [{name: strike, ap: 3}]
          - *knife
    """)
    problems = problems_in(path)
    assert [(p.line, p.column) for p in problems] == [(2, 5), (8, 5)]
    assert "anchors (&knife) are not allowed" in problems[0].message
    assert "aliases (*knife) are not allowed" in problems[1].message


def test_oversized_file_refused_before_parsing(write: Write) -> None:
    path = write("big.yaml", "units: [" + "x" * (MAX_FILE_BYTES + 10))  # not even valid YAML
    problems = problems_in(path)
    assert len(problems) == 1
    assert problems[0].line is None
    assert f"limited to {MAX_FILE_BYTES} bytes" in problems[0].message


def test_yaml_syntax_error_gives_its_line(write: Write) -> None:
    path = write("s.yaml", """
        units:
          - id: a
            name: [unclosed
          - id: b
    """)
    problems = problems_in(path)
    assert len(problems) == 1
    assert problems[0].message.startswith("YAML syntax error:")
    assert problems[0].line == 4


def test_tab_indentation_is_a_syntax_error_not_a_traceback(write: Write) -> None:
    path = write("t.yaml", "units:\n\t- id: a\n")
    problems = problems_in(path)
    assert len(problems) == 1 and problems[0].line == 2


def test_repeated_key_reported_and_rest_still_checked(write: Write) -> None:
    path = write("u.yaml", """
        units:
          - id: a
            name: A
            name: B
            ap: lots
            hp: 10
    """)
    problems = problems_in(path)
    assert [(p.line, p.key) for p in problems] == [(4, "units[0].name"), (5, "units[0].ap")]
    assert "repeats (first at line 3)" in problems[0].message


def test_empty_and_shapeless_files(write: Write) -> None:
    empty = write("empty.yaml", "# only a comment\n")
    assert [p.message for p in problems_in(empty)] == ["file is empty"]
    listed = write("list.yaml", "- a\n- b\n")
    assert "cannot tell what this file holds" in problems_in(listed)[0].message


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin.yaml"
    path.write_bytes(b"units:\n  - id: caf\xe9\n")
    problems = problems_in(path)
    assert [(p.line, p.message) for p in problems] == [(2, "not UTF-8 text")]


def test_deep_nesting_refused(write: Write) -> None:
    path = write("deep.yaml", "units: " + "[" * 200 + "]" * 200 + "\n")
    assert "nested more than" in problems_in(path)[0].message


def test_python_tags_are_refused(write: Write) -> None:
    path = write("evil.yaml", "units:\n  - !!python/object/apply:os.system ['true']\n")
    problems = problems_in(path)
    assert [(p.line, p.column) for p in problems] == [(2, 5)]
    tag = "tag:yaml.org,2002:python/object/apply:os.system"
    assert f"tags ({tag}) are not allowed" in problems[0].message


def test_glyph_keys_stay_text(write: Write) -> None:
    path = write("m.yaml", """
        legend:
          =: {terrain: low_cover}
          ~: {terrain: water}
          1: {terrain: open}
    """)
    doc, problems = read_document(path)
    assert problems == [] and doc is not None
    assert list(doc.data["legend"]) == ["=", "~", "1"]
