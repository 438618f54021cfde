"""Under simultaneous orders a computer player's plan is the same whatever the other side
ordered: it plans from what its side saw at the round's start, and the other side's orders,
given before its own or not yet given, are never read.

Hypothesis draws a position (a bundled skirmish scenario, a seed, a few rounds played first)
and two random plans for side B, each built order by order from what a rehearsal accepts
(moves, stances, attacks, overwatch and reloads, with random fallbacks). Side A's computer
player then plans three times from the same memory: before B has given any orders, and after
each of B's plans, on copies of the battle. The three `GiveOrders` must be equal, and so must
what A can ask of the battle and the events A's side is shown of B's orders.
"""

from __future__ import annotations

import dataclasses
import json

from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st

from game.ai import make_player
from game.content.loader import load_setup, with_turns
from game.core import components as c
from game.core import orders
from game.core.commands import (Attack, ChangeStance, Command, GiveOrders, Move, Order, Reload,
                                SetOverwatch)
from game.core.engine import Battle
from game.core.events import Event, OrdersGiven, Refused
from game.core.queries import sightings, units_known_to
from game.rulesets import load_battle, new_battle

SCENARIOS = ("alley", "depot")
NEIGHBOURS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
_SETUPS: dict = {}


def simultaneous(scenario: str):
    if scenario not in _SETUPS:
        _SETUPS[scenario] = with_turns(load_setup(scenario), "simultaneous")
    return _SETUPS[scenario]


def play_rounds(battle: Battle, players: dict, rounds: int) -> None:
    """Play on until the planning of round `rounds` + 1 (or the battle's end)."""
    s = battle.session
    while not s.over and not (s.planning and s.round > rounds):
        side = s.acting_side
        assert side is not None
        command = players[side].next_command(battle)
        result = battle.submit(command)
        assert not isinstance(result, Refused), result.reason


def candidate(data: st.DataObject, battle: Battle, uid: str, queue: list[Order]) -> Order:
    """A random order for `uid`, from where its queue so far leaves it."""
    s = battle.session
    sandbox, _ = orders.rehearsal(s, uid, queue)
    try:
        here = sandbox.position(uid)
        assert here is not None
        held = sandbox.get(uid, c.Loadout).current
        weapon = sandbox.weapons.get(held.weapon) if held is not None else None
    finally:
        sandbox.close()
    kind = data.draw(st.sampled_from(["move", "move", "stance", "attack", "attack",
                                      "overwatch", "reload"]))
    command: Command
    if kind == "move":
        path, square = [], here
        for _ in range(data.draw(st.integers(1, 4))):
            steps = [(square[0] + dx, square[1] + dy) for dx, dy in NEIGHBOURS
                     if s.grid.in_bounds(square[0] + dx, square[1] + dy)
                     and s.grid.walkable[square[1] + dy, square[0] + dx]]
            if not steps:
                break
            square = data.draw(st.sampled_from(steps))
            path.append(square)
        command = Move(uid, tuple(path))
    elif kind == "stance":
        command = ChangeStance(uid, data.draw(st.sampled_from(["stand", "crouch", "prone"])),
                               drop=data.draw(st.booleans()))
    elif kind == "attack":
        enemies = sorted(u for u in s.order if s.side_of(u) != s.side_of(uid) and s.is_up(u))
        modes = [None] + ([m.name for m in weapon.modes] if weapon is not None else [])
        command = Attack(uid, data.draw(st.sampled_from(enemies + [""])),
                         data.draw(st.sampled_from(modes)), aim=data.draw(st.integers(0, 3)))
    elif kind == "overwatch":
        toward = (data.draw(st.integers(0, s.grid.width - 1)),
                  data.draw(st.integers(0, s.grid.height - 1)))
        command = SetOverwatch(uid, toward, aim=data.draw(st.integers(0, 2)),
                               within=data.draw(st.integers(0, 6)))
    else:
        command = Reload(uid)
    fallbacks = ["skip", "hold", "nearest"] if isinstance(command, Attack) else ["skip", "hold"]
    return Order(command, data.draw(st.sampled_from(fallbacks)))


def random_plan(data: st.DataObject, battle: Battle, side: str) -> GiveOrders:
    """Random orders for `side`: each unit's queue grown by the orders its rehearsal accepts."""
    s = battle.session
    queues: dict[str, tuple[Order, ...]] = {}
    for uid in [u for u in s.order if s.side_of(u) == side and orders.orderable(s, u)]:
        queue: list[Order] = []
        for _ in range(data.draw(st.integers(0, 4))):
            order = candidate(data, battle, uid, queue)
            steps = orders.rehearse(s, uid, [*queue, order], queues)   # after friends before it
            if len(steps) == len(queue) + 1 and not steps[-1].problem:
                queue.append(order)
        queues[uid] = tuple(queue)
    return GiveOrders(side=side, orders=tuple(queues.items()))


def shown(events: list[Event], side: str) -> list[dict]:
    """The events `side` is shown; of another side's orders only that they were given (how
    many of its units have orders is left out: it is not what they are)."""
    seen = []
    for event in events:
        if side in event.seen_by:
            if isinstance(event, OrdersGiven):
                event = dataclasses.replace(event, units=0)
            seen.append(event.to_dict())
    return seen


def plan_of(level: str, side: str, seed: int, memory: dict, battle: Battle):
    """`side`'s plan by a player restored from `memory`, and what the side can ask."""
    player = make_player(level, side, seed)
    player.restore(memory, battle)
    before = battle.digest()
    command = player.next_command(battle)
    assert isinstance(command, GiveOrders) and command.side == side
    assert battle.digest() == before
    known = ([dataclasses.astuple(u) for u in units_known_to(battle, side)],
             sightings(battle, side))
    return command, known


# No shrinking: an example takes about half a second, and shrinking a failure took minutes.
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(scenario=st.sampled_from(SCENARIOS), level=st.sampled_from(["simple", "hard"]),
       seed=st.integers(0, 200), rounds=st.integers(0, 2), first=st.booleans(), data=st.data())
def test_a_plan_is_the_same_whatever_the_other_side_ordered(scenario, level, seed, rounds, first,
                                                            data):
    with new_battle(simultaneous(scenario), seed) as battle:
        s = battle.session
        a, b = s.sides if first else s.sides[::-1]      # the battle waits for sides[0] first
        players = {a: make_player(level, a, seed), b: make_player("simple", b, seed)}
        play_rounds(battle, players, rounds)
        assume(not s.over and sorted(s.planning) == sorted(s.sides))
        memory = json.loads(json.dumps(players[a].memory()))     # as a save keeps it

        alone, known = plan_of(level, a, seed, memory, battle)        # a plans before b
        plans = [random_plan(data, battle, b) for _ in range(2)]
        seen = []
        for other, branch in zip(plans, [battle.copy(), load_battle(battle.state())], strict=True):
            with branch:
                given_events = branch.submit(other)
                assert not isinstance(given_events, Refused), given_events.reason
                assert branch.session.planning == [a]
                seen.append(shown(given_events, a))
                after, known_after = plan_of(level, a, seed, memory, branch)   # a plans after b
                assert after.to_dict() == alone.to_dict()
                assert known_after == known
                assert not isinstance(branch.submit(after), Refused)
        assert seen[0] == seen[1]
