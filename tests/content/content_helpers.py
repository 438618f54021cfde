"""Plain helpers shared by the content tests (fixtures live in conftest.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from game.content.loader import Problem, validate_paths

Write = Callable[[str, str], Path]


def problems_in(path: Path) -> list[Problem]:
    """The problems validate_paths finds in the file's folder, limited to that file."""
    return [problem for problem in validate_paths([path.parent]) if problem.file == str(path)]


def only(problems: list[Problem], key: str) -> Problem:
    """The single problem at `key`."""
    found = [problem for problem in problems if problem.key == key]
    assert len(found) == 1, f"expected one problem at {key!r}, got: {[str(p) for p in problems]}"
    return found[0]
