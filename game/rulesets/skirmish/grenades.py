"""Grenades: a Demolitions roll against the distance, scatter on a miss, blast ring by ring."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import cast

from game.core import components as c
from game.core.commands import Throw
from game.core.dice import Dice, DiceCode
from game.core.events import Check, Exploded, GrenadeThrown
from game.core.grid import Grid
from game.core.illegal import Illegal
from game.core.session import Session
from game.core.systems.health import apply_damage
from game.core.systems.attack import spend
from game.core.systems.loadout import can_pay
from game.core.systems.sight import unit_sees
from game.content.schema import WeaponSpec
from game.core.ruleset import Combatant, DamageRoll, Harm, ThrowOdds
from game.rulesets.skirmish.odds import blast_ring_damage
from game.rulesets.skirmish.rules import SkirmishRules, rules_of

Square = tuple[int, int]


def checked(session: Session, uid: str, grenade_id: str, at: Square) -> tuple[WeaponSpec, int, int]:
    """The grenade, the distance and the AP of a throw by `uid` at `at`; Illegal if it would be
    refused. A grenade cannot be thrown into a square that blocks sight (a wall): it would
    come down on both sides of it."""
    name = session.get(uid, c.Unit).name
    loadout = session.get(uid, c.Loadout)
    if loadout.grenades.get(grenade_id, 0) <= 0 or grenade_id not in session.weapons:
        raise Illegal(f"{name} has no {grenade_id} left.")
    grenade = session.weapons[grenade_id]
    pos = session.position(uid)
    if not session.grid.in_bounds(*at) or not unit_sees(session, uid, at):
        raise Illegal(f"{name} cannot see {at} to throw at it.")
    if not session.grid.transparent[at[1], at[0]]:
        raise Illegal(f"{at} is solid ({session.terrain_name(at)}): a grenade cannot land in it.")
    assert pos is not None, "a unit that has the turn stands on the map"
    distance = session.grid.distance(pos, at)
    if distance > grenade.range:
        raise Illegal(f"{at} is {distance} squares away; {name} can throw the {grenade.name} "
                      f"{grenade.range} at most.")
    cost = grenade.modes[0].ap if grenade.modes else 1
    ap = session.get(uid, c.ActionPoints)
    if not can_pay(ap, cost):
        raise Illegal(f"Throwing costs {cost} AP; {name} has {ap.current}.")
    return grenade, distance, cost


def throw(session: Session, cmd: Throw) -> None:
    uid, at = cmd.unit, cast(Square, tuple(cmd.at))   # a copy, should a caller pass a list
    grenade, distance, cost = checked(session, uid, cmd.grenade, at)
    pos = session.position(uid)
    assert pos is not None, "a unit that has the turn stands on the map"
    spend(session, uid, cost)
    session.get(uid, c.Loadout).grenades[cmd.grenade] -= 1
    session.get(uid, c.TurnState).aim_level = 0
    session.records[session.side_of(uid)].shots += 1
    rules = rules_of(session)
    check = throw_check(rules, session.combatant(uid), session.dice)
    difficulty = throw_difficulty(rules, distance)
    landed, scatter_roll, scatter = at, None, 0
    if check.total < difficulty:
        landed, scatter_roll, scatter = scatter_throw(rules, session.grid, session.dice, pos, at,
                                                      difficulty - check.total, distance)
    session.emit(GrenadeThrown(uid, cmd.grenade, at, check, difficulty, landed, scatter_roll,
                               scatter, cost), pos, landed, to=(session.side_of(uid),))
    explode(session, uid, grenade.id, landed)


def throw_check(rules: SkirmishRules, who: Combatant, dice: Dice) -> Check:
    """The thrower's Demolitions check: half the attribute when the skill is untrained."""
    untrained = who.skills.get("demolitions", 0) == 0
    return rules.skill_check("demolitions", who, dice, half_attribute=untrained)


def throw_difficulty(rules: SkirmishRules, distance: int) -> int:
    """The Demolitions total a throw needs to land where aimed: the distance in meters."""
    return math.ceil(distance * rules.p.square_meters)


def scatter_throw(rules: SkirmishRules, grid: Grid, dice: Dice, origin: Square, target: Square,
                  missed_by: int, distance: int) -> tuple[Square, int, int]:
    """Where a missed throw lands: d10 for the direction (1 = long), the miss for the distance.
    (landed, direction roll, squares scattered)."""
    p = rules.p.grenade
    roll = dice.roll(p.scatter_die, "scatter")
    far = min(missed_by, scatter_cap(distance, p.scatter_cap_fraction))
    return scattered_to(grid, origin, target, roll, far, p.scatter_die), roll, far


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


def _throw_modifier(session: Session, uid: str) -> int:
    """What the thrower's Demolitions check adds to its die (half the attribute untrained)."""
    return throw_modifier(rules_of(session), session.combatant(uid))


def throw_modifier(rules: SkirmishRules, who: Combatant) -> int:
    """What `throw_check` adds to its die, without rolling."""
    untrained = who.skills.get("demolitions", 0) == 0
    return rules.static_modifier("demolitions", who, [], half_attribute=untrained)


def _landings(session: Session, uid: str, at: Square) -> dict[Square, float]:
    rules = rules_of(session)
    p = rules.p.grenade
    origin = session.position(uid)
    assert origin is not None, "a thrower stands on the map"
    return landings(session.grid, rules.p.die, p.scatter_die, p.scatter_cap_fraction,
                    rules.p.square_meters, origin, at, _throw_modifier(session, uid))


def throw_outcomes(session: Session, uid: str, grenade_id: str, at: Square,
                   squares: list[Square]) -> list[tuple[float, dict[Square, str]]]:
    """For a throw by `uid` at `at`: each square it may land on, its chance, and the dice that
    reach each of `squares` caught in the blast. Rolls nothing."""
    p = rules_of(session).p.grenade
    code = DiceCode.parse(session.weapons[grenade_id].damage)
    radius = blast_radius(code, p.ring_dice_drop)
    out = []
    for landed, chance in _landings(session, uid, at).items():
        caught = {}
        for square in squares:
            ring = blast_ring(session.grid, landed, square, radius)
            if ring is not None:
                caught[square] = ring_dice(code, ring, p.ring_dice_drop)
        out.append((chance, caught))
    return out


def preview(session: Session, uid: str, grenade_id: str, at: Square, uids: list[str]) -> ThrowOdds:
    """A throw by `uid` at `at` before it is made (`checked` first: Illegal if it would be
    refused): where it may land, the rings of a blast on `at`, and for each of `uids` the
    chance to be caught, the expected damage and the chance to go down, summed over the
    landings exactly as `throw` and `explode` roll them. Rolls nothing."""
    grenade, _, cost = checked(session, uid, grenade_id, at)
    drop = rules_of(session).p.grenade.ring_dice_drop
    code = DiceCode.parse(grenade.damage)
    radius = blast_radius(code, drop)
    grid = session.grid
    spread = sorted(_landings(session, uid, at).items(), key=lambda kv: (-kv[1], kv[0]))
    rings = {}
    for y in range(at[1] - radius, at[1] + radius + 1):
        for x in range(at[0] - radius, at[0] + radius + 1):
            if grid.in_bounds(x, y):
                ring = blast_ring(grid, at, (x, y), radius)
                if ring is not None:
                    rings[(x, y)] = ring
    harms = []
    for other in uids:
        square, health = session.position(other), session.get(other, c.Health)
        if square is None or health.state == "dead":
            continue
        resist = session.get(other, c.Armor).resist.get(grenade.damage_type, 0)
        by_ring: dict[int, tuple[float, float]] = {}      # ring -> (expected damage, P(down))
        caught = expected = down = 0.0
        for landed, chance in spread:
            ring = blast_ring(grid, landed, square, radius)
            if ring is None:
                continue
            if ring not in by_ring:
                by_ring[ring] = _ring_harm(code, ring, drop, resist, health.hp,
                                           health.constitution, health.state == "ok",
                                           session.rules.state_for)
            caught += chance
            expected += chance * by_ring[ring][0]
            down += chance * by_ring[ring][1]
        if caught > 0:
            harms.append(Harm(other, caught, caught, 0.0, expected, down))
    return ThrowOdds(grenade.id, at, cost, radius, tuple(spread), rings, tuple(harms))


@lru_cache(maxsize=65536)
def _ring_harm(code: DiceCode, ring: int, drop: int, resist: int, hp: int, constitution: int,
               up: bool, state_for: Callable[[int, int], str]) -> tuple[float, float]:
    """(expected damage, P(down; for a unit already down, P(dead))) of a blast's ring `ring`
    on a unit with `hp` and `resist` against its damage type."""
    dist = blast_ring_damage(code, ring, drop, resist)
    worse = [p for taken, p in dist.items()
             if (state_for(hp - taken, constitution) != "ok" if up
                 else state_for(hp - taken, constitution) == "dead")]
    return sum(p * taken for taken, p in dist.items()), sum(worse)


def explode(session: Session, uid: str, grenade_id: str, at: Square) -> None:
    grenade = session.weapons[grenade_id]
    drop = session.rules.p.grenade.ring_dice_drop
    code = DiceCode.parse(grenade.damage)
    rolls = session.dice.roll_code(code, "blast damage")
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
        resist = session.get(other, c.Armor).resist.get(grenade.damage_type, 0)
        if session.side_of(other) != session.side_of(uid) and not struck:
            session.records[session.side_of(uid)].hits += 1     # one throw, one hit at most
            struck = True
        apply_damage(session, other, uid, ring_damage(code, rolls, ring, drop, resist),
                     grenade.damage_type)


def ring_damage(code: DiceCode, rolls: Sequence[int], ring: int, drop: int, resist: int) -> DamageRoll:
    """What a blast's dice do at ring `ring`: the dice from ring * drop on, less armor."""
    dice = tuple(rolls[ring * drop:])
    rolled = sum(dice) + code.bonus
    resisted = min(rolled, resist)
    return DamageRoll(dice, rolled, resisted, rolled - resisted)
