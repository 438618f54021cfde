"""The best way to spend some AP on one target: aim level, fire mode, hit location, how often.

`best_shots` weighs every aim level, fire mode and hit location the AP can buy, with the exact
odds of `game.ai.odds`; `openings` gives, for each aim level, the single attack worth most
(the first shot of a turn). What each mode, aim level and hit location does by the number of
attacks is kept (`outcomes`), so questions that differ only in the AP, the aim already taken,
the worth of a kill, or in attack and defense by as much share the work.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from game.ai.odds import Gun, Locations, repeated
from game.rulesets.skirmish.rules import SkirmishRules


@dataclass(frozen=True, slots=True)
class Shots:
    """The best way to spend `ap` on one target: aim once, then fire `count` times."""

    value: float
    mode: str
    location: str
    aim: int
    count: int
    cost: int            # AP for the whole sequence (aim included)
    damage: float        # expected HP taken, capped at the target's HP
    down: float          # probability the target goes down (HP 0 or less)


@dataclass(frozen=True, slots=True)
class Opening:
    """One attack: its value, its chance to put the target down, and its cost."""

    value: float
    down: float
    cost: int
    mode: str
    location: str
    aim: int


@lru_cache(maxsize=200_000)
def best_shots(rules: SkirmishRules, gun: Gun, locations: Locations, attack: int, defense: int,
               armor: int, hp: int, ap: int, aim_now: int, ammo: int, kill_value: float) -> Shots | None:
    """The aim level, mode and location that get the most out of `ap` against one target.

    Value = expected HP taken (capped at the target's HP) + kill_value * P(target goes down).
    `attack` excludes aim bonus and location; `defense` includes cover.
    """
    best: Shots | None = None
    firearm = gun.kind == "firearm"
    hp = max(1, hp)
    for name, mode_ap, rof in _modes(gun, ammo):
        for level in (range(aim_now, len(gun.aim_costs)) if firearm else (0,)):
            aim_ap = gun.aim_costs[level] - gun.aim_costs[aim_now] if level else 0
            count = (ap - aim_ap) // mode_ap
            if firearm:
                count = min(count, -(-ammo // rof))
            if count < 1:
                continue
            for loc, (damage, down) in zip(_names(locations), outcomes(
                    rules, gun, locations, attack + level - defense, rof, armor, hp, count), strict=True):
                value = damage + kill_value * down
                if best is None or value > best.value + 1e-9:
                    best = Shots(value, name, loc, level, count, aim_ap + count * mode_ap,
                                 damage, down)
    return best


@lru_cache(maxsize=100_000)
def openings(rules: SkirmishRules, gun: Gun, locations: Locations, attack: int, defense: int,
             armor: int, hp: int, ap: int, aim_now: int, ammo: int, kill_value: float
             ) -> tuple[Opening, ...]:
    """For each aim level the unit can afford, the single attack worth the most."""
    out = []
    hp = max(1, hp)
    for level in (range(aim_now, len(gun.aim_costs)) if gun.kind == "firearm" else (0,)):
        aim_ap = gun.aim_costs[level] - gun.aim_costs[aim_now] if level else 0
        best: Opening | None = None
        for name, mode_ap, rof in _modes(gun, ammo):
            if aim_ap + mode_ap > ap:
                continue
            for loc, (damage, down) in zip(_names(locations), outcomes(
                    rules, gun, locations, attack + level - defense, rof, armor, hp, 1), strict=True):
                value = damage + kill_value * down
                if best is None or value > best.value + 1e-9:
                    best = Opening(value, down, aim_ap + mode_ap, name, loc, level)
        if best is not None:
            out.append(best)
    return tuple(out)


@lru_cache(maxsize=100_000)
def outcomes(rules: SkirmishRules, gun: Gun, locations: Locations, margin: int, rof: int,
             armor: int, hp: int, count: int) -> list[tuple[float, float]]:
    """(expected HP taken, P(down)) at each hit location, for `count` attacks of `rof` shots
    whose attack total (aim included) beats the defense's by `margin` before the location's
    modifier. The hit counts depend on that difference only: both sides roll the same die."""
    return [repeated(hits, gun.damage, mult, armor, hp, count)
            for hits, (_, _, mult) in zip(_hits(rules, locations, margin, gun.spread, rof),
                                          locations.items, strict=True)]


@lru_cache(maxsize=4096)
def _modes(gun: Gun, ammo: int) -> tuple[tuple[str, int, int], ...]:
    """(name, AP, shots per attack) of each mode the rounds left allow."""
    firearm = gun.kind == "firearm"
    modes = ((name, mode_ap, min(rof, max(ammo, 0)) if firearm else rof)
             for name, mode_ap, rof in gun.modes)
    return tuple(mode for mode in modes if mode[2] > 0)


@lru_cache(maxsize=64)
def _names(locations: Locations) -> tuple[str, ...]:
    return tuple(loc for loc, _, _ in locations.items)


def enough_ammo(gun: Gun, ammo: int, ap: int) -> int:
    """`ammo`, or less when `ap` cannot fire that many rounds anyway (the same shots either way)."""
    if gun.kind != "firearm":
        return ammo
    return min(ammo, max(rof * (ap // mode_ap) for _, mode_ap, rof in gun.modes))


def spendable(gun: Gun, ammo: int, aim_now: int, ap: int) -> int:
    """`useful_ap` for one budget."""
    if ap <= 0:
        return 0
    return int(useful_ap(gun, ammo, aim_now, -(-ap // 32) * 32)[ap])


@lru_cache(maxsize=4096)
def useful_ap(gun: Gun, ammo: int, aim_now: int, most: int) -> np.ndarray:
    """For each AP budget 0 .. `most`: the most of it any aim level and fire mode can spend
    (`best_shots` answers the same for a budget and for what of it can be spent)."""
    firearm = gun.kind == "firearm"
    out = np.zeros(most + 1, dtype=np.int64)
    budgets = np.arange(most + 1)
    for _, mode_ap, rof in gun.modes:
        rof = rof if not firearm else min(rof, max(ammo, 0))
        if rof <= 0:
            continue
        for level in (range(aim_now, len(gun.aim_costs)) if firearm else (0,)):
            aim_ap = gun.aim_costs[level] - gun.aim_costs[aim_now] if level else 0
            count = (budgets - aim_ap) // mode_ap
            if firearm:
                count = np.minimum(count, -(-ammo // rof))
            out = np.maximum(out, np.where(count >= 1, aim_ap + count * mode_ap, 0))
    return out


@lru_cache(maxsize=65536)
def _hits(rules: SkirmishRules, locations: Locations, margin: int, spread: int,
          rof: int) -> list[tuple[float, ...]]:
    """The hit-count distribution at each hit location."""
    return [tuple(rules.hit_distribution(margin + loc_mod, 0, spread, rof))
            for _, loc_mod, _ in locations.items]
