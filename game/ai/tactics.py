"""Grenades, suppressive fire and first aid, priced from the ruleset's exact odds.

A grenade's landing square is enumerated over both dice (the Demolitions check, then the
scatter direction), the same way the engine scatters a missed throw; a throw is refused if
any outcome could catch one of the side's own units in the blast. Suppression is priced per
enemy inside the circle (its Dodge against the one attack roll) and never covers a friend.
"""

from __future__ import annotations


import numpy as np

from game.ai import odds
from game.ai.assess import Assessor
from game.ai.intel import Known
from game.core.commands import Revive, Suppress, Throw
from game.core.grid import Grid
from game.core.queries import blast_radius, revive_odds, suppression_diameter, throw_outcomes

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
        radius = blast_radius(a.battle, grenade_id)
        for center in _centers(targets, radius):
            if not _throwable(a.grid, me, center, spec.range):
                continue
            if not a.grid.transparent[center[1], center[0]]:
                continue            # a wall square: the engine refuses it (no grenade lands in it)
            value = blast_value(a, me, center, grenade_id, spec.damage_type, targets, [me.square, *own])
            if value > GRENADE_KEEP:
                out.append((value - GRENADE_KEEP, Throw(me.uid, center, grenade_id)))
    return out


def blast_value(a: Assessor, me: Known, center: Square, grenade: str, damage_type: str,
                targets: list[Known], own: list[Square]) -> float:
    """Expected harm to enemies of a throw at `center`, or 0 if a unit of the side (on `own`)
    could be caught: the engine's own odds of where it lands and what reaches whom."""
    squares = [*own, *(foe.square for foe in targets)]
    total = 0.0
    for p, caught in throw_outcomes(a.battle, me.uid, grenade, center, squares):
        if any(square in caught for square in own):
            if p > FRIENDLY_RISK:
                return 0.0
            continue
        for foe in targets:
            dice = caught.get(foe.square)
            if dice is None:
                continue
            dist = odds.hit_damage(dice, 1.0, foe.armor.get(damage_type, 0), max(1, foe.hp))
            hurt = float(np.dot(np.arange(len(dist)), dist)) + a.value(foe) * float(dist[-1])
            total += p * hurt
    return total


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
    diameter = suppression_diameter(a.battle, me.uid)
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
    """P(the next Heal check on `friend` succeeds) and which stage it is, from the engine."""
    odds_now = revive_odds(a.battle, me.uid, friend.uid)
    return odds_now if odds_now is not None else (0.0, "stabilize")


def revive_value(a: Assessor, me: Known, friend: Known) -> float:
    chance, stage = revive_chance(a, me, friend)
    share = 0.9 if stage == "revive" else (0.6 if friend.info.state == "dying" else 0.3)
    return chance * share * a.value(friend)


def revive_command(me: Known, friend: Known) -> Revive:
    return Revive(me.uid, friend.uid)
