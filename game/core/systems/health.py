"""Damage, falling, bleeding, dying and revival; and the morale that follows them."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar


from game.core import components as c
from game.core.events import Damaged, HealthChanged, MoraleChanged, OverwatchEnded, SuppressionEnded
from game.core.session import Session
from game.core.systems.sight import refresh_view
from game.core.ruleset import DamageRoll

S = TypeVar("S", bound=Hashable)     # a side, by id or by index


def apply_damage(session: Session, uid: str, source: str, roll: DamageRoll, damage_type: str,
                 state: str | None = None) -> None:
    """Take `roll.taken` off the unit's HP; `state` is the ruleset's verdict when it keeps its own."""
    health = session.get(uid, c.Health)
    if health.state == "dead":
        return
    before = health.hp
    health.hp -= roll.taken
    if roll.taken and health.state != "ok":
        health.stabilized = False          # fresh wounds undo first aid
    session.emit(Damaged(uid, source, roll.rolls, roll.rolled, damage_type, roll.resisted,
                         roll.taken, before, health.hp), *session.where(uid),
                 to=(session.side_of(uid),))
    if source in session.entities and roll.taken:
        record = session.records[session.side_of(source)]
        if session.side_of(source) == session.side_of(uid):
            record.friendly_damage += roll.taken
        else:
            record.damage_dealt += roll.taken
    if state is None:
        state = session.rules.state_for(health.hp, health.constitution)
    set_state(session, uid, state, cause=source)


def set_state(session: Session, uid: str, new: str, cause: str) -> None:
    """Move a unit to a new condition, with every consequence of falling or getting up."""
    health = session.get(uid, c.Health)
    old = health.state
    if new == old:
        return
    health.state = new
    if new == "ok":
        health.stabilized = False
        health.heal_ds.clear()
    label = {"unconscious": "knocked_out"}.get(new, "revived" if new == "ok" else new)
    session.emit(HealthChanged(uid, label, health.hp, cause), *session.where(uid),
                 to=(session.side_of(uid),))
    if old == "ok":
        fall(session, uid)
    elif new == "ok":
        refresh_view(session, uid)
        shift_morale(session, session.side_of(uid), +session.get(uid, c.Stats).morale, "revived ally")
    if new == "dead":
        session.remove(uid, c.Position)


def fall(session: Session, uid: str) -> None:
    """A unit is down: it stops watching and suppressing, sees nothing, and morale drops."""
    side = session.side_of(uid)
    session.records[side].casualties += 1
    if session.has(uid, c.Overwatch):
        session.remove(uid, c.Overwatch)
        session.remove(uid, c.WatchReaction)
        session.emit(OverwatchEnded(uid, "down"), *session.where(uid), to=(side,))
    lift_suppression(session, uid, "the suppressor is down")
    refresh_view(session, uid)
    points = session.get(uid, c.Stats).morale
    for who, amount in morale_shifts(points, side, session.sides, session.rules.p.morale_transfer):
        shift_morale(session, who, amount, "ally down" if who == side else "enemy down")


def morale_shifts(points: float, side: S, sides: Sequence[S], transfer: float
                  ) -> list[tuple[S, float]]:
    """What a unit of `side` going down does to each side's morale pool: its side loses the
    unit's morale, and `transfer` of it is shared among the other sides (the calculator asks
    the same)."""
    others = [other for other in sides if other != side]
    share = points * transfer / max(1, len(others))
    return [(side, -points)] + [(other, share) for other in others]


def lift_suppression(session: Session, suppressor: str, reason: str) -> None:
    """End every suppression `suppressor` is keeping up."""
    for uid in session.suppressed_by(suppressor):
        session.remove(uid, c.Suppressed)
        session.emit(SuppressionEnded(uid, reason), *session.where(uid), to=(session.side_of(uid),))


def shift_morale(session: Session, side: str, amount: float, cause: str) -> None:
    if not amount:
        return
    pool = session.morale[side]
    before = pool.current
    pool.current = max(0.0, pool.current + amount)
    session.emit(MoraleChanged(side, before, pool.current, round(session.morale_percent(side)),
                               session.morale_modifier(side), cause))


def bleed(session: Session) -> None:
    """At the start of a round every dying unit loses HP."""
    loss = session.rules.p.dying_loss_per_round
    for uid, _ in list(session.units()):
        health = session.get(uid, c.Health)
        if health.state == "dying" and not health.stabilized and loss:
            apply_damage(session, uid, "bleeding", DamageRoll((), loss, 0, loss), "bleeding")
