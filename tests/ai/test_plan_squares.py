"""A computer side's orders for a round send no two of its units to the same square: each unit
plans from the round's start, keeping off the squares its friends planned before it took."""

from __future__ import annotations

import pytest

from game.ai import make_player
from game.content.loader import load_setup
from game.core.commands import GiveOrders, Move
from game.core.orders import rehearse
from game.rulesets import new_battle


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_no_two_units_of_a_side_plan_to_end_on_one_square(level):
    with new_battle(load_setup("breakout_depot"), 3) as battle:
        s = battle.session
        players = {side: make_player(level, side, 3) for side in s.sides}
        planned = 0
        while not s.over and s.round <= 12:
            command = players[s.acting_side].next_command(battle)
            if isinstance(command, GiveOrders):
                ends = [rehearse(s, uid, queue)[-1].square for uid, queue in command.orders
                        if any(isinstance(order.command, Move) for order in queue)]
                assert len(ends) == len(set(ends)), (s.round, command)
                planned += len(ends) > 1
            assert battle.submit(command)
        assert planned >= 3            # rounds in which two or more of a side's units moved
