"""Reading one YAML file safely, keeping where each value was written.

Safe loading only (libyaml's CSafeLoader when present). Before anything is built the file's
size is capped and its events are screened: anchors and aliases are refused, and so is deep
nesting. The node tree is then turned into plain Python values by hand, which lets us record
the line and column of every key and value, refuse duplicate keys, and keep mapping keys as
the text the author wrote (`=` or `~` as a legend glyph stays a string).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from game.content.problems import Loc, Problem, format_key
from game.files import NotRegularFile, read_regular
from game.content.text import first_control, printable

MAX_FILE_BYTES = 1024 * 1024
MAX_DEPTH = 40
MAX_CONTROL_PROBLEMS = 10
_LINE_BREAKS = "\t\n\r\x85"
Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_SCALAR_TAGS = {f"tag:yaml.org,2002:{name}" for name in ("str", "int", "float", "bool", "null")}
_QUOTED = ("'", '"')


@dataclass
class MarkIndex:
    """Where each value of a document was written: 1-based (line, column) by key path."""

    keys: dict[Loc, tuple[int, int]] = field(default_factory=dict)
    values: dict[Loc, tuple[int, int]] = field(default_factory=dict)
    blocks: dict[Loc, tuple[int, int]] = field(default_factory=dict)

    def locate(self, loc: Loc, *, key: bool = False, offset: int = 0) -> tuple[int, int]:
        """The mark of `loc`'s key (or value); the nearest enclosing node if it is not there.

        `offset` moves along a one-line value (a map row) by that many characters. A row of a
        `rows: |` block is found by its line within the block.
        """
        loc = tuple(loc)
        if key and loc in self.keys:
            return self.keys[loc]
        if loc in self.values:
            line, column = self.values[loc]
            return line, column + offset
        if loc and isinstance(loc[-1], int) and loc[:-1] in self.blocks:
            line, column = self.blocks[loc[:-1]]
            return line + loc[-1], column + offset
        return self.locate(loc[:-1]) if loc else (1, 1)


@dataclass
class Document:
    """One parsed file: its plain data and where each part of it was written."""

    path: Path
    file: str
    data: Any
    marks: MarkIndex


class _Refused(Exception):
    def __init__(self, problem: Problem) -> None:
        self.problem = problem


def _read_text(path: Path, file: str) -> str:
    try:
        raw = read_regular(path, MAX_FILE_BYTES + 1)
    except NotRegularFile as error:
        raise _Refused(Problem(file, None, None, "", f"cannot read: {error}")) from error
    except OSError as error:
        raise _Refused(Problem(file, None, None, "", f"cannot read: {error.strerror or error}")) from error
    if len(raw) > MAX_FILE_BYTES:
        try:
            size = path.stat().st_size
        except OSError:
            size = len(raw)
        raise _Refused(Problem(file, None, None, "", _too_big(max(size, len(raw)))))
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise _Refused(Problem(file, line, None, "", "not UTF-8 text")) from error


def _control_characters(text: str, file: str) -> list[Problem]:
    """Raw control characters (ESC, NUL ...) refused at their line and column, before YAML
    reads the file (its own error gives only a character position)."""
    if first_control(text, allowed=_LINE_BREAKS) is None:
        return []
    problems: list[Problem] = []
    for number, line in enumerate(text.split("\n"), start=1):
        index = first_control(line, allowed=_LINE_BREAKS)
        if index is None:
            continue
        char = printable(line[index])
        message = f"control character {char} is not allowed in a content file"
        problems.append(Problem(file, number, index + 1, "", message))
        if len(problems) >= MAX_CONTROL_PROBLEMS:
            break
    return problems


def _too_big(size: int) -> str:
    return f"file is {size} bytes; content files are limited to {MAX_FILE_BYTES} bytes (1 MiB)"


def _at(mark: Any) -> tuple[int, int]:
    return mark.line + 1, mark.column + 1


def _syntax_problem(error: yaml.YAMLError, file: str) -> Problem:
    if not isinstance(error, yaml.MarkedYAMLError):
        return Problem(file, None, None, "", f"YAML syntax error: {error}")
    mark = error.problem_mark or error.context_mark
    line, column = _at(mark) if mark else (None, None)
    message = error.problem or "invalid YAML"
    if error.context:
        message = f"{message} ({error.context})"
    return Problem(file, line, column, "", f"YAML syntax error: {message}")


def _screen(text: str, file: str) -> list[Problem]:
    """Refuse anchors, aliases, explicit tags and deep nesting before any node is built."""
    problems, depth = [], 0
    for event in yaml.parse(text, Loader=Loader):
        line, column = _at(event.start_mark)
        if isinstance(event, yaml.AliasEvent):
            message = f"aliases (*{event.anchor}) are not allowed in content files: write it out"
            problems.append(Problem(file, line, column, "", message))
        elif getattr(event, "anchor", None):
            message = f"anchors (&{event.anchor}) are not allowed in content files"
            problems.append(Problem(file, line, column, "", message))
        if getattr(event, "tag", None) is not None:
            message = f"tags ({event.tag}) are not allowed in content files: use quotes instead"
            problems.append(Problem(file, line, column, "", message))
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                message = f"nested more than {MAX_DEPTH} levels deep"
                return [*problems, Problem(file, line, column, "", message)]
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1
    return problems


class _Builder:
    """Turns a composed node tree into plain values, recording marks on the way."""

    def __init__(self, file: str, lines: list[str]) -> None:
        self.file = file
        self.lines = lines
        self.marks = MarkIndex()
        self.problems: list[Problem] = []
        self.constructor = yaml.constructor.SafeConstructor()

    def build(self, node: yaml.Node, loc: Loc) -> Any:
        self.marks.values[loc] = _at(node.start_mark)
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, loc)
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, loc + (index,)) for index, item in enumerate(node.value)]
        return self._scalar(node, loc)

    def _scalar(self, node: yaml.ScalarNode, loc: Loc) -> Any:
        line, column = _at(node.start_mark)
        if node.style in _QUOTED:
            self.marks.values[loc] = (line, column + 1)
        elif node.style in ("|", ">"):
            first = node.start_mark.line + 1
            text = self.lines[first] if first < len(self.lines) else ""
            self.marks.blocks[loc] = (first + 1, len(text) - len(text.lstrip(" ")) + 1)
        if node.tag in _SCALAR_TAGS:
            return self.constructor.construct_object(node)
        self._problem(loc, line, column, f"cannot read {node.value!r} here: put it in quotes")
        return node.value

    def _mapping(self, node: yaml.MappingNode, loc: Loc) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            line, column = _at(key_node.start_mark)
            if not isinstance(key_node, yaml.ScalarNode):
                self._problem(loc, line, column, "a key must be plain text, not a list or mapping")
                continue
            key = key_node.value
            if key in result:
                first = self.marks.keys[loc + (key,)][0]
                message = f"key {key!r} repeats (first at line {first})"
                self._problem(loc + (key,), line, column, message)
                continue
            self.marks.keys[loc + (key,)] = (line, column)
            result[key] = self.build(value_node, loc + (key,))
        return result

    def _problem(self, loc: Loc, line: int, column: int, message: str) -> None:
        self.problems.append(Problem(self.file, line, column, format_key(loc), message))


def read_document(path: Path, file: str | None = None) -> tuple[Document | None, list[Problem]]:
    """Parse one file: the document (None if it could not be read) and the problems found.

    Repeated keys and unreadable values are reported but do not stop the document: the first
    of a repeated key is kept and an unreadable value is kept as its text, so the rest of the
    file is still checked.
    """
    file = str(path) if file is None else file
    try:
        text = _read_text(path, file)
        problems = _control_characters(text, file) or _screen(text, file)
        if problems:
            return None, problems
        loader = Loader(text)
        try:
            node = loader.get_single_node()
        finally:
            loader.dispose()
    except _Refused as refused:
        return None, [refused.problem]
    except yaml.YAMLError as error:
        return None, [_syntax_problem(error, file)]
    if node is None:
        return None, [Problem(file, None, None, "", "file is empty")]
    builder = _Builder(file, text.splitlines())
    data = builder.build(node, ())
    return Document(path, file, data, builder.marks), builder.problems
