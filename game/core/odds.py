"""Exact odds: probability distributions of dice totals, hits and damage.

Distributions are dicts {value: probability}, built by enumeration and convolution, never by
sampling. The only approximation anywhere is OpenD6's exploding Wild Die (see opend6.py),
whose chains are cut where their remaining probability is below a stated bound.

`AttackOdds` is what every ruleset's odds function returns, so the referee's calculator prints
them alike. Each ruleset's own odds live in its package (game/rulesets/<name>/odds.py).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from game.core.dice import DiceCode

Dist = dict[int, float]


@lru_cache(maxsize=512)
def _dice_sum(count: int, sides: int) -> tuple[tuple[int, float], ...]:
    dist: Dist = {0: 1.0}
    face: Dist = {f: 1.0 / sides for f in range(1, sides + 1)}
    for _ in range(count):
        dist = convolve(dist, face)
    return tuple(sorted(dist.items()))


def dice_sum(count: int, sides: int) -> Dist:
    """The total of `count` dice of `sides` faces."""
    return dict(_dice_sum(count, sides))


def code_dist(code: DiceCode) -> Dist:
    return shift(dice_sum(code.count, code.sides), code.bonus)


def convolve(a: Dist, b: Dist) -> Dist:
    """The distribution of X + Y for independent X ~ a, Y ~ b."""
    out: Dist = defaultdict(float)
    for x, px in a.items():
        for y, py in b.items():
            out[x + y] += px * py
    return dict(out)


def convolve_all(parts: Iterable[Dist]) -> Dist:
    dist: Dist = {0: 1.0}
    for part in parts:
        dist = convolve(dist, part)
    return dist


def shift(dist: Dist, by: int) -> Dist:
    return {value + by: p for value, p in dist.items()}


def remap(dist: Dist, fn: Callable[[int], int]) -> Dist:
    """The distribution of fn(X)."""
    out: Dist = defaultdict(float)
    for value, p in dist.items():
        out[fn(value)] += p
    return dict(out)


def mix(parts: Iterable[tuple[float, Dist]]) -> Dist:
    """A weighted sum of distributions (weights need not add to 1)."""
    out: Dist = defaultdict(float)
    for weight, dist in parts:
        for value, p in dist.items():
            out[value] += weight * p
    return dict(out)


def power(dist: Dist, times: int) -> Dist:
    """The total of `times` independent draws of `dist`."""
    return convolve_all([dist] * times)


def mean(dist: Dist) -> float:
    return sum(value * p for value, p in dist.items())


@dataclass(frozen=True)
class AttackOdds:
    """The exact outcome of one attack: hit chance, hits, damage through armor, states after."""

    p_hit: float
    hits: tuple[float, ...]                      # P(exactly k hits), k = 0..max
    damage: Dist                                 # damage applied (0 on a miss)
    states: dict[str, float]                     # the defender's condition afterwards
    wounds: Dist = field(default_factory=lambda: {0: 1.0})
    notes: tuple[str, ...] = ()

    @property
    def expected_damage(self) -> float:
        return mean(self.damage)

    def to_dict(self) -> dict[str, object]:
        return {"p_hit": self.p_hit, "hits": list(self.hits),
                "expected_damage": self.expected_damage,
                "damage": {str(k): v for k, v in sorted(self.damage.items())},
                "wounds": {str(k): v for k, v in sorted(self.wounds.items())},
                "states": dict(sorted(self.states.items())), "notes": list(self.notes)}


def states_of(damage: Dist, state: Callable[[int], str]) -> dict[str, float]:
    out: dict[str, float] = defaultdict(float)
    for value, p in damage.items():
        out[state(value)] += p
    return dict(out)

