"""Under simultaneous orders, a side whose every unit acts after every enemy this round (as
behind an ambush) and that knows of no enemy and has nowhere it must be holds where it is and
lets the enemy come, rather than walking into the open to be shot before it can answer."""

from __future__ import annotations

from game.ai import make_player
from game.ai.goals import outpaced
from game.content.loader import load_setup
from game.core.commands import Attack, GiveOrders, Move
from game.rulesets import new_battle
from tests.sequential import sequential


def test_outpaced_when_every_enemy_acts_first():
    with new_battle(load_setup("alley"), 4) as battle:
        s = battle.session
        order = [s.side_of(uid) for uid in s.order]
        late = order[-1]
        assert order.index(late) > 0 and set(order[order.index(late):]) == {late}
        early = next(side for side in s.sides if side != late)
        assert outpaced(battle, late) and not outpaced(battle, early)
    with new_battle(sequential(load_setup("alley")), 4) as battle:
        assert not any(outpaced(battle, side) for side in battle.session.sides)


def round_one_orders(battle) -> dict[str, GiveOrders]:
    s = battle.session
    players = {side: make_player("hard", side, 4) for side in s.sides}
    given: dict[str, GiveOrders] = {}
    while s.planning and s.round == 1:
        command = players[s.acting_side].next_command(battle)
        assert isinstance(command, GiveOrders)
        given[command.side] = command
        assert battle.submit(command)
    return given


def test_an_outpaced_hard_side_holds_and_watches():
    with new_battle(load_setup("alley"), 4) as battle:
        late = next(side for side in battle.session.sides if outpaced(battle, side))
        given = round_one_orders(battle)
    held = given[late].orders
    on_sight = [uid for uid, queue in held
                if queue and isinstance(queue[-1].command, Attack) and not queue[-1].command.target]
    walked = sum(len(o.command.path) for _, queue in held for o in queue if isinstance(o.command, Move))
    assert len(on_sight) >= len(held) - 1 and walked <= len(held)
    other = next(orders for side, orders in given.items() if side != late)
    assert any(isinstance(o.command, Move) for _, queue in other.orders for o in queue)
