"""Grenades: a Demolitions roll against the distance, scatter on a miss, blast ring by ring."""

from __future__ import annotations

import math
from typing import cast

from game.core import components as c
from game.core.commands import Throw
from game.core.dice import DiceCode
from game.core.events import Exploded, GrenadeThrown
from game.core.illegal import Illegal
from game.core.session import Session
from game.core.systems.health import apply_damage
from game.core.systems.sight import unit_sees
from game.core.ruleset import DamageRoll
from game.rulesets.skirmish.rules import rules_of

Square = tuple[int, int]


def throw(session: Session, cmd: Throw) -> None:
    uid, at = cmd.unit, cast(Square, tuple(cmd.at))   # a copy, should a caller pass a list
    name = session.get(uid, c.Unit).name
    loadout = session.get(uid, c.Loadout)
    if loadout.grenades.get(cmd.grenade, 0) <= 0 or cmd.grenade not in session.weapons:
        raise Illegal(f"{name} has no {cmd.grenade} left.")
    grenade = session.weapons[cmd.grenade]
    pos = session.position(uid)
    if not session.grid.in_bounds(*at) or not unit_sees(session, uid, at):
        raise Illegal(f"{name} cannot see {at} to throw at it.")
    assert pos is not None, "a unit that has the turn stands on the map"
    distance = session.grid.distance(pos, at)
    if distance > grenade.range:
        raise Illegal(f"{at} is {distance} squares away; {name} can throw the {grenade.name} "
                      f"{grenade.range} at most.")
    cost = grenade.modes[0].ap if grenade.modes else 1
    ap = session.get(uid, c.ActionPoints)
    if cost > ap.current:
        raise Illegal(f"Throwing costs {cost} AP; {name} has {ap.current}.")
    ap.current -= cost
    loadout.grenades[cmd.grenade] -= 1
    session.get(uid, c.TurnState).aim_level = 0
    session.records[session.side_of(uid)].shots += 1
    who = session.combatant(uid)
    untrained = who.skills.get("demolitions", 0) == 0
    check = rules_of(session).skill_check("demolitions", who, session.dice, half_attribute=untrained)
    difficulty = math.ceil(distance * session.rules.p.square_meters)
    landed, scatter_roll, scatter = at, None, 0
    if check.total < difficulty:
        landed, scatter_roll, scatter = _scatter(session, pos, at, difficulty - check.total, distance)
    session.emit(GrenadeThrown(uid, cmd.grenade, at, check, difficulty, landed, scatter_roll,
                               scatter, cost), pos, landed, to=(session.side_of(uid),))
    explode(session, uid, grenade.id, landed)


def _scatter(session: Session, origin: Square, target: Square, missed_by: int,
             distance: int) -> tuple[Square, int, int]:
    """Where a missed throw lands: d10 for the direction (1 = long), the miss for the distance."""
    p = session.rules.p.grenade
    roll = session.dice.roll(p.scatter_die)
    cap = max(1, math.ceil(distance * p.scatter_cap_fraction))
    far = min(missed_by, cap)
    base = math.atan2(target[1] - origin[1], target[0] - origin[0]) if target != origin else 0.0
    angle = base + (roll - 1) * 2 * math.pi / p.scatter_die
    landed = target
    for step in range(1, far + 1):
        square = (round(target[0] + step * math.cos(angle)), round(target[1] + step * math.sin(angle)))
        if not session.grid.in_bounds(*square) or not session.grid.transparent[square[1], square[0]]:
            break
        landed = square
    return landed, roll, far


def explode(session: Session, uid: str, grenade_id: str, at: Square) -> None:
    grenade = session.weapons[grenade_id]
    drop = session.rules.p.grenade.ring_dice_drop
    code = DiceCode.parse(grenade.damage)
    rolls = session.dice.roll_code(code)
    radius = math.ceil(code.count / drop) - 1
    session.emit(Exploded(at, grenade_id, rolls, grenade.damage_type, radius), at)
    victims = []
    for square, other in session.occupied().items():
        ring = max(abs(square[0] - at[0]), abs(square[1] - at[1]))
        if ring <= radius and session.grid.sees(at, square, 2 * radius + 1):
            victims.append((ring, session.order.index(other) if other in session.order else 0, other))
    for ring, _, other in sorted(victims):
        if session.get(other, c.Health).state == "dead":
            continue
        dice = rolls[ring * drop:]
        rolled = sum(dice) + code.bonus
        resist = min(rolled, session.get(other, c.Armor).resist.get(grenade.damage_type, 0))
        if session.side_of(other) != session.side_of(uid):
            session.records[session.side_of(uid)].hits += 1
        apply_damage(session, other, uid, DamageRoll(tuple(dice), rolled, resist, rolled - resist),
                     grenade.damage_type)
