"""A computer player planning its side's orders leaves the battle exactly as it was."""

from __future__ import annotations

import pytest

from game.ai import make_player
from game.content.loader import load_setup, with_turns
from game.core.commands import GiveOrders
from game.rulesets import load_battle, new_battle


def simultaneous(scenario: str):
    return with_turns(load_setup(scenario), "simultaneous")


@pytest.mark.parametrize("level", ["simple", "easy", "hard"])
def test_planning_changes_nothing_and_a_save_of_the_battle_still_loads(level):
    with new_battle(simultaneous("alley"), 4) as battle:
        s = battle.session
        players = {side: make_player(level, side, 4) for side in s.sides}
        for _ in range(60):                  # a few rounds: planning, then carrying out
            if s.over:
                break
            side = s.acting_side
            before = battle.digest()
            command = players[side].next_command(battle)
            if s.planning:
                assert isinstance(command, GiveOrders) and command.side == side
            assert battle.digest() == before
            result = battle.submit(command)
            assert result, getattr(result, "reason", "")
        with load_battle(battle.state()) as again:
            assert again.digest() == battle.digest()
