"""`skirmish resolve FILE`: read a resolve file, pick its ruleset and action (an attack by
default), roll or compute the odds.

Bad files never raise: every problem comes back as `file:line:column: key: message`, the way
`skirmish validate` reports content, with exit code 2.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from types import UnionType
from typing import Annotated, Any, Protocol, Union, get_args, get_origin

from pydantic import BaseModel, Tag, ValidationError

from game.content.loader import ContentError, Library, load_library
from game.content.problems import Problem, from_validation, suggest, unique
from game.content.yaml_marks import Document, read_document
from game.rulesets import RULESETS
from game.resolve.inputs import Action, Header, Invalid, Invalids, unknown
from game.resolve.report import Report
from game.resolve.rolls import NamedRolls, RollError


class Side(Protocol):
    """What each ruleset's side of the calculator provides (skirmish_side, eclipse_side...): an
    attack's model, resolve and odds, and optionally `actions() -> {name: Action}` for what else
    it resolves (`action:` in a file)."""

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
        problems = unique(failed.problems)
        count = len(problems)
        head = f"{count} problem{'s' if count != 1 else ''} in {path}:"
        return 2, "\n".join([head, *(f"  {problem}" for problem in problems)])
    except (ArithmeticError, LookupError, TypeError, ValueError) as error:   # a last resort
        return 2, f"{path}: cannot resolve this: {error}"
    return 0, report.json() if as_json else report.text()


class _Failed(Exception):
    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems


def actions_of(side: Any) -> dict[str, Action]:
    """What a ruleset's side resolves: an attack, and whatever more it offers."""
    found = {"attack": Action(side.Model, side.resolve, side.odds)}
    more = getattr(side, "actions", None)
    if more is not None:
        found.update(more())
    return found


def _run(path: Path, odds: bool) -> Report:
    doc, problems = read_document(path)
    if doc is None or problems:
        raise _Failed(problems)
    if not isinstance(doc.data, dict):
        raise _Failed([Problem(doc.file, 1, 1, "", "expected a mapping with ruleset, attacker, "
                               "defender and weapon (see docs/RESOLVE.md)")])
    library = _library()
    ruleset, action = _chosen(doc, library)
    side = _side(ruleset.engine)
    rules = side.rules_for(ruleset)
    data = _validate(action.Model, doc.data, doc, {"library": library, "rules": rules})
    seed = data.seed if data.seed is not None else random.SystemRandom().randrange(2**31)
    rolls = NamedRolls(data.fixed_rolls(), seed)
    try:
        report = action.odds(rules, data, library) if odds else action.resolve(rules, data, rolls, library)
    except RollError as error:
        raise _Failed([_at(doc, ("rolls", error.name), str(error))]) from None
    except Invalids as error:
        raise _Failed([_at(doc, found.loc, str(found)) for found in error.found]) from None
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
    report.result = {"ruleset": ruleset.id, "action": data.action, **report.result}
    return report


def _chosen(doc: Document, library: Library) -> tuple[Any, Action]:
    """The ruleset and the action the file names; if either cannot be used, every problem of
    the file's shared keys (the rest cannot be checked without them)."""
    data = doc.data
    problems: list[Problem] = []
    try:
        Header.model_validate(_only(data, Header))
    except ValidationError as error:
        problems += _problems(error, Header, _only(data, Header), doc)
    name = data.get("ruleset")
    ruleset = library.rulesets.get(name) if isinstance(name, str) else None
    playable = {r: s for r, s in library.rulesets.items() if _side(s.engine) is not None}
    if ruleset is None or _side(ruleset.engine) is None:
        if "ruleset" in data and not any(p.key == "ruleset" for p in problems):
            problems.append(_at(doc, ("ruleset",), unknown("ruleset", name, playable)))
        raise _Failed(problems)
    actions = actions_of(_side(ruleset.engine))
    action = data.get("action", "attack")
    if not isinstance(action, str) or action not in actions:
        if not any(p.key == "action" for p in problems):
            problems.append(_at(doc, ("action",), unknown(f"action under {ruleset.id}", action, actions)))
        raise _Failed(problems)
    return ruleset, actions[action]


def _only(data: dict[str, Any], model: type[BaseModel]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k in model.model_fields}


def _validate(model: type[BaseModel], data: Any, doc: Document, context: dict[str, Any]) -> Any:
    try:
        return model.model_validate(data, context=context)
    except ValidationError as error:
        raise _Failed(_problems(error, model, data, doc)) from None


def _problems(error: ValidationError, model: type[BaseModel], data: Any, doc: Document) -> list[Problem]:
    """Every error of the validation; an unknown key's "did you mean" names only the keys
    valid at its place (a misspelt `durabilty` under `defender` is compared with the
    defender's keys, not with every key of the file)."""
    problems = from_validation(error, data, doc.file, doc.marks, fields=_keys(model))
    out = []
    for item, problem in zip(error.errors(include_url=False), problems, strict=True):
        if item["type"] == "extra_forbidden":
            key = item["loc"][-1]
            message = f"unknown key {key!r}" + suggest(key, keys_at(model, tuple(item["loc"][:-1])))
            problem = replace(problem, message=message)
        out.append(problem)
    return out


def _keys(model: type[BaseModel]) -> set[str]:
    """Every key of the model and the models inside it."""
    names: set[str] = set()
    seen: set[type[BaseModel]] = set()

    def walk(tp: Any) -> None:
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            if tp in seen:
                return
            seen.add(tp)
            for name, info in tp.model_fields.items():
                names.add(name)
                walk(info.annotation)
        for arg in get_args(tp):
            walk(arg)

    walk(model)
    return names


def keys_at(model: type[BaseModel], loc: tuple[Any, ...]) -> set[str]:
    """The keys valid at `loc` (a pydantic error's location, union tags included) of `model`."""
    tp: Any = model
    for part in loc:
        tp = _step(tp, part)
        if tp is None:
            return set()
    tp = _one_model(tp)
    return set(tp.model_fields) if tp is not None else set()


def _members(tp: Any) -> list[tuple[Any, str | None]]:
    """The alternatives of a union (each with its tag), or [tp] for anything else."""
    if get_origin(tp) is Annotated:
        args = get_args(tp)
        tag = next((m.tag for m in args[1:] if isinstance(m, Tag)), None)
        inner = _members(args[0])
        return [(t, tag or own) for t, own in inner] if len(inner) == 1 else inner
    if get_origin(tp) in (Union, UnionType):
        return [m for arg in get_args(tp) if arg is not type(None) for m in _members(arg)]
    return [(tp, None)]


def _step(tp: Any, part: Any) -> Any:
    members = _members(tp)
    for member, tag in members:
        name = getattr(member, "__name__", None)
        if part in (tag, name) and len(members) > 1:
            return member
    for member, _ in members:
        if isinstance(member, type) and issubclass(member, BaseModel):
            if isinstance(part, str) and part in member.model_fields:
                return member.model_fields[part].annotation
            continue
        origin, args = get_origin(member), get_args(member)
        if origin is dict and len(args) == 2:
            return args[1]
        if origin is list and args:
            return args[0]
    return None


def _one_model(tp: Any) -> type[BaseModel] | None:
    for member, _ in _members(tp):
        if isinstance(member, type) and issubclass(member, BaseModel):
            return member
    return None


def _at(doc: Document, loc: tuple[Any, ...], message: str) -> Problem:
    from game.content.problems import format_key

    line, column = doc.marks.locate(loc)
    return Problem(doc.file, line, column, format_key(loc), message)


def _library() -> Library:
    try:
        return load_library()
    except ContentError as error:
        raise _Failed(error.problems) from None
