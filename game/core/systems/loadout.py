"""Reloading and drawing weapons, and reviving a downed ally."""

from __future__ import annotations

from game.core import components as c
from game.core.commands import Draw, Reload, Revive
from game.core.events import HealAttempted, HealthChanged, Reloaded, WeaponDrawn
from game.core.illegal import Illegal, skirmish_only
from game.core.session import Session
from game.core.systems.health import set_state


def _pay(session: Session, uid: str, cost: int, what: str) -> None:
    ap = session.get(uid, c.ActionPoints)
    if cost > ap.current:
        raise Illegal(f"{what} costs {cost} AP; {session.get(uid, c.Unit).name} has {ap.current}.")
    ap.current -= cost


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
    _pay(session, uid, weapon.reload_ap, "Reloading")
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
    _pay(session, uid, weapon.draw_ap, f"Drawing the {weapon.name}")
    loadout.active, loadout.drawn = cmd.weapon, True
    session.get(uid, c.TurnState).aim_level = 0
    session.emit(WeaponDrawn(uid, weapon.id, weapon.draw_ap), session.position(uid),
                 to=(session.side_of(uid),))


def revive(session: Session, cmd: Revive) -> None:
    skirmish_only(session.rules, session.setup.ruleset.name, "first aid on the battlefield")
    uid, target = cmd.unit, cmd.target
    if target not in session.entities or session.side_of(target) != session.side_of(uid):
        raise Illegal("Only an ally can be revived.")
    health = session.get(target, c.Health)
    name = session.get(target, c.Unit).name
    if health.state not in ("unconscious", "dying"):
        raise Illegal(f"{name} is {'dead' if health.state == 'dead' else 'not down'}.")
    here, there = session.position(uid), session.position(target)
    if max(abs(here[0] - there[0]), abs(here[1] - there[1])) != 1:
        raise Illegal(f"{name} is not next to {session.get(uid, c.Unit).name}.")
    p = session.rules.p.revive
    _pay(session, uid, p.ap, "A Heal check")
    stage = "revive" if health.stabilized else "stabilize"
    difficulty = health.heal_ds.get(stage, p.revive_ds if stage == "revive" else p.stabilize_ds)
    check = session.rules.skill_check("heal", session.combatant(uid), session.dice)
    success = check.total >= difficulty
    session.emit(HealAttempted(uid, target, stage, check, difficulty, success, p.ap), here, there,
                 to=(session.side_of(uid),))
    if not success:
        health.heal_ds[stage] = difficulty + p.fail_step
    elif stage == "stabilize":
        health.stabilized = True
        if health.state == "dying":
            health.state = "unconscious"
        session.emit(HealthChanged(target, "stabilized", health.hp, uid), there)
    else:
        health.hp = p.revived_hp
        set_state(session, target, "ok", uid)
