"""Damage, falling, bleeding, dying and revival; and the morale that follows them."""

from __future__ import annotations

import esper

from game.core import components as c
from game.core.events import Damaged, HealthChanged, MoraleChanged, OverwatchEnded, SuppressionEnded
from game.core.session import Session
from game.core.systems.sight import refresh_view
from game.core.ruleset import DamageRoll


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
        session.emit(OverwatchEnded(uid, "down"), *session.where(uid), to=(side,))
    lift_suppression(session, uid, "the suppressor is down")
    refresh_view(session, uid)
    points = session.get(uid, c.Stats).morale
    shift_morale(session, side, -points, "ally down")
    others = [s for s in session.sides if s != side]
    share = points * session.rules.p.morale_transfer / max(1, len(others))
    for other in others:
        shift_morale(session, other, share, "enemy down")


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
    for _, (unit, health) in list(esper.get_components(c.Unit, c.Health)):
        if health.state == "dying" and not health.stabilized and loss:
            apply_damage(session, unit.uid, "bleeding", DamageRoll((), loss, 0, loss), "bleeding")
