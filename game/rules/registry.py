"""Rulesets by engine name. A ruleset file's `engine` key picks the class that plays it.

`skirmish` is the engine's own ruleset. The others are tabletop rules cores (game/rules) played on
the grid through their grid rulesets (game/core/combat), imported when first asked for.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from game.content.schema import RulesetSpec
from game.rules.skirmish import SkirmishRules

RULESETS: dict[str, str] = {
    "skirmish": "game.rules.skirmish:SkirmishRules",
    "eclipse2": "game.core.combat.eclipse:Eclipse2Grid",
    "eclipse1": "game.core.combat.eclipse:Eclipse1Grid",
    "opend6": "game.core.combat.opend6:OpenD6Grid",
    "d20": "game.core.combat.d20:D20Grid",
}


class UnknownRuleset(ValueError):
    pass


def ruleset_class(engine: str) -> type | None:
    where = RULESETS.get(engine)
    if where is None:
        return None
    module, name = where.split(":")
    try:
        return getattr(import_module(module), name)
    except (ImportError, AttributeError):
        return None


def params_model(engine: str) -> type | None:
    """The model a ruleset file's `params` must satisfy, or None for an engine not played yet."""
    cls = ruleset_class(engine)
    return getattr(cls, "Params", None) if cls else None


def find_ruleset(spec: RulesetSpec) -> Any:
    cls = ruleset_class(spec.engine)
    if cls is None:
        known = ", ".join(sorted(e for e in RULESETS if ruleset_class(e)))
        raise UnknownRuleset(f"ruleset {spec.id!r} names engine {spec.engine!r}; known engines: {known}")
    return cls(spec)


__all__ = ["RULESETS", "SkirmishRules", "UnknownRuleset", "find_ruleset", "params_model", "ruleset_class"]
