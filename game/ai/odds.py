"""Exact odds of attack sequences, for positions the unit is not standing on yet.

`queries.preview_attack` gives the exact odds of one attack from where a unit stands now. The
computer player also needs them for squares it might move to and for a whole turn of shots,
so this module rebuilds the same numbers from the ruleset: the attack and defense totals come
from `rules.attack_modifiers` / `rules.static_modifier`, the hit counts from
`rules.hit_distribution` (both dice enumerated), and the damage from the weapon's dice code,
armor and hit location. Nothing here is sampled. Results are cached: the same numbers come up
again and again, across turns and battles.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from game.content.schema import WeaponSpec
from game.core.dice import DiceCode
from game.rules.skirmish import AttackSituation, Combatant, SkirmishRules


@dataclass(frozen=True, slots=True)
class Gun:
    """What a weapon needs for odds, in a hashable form."""

    id: str
    kind: str                               # firearm | melee
    damage: str
    damage_type: str
    spread: int
    range: int
    modes: tuple[tuple[str, int, int], ...]  # (name, ap, rof)
    aim_costs: tuple[int, ...]              # AP to reach aim level 0, 1, ... (from the ruleset)
    magazine: int


@dataclass(frozen=True, slots=True)
class Locations:
    """Hit locations as (name, attack modifier, damage multiplier)."""

    items: tuple[tuple[str, int, float], ...]


@dataclass(frozen=True, slots=True)
class Shots:
    """The best way to spend `ap` on one target: aim once, then fire `count` times."""

    value: float
    mode: str
    location: str
    aim: int
    count: int
    cost: int            # AP for the whole sequence (aim included)
    first_cost: int      # AP for the first attack (aim included)
    damage: float        # expected HP taken, capped at the target's HP
    down: float          # probability the target goes down (HP 0 or less)


_CANONICAL: dict[str, SkirmishRules] = {}


def canonical(rules: SkirmishRules) -> SkirmishRules:
    """One shared ruleset object per distinct ruleset, so cached odds carry across battles."""
    key = rules.spec.model_dump_json()
    return _CANONICAL.setdefault(key, rules)


def gun_of(rules: SkirmishRules, weapon: WeaponSpec, quick_aim: bool) -> Gun:
    aim_costs = tuple(rules.aim_cost(weapon, level, quick_aim) for level in range(weapon.aim_max + 1))
    modes = tuple((m.name, m.ap, m.rof) for m in weapon.modes)
    return Gun(weapon.id, weapon.kind, weapon.damage, weapon.damage_type, weapon.spread,
               weapon.range, modes, aim_costs, weapon.magazine)


def locations_of(rules: SkirmishRules) -> Locations:
    return Locations(tuple((name, loc.modifier, loc.damage_multiplier)
                           for name, loc in rules.p.hit_locations.items()))


def attack_base(rules: SkirmishRules, who: Combatant, weapon: WeaponSpec, *, stance: str,
                distance: int, concealed: bool = False, running: bool = False,
                moved_rough: bool = False, dropped_flat: bool = False) -> int:
    """Everything added to the attack die except the aim bonus and the hit location."""
    melee = weapon.kind == "melee"
    sit = AttackSituation(weapon=weapon, mode=weapon.modes[0], aim_level=0, stance=stance,
                          location="", distance=distance, cover="none", concealed=concealed,
                          running=running, moved_rough=moved_rough, dropped_flat=dropped_flat,
                          melee=melee)
    mods = rules.attack_modifiers(sit)
    skill = weapon.skill
    return rules.static_modifier(skill, who, mods)


def defense_total(rules: SkirmishRules, who: Combatant, cover: str, weapon: WeaponSpec | None = None) -> int:
    """Everything added to the defense die, with `cover` between the defender and the attacker."""
    if weapon is not None and weapon.kind == "melee":
        sit = AttackSituation(weapon=weapon, mode=weapon.modes[0], aim_level=0, stance="stand",
                              location="", distance=1, cover="none", concealed=False,
                              running=False, moved_rough=False, dropped_flat=False, melee=True)
        return rules.static_modifier(rules.defense_skill(who, sit), who, [])
    return rules.static_modifier("dodge", who, [("cover", rules.p.cover_dodge_bonus[cover])])


# --- damage distributions ----------------------------------------------------------------------

@lru_cache(maxsize=256)
def _dice_sum(count: int, sides: int) -> np.ndarray:
    """P(sum = s) for s = 0 .. count * sides."""
    dist = np.array([1.0])
    face = np.ones(sides + 1)
    face[0] = 0.0
    face /= sides
    for _ in range(count):
        dist = np.convolve(dist, face)
    return dist


@lru_cache(maxsize=8192)
def hit_damage(code: str, multiplier: float, armor: int, cap: int, bonus: int = 0) -> np.ndarray:
    """P(HP taken = d) for one hit, d = 0 .. cap (the last entry is `cap` or more)."""
    dc = DiceCode.parse(code)
    sums = _dice_sum(dc.count, dc.sides)
    out = np.zeros(cap + 1)
    for total, p in enumerate(sums):
        if p:
            rolled = max(0, int((total + dc.bonus + bonus) * multiplier))
            out[min(cap, max(0, rolled - armor))] += p
    return out


def capped_sum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distribution of a + b, with everything at or past the cap in the last entry."""
    cap = len(a) - 1
    full = np.convolve(a, b)
    out = full[:cap + 1].copy()
    out[cap] += full[cap + 1:].sum()
    return out


@lru_cache(maxsize=65536)
def attack_damage(hits: tuple[float, ...], code: str, multiplier: float, armor: int, cap: int) -> np.ndarray:
    """Distribution of HP taken from one attack whose hit count is distributed as `hits`."""
    per_hit = hit_damage(code, multiplier, armor, cap)
    out = np.zeros(cap + 1)
    k_hits = np.zeros(cap + 1)
    k_hits[0] = 1.0
    for k, p in enumerate(hits):
        if k:
            k_hits = capped_sum(k_hits, per_hit)
        if p:
            out += p * k_hits
    return out


@lru_cache(maxsize=65536)
def repeated(hits: tuple[float, ...], code: str, multiplier: float, armor: int, cap: int,
             count: int) -> tuple[float, float]:
    """(expected HP taken capped at `cap`, P(taken >= cap)) over `count` identical attacks."""
    one = attack_damage(hits, code, multiplier, armor, cap)
    dist = one
    for _ in range(count - 1):
        dist = capped_sum(dist, one)
    return float(np.dot(np.arange(cap + 1), dist)), float(dist[cap])


# --- best sequence -----------------------------------------------------------------------------

@lru_cache(maxsize=200_000)
def best_shots(rules: SkirmishRules, gun: Gun, locations: Locations, attack: int, defense: int,
               armor: int, hp: int, ap: int, aim_now: int, ammo: int, kill_value: float) -> Shots | None:
    """The aim level, mode and location that get the most out of `ap` against one target.

    Value = expected HP taken (capped at the target's HP) + kill_value * P(target goes down).
    `attack` excludes aim bonus and location; `defense` includes cover.
    """
    best: Shots | None = None
    hp = max(1, hp)
    levels = range(aim_now, len(gun.aim_costs)) if gun.kind == "firearm" else (0,)
    for name, mode_ap, rof in gun.modes:
        shots_rof = rof if gun.kind != "firearm" else min(rof, max(ammo, 0))
        if shots_rof <= 0:
            continue
        for level in levels:
            aim_ap = gun.aim_costs[level] - gun.aim_costs[aim_now] if level else 0
            count = (ap - aim_ap) // mode_ap
            if gun.kind == "firearm":
                count = min(count, -(-ammo // shots_rof))
            if count < 1:
                continue
            for loc, loc_mod, mult in locations.items:
                hits = tuple(rules.hit_distribution(attack + level + loc_mod, defense, gun.spread, shots_rof))
                damage, down = repeated(hits, gun.damage, mult, armor, hp, count)
                value = damage + kill_value * down
                if best is None or value > best.value + 1e-9:
                    best = Shots(value, name, loc, level, count, aim_ap + count * mode_ap,
                                 aim_ap + mode_ap, damage, down)
    return best


@dataclass(frozen=True, slots=True)
class Opening:
    """One attack: its value, its chance to put the target down, and its cost."""

    value: float
    down: float
    cost: int
    mode: str
    location: str
    aim: int


@lru_cache(maxsize=100_000)
def openings(rules: SkirmishRules, gun: Gun, locations: Locations, attack: int, defense: int,
             armor: int, hp: int, ap: int, aim_now: int, ammo: int, kill_value: float) -> tuple[Opening, ...]:
    """For each aim level the unit can afford, the single attack worth the most."""
    out = []
    hp = max(1, hp)
    levels = range(aim_now, len(gun.aim_costs)) if gun.kind == "firearm" else (0,)
    for level in levels:
        aim_ap = gun.aim_costs[level] - gun.aim_costs[aim_now] if level else 0
        best: Opening | None = None
        for name, mode_ap, rof in gun.modes:
            shots_rof = rof if gun.kind != "firearm" else min(rof, ammo)
            if shots_rof <= 0 or aim_ap + mode_ap > ap:
                continue
            for loc, loc_mod, mult in locations.items:
                hits = tuple(rules.hit_distribution(attack + level + loc_mod, defense, gun.spread, shots_rof))
                damage, down = repeated(hits, gun.damage, mult, armor, hp, 1)
                value = damage + kill_value * down
                if best is None or value > best.value + 1e-9:
                    best = Opening(value, down, aim_ap + mode_ap, name, loc, level)
        if best is not None:
            out.append(best)
    return tuple(out)


def chance(rules: SkirmishRules, attack: int, defense: int) -> float:
    """P(d + attack > d + defense): one roll against another, as suppression and dodges use."""
    return 1.0 - rules.hit_distribution(attack, defense, 1, 1)[0]
