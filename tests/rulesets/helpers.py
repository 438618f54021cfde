"""Helpers for the tests of rulesets written outside game/."""

from __future__ import annotations

from game.content.loader import Library
from game.content.schema import BattleSetup

SCENARIO = "alley"          # a bundled scenario, written for skirmish


def under(setup: BattleSetup, library: Library, ruleset: str) -> BattleSetup:
    """`setup` played under another ruleset of `library`, its content otherwise untouched.

    `load_setup(scenario, library, ruleset=...)` is the way to do this, but it refuses any
    engine other than skirmish whose units and weapons have no `rules: {engine: ...}` block
    (see the xfail tests in test_coin.py). A BattleSetup holds its whole content, so the
    ruleset file is swapped in here instead.
    """
    spec = library.rulesets[ruleset]
    scenario = setup.scenario.model_copy(update={"ruleset": spec.id})
    return setup.model_copy(update={"ruleset": spec, "scenario": scenario})
