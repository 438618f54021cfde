"""Battles played by computer players, kept as the save's state, for the replay's tests."""

from __future__ import annotations

from game.ai import make_player
from game.content.loader import load_setup
from game.core.events import Event, Refused
from game.rulesets import new_battle


def played(scenario: str, seed: int, level: str = "simple", *, ruleset: str | None = None,
           commands: int | None = None) -> tuple[dict, list[list[Event]]]:
    """Play `scenario` to its end (or for `commands` commands): its `Battle.state()` and the
    events of each step as the battle gave them (the opening first)."""
    setup = load_setup(scenario, ruleset=ruleset)
    players = {side.id: make_player(level, side.id, seed) for side in setup.scenario.sides}
    with new_battle(setup, seed) as battle:
        steps = [list(battle.opening)]
        session = battle.session
        while not session.over and (commands is None or len(battle.commands) < commands):
            result = battle.submit(players[session.acting_side].next_command(battle))
            assert not isinstance(result, Refused), result.reason
            steps.append(result)
        return battle.state(), steps
