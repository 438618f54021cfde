"""Computer players under simultaneous orders: a side's orders for the round, planned from
what the side saw at the round's start.

Each unit plans on a rehearsal of its own turn (`game.core.orders`): a copy of the battle in
which the turn is the unit's, with its AP for the round, where nothing is rolled and nothing the
side does not know is asked (no enemy reacts, sight is not refreshed). The player chooses there
exactly as it would in its turn, one command after another; each becomes an order and is
rehearsed, until the player ends the turn or the AP run out. The other sides' orders are never
read: they live only in the battle's `orders`, which a rehearsal starts without.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager

from game.core.commands import ORDERABLE, Attack, Command, GiveOrders, Order
from game.core.engine import Battle
from game.core.illegal import Illegal
from game.core import components as c
from game.core import orders

MOST_ORDERS = 8           # a queue longer than this is cut (a player going round in circles)

Decide = Callable[[Battle], Command]
Planning = Callable[[Battle], AbstractContextManager[None]]


def fallback_for(command: Command) -> str:
    """What a computer player's order does when it cannot be carried out: an attack fires at the
    nearest enemy in sight instead (its target fell, or is out of sight), the rest are skipped."""
    return "nearest" if isinstance(command, Attack) else "skip"


def rehearsals(battle: Battle, side: str,
               planned: orders.Planned | None = None) -> Iterator[tuple[str, Battle]]:
    """(unit, its rehearsal) for each unit of `side` that can be given orders, in initiative
    order, after the `planned` orders of the friends that act before it (as the orders are
    checked when given). Each rehearsal is a copy of the battle, closed once the next is
    asked for."""
    s = battle.session
    for uid in [u for u in s.order if s.side_of(u) == side and orders.orderable(s, u)]:
        sandbox = battle.copy(detached=True)
        t = sandbox.session
        try:
            t.rehearsing = True
            t.planning, t.orders = [], {}
            orders.play_ahead(t, uid, planned)
            t.turn_index = t.order.index(uid)
            if orders.fresh_turn(t, uid):
                continue                       # still busy with a long action: no orders
            yield uid, sandbox
        finally:
            sandbox.close()


def plan(battle: Battle, side: str, decide: Decide, planning: Planning) -> GiveOrders:
    """`side`'s orders for the round: each unit's choices, made by `decide` on its rehearsal
    (inside `planning(rehearsal)`, where the player looks at the rehearsal as its battle)."""
    queues: list[tuple[str, tuple[Order, ...]]] = []
    planned: dict[str, tuple[Order, ...]] = {}
    for uid, sandbox in rehearsals(battle, side, planned):
        queue: list[Order] = []
        with planning(sandbox):
            t = sandbox.session
            while len(queue) < MOST_ORDERS and t.get(uid, c.ActionPoints).current > 0:
                command = decide(sandbox)
                if not isinstance(command, ORDERABLE) or command.unit != uid:
                    break
                order = Order(command, fallback_for(command))
                try:
                    orders.rehearse_one(t, uid, order)
                except Illegal:
                    break
                queue.append(order)
        queues.append((uid, tuple(queue)))
        planned[uid] = tuple(queue)
    return GiveOrders(side=side, orders=tuple(queues))
