"""`skirmish resolve FILE`: read a resolve file, pick its ruleset, roll or compute the odds.

Bad files never raise: every problem comes back as `file:line:column: key: message`, the way
`skirmish validate` reports content, with exit code 2.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel, ValidationError

from game.content.loader import ContentError, Library, load_library
from game.content.problems import Problem, from_validation, suggest
from game.content.yaml_marks import Document, read_document
from game.rulesets import RULESETS
from game.resolve.inputs import Header, Invalid
from game.resolve.report import Report
from game.resolve.rolls import NamedRolls, RollError


class Side(Protocol):
    """What each ruleset's side of the calculator provides (skirmish_side, eclipse_side...)."""

    Model: type[BaseModel]

    def rules_for(self, spec: Any) -> Any: ...

    def resolve(self, ruleset: Any, data: Any, rolls: NamedRolls, library: Library) -> Report: ...

    def odds(self, ruleset: Any, data: Any, library: Library) -> Report: ...


def _side(engine: str) -> Any:
    """The calculator side of the ruleset that plays `engine`, or None."""
    cls = RULESETS.get(engine)
    return cls.calculator if cls is not None else None


def main_resolve(path: str, *, as_json: bool, odds: bool) -> tuple[int, str]:
    """(exit code, text to print): 0 and the breakdown, or 2 and every problem found."""
    try:
        report = _run(Path(path), odds)
    except _Failed as failed:
        count = len(failed.problems)
        head = f"{count} problem{'s' if count != 1 else ''} in {path}:"
        return 2, "\n".join([head, *(f"  {problem}" for problem in failed.problems)])
    except (ArithmeticError, LookupError, TypeError, ValueError) as error:   # a last resort
        return 2, f"{path}: cannot resolve this attack: {error}"
    return 0, report.json() if as_json else report.text()


class _Failed(Exception):
    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems


def _run(path: Path, odds: bool) -> Report:
    doc, problems = read_document(path)
    if doc is None or problems:
        raise _Failed(problems)
    if not isinstance(doc.data, dict):
        raise _Failed([Problem(doc.file, 1, 1, "", "expected a mapping with ruleset, attacker, "
                               "defender and weapon (see docs/RESOLVE.md)")])
    header = _validate(Header, _only(doc.data, Header), doc)
    library = _library()
    ruleset = library.rulesets.get(header.ruleset)
    if ruleset is None or _side(ruleset.engine) is None:
        known = ", ".join(sorted(r for r, s in library.rulesets.items() if _side(s.engine) is not None))
        raise _Failed([_at(doc, ("ruleset",), f"unknown ruleset {header.ruleset!r}; known: {known}")])
    side = _side(ruleset.engine)
    data = _validate(side.Model, doc.data, doc)
    seed = header.seed if header.seed is not None else random.SystemRandom().randrange(2**31)
    rolls = NamedRolls(header.fixed_rolls(), seed)
    try:
        rules = side.rules_for(ruleset)
        report = side.odds(rules, data, library) if odds else side.resolve(rules, data, rolls, library)
    except RollError as error:
        raise _Failed([_at(doc, ("rolls", error.name), str(error))]) from None
    except Invalid as error:
        raise _Failed([_at(doc, error.loc, str(error))]) from None
    except ValueError as error:
        raise _Failed([_at(doc, ("situation",), str(error))]) from None
    if not odds:
        report.result.update(seed=seed, rolls=rolls.by_name())
        report.title += f"  [{ruleset.id}, seed {seed}]"
        left = rolls.unused()
        if left:
            report.step("Note: fixed rolls not used: " + ", ".join(f"{k} {v}" for k, v in left.items()))
    else:
        report.title += f"  [{ruleset.id}, exact odds]"
    report.result = {"ruleset": ruleset.id, **report.result}
    return report


def _only(data: dict[str, Any], model: type[BaseModel]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k in model.model_fields}


def _validate(model: type[BaseModel], data: Any, doc: Document) -> Any:
    try:
        return model.model_validate(data)
    except ValidationError as error:
        problems = from_validation(error, data, doc.file, doc.marks)
        raise _Failed([_suggested(p, model) for p in problems]) from None


def _suggested(problem: Problem, model: type[BaseModel]) -> Problem:
    """An unknown key gets a 'did you mean' from the resolve file's own keys."""
    if not problem.message.startswith("unknown key") or "did you mean" in problem.message:
        return problem
    key = problem.message.split("'")[1] if "'" in problem.message else ""
    hint = suggest(key, _keys(model))
    return replace(problem, message=problem.message + hint) if hint else problem


def _keys(model: type[BaseModel]) -> set[str]:
    names: set[str] = set()
    for name, info in model.model_fields.items():
        names.add(name)
        for arg in getattr(info.annotation, "__args__", ()) or (info.annotation,):
            if isinstance(arg, type) and issubclass(arg, BaseModel):
                names |= _keys(arg)
    return names


def _at(doc: Document, loc: tuple[Any, ...], message: str) -> Problem:
    from game.content.problems import format_key

    line, column = doc.marks.locate(loc)
    return Problem(doc.file, line, column, format_key(loc), message)


def _library() -> Library:
    try:
        return load_library()
    except ContentError as error:
        raise _Failed(error.problems) from None
