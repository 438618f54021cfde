"""The best way to spend some AP on one target: aim level, fire mode, hit location, how often.

`best_shots` weighs every aim level, fire mode and hit location the AP can buy, with the exact
odds of `game.ai.odds`; `openings` gives, for each aim level, the single attack worth most
(the first shot of a turn). A `Table` keeps what each mode, aim level and hit location does to
one target by the number of attacks, so questions that differ only in the AP, the aim already
taken or the worth of a kill share the work.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from game.ai.odds import Gun, Locations, repeated
from game.rules.skirmish import SkirmishRules


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
    table = Table.of(rules, gun, locations, attack, defense, armor, max(1, hp), ammo)
    for index, (name, mode_ap, rof) in enumerate(table.modes):
        for level in (range(aim_now, len(gun.aim_costs)) if firearm else (0,)):
            aim_ap = gun.aim_costs[level] - gun.aim_costs[aim_now] if level else 0
            count = (ap - aim_ap) // mode_ap
            if firearm:
                count = min(count, -(-ammo // rof))
            if count < 1:
                continue
            for loc, (damage, down) in zip(table.names, table.outcomes(index, level, count)):
                value = damage + kill_value * down
                if best is None or value > best.value + 1e-9:
                    best = Shots(value, name, loc, level, count, aim_ap + count * mode_ap,
                                 aim_ap + mode_ap, damage, down)
    return best


@lru_cache(maxsize=100_000)
def openings(rules: SkirmishRules, gun: Gun, locations: Locations, attack: int, defense: int,
             armor: int, hp: int, ap: int, aim_now: int, ammo: int, kill_value: float
             ) -> tuple[Opening, ...]:
    """For each aim level the unit can afford, the single attack worth the most."""
    out = []
    table = Table.of(rules, gun, locations, attack, defense, armor, max(1, hp), ammo)
    for level in (range(aim_now, len(gun.aim_costs)) if gun.kind == "firearm" else (0,)):
        aim_ap = gun.aim_costs[level] - gun.aim_costs[aim_now] if level else 0
        best: Opening | None = None
        for index, (name, mode_ap, _) in enumerate(table.modes):
            if aim_ap + mode_ap > ap:
                continue
            for loc, (damage, down) in zip(table.names, table.outcomes(index, level, 1)):
                value = damage + kill_value * down
                if best is None or value > best.value + 1e-9:
                    best = Opening(value, down, aim_ap + mode_ap, name, loc, level)
        if best is not None:
            out.append(best)
    return tuple(out)


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


class Table:
    """What each fire mode, aim level and hit location does to one target (its defense, armor
    and HP fixed), by the number of attacks: the inner loop of `best_shots`, kept per target."""

    __slots__ = ("rules", "gun", "locations", "attack", "defense", "armor", "hp", "modes",
                 "names", "_hits", "_done")

    def __init__(self, rules: SkirmishRules, gun: Gun, locations: Locations, attack: int,
                 defense: int, armor: int, hp: int, rounds: int) -> None:
        self.rules, self.gun, self.locations = rules, gun, locations
        self.attack, self.defense, self.armor, self.hp = attack, defense, armor, hp
        firearm = gun.kind == "firearm"
        modes = [(name, mode_ap, min(rof, rounds) if firearm else rof)
                 for name, mode_ap, rof in gun.modes]
        self.modes = [mode for mode in modes if mode[2] > 0]     # (name, AP, shots per attack)
        self.names = [loc for loc, _, _ in locations.items]
        self._hits: dict[tuple[int, int], list[tuple[float, ...]]] = {}
        self._done: dict[tuple[int, int, int], list[tuple[float, float]]] = {}

    @staticmethod
    def of(rules: SkirmishRules, gun: Gun, locations: Locations, attack: int, defense: int,
           armor: int, hp: int, ammo: int) -> Table:
        """The table for this target; rounds beyond the largest burst make no difference."""
        most = max((rof for _, _, rof in gun.modes), default=0)
        rounds = min(max(ammo, 0), most) if gun.kind == "firearm" else most
        return _table(rules, gun, locations, attack, defense, armor, hp, rounds)

    def outcomes(self, mode: int, level: int, count: int) -> list[tuple[float, float]]:
        """(expected HP taken, P(down)) at each hit location, for `count` attacks."""
        key = (mode, level, count)
        found = self._done.get(key)
        if found is None:
            gun = self.gun
            found = self._done[key] = [
                repeated(hits, gun.damage, mult, self.armor, self.hp, count)
                for hits, (_, _, mult) in zip(self._hits_at(mode, level), self.locations.items)]
        return found

    def _hits_at(self, mode: int, level: int) -> list[tuple[float, ...]]:
        found = self._hits.get((mode, level))
        if found is None:
            found = self._hits[(mode, level)] = _hits(self.rules, self.locations, self.attack + level,
                                                      self.defense, self.gun.spread, self.modes[mode][2])
        return found


@lru_cache(maxsize=8192)
def _table(rules: SkirmishRules, gun: Gun, locations: Locations, attack: int, defense: int,
           armor: int, hp: int, rounds: int) -> Table:
    return Table(rules, gun, locations, attack, defense, armor, hp, rounds)


@lru_cache(maxsize=65536)
def _hits(rules: SkirmishRules, locations: Locations, attack: int, defense: int, spread: int,
          rof: int) -> list[tuple[float, ...]]:
    """The hit-count distribution at each hit location."""
    return [tuple(rules.hit_distribution(attack + loc_mod, defense, spread, rof))
            for _, loc_mod, _ in locations.items]
