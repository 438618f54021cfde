"""Grenades: a Demolitions roll against the distance, scatter on a miss, blast ring by ring."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import cast

from game.core import components as c
from game.core.commands import Throw
from game.core.dice import DiceCode
from game.core.events import Exploded, GrenadeThrown
from game.core.grid import Grid
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
    far = min(missed_by, scatter_cap(distance, p.scatter_cap_fraction))
    return scattered_to(session.grid, origin, target, roll, far, p.scatter_die), roll, far


def scatter_cap(distance: int, cap_fraction: float) -> int:
    """The farthest a missed throw scatters, in squares."""
    return max(1, math.ceil(distance * cap_fraction))


def scattered_to(grid: Grid, origin: Square, target: Square, roll: int, far: int,
                 scatter_die: int) -> Square:
    """Where a throw at `target` that scatters `far` squares in direction `roll` comes down: the
    direction turns from "long" (1, away from the thrower) round the die; a wall stops it."""
    base = math.atan2(target[1] - origin[1], target[0] - origin[0]) if target != origin else 0.0
    angle = base + (roll - 1) * 2 * math.pi / scatter_die
    landed = target
    for step in range(1, far + 1):
        square = (round(target[0] + step * math.cos(angle)), round(target[1] + step * math.sin(angle)))
        if not grid.in_bounds(*square) or not grid.transparent[square[1], square[0]]:
            break
        landed = square
    return landed


@lru_cache(maxsize=65536)
def landings(grid: Grid, die: int, scatter_die: int, cap_fraction: float, meters: float,
             origin: Square, target: Square, mod: int) -> dict[Square, float]:
    """Where a throw at `target` lands, with the exact chance of each square: the Demolitions
    die against the distance (`mod` added to it), then the scatter die, as `throw` rolls them."""
    distance = grid.distance(origin, target)
    difficulty = math.ceil(distance * meters)
    out: dict[Square, float] = {}
    cap = scatter_cap(distance, cap_fraction)
    for face in range(1, die + 1):
        if face + mod >= difficulty:
            out[target] = out.get(target, 0.0) + 1 / die
            continue
        far = min(difficulty - face - mod, cap)
        for roll in range(1, scatter_die + 1):
            landed = scattered_to(grid, origin, target, roll, far, scatter_die)
            out[landed] = out.get(landed, 0.0) + 1 / (die * scatter_die)
    return out


def blast_radius(code: DiceCode, drop: int) -> int:
    """The last ring a blast reaches: each ring loses `drop` of its dice."""
    return math.ceil(code.count / drop) - 1


@lru_cache(maxsize=65536)
def blast_ring(grid: Grid, at: Square, square: Square, radius: int) -> int | None:
    """The ring of a blast at `at` that catches `square`, or None if it is not caught."""
    ring = max(abs(square[0] - at[0]), abs(square[1] - at[1]))
    if ring <= radius and grid.sees(at, square, 2 * radius + 1):
        return ring
    return None


def ring_dice(code: DiceCode, ring: int, drop: int) -> str:
    """The dice that reach ring `ring` (the first `ring * drop` dice stop short)."""
    return str(DiceCode(max(0, code.count - ring * drop), code.sides, code.bonus))


def throw_outcomes(session: Session, uid: str, grenade_id: str, at: Square,
                   squares: list[Square]) -> list[tuple[float, dict[Square, str]]]:
    """For a throw by `uid` at `at`: each square it may land on, its chance, and the dice that
    reach each of `squares` caught in the blast. Rolls nothing."""
    rules = rules_of(session)
    p = rules.p.grenade
    who = session.combatant(uid)
    untrained = who.skills.get("demolitions", 0) == 0
    mod = rules.static_modifier("demolitions", who, [], half_attribute=untrained)
    code = DiceCode.parse(session.weapons[grenade_id].damage)
    radius = blast_radius(code, p.ring_dice_drop)
    out = []
    for landed, chance in landings(session.grid, rules.p.die, p.scatter_die, p.scatter_cap_fraction,
                                   rules.p.square_meters, session.position(uid), at, mod).items():
        caught = {}
        for square in squares:
            ring = blast_ring(session.grid, landed, square, radius)
            if ring is not None:
                caught[square] = ring_dice(code, ring, p.ring_dice_drop)
        out.append((chance, caught))
    return out


def explode(session: Session, uid: str, grenade_id: str, at: Square) -> None:
    grenade = session.weapons[grenade_id]
    drop = session.rules.p.grenade.ring_dice_drop
    code = DiceCode.parse(grenade.damage)
    rolls = session.dice.roll_code(code)
    radius = blast_radius(code, drop)
    session.emit(Exploded(at, grenade_id, rolls, grenade.damage_type, radius), at)
    victims = []
    for square, other in session.occupied().items():
        ring = blast_ring(session.grid, at, square, radius)
        if ring is not None:
            victims.append((ring, session.order.index(other) if other in session.order else 0, other))
    struck = False
    for ring, _, other in sorted(victims):
        if session.get(other, c.Health).state == "dead":
            continue
        dice = rolls[ring * drop:]
        rolled = sum(dice) + code.bonus
        resist = min(rolled, session.get(other, c.Armor).resist.get(grenade.damage_type, 0))
        if session.side_of(other) != session.side_of(uid) and not struck:
            session.records[session.side_of(uid)].hits += 1     # one throw, one hit at most
            struck = True
        apply_damage(session, other, uid, DamageRoll(tuple(dice), rolled, resist, rolled - resist),
                     grenade.damage_type)
