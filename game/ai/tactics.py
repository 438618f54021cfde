"""Grenades, suppressive fire and first aid, priced from the ruleset's exact odds.

A grenade's landing square is enumerated over both dice (the Demolitions check, then the
scatter direction), the same way the engine scatters a missed throw; a throw is refused if
any outcome could catch one of the side's own units in the blast. Suppression is priced per
enemy inside the circle (its Dodge against the one attack roll) and never covers a friend.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from game.ai import odds
from game.ai.assess import Assessor
from game.ai.intel import Known
from game.core import components as c
from game.core.commands import Revive, Suppress, Throw
from game.core.dice import DiceCode
from game.core.grid import Grid

Square = tuple[int, int]
FRIENDLY_RISK = 0.0      # chance of catching a friend in the blast we accept
GRENADE_KEEP = 6.0       # what a grenade in the pouch is worth (it is not thrown for less)
PIN_VALUE = 0.5          # an enemy pinned down cannot walk on its next turn


def throw_options(a: Assessor, me: Known, foes: list[Known], own: list[Square]) -> list[tuple[float, Throw]]:
    """(value, command) for each worthwhile throw from where `me` stands (`own`: where the
    side's other units are)."""
    s = a.session
    out: list[tuple[float, Throw]] = []
    targets = [f for f in foes if f.visible]
    if not targets:
        return out
    for grenade_id, count in me.info.grenades:
        spec = s.weapons.get(grenade_id)
        if count <= 0 or spec is None or not spec.modes or spec.modes[0].ap > me.info.ap:
            continue
        code = DiceCode.parse(spec.damage)
        radius = math.ceil(code.count / a.rules.p.grenade.ring_dice_drop) - 1
        for center in _centers(targets, radius):
            if not _throwable(a.grid, me, center, spec.range):
                continue
            value = blast_value(a, me, center, spec.damage, spec.damage_type, radius, targets,
                                [me.square, *own])
            if value > GRENADE_KEEP:
                out.append((value - GRENADE_KEEP, Throw(me.uid, center, grenade_id)))
    return out


def blast_value(a: Assessor, me: Known, center: Square, damage: str, damage_type: str, radius: int,
                targets: list[Known], own: list[Square]) -> float:
    """Expected harm to enemies of a throw at `center`, or 0 if a unit of the side (on `own`)
    could be caught."""
    mod = _demolitions(a, me)
    total = 0.0
    for landed, p in landing(a.grid, a.rules.p.die, a.rules.p.grenade.scatter_die,
                             a.rules.p.grenade.scatter_cap_fraction, a.rules.p.square_meters,
                             me.square, center, mod).items():
        if any(_ring(a.grid, landed, square, radius) is not None for square in own):
            if p > FRIENDLY_RISK:
                return 0.0
            continue
        for foe in targets:
            ring = _ring(a.grid, landed, foe.square, radius)
            if ring is None:
                continue
            dice = _ring_code(damage, ring * a.rules.p.grenade.ring_dice_drop)
            dist = odds.hit_damage(dice, 1.0, foe.armor.get(damage_type, 0), max(1, foe.hp))
            hurt = float(np.dot(np.arange(len(dist)), dist)) + a.value(foe) * float(dist[-1])
            total += p * hurt
    return total


def _ring(grid: Grid, at: Square, square: Square, radius: int) -> int | None:
    ring = max(abs(square[0] - at[0]), abs(square[1] - at[1]))
    if ring <= radius and grid.sees(at, square, 2 * radius + 1):
        return ring
    return None


def _ring_code(damage: str, dropped: int) -> str:
    code = DiceCode.parse(damage)
    return str(DiceCode(max(0, code.count - dropped), code.sides, code.bonus))


def _demolitions(a: Assessor, me: Known) -> int:
    """What the unit adds to its Demolitions die (half the attribute when untrained)."""
    who = me.who
    skill = who.skills.get("demolitions", 0)
    attribute = a.rules.p.skill_attributes.get("demolitions")
    value = who.attributes.get(attribute, 0) if attribute else 0
    return skill + (int(value / 2) if skill == 0 else value) + who.morale_modifier


def _centers(targets: list[Known], radius: int) -> list[Square]:
    squares = {f.square for f in targets}
    for i, one in enumerate(targets):
        for two in targets[i + 1:]:
            if max(abs(one.square[0] - two.square[0]), abs(one.square[1] - two.square[1])) <= 2 * radius:
                squares.add(((one.square[0] + two.square[0]) // 2, (one.square[1] + two.square[1]) // 2))
    return sorted(squares)


def _throwable(grid: Grid, me: Known, at: Square, reach: int) -> bool:
    return (grid.in_bounds(*at) and at != me.square and grid.distance(me.square, at) <= reach
            and grid.sees(me.square, at, me.info.sight))


@lru_cache(maxsize=65536)
def landing(grid: Grid, die: int, scatter_die: int, cap_fraction: float, meters: float,
            origin: Square, target: Square, mod: int) -> dict[Square, float]:
    """Where a throw at `target` lands, with probabilities (as the grenade system scatters)."""
    distance = grid.distance(origin, target)
    difficulty = math.ceil(distance * meters)
    out: dict[Square, float] = {}
    base = math.atan2(target[1] - origin[1], target[0] - origin[0]) if target != origin else 0.0
    cap = max(1, math.ceil(distance * cap_fraction))
    for face in range(1, die + 1):
        if face + mod >= difficulty:
            out[target] = out.get(target, 0.0) + 1 / die
            continue
        far = min(difficulty - face - mod, cap)
        for roll in range(1, scatter_die + 1):
            angle = base + (roll - 1) * 2 * math.pi / scatter_die
            landed = target
            for step in range(1, far + 1):
                sq = (round(target[0] + step * math.cos(angle)), round(target[1] + step * math.sin(angle)))
                if not grid.in_bounds(*sq) or not grid.transparent[sq[1], sq[0]]:
                    break
                landed = sq
            out[landed] = out.get(landed, 0.0) + 1 / (die * scatter_die)
    return out


def suppress_options(a: Assessor, me: Known, foes: list[Known], own: list[Square]) -> list[tuple[float, Suppress]]:
    """(value, command) for suppressive fire centred on each enemy or pair of enemies (`own`:
    where the side's other units are)."""
    s = a.session
    gun = a.gun(me)
    abilities = dict(me.info.abilities)
    if (gun is None or gun.kind != "firearm" or "suppressive_fire" not in abilities
            or me.info.ammo <= 0 or me.info.ap < me.info.ap_per_turn):
        return []
    targets = [f for f in foes if f.visible]
    diameter = s.rules.suppression_diameter(s, me.uid)
    out = []
    for center in _centers(targets, diameter // 2):
        if not _throwable(a.grid, me, center, 10**6):
            continue
        area = set(s.grid.disc(center, diameter))
        if any(square in area for square in own):
            continue
        beyond = a.grid.distance(me.square, center) > me.weapon.range
        attack = a.attack_total(me, me.info.stance, beyond, False)
        value = sum(_pin_value(a, me, foe, attack) for foe in targets if foe.square in area)
        if value > 0:
            out.append((value, Suppress(me.uid, center)))
    return out


def _pin_value(a: Assessor, me: Known, foe: Known, attack: int) -> float:
    """One unaimed hit's worth, if the enemy fails its Dodge, and the pin itself."""
    cover = a.grid.cover_against(foe.square, me.square)
    p_hit = odds.chance(a.rules, attack, a.defense_total(foe, cover))
    dist = odds.hit_damage(me.weapon.damage, 1.0, foe.armor.get(me.weapon.damage_type, 0), max(1, foe.hp))
    hurt = float(np.dot(np.arange(len(dist)), dist)) + a.value(foe) * float(dist[-1])
    return p_hit * hurt + PIN_VALUE


def revive_chance(a: Assessor, me: Known, friend: Known) -> tuple[float, str]:
    """P(the next Heal check on `friend` succeeds) and which stage it is."""
    health = a.session.get(friend.uid, c.Health)
    p = a.rules.p.revive
    stage = "revive" if health.stabilized else "stabilize"
    difficulty = health.heal_ds.get(stage, p.revive_ds if stage == "revive" else p.stabilize_ds)
    mod = a.rules.static_modifier("heal", me.who, [])
    faces = sum(1 for face in range(1, a.rules.p.die + 1) if face + mod >= difficulty)
    return faces / a.rules.p.die, stage


def revive_value(a: Assessor, me: Known, friend: Known) -> float:
    chance, stage = revive_chance(a, me, friend)
    share = 0.9 if stage == "revive" else (0.6 if friend.info.state == "dying" else 0.3)
    return chance * share * a.value(friend)


def revive_command(me: Known, friend: Known) -> Revive:
    return Revive(me.uid, friend.uid)
