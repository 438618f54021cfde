"""Rulesets by engine name. A ruleset file's `engine` key picks the class that plays it."""

from __future__ import annotations

from game.content.schema import RulesetSpec
from game.rules.skirmish import SkirmishRules

RULESETS: dict[str, type] = {"skirmish": SkirmishRules}


class UnknownRuleset(ValueError):
    pass


def params_model(engine: str) -> type | None:
    """The model a ruleset file's `params` must satisfy, or None for an engine not played yet."""
    cls = RULESETS.get(engine)
    return getattr(cls, "Params", None) if cls else None


def find_ruleset(spec: RulesetSpec) -> SkirmishRules:
    try:
        cls = RULESETS[spec.engine]
    except KeyError:
        known = ", ".join(sorted(RULESETS))
        raise UnknownRuleset(f"ruleset {spec.id!r} names engine {spec.engine!r}; known engines: {known}") from None
    return cls(spec)
