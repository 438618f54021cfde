"""Planning a round, a tactical unit that would hold with AP for a shot is ordered instead to
fire at the nearest enemy in sight when its turn comes, aimed as far as its AP pay for."""

from __future__ import annotations

import dataclasses

from game.ai import make_player
from game.content.loader import load_setup
from game.core import components as c
from game.core.commands import Attack, EndTurn, GiveOrders, Order
from game.core.orders import rehearse
from game.rulesets import new_battle


def plannings(battle, level: str, rounds: int):
    """Each side's orders, `level` against `level`, until round `rounds` is over; each is given
    once the test has looked at it."""
    s = battle.session
    players = {side: make_player(level, side, 2) for side in s.sides}
    while not s.over and s.round <= rounds:
        command = players[s.acting_side].next_command(battle)
        if isinstance(command, GiveOrders):
            yield command
        assert battle.submit(command)


def test_a_unit_with_nothing_to_do_is_ordered_to_fire_on_sight():
    with new_battle(load_setup("depot"), 2) as battle:      # simultaneous: skirmish's default
        s = battle.session
        checked = 0
        for command in plannings(battle, "hard", 6):
            for uid, queue in command.orders:
                last = queue[-1].command if queue else None
                if not (isinstance(last, Attack) and not last.target):
                    continue
                given = dict(command.orders)             # as checked: after friends before it
                assert not rehearse(s, uid, queue, given)[-1].problem
                weapon = s.weapons[s.get(uid, c.Loadout).current.weapon]
                if last.aim < weapon.aim_max:          # aimed as far as the AP pay for
                    more = Order(dataclasses.replace(last, aim=last.aim + 1), queue[-1].fallback)
                    assert rehearse(s, uid, [*queue[:-1], more], given)[-1].problem
                checked += 1
        assert checked >= 3


def test_one_unit_at_a_time_a_unit_holds_as_before():
    from tests.sequential import sequential
    with new_battle(sequential(load_setup("depot")), 2) as battle:
        s = battle.session
        players = {side: make_player("hard", side, 2) for side in s.sides}
        held = 0
        while not s.over and s.round <= 3:
            command = players[s.acting_side].next_command(battle)
            assert not (isinstance(command, Attack) and not command.target)
            held += isinstance(command, EndTurn) and s.get(command.unit, c.ActionPoints).current > 0
            battle.submit(command)
        assert held


def test_only_the_level_that_looks_for_enemies_not_seen_yet_fires_on_sight():
    with new_battle(load_setup("depot"), 2) as battle:
        planned = 0
        for command in plannings(battle, "normal", 4):
            for _, queue in command.orders:
                planned += len(queue)
                assert not any(isinstance(o.command, Attack) and not o.command.target for o in queue)
        assert planned
