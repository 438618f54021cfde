"""Exact odds under the `skirmish` ruleset: hits from SkirmishRules' own enumeration, damage
through armor, a blast's rings."""

from __future__ import annotations

from collections.abc import Callable

from game.core.dice import DiceCode
from game.core.odds import AttackOdds, Dist, dice_sum, mix, power, remap, states_of
from game.rulesets.skirmish.rules import SkirmishRules


def skirmish_hit_damage(code: DiceCode, multiplier: float, resist: int) -> Dist:
    """Damage one skirmish hit puts through armor, as SkirmishRules.damage computes it."""
    return remap(dice_sum(code.count, code.sides),
                 lambda s: max(0, SkirmishRules.rolled_damage(s + code.bonus, multiplier) - resist))


def skirmish_odds(hit_dist: list[float], per_hit: Dist, hp: int,
                  state: Callable[[int], str]) -> AttackOdds:
    """Combine SkirmishRules.hit_distribution with the damage of each hit."""
    damage = mix((p_k, power(per_hit, k)) for k, p_k in enumerate(hit_dist))
    return AttackOdds(1.0 - hit_dist[0], tuple(hit_dist), damage,
                      states_of(damage, lambda d: state(hp - d)))


def blast_ring_damage(code: DiceCode, ring: int, drop: int, resist: int) -> Dist:
    """A blast at ring r: the sum of the dice from r * drop on (the engine's rule), less armor."""
    left = max(0, code.count - ring * drop)
    return remap(dice_sum(left, code.sides), lambda s: max(0, s + code.bonus - resist))


def riposte_chance(miss: float, back_hits: list[float]) -> float:
    """The chance an attack is answered by a riposte that hits: the attack misses (`miss`),
    then the defender's blow lands (`back_hits`: its hit distribution)."""
    return miss * (1.0 - back_hits[0])
