"""Rulesets by engine name. A ruleset file's `engine` key picks the class that plays it."""

from __future__ import annotations

from game.content.schema import RulesetSpec
from game.rules.skirmish import SkirmishRules

RULESETS: dict[str, type] = {"skirmish": SkirmishRules}


class UnknownRuleset(ValueError):
    pass


def find_ruleset(spec: RulesetSpec) -> SkirmishRules:
    try:
        cls = RULESETS[spec.engine]
    except KeyError:
        known = ", ".join(sorted(RULESETS))
        raise UnknownRuleset(f"ruleset {spec.id!r} names engine {spec.engine!r}; known engines: {known}") from None
    return cls(spec)
