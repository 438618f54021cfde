"""Problems found in content files, and how a pydantic error becomes one a player can read.

A Problem names the file, the line and column of the YAML node at fault, the key path
(`units[2].skills.aim`) and a message. Loading collects every problem before giving up, so an
author fixes a file in one pass instead of one error per run.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

if TYPE_CHECKING:
    from game.content.yaml_marks import MarkIndex

Loc = tuple[Any, ...]
_PLAIN_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_PREFIXES = ("Value error, ", "Assertion failed, ")
IDENT_PATTERN = r"^[a-z][a-z0-9_]*$"
_SHOW_INPUT = ("literal_error", "string_pattern_mismatch", "string_too_long", "string_too_short")


@dataclass(frozen=True)
class Problem:
    """One thing wrong with one spot of one file."""

    file: str
    line: int | None
    column: int | None
    key: str
    message: str

    def __str__(self) -> str:
        where = self.file or "<content>"
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return ": ".join(part for part in (where, self.key, self.message) if part)


class ContentError(Exception):
    """Content could not be loaded; `problems` holds every reason found."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems: list[Problem] = unique(problems)
        super().__init__(self.problems)

    def __str__(self) -> str:
        count = len(self.problems)
        head = f"{count} problem{'s' if count != 1 else ''} in content:"
        return "\n".join([head, *(f"  {problem}" for problem in self.problems)])


def unique(problems: Iterable[Problem]) -> list[Problem]:
    """Each problem once (a map shared by two scenarios is checked twice), by file and line."""
    return sorted(dict.fromkeys(problems), key=lambda p: (p.file, p.line or 0, p.column or 0))


def format_key(loc: Sequence[Any]) -> str:
    """('units', 2, 'skills', 'aim') -> 'units[2].skills.aim'."""
    text = ""
    for part in loc:
        if isinstance(part, int) and not isinstance(part, bool):
            text += f"[{part}]"
        elif isinstance(part, str) and _PLAIN_KEY.match(part):
            text += f".{part}" if text else part
        else:
            text += f"[{str(part)!r}]"
    return text


def suggest(name: object, known: Iterable[str]) -> str:
    """' (did you mean 'x'?)' when a known name is close to `name`, else ''."""
    if not isinstance(name, str):
        return ""
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.7)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _field_names() -> set[str]:
    from game.content import schema

    names: set[str] = set()
    for value in vars(schema).values():
        if isinstance(value, type) and issubclass(value, BaseModel):
            names.update(value.model_fields)
    return names


def _data_path(loc: Loc, data: Any, error_type: str, fields: Collection[str]) -> tuple[Loc, int]:
    """The loc with pydantic's union tags dropped, and how many of its parts exist in `data`."""
    path: list[Any] = []
    node, found = data, 0
    for index, part in enumerate(loc):
        if part == "[key]":
            break
        exists = (isinstance(node, dict) and part in node) or (
            isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)
        )
        if exists and found == len(path):
            path.append(part)
            node, found = node[part], found + 1
        elif index == len(loc) - 1 and (error_type == "missing" or part in fields):
            path.append(part)  # an absent key: missing, or its default failed a check
    return tuple(path), found


def _message(error: Mapping[str, Any], path: Loc, fields: Collection[str]) -> str:
    kind, text = error["type"], error["msg"]
    if kind == "extra_forbidden":
        return f"unknown key {path[-1]!r}" + suggest(path[-1], fields)
    if kind == "missing":
        return f"missing required key {path[-1]!r}" if path else "missing required key"
    for prefix in _PREFIXES:
        text = text.removeprefix(prefix)
    if kind == "string_pattern_mismatch" and error.get("ctx", {}).get("pattern") == IDENT_PATTERN:
        text = "an id is lowercase letters, digits and _, starting with a letter"
    value = error.get("input")
    typed = kind.endswith(("_type", "_parsing")) or kind in _SHOW_INPUT
    if typed and isinstance(value, (str, int, float, bool)) and len(repr(value)) <= 40:
        text += f" (got {value!r})"
    return text


def from_validation(
    error: ValidationError, data: Any, file: str, marks: MarkIndex, prefix: Loc = (),
    *, fields: Collection[str] | None = None,
) -> list[Problem]:
    """Every error of a pydantic validation of `data` (found at `prefix` in the file).

    `fields`: the key names an unknown key is compared with (default: every content model's)."""
    known = _FIELDS if fields is None else fields
    problems = []
    for item in error.errors(include_url=False):
        loc = tuple(item["loc"])
        path, found = _data_path(loc, data, item["type"], known)
        at_key = item["type"] == "extra_forbidden" or "[key]" in loc
        line, column = marks.locate(prefix + path[:found], key=at_key and found == len(path))
        message = _message(item, path, known)
        problems.append(Problem(file, line, column, format_key(prefix + path), message))
    return problems


_FIELDS = _field_names()
