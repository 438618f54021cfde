"""Reloading and drawing weapons."""

from __future__ import annotations

from game.core import components as c
from game.core.commands import Draw, Reload
from game.core.events import Reloaded, WeaponDrawn
from game.core.illegal import Illegal
from game.core.session import Session
from game.core.systems.attack import spend


def can_pay(ap: c.ActionPoints, cost: int) -> bool:
    """Whether an action of `cost` AP can be taken now: with the AP left, or, an action longer
    than a whole turn, with a full pool (the AP it overruns are owed by the turns after)."""
    return cost <= ap.current or (cost > ap.per_turn and ap.current == ap.per_turn)


def pay(session: Session, uid: str, cost: int, what: str) -> None:
    ap = session.get(uid, c.ActionPoints)
    if not can_pay(ap, cost):
        raise Illegal(f"{what} costs {cost} AP; {session.get(uid, c.Unit).name} has {ap.current}.")
    spend(session, uid, cost)


def reload(session: Session, cmd: Reload) -> None:
    uid = cmd.unit
    held = session.get(uid, c.Loadout).current
    if held is None or session.weapons[held.weapon].kind != "firearm":
        raise Illegal("There is no firearm in hand to reload.")
    weapon = session.weapons[held.weapon]
    if held.ammo >= weapon.magazine:
        raise Illegal(f"The {weapon.name} is already full.")
    if held.spare <= 0:
        raise Illegal(f"No spare magazines left for the {weapon.name}.")
    pay(session, uid, weapon.reload_ap, "Reloading")
    held.ammo, held.spare = weapon.magazine, held.spare - 1
    if session.rules.p.reload_resets_aim:
        session.get(uid, c.TurnState).aim_level = 0
    session.emit(Reloaded(uid, weapon.id, held.ammo, held.spare, weapon.reload_ap),
                 session.position(uid), to=(session.side_of(uid),))


def draw(session: Session, cmd: Draw) -> None:
    uid = cmd.unit
    loadout = session.get(uid, c.Loadout)
    if not 0 <= cmd.weapon < len(loadout.weapons):
        raise Illegal(f"{session.get(uid, c.Unit).name} carries no weapon number {cmd.weapon}.")
    weapon = session.weapons[loadout.weapons[cmd.weapon].weapon]
    if loadout.drawn and loadout.active == cmd.weapon:
        raise Illegal(f"The {weapon.name} is already in hand.")
    pay(session, uid, weapon.draw_ap, f"Drawing the {weapon.name}")
    loadout.active, loadout.drawn = cmd.weapon, True
    session.get(uid, c.TurnState).aim_level = 0
    session.emit(WeaponDrawn(uid, weapon.id, weapon.draw_ap), session.position(uid),
                 to=(session.side_of(uid),))
