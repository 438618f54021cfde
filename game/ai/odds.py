"""Exact odds of attacks, for positions the unit is not standing on yet.

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
from game.core.odds import dice_sum
from game.core.ruleset import AttackSituation, Combatant
from game.rulesets.skirmish.rules import SkirmishRules


@dataclass(frozen=True, slots=True, eq=False)
class Gun:
    """What a weapon needs for odds, in a hashable form (one object per distinct weapon, see
    `gun_of`, so the odds caches hash it by identity)."""

    id: str
    kind: str                               # firearm | melee
    damage: str
    damage_type: str
    spread: int
    range: int
    modes: tuple[tuple[str, int, int], ...]  # (name, ap, rof)
    aim_costs: tuple[int, ...]              # AP to reach aim level 0, 1, ... (from the ruleset)
    magazine: int


@dataclass(frozen=True, slots=True, eq=False)
class Locations:
    """Hit locations as (name, attack modifier, damage multiplier); made by `locations`."""

    items: tuple[tuple[str, int, float], ...]


_CANONICAL: dict[str, SkirmishRules] = {}


def canonical(rules: SkirmishRules) -> SkirmishRules:
    """One shared ruleset object per distinct ruleset, so cached odds carry across battles."""
    key = rules.spec.model_dump_json()
    return _CANONICAL.setdefault(key, rules)


_GUNS: dict[tuple, Gun] = {}
_LOCATIONS: dict[tuple, Locations] = {}


def gun_of(rules: SkirmishRules, weapon: WeaponSpec, quick_aim: bool) -> Gun:
    aim_costs = tuple(rules.aim_cost(weapon, level, quick_aim) for level in range(weapon.aim_max + 1))
    modes = tuple((m.name, m.ap, m.rof) for m in weapon.modes)
    fields = (weapon.id, weapon.kind, weapon.damage, weapon.damage_type, weapon.spread,
              weapon.range, modes, aim_costs, weapon.magazine)
    gun = _GUNS.get(fields)
    if gun is None:
        gun = _GUNS[fields] = Gun(*fields)
    return gun


def locations(items: tuple[tuple[str, int, float], ...]) -> Locations:
    """The one `Locations` object for these hit locations."""
    found = _LOCATIONS.get(items)
    if found is None:
        found = _LOCATIONS[items] = Locations(items)
    return found


def locations_of(rules: SkirmishRules) -> Locations:
    return locations(tuple((name, loc.modifier, loc.damage_multiplier)
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
    """P(sum = s) for s = 0 .. count * sides, from the engine's own distribution."""
    dist = np.zeros(count * sides + 1)
    for total, p in dice_sum(count, sides).items():
        dist[total] = p
    return dist


@lru_cache(maxsize=8192)
def hit_damage(code: str, multiplier: float, armor: int, cap: int, bonus: int = 0) -> np.ndarray:
    """P(HP taken = d) for one hit, d = 0 .. cap (the last entry is `cap` or more)."""
    dc = DiceCode.parse(code)
    sums = _dice_sum(dc.count, dc.sides)
    out = np.zeros(cap + 1)
    for total, p in enumerate(sums):
        if p:
            rolled = SkirmishRules.rolled_damage(total + dc.bonus + bonus, multiplier)
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
def repeated(hits: tuple[float, ...], code: str, multiplier: float, armor: int, cap: int,
             count: int) -> tuple[float, float]:
    """(expected HP taken capped at `cap`, P(taken >= cap)) over `count` identical attacks.

    The attacks' hits add up (`hit_total`), and the damage of n hits is the n-fold sum of one
    hit's (`Powers`), so E = sum over n of P(n hits) * E[damage of n hits, capped].
    """
    total = hit_total(hits, count)
    e, q = Powers.of(code, multiplier, armor, -(-max(1, cap) // CAP_STEP) * CAP_STEP).outcome(
        cap, len(total) - 1)
    return float(total @ e), float(total @ q)


@lru_cache(maxsize=16384)
def hit_total(hits: tuple[float, ...], count: int) -> np.ndarray:
    """P(n hits in all) over `count` attacks whose hit count is distributed as `hits`."""
    if count <= 1:
        return np.array(hits, dtype=np.float64)
    return np.convolve(hit_total(hits, count - 1), hits)


CAP_STEP = 16        # damage distributions are kept capped at a multiple of this


class Powers:
    """The damage of n hits (n = 0, 1, ...) of one weapon at one hit location through one
    armor, capped at `cap`; from it, for any lower cap, each n's expected damage and chance
    to reach the cap (exact: below the cap nothing is folded)."""

    __slots__ = ("one", "cap", "rows", "_by_cap")

    def __init__(self, code: str, multiplier: float, armor: int, cap: int) -> None:
        self.one = hit_damage(code, multiplier, armor, cap)
        self.cap = cap
        start = np.zeros(cap + 1)
        start[0] = 1.0
        self.rows = [start]
        self._by_cap: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    @staticmethod
    @lru_cache(maxsize=1024)
    def of(code: str, multiplier: float, armor: int, cap: int) -> Powers:
        return Powers(code, multiplier, armor, cap)

    def outcome(self, cap: int, most: int) -> tuple[np.ndarray, np.ndarray]:
        """For n = 0 .. `most` hits: expected HP taken (capped at `cap`) and P(taken >= cap)."""
        cap = max(1, cap)
        while len(self.rows) <= most:
            self.rows.append(capped_sum(self.rows[-1], self.one))
        e, q = self._by_cap.get(cap, (np.zeros(0), np.zeros(0)))
        if len(e) <= most:
            block = np.array(self.rows[len(e):most + 1])
            tail = block[:, cap:].sum(axis=1)
            head = block[:, :cap] @ np.arange(cap, dtype=np.float64)
            e, q = np.concatenate((e, head + cap * tail)), np.concatenate((q, tail))
            self._by_cap[cap] = (e, q)
        return e[:most + 1], q[:most + 1]


def chance(rules: SkirmishRules, attack: int, defense: int) -> float:
    """P(d + attack > d + defense): one roll against another, as suppression and dodges use."""
    return 1.0 - rules.hit_distribution(attack, defense, 1, 1)[0]
