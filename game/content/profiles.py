"""The `rules: {engine: ...}` blocks of weapons, armor and units: the numbers of an item under a
ruleset other than skirmish. A block is keyed by the engine of a known ruleset and checked
against the model that engine's ruleset gives (game.rulesets.profile_model, defined in
game/rulesets/<name>/profiles.py); its problems are located like every other content problem.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from game.content.library import Library
from game.content.problems import Problem, format_key, from_validation, suggest
from game.rulesets import RULESETS, needs_profiles, profile_model


def _engines(library: Library) -> set[str]:
    return {spec.engine for spec in library.rulesets.values()}


def block_of(library: Library, kind: str, ident: str, engine: str) -> tuple[Any, list[Problem]]:
    """The item's `rules[engine]` block read through the engine's model, or None with the
    problems found (none when it has no block, or no ruleset plays `engine`)."""
    spec, origin = library.table(kind)[ident], library.origins[(kind, ident)]
    raw, model = spec.rules.get(engine), profile_model(engine, kind)
    if raw is None or model is None:
        return None, []
    try:
        return model.model_validate(raw), []
    except ValidationError as error:
        prefix = origin.loc + ("rules", engine)
        marks = library.marks.get(origin.file)
        if marks is None:
            return None, [Problem(origin.file, None, None, format_key(prefix), str(error))]
        return None, from_validation(error, raw, origin.file, marks, prefix,
                                     fields=set(model.model_fields))


def check_rules_keys(library: Library, kind: str, ident: str) -> list[Problem]:
    """A `rules:` block is keyed by the engine of a known ruleset, never by skirmish, and has
    the fields that engine's ruleset reads."""
    spec, origin = library.table(kind)[ident], library.origins[(kind, ident)]
    engines = {engine for engine in _engines(library) if needs_profiles(engine)}
    problems = []
    for engine in spec.rules:
        if not needs_profiles(engine):
            message = (f"{engine} stats are the item's own keys (attributes, skills, damage, "
                       f"resist ...): remove rules: {{{engine}: ...}}")
        elif engine in engines:
            block, found = block_of(library, kind, ident, engine)
            problems += found
            if block is not None:
                for key, message in RULESETS[engine].content_problems(kind, spec, block):
                    problems.append(library.problem(origin, ("rules", engine, *key), message))
            continue
        else:
            message = (f"rules are keyed by a ruleset's engine; no ruleset has engine {engine!r}"
                       + suggest(engine, engines) + f" (engines: {', '.join(sorted(engines))})")
        problems.append(library.problem(origin, ("rules", engine), message, key=True))
    return problems
