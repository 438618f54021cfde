"""Bundled scenarios played one unit at a time, for tests of what a unit does in its own turn
(the bundled skirmish ruleset plays by simultaneous orders)."""

from __future__ import annotations

from game.content.loader import with_options, with_turns
from game.content.schema import BattleSetup, RulesetSpec


def sequential(setup: BattleSetup) -> BattleSetup:
    """`setup` with its units acting one at a time, if its ruleset has the choice."""
    return with_turns(setup, "sequential") if "turns" in setup.ruleset.params else setup


def sequential_rules(spec: RulesetSpec) -> RulesetSpec:
    """A skirmish ruleset file with its units acting one at a time."""
    return with_options(spec, {"turns": "sequential"})
