"""Simultaneous orders: every side gives its units' orders for the round at once, then the
units carry them out in initiative order (the `skirmish` text's "Taking turns").

A round opens with planning (`Session.planning`: the sides still to give orders). Each side's
`GiveOrders` is checked here against the position at the round's start, by rehearsing each
unit's queue on a copy of the battle: the same systems price and check every order, but nothing
is rolled and nothing the side does not know is asked (no enemy reacts, no unseen unit blocks
the way, sight is not refreshed), after the orders of the friends that act before the unit
(so a squad can plan through a door a friend leaves earlier in the round). Once every side has
given its orders they are carried out:
the units' turns come in initiative order, and each `Proceed` carries out the active unit's
next order (`carry_out` in the engine), or what its fallback says when it no longer can be.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from game.core import components as c
from game.core.commands import (FALLBACKS, ORDERABLE, Attack, Command, GiveOrders, Move, Order,
                                Revive, Suppress, Throw)
from game.core.events import InitiativeOrder, OrdersGiven, PlanningStarted
from game.core.illegal import Illegal
from game.core.session import Session
from game.core.systems import attack
from game.core.systems.loadout import can_pay
from game.core.systems.sight import unit_sees_unit

Square = tuple[int, int]
Dispatch = Callable[[Command], None]


@dataclass(frozen=True, slots=True)
class Step:
    """One order as rehearsed from the round's start: its AP, where the unit then stands, and
    why it would be refused ("" when it would not)."""

    ap_cost: int
    ap_left: int
    square: Square
    stance: str
    problem: str = ""


def begin_planning(session: Session) -> None:
    """Open the round's planning: every side with a unit able to act gives orders."""
    session.orders = {}
    session.down_when_ordered = frozenset(uid for uid in session.order if not session.is_up(uid))
    session.planning = [side for side in session.sides
                        if any(session.is_up(uid) and not session.has(uid, c.Left)
                               for uid in session.order if session.side_of(uid) == side)]
    session.emit(PlanningStarted(session.round, tuple(session.planning)))


def orderable(session: Session, uid: str) -> bool:
    """Whether `uid` can be given orders this round (up, on the map)."""
    return uid in session.entities and session.is_up(uid) and not session.has(uid, c.Left)


Planned = Mapping[str, Sequence[Order]]


def rehearse(session: Session, uid: str, queue: Sequence[Order], planned: Planned | None = None,
             sequence: Sequence[str] = ()) -> list[Step]:
    """Each order of `uid`'s queue as it would go from the round's start, on a copy of the
    battle, after the `planned` orders of the friends that act before it; the steps stop after
    the first one that would be refused."""
    sandbox, steps = rehearsal(session, uid, queue, planned, sequence)
    sandbox.close()
    return steps


def ahead_of(session: Session, uid: str, sequence: Sequence[str] = ()) -> list[str]:
    """`uid`'s friends that act before it in the round: in initiative order, or in the order
    its side set (`sequence`, an ambushing side's)."""
    side = session.side_of(uid)
    order = list(sequence) or [u for u in session.order if session.side_of(u) == side]
    return order[:order.index(uid)] if uid in order else []


def play_ahead(sandbox: Session, uid: str, planned: Planned | None,
               sequence: Sequence[str] = ()) -> None:
    """On a rehearsal (a copy with `rehearsing` set): the `planned` orders of `uid`'s friends
    that act before it, each queue up to its first order that would be refused."""
    if not planned:
        return
    for friend in ahead_of(sandbox, uid, sequence):
        queue = planned.get(friend)
        if not queue or not orderable(sandbox, friend) or fresh_turn(sandbox, friend):
            continue
        for order in queue:
            try:
                rehearse_one(sandbox, friend, order)
            except Illegal:
                break


def rehearsal(session: Session, uid: str, queue: Sequence[Order], planned: Planned | None = None,
              sequence: Sequence[str] = ()) -> tuple[Session, list[Step]]:
    """A detached copy of the battle with the `planned` orders of `uid`'s friends that act
    before it carried out (each up to the first that would be refused), then `uid`'s turn
    opened afresh and its queue rehearsed up to the first order that would be refused, and
    each order's step. Close the copy."""
    sandbox = session.copy(detached=True)
    sandbox.rehearsing = True
    play_ahead(sandbox, uid, planned, sequence)
    busy = fresh_turn(sandbox, uid)
    steps: list[Step] = []
    for order in queue:
        ap = sandbox.get(uid, c.ActionPoints)
        before = ap.current
        try:
            if busy:
                raise Illegal(busy)
            rehearse_one(sandbox, uid, order)
        except Illegal as why:
            steps.append(Step(0, before, _square(sandbox, uid), sandbox.get(uid, c.Posture).stance,
                              str(why)))
            break
        steps.append(Step(before - ap.current + ap.debt, ap.current, _square(sandbox, uid),
                          sandbox.get(uid, c.Posture).stance))
    return sandbox, steps


def _square(session: Session, uid: str) -> Square:
    square = session.position(uid)
    assert square is not None, "a unit given orders stands on the map"
    return square


def fresh_turn(session: Session, uid: str) -> str:
    """`uid` as its turn will open: its AP for the turn, nothing bought yet, no watch kept.
    Why it cannot act this round, or ""."""
    ap = session.get(uid, c.ActionPoints)
    session.add(uid, c.TurnState())
    session.remove(uid, c.Overwatch)
    session.remove(uid, c.WatchReaction)
    if ap.debt >= ap.per_turn:
        ap.current = 0
        return f"{session.get(uid, c.Unit).name} is still busy with a long action this round."
    ap.current, ap.debt = ap.per_turn - ap.debt, 0
    return ""


def rehearse_one(session: Session, uid: str, order: Order) -> None:
    """Carry out one order on a rehearsal (a copy with `rehearsing` set, the turn opened by
    `fresh_turn`); Illegal if it would be refused."""
    command = order.command
    if order.fallback not in FALLBACKS:
        raise Illegal(f"{order.fallback!r} is not a fallback: {', '.join(FALLBACKS)}.")
    if order.fallback == "nearest" and not isinstance(command, Attack):
        raise Illegal("Only an attack can fall back on the nearest enemy in sight.")
    if command.unit != uid:
        raise Illegal(f"An order in {session.get(uid, c.Unit).name}'s queue is another unit's.")
    if isinstance(command, Attack):
        _price_attack(session, uid, command)
    elif isinstance(command, (Suppress, Throw, Revive)):
        _price_special(session, uid, command)
    else:
        handler = session.rules.actions().get(type(command)) or _HANDLERS.get(type(command))
        if handler is None:
            raise Illegal(f"The {session.setup.ruleset.name} rules have no {command.kind} order.")
        handler(session, command)


def _price_attack(session: Session, uid: str, cmd: Attack) -> None:
    """An attack's AP, from the same pricing as the attack itself; whether the target will be
    in sight is known only when the order is carried out."""
    if cmd.target and (cmd.target not in session.entities
                       or session.side_of(cmd.target) == session.side_of(uid)):
        raise Illegal(f"{cmd.target!r} is not an enemy unit.")
    weapon, mode, level, aim_ap = attack.price(session, uid, cmd.mode, cmd.aim)
    cost = mode.ap + aim_ap
    ap = session.get(uid, c.ActionPoints)
    held = session.get(uid, c.Loadout).current
    if weapon.kind == "firearm" and held is not None:
        if held.ammo <= 0:
            raise Illegal(f"The {weapon.name} will be empty by then: reload first.")
        held.ammo -= min(mode.rof, held.ammo)
    if cost > ap.current and not (cost > ap.per_turn and ap.current == ap.per_turn):
        raise Illegal(f"That attack costs {cost} AP ({mode.ap} to fire, {aim_ap} to aim); "
                      f"{ap.current} AP left by then.")
    attack.spend(session, uid, cost)
    session.get(uid, c.TurnState).aim_level = 0 if weapon.kind == "melee" else level


def _price_special(session: Session, uid: str, cmd: Command) -> None:
    """A throw, suppressive fire or first aid: the ruleset's own checks of it from where the
    unit will stand (its previews, which roll nothing), then its AP."""
    name = session.get(uid, c.Unit).name
    ap = session.get(uid, c.ActionPoints)
    if isinstance(cmd, Throw):
        cost = session.rules.preview_throw(session, uid, cmd.grenade, cmd.at, []).ap_cost
        session.get(uid, c.Loadout).grenades[cmd.grenade] -= 1
    elif isinstance(cmd, Suppress):
        cost = session.rules.preview_suppress(session, uid, cmd.at, []).ap_cost
    else:
        assert isinstance(cmd, Revive)
        if cmd.target not in session.entities or session.side_of(cmd.target) != session.side_of(uid):
            raise Illegal("Only an ally can be revived.")
        found = session.rules.special_costs(session, uid).get("revive")
        if found is None:
            raise Illegal(f"The {session.setup.ruleset.name} rules have no first aid.")
        cost = found
    if not can_pay(ap, cost):
        raise Illegal(f"That costs {cost} AP; {name} has {ap.current} by then.")
    attack.spend(session, uid, cost)


def _handlers() -> dict[type, Callable[[Session, Any], None]]:
    from game.core.commands import ChangeStance, Draw, Reload, SetOverwatch
    from game.core.systems import loadout, movement, overwatch
    return {Move: movement.move, ChangeStance: movement.change_stance,
            SetOverwatch: overwatch.set_overwatch, Reload: loadout.reload, Draw: loadout.draw}


_HANDLERS = _handlers()


def give(session: Session, cmd: GiveOrders) -> None:
    """Check a side's orders for the round and keep them; once every side has given its
    orders, the round's turns begin (`start` opens the first)."""
    side = cmd.side
    if side not in session.planning:
        if side not in session.sides:
            raise Illegal(f"There is no side {side!r}.")
        raise Illegal(f"{session.side_names[side]} has already given its orders this round.")
    queues: dict[str, tuple[Order, ...]] = {}
    for uid, queue in cmd.orders:
        if uid in queues:
            raise Illegal(f"{session.get(uid, c.Unit).name} is given two queues of orders.")
        if uid not in session.entities or session.side_of(uid) != side:
            raise Illegal(f"{uid!r} is not a unit of {session.side_names[side]}.")
        if not orderable(session, uid):
            raise Illegal(f"{session.get(uid, c.Unit).name} is down and cannot be given orders.")
        for number, order in enumerate(queue, 1):
            if not isinstance(order, Order) or not isinstance(order.command, ORDERABLE):
                raise Illegal(f"{session.get(uid, c.Unit).name}'s order {number} is not an order.")
        queues[uid] = queue
    if cmd.sequence:
        _check_sequence(session, side, cmd.sequence)
    for uid, queue in queues.items():     # each after the friends that act before it
        steps = rehearse(session, uid, queue, queues, cmd.sequence) if queue else []
        bad = next((i for i, step in enumerate(steps, 1) if step.problem), None)
        if bad is not None:
            raise Illegal(f"{session.get(uid, c.Unit).name}'s order {bad}: {steps[bad - 1].problem}")
    if cmd.sequence:
        session.sequences[side] = tuple(cmd.sequence)
    for uid, queue in queues.items():
        session.orders[uid] = list(queue)
    session.planning.remove(side)
    session.emit(OrdersGiven(side, sum(1 for queue in queues.values() if queue)))
    if not session.planning and session.sequences:
        _set_sequences(session)


def _check_sequence(session: Session, side: str, sequence: tuple[str, ...]) -> None:
    """An ambushing side sets the order its units act in, in the places its units hold."""
    ambushers = {s.id for s in session.setup.scenario.sides if s.ambush}
    if side not in ambushers:
        raise Illegal(f"Only an ambushing side sets its own order; {session.side_names[side]} "
                      "acts in the order of its initiative.")
    places = [i for i, uid in enumerate(session.order) if session.side_of(uid) == side]
    mine = [session.order[i] for i in places]
    if sorted(sequence) != sorted(mine):
        raise Illegal(f"The order must name each unit of {session.side_names[side]} once.")


def _set_sequences(session: Session) -> None:
    """Once every side has given its orders, the ambushers' own orders take their places
    (until then the other sides, planning, could have read them in the initiative order)."""
    for side, sequence in session.sequences.items():
        places = [i for i, uid in enumerate(session.order) if session.side_of(uid) == side]
        for place, uid in zip(places, sequence, strict=True):
            session.order[place] = uid
    session.sequences = {}
    session.emit(InitiativeOrder(tuple(session.order)))


def fallen_since_ordered(session: Session, cmd: Attack) -> bool:
    """Whether `cmd`'s target was up when the orders were given and is down now: "if a
    player's target is eliminated during a turn, it's simply bad luck" (the order is lost or
    follows its fallback). A target already down then was meant, and is attacked."""
    return (bool(cmd.target) and cmd.target in session.entities
            and cmd.target not in session.down_when_ordered and not session.is_up(cmd.target))


def magazine_full(session: Session, uid: str) -> bool:
    """Whether the firearm in `uid`'s hand is full (a reload ordered after shots that were not
    fired has nothing to do)."""
    held = session.get(uid, c.Loadout).current
    if held is None or session.weapons[held.weapon].kind != "firearm":
        return False
    return held.ammo >= session.weapons[held.weapon].magazine


def nearest_target(session: Session, uid: str, cmd: Attack) -> str | None:
    """The nearest enemy `uid` sees that `cmd`'s attack could be made at, or None."""
    here = _square(session, uid)
    side = session.side_of(uid)
    found = []
    for index, other in enumerate(session.order):
        there = session.position(other)
        if there is None or session.side_of(other) == side or not session.is_up(other):
            continue
        if not unit_sees_unit(session, uid, other):
            continue
        found.append((session.grid.distance(here, there), index, other))
    for _, _, other in sorted(found):
        try:
            attack.plan_attack(session, uid, other, cmd.mode, cmd.location, cmd.aim)
        except Illegal:
            continue
        return other
    return None


def resume_path(session: Session, cmd: Move) -> Move | None:
    """A move order whose walk an earlier order cut short goes on from where the unit stands,
    if that square is on its path; None if the unit already stands where it ends (its walk
    came back to where an earlier order, lost, left it)."""
    here = session.position(cmd.unit)
    if here in cmd.path:
        rest = cmd.path[cmd.path.index(here) + 1:]
        return Move(cmd.unit, rest) if rest else None
    return cmd
