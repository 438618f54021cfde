"""What the rules texts leave to the game master: a situational modifier for a unit's next
attack roll, and a unit's HP set by hand.

Both are commands (game/core/commands.py), so they are checked like any other, refused with a
reason, kept in the command log and replayed from a save. The modifier waits on the unit
(components.Situational) until its next attack roll, which each ruleset adds it to, in its own
terms, and then takes it off (`spend`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from game.core import components as c
from game.core.commands import GiveModifier, SetHealth
from game.core.events import Event, HealthSet, ModifierGiven
from game.core.illegal import Illegal
from game.core.session import Session
from game.core.systems.health import set_state

MAX_MODIFIER = 100
MAX_REASON = 60
GM = "the game master"


def _unit(session: Session, uid: str) -> str:
    if uid not in session.entities:
        raise Illegal(f"There is no unit {uid!r}.")
    name = session.get(uid, c.Unit).name
    if session.get(uid, c.Health).state == "dead":
        raise Illegal(f"{name} is dead.")
    return name


def _tell(session: Session, uid: str, event: Event) -> None:
    """A call about `uid`, for its own side and the sides that see it (as its wounds are)."""
    session.emit(event, *session.where(uid), to=(session.side_of(uid),))


def _reason(text: str) -> str:
    reason = " ".join(str(text).split())
    if not reason:
        raise Illegal("Give a reason: it goes into the log.")
    if len(reason) > MAX_REASON:
        raise Illegal(f"The reason is {len(reason)} characters long; at most {MAX_REASON}.")
    return reason


def give_modifier(session: Session, cmd: GiveModifier) -> None:
    """`cmd.unit`'s next attack roll gets `cmd.modifier`; 0 takes a waiting one back."""
    name = _unit(session, cmd.unit)
    if isinstance(cmd.modifier, bool) or not isinstance(cmd.modifier, int):
        raise Illegal(f"A modifier is a whole number, not {cmd.modifier!r}.")
    if abs(cmd.modifier) > MAX_MODIFIER:
        raise Illegal(f"A modifier of {cmd.modifier:+d} is too large: at most {MAX_MODIFIER} either way.")
    if cmd.modifier == 0:
        if not session.has(cmd.unit, c.Situational):
            raise Illegal(f"{name} has no modifier waiting to take back.")
        session.remove(cmd.unit, c.Situational)
        _tell(session, cmd.unit, ModifierGiven(cmd.unit, 0, _reason(cmd.reason)))
        return
    reason = _reason(cmd.reason)
    session.add(cmd.unit, c.Situational(cmd.modifier, reason))
    _tell(session, cmd.unit, ModifierGiven(cmd.unit, cmd.modifier, reason))


def set_health(session: Session, cmd: SetHealth) -> None:
    """`cmd.unit` has `cmd.hp` left; its condition follows as the ruleset says."""
    name = _unit(session, cmd.unit)
    what = session.rules.health_name
    if isinstance(cmd.hp, bool) or not isinstance(cmd.hp, int):
        raise Illegal(f"{what} is a whole number, not {cmd.hp!r}.")
    low, high = session.rules.health_bounds(session, cmd.unit)
    if not low <= cmd.hp <= high:
        raise Illegal(f"{name}'s {what} can be set from {low} to {high}, not {cmd.hp}.")
    health = session.get(cmd.unit, c.Health)
    if cmd.hp == health.hp:
        raise Illegal(f"{name} already has {cmd.hp} {what}.")
    reason = _reason(cmd.reason)
    before, health.hp = health.hp, cmd.hp
    _tell(session, cmd.unit, HealthSet(cmd.unit, before, cmd.hp, reason, what))
    set_state(session, cmd.unit, session.rules.state_at(session, cmd.unit, cmd.hp), cause=GM)


def waiting(session: Session, uid: str) -> list[tuple[str, int]]:
    """The game master's modifier waiting for `uid`'s next attack roll, as a labelled part of
    the roll ([] when there is none). Changes nothing."""
    if not session.has(uid, c.Situational):
        return []
    given = session.get(uid, c.Situational)
    return [(f"GM: {given.reason}", given.modifier)]


def spend(session: Session, uid: str) -> None:
    """`uid` has made the roll its waiting modifier was for."""
    session.remove(uid, c.Situational)


HANDLERS: dict[type, Callable[[Session, Any], None]] = {GiveModifier: give_modifier,
                                                        SetHealth: set_health}
