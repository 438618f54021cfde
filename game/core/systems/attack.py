"""Attacks: gather the tactical facts, let the ruleset roll, apply the hits."""

from __future__ import annotations

from dataclasses import dataclass

from game.content.schema import FireMode, WeaponSpec
from game.core import components as c
from game.core import gm
from game.core.events import AttackResolved
from game.core.illegal import Illegal
from game.core.session import Session
from game.core.systems.sight import unit_sees, unit_sees_unit
from game.core.ruleset import AttackSituation


@dataclass(frozen=True, slots=True)
class AttackPlan:
    attacker: str
    target: str
    weapon: WeaponSpec
    mode: FireMode
    location: str
    aim_level: int
    aim_ap: int
    ap_cost: int
    rof: int


def ready_firearm(session: Session, uid: str, ability: str, label: str, purpose: str) -> c.WeaponState:
    """The loaded firearm in `uid`'s hands for a special fire action, or Illegal saying why."""
    name = session.get(uid, c.Unit).name
    if ability not in session.get(uid, c.Stats).abilities:
        raise Illegal(f"{name} does not have the {label} ability.")
    held = session.get(uid, c.Loadout).current
    if held is None or session.weapons[held.weapon].kind != "firearm":
        raise Illegal(f"{name} needs a firearm in hand to {purpose}.")
    if held.ammo <= 0:
        raise Illegal(f"{name}'s {session.weapons[held.weapon].name} is empty: reload first.")
    return held


def plan_attack(session: Session, uid: str, target: str, mode_name: str | None, location: str,
                aim: int, *, held_ap: int | None = None, turn_limits: bool = True) -> AttackPlan:
    """Check an attack is legal and price it; raises Illegal with the reason.

    `turn_limits=False` leaves out what depends on whose turn it is (AP left, attacks made):
    the odds of a threat, for an enemy that will act later.
    """
    if target not in session.entities:
        raise Illegal(f"There is no unit {target!r}.")
    if target == uid:
        raise Illegal("A unit cannot attack itself.")
    if session.side_of(target) == session.side_of(uid):
        raise Illegal(f"{session.get(target, c.Unit).name} is on your side.")
    tpos, apos = session.position(target), session.position(uid)
    if tpos is None or session.get(target, c.Health).state == "dead":
        raise Illegal(f"{session.get(target, c.Unit).name} is already dead.")
    held = session.get(uid, c.Loadout).current
    weapon, mode = _weapon_mode(session, uid, mode_name)
    if location not in session.rules.p.hit_locations:
        raise Illegal(f"No hit location {location!r}; choose {', '.join(session.rules.p.hit_locations)}.")
    if weapon.kind == "melee":
        assert apos is not None, "an attacker stands on the map"
        if max(abs(tpos[0] - apos[0]), abs(tpos[1] - apos[1])) != 1:
            raise Illegal(f"{session.get(target, c.Unit).name} is out of reach: melee needs an adjacent target.")
    elif not unit_sees(session, uid, tpos):
        raise Illegal(f"{session.get(uid, c.Unit).name} has no line of sight to {session.get(target, c.Unit).name}.")
    elif not unit_sees_unit(session, uid, target):
        raise Illegal(f"{session.get(uid, c.Unit).name} cannot see {session.get(target, c.Unit).name}: "
                      "total cover stands between them (lean out to see past it).")
    rof = mode.rof
    if weapon.kind == "firearm":
        assert held is not None, "a firearm is only ever a held weapon"
        if held.ammo <= 0:
            raise Illegal(f"The {weapon.name} is empty: reload first.")
        rof = min(rof, held.ammo)
    level, aim_ap = _aim_price(session, uid, weapon, aim)
    cost = mode.ap + aim_ap
    ap = session.get(uid, c.ActionPoints)
    budget = ap.current if held_ap is None else held_ap
    if not turn_limits:
        budget = max(budget, cost)
    long_action = held_ap is None and cost > ap.per_turn and ap.current == ap.per_turn
    if cost > budget and not long_action:
        raise Illegal(f"That attack costs {cost} AP ({mode.ap} to fire, {aim_ap} to aim); "
                      f"{budget} AP left.")
    plan = AttackPlan(uid, target, weapon, mode, location, level, aim_ap, cost, rof)
    if turn_limits:
        session.rules.check_attack(session, plan)
    return plan


def _weapon_mode(session: Session, uid: str, mode_name: str | None) -> tuple[WeaponSpec, FireMode]:
    held = session.get(uid, c.Loadout).current
    if mode_name == "unarmed" or held is None:
        weapon = session.rules.unarmed_weapon()
    else:
        weapon = session.weapons[held.weapon]
    mode = next((m for m in weapon.modes if mode_name in (None, m.name)), None)
    if mode is None:
        names = ", ".join(m.name for m in weapon.modes)
        raise Illegal(f"The {weapon.name} has no {mode_name!r} mode (it has: {names}).")
    return weapon, mode


def _aim_price(session: Session, uid: str, weapon: WeaponSpec, aim: int) -> tuple[int, int]:
    """(the aim level the attack fires at, the AP still to pay to reach it)."""
    turn = session.get(uid, c.TurnState)
    if aim < 0 or aim > weapon.aim_max:
        raise Illegal(f"The {weapon.name} can be aimed from +0 to +{weapon.aim_max}.")
    level = max(aim, turn.aim_level) if weapon.aim_max else 0
    quick = "quick_aim" in session.get(uid, c.Stats).abilities
    aim_ap = (session.rules.aim_cost(weapon, level, quick)
              - session.rules.aim_cost(weapon, turn.aim_level, quick)) if level else 0
    return level, aim_ap


def price(session: Session, uid: str, mode_name: str | None,
          aim: int) -> tuple[WeaponSpec, FireMode, int, int]:
    """An attack's weapon, mode, aim level and aim AP, whoever it is made at; Illegal if the
    weapon has no such mode or aim."""
    weapon, mode = _weapon_mode(session, uid, mode_name)
    level, aim_ap = _aim_price(session, uid, weapon, aim)
    return weapon, mode, level, aim_ap


def situation(session: Session, plan: AttackPlan, *, reaction: bool = False,
              suppression: bool = False) -> AttackSituation:
    apos, tpos = session.position(plan.attacker), session.position(plan.target)
    turn = session.get(plan.attacker, c.TurnState)
    ap = session.get(plan.attacker, c.ActionPoints)
    abilities = session.get(plan.attacker, c.Stats).abilities
    melee = plan.weapon.kind == "melee"
    on_the_run = "attack_on_the_run" if melee else "shot_on_the_run"
    running = (not reaction and session.rules.is_running(turn.move_ap, ap.per_turn)
               and on_the_run not in abilities)
    assert apos is not None and tpos is not None, "both sides of an attack stand on the map"
    return AttackSituation(
        weapon=plan.weapon, mode=plan.mode, aim_level=plan.aim_level,
        stance=session.get(plan.attacker, c.Posture).stance, location=plan.location,
        distance=session.grid.distance(apos, tpos),
        cover=session.grid.cover_against(tpos, apos),
        concealed=bool(session.grid.concealment[tpos[1], tpos[0]]),
        running=running, moved_rough=not reaction and turn.moved_rough,
        dropped_flat=not reaction and turn.dropped_flat, melee=melee, suppression=suppression,
        extra=tuple(gm.waiting(session, plan.attacker)))


def spend(session: Session, uid: str, cost: int) -> None:
    """Take AP; an action longer than the whole turn leaves a debt for the turns after."""
    ap = session.get(uid, c.ActionPoints)
    if cost > ap.current:
        ap.debt += cost - ap.current
        ap.current = 0
    else:
        ap.current -= cost


def carry_out(session: Session, plan: AttackPlan, *, reaction: bool = False) -> AttackResolved:
    """Roll the attack and apply its hits. AP are spent by the caller."""
    # at the table: the attacker's rolls, each naming the attack it is part of
    with session.dice.by(plan.attacker), session.dice.facing(plan.attacker, plan.target):
        return session.rules.strike(session, plan, reaction)
