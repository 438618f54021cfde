"""Exact odds: probability distributions of dice totals, hits and damage.

Distributions are dicts {value: probability}, built by enumeration and convolution, never by
sampling. The only approximation anywhere is OpenD6's exploding Wild Die (see opend6.py),
whose chains are cut where their remaining probability is below a stated bound.

`AttackOdds` is what every ruleset's odds function returns, so the referee's calculator prints
them alike. `skirmish_odds` covers the default ruleset from SkirmishRules' own enumeration.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from game.core.dice import DiceCode
from game.rules.d20 import D20Rules
from game.rules.d20 import Fighter as D20Fighter
from game.rules.d20 import Situation as D20Situation
from game.rules.d20 import Weapon as D20Weapon
from game.rules.opend6 import D6Code, OpenD6Rules
from game.rules.opend6 import Fighter as OD6Fighter
from game.rules.opend6 import Situation as OD6Situation
from game.rules.opend6 import Weapon as OD6Weapon

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


def at_least(dist: Dist, threshold: int) -> float:
    return sum(p for value, p in dist.items() if value >= threshold)


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


# --- skirmish -------------------------------------------------------------------------------

def skirmish_hit_damage(code: DiceCode, multiplier: float, resist: int) -> Dist:
    """Damage one skirmish hit puts through armor, as SkirmishRules.damage computes it."""
    return remap(dice_sum(code.count, code.sides),
                 lambda s: max(0, max(0, int((s + code.bonus) * multiplier)) - resist))


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


def binomial_tolerance(p: float, n: int, sigmas: float = 5.0) -> float:
    """A tolerance for a simulated frequency: `sigmas` binomial standard errors (and a floor)."""
    return sigmas * math.sqrt(max(p * (1 - p), 1.0 / n) / n)


# --- opend6 -----------------------------------------------------------------------------------

def wild_die(cutoff: float) -> Dist:
    """The exploding Wild Die: 1-5 as rolled, a 6 rolled again and added while it shows 6.

    The chain is cut once the chance of rolling yet another 6 falls below `cutoff`, so the
    probability left out is below `cutoff` (1e-9 by default: 12 sixes in a row).
    """
    dist: Dist = {}
    sixes = 0
    while True:
        p = 6.0 ** -(sixes + 1)
        for face in range(1, 6):
            dist[6 * sixes + face] = p
        if 6.0 ** -(sixes + 1) < cutoff:
            return dist
        sixes += 1


@lru_cache(maxsize=64)
def _sum_less_highest(count: int) -> tuple[tuple[int, float], ...]:
    """The total of `count` d6 with the highest die taken off."""
    states: dict[tuple[int, int], float] = {(0, 0): 1.0}
    for _ in range(count):
        nxt: dict[tuple[int, int], float] = defaultdict(float)
        for (total, high), p in states.items():
            for face in range(1, 7):
                nxt[(total + face, max(high, face))] += p / 6
        states = nxt
    return tuple(remap_pairs(states).items())


def remap_pairs(states: dict[tuple[int, int], float]) -> Dist:
    out: Dist = defaultdict(float)
    for (total, high), p in states.items():
        out[total - high] += p
    return dict(out)


def d6_roll_dist(rules: OpenD6Rules, code: D6Code, *, wild: bool = True, extra_dice: int = 0) -> Dist:
    """The total of an OpenD6 roll, exactly as OpenD6Rules.roll_code makes it."""
    p = rules.p
    wild = wild and p.wild_die and code.dice > 0
    n = code.dice - (1 if wild else 0) + extra_dice
    return shift(dict(_d6_dice(n, wild, p.explosion_cutoff, p.wild_one)), code.pips)


@lru_cache(maxsize=256)
def _d6_dice(n: int, wild: bool, cutoff: float, wild_one: str) -> tuple[tuple[int, float], ...]:
    """`n` plain d6 and, if `wild`, the Wild Die (its 1 taking the highest die off unless it is
    a complication): the same few rolls are asked for again and again."""
    normal = dice_sum(n, 6)
    if not wild:
        return tuple(normal.items())
    chain = wild_die(cutoff)
    if wild_one == "complication":
        return tuple(convolve(normal, chain).items())
    rest = {value: q for value, q in chain.items() if value != 1}
    one = dict(_sum_less_highest(n)) if n else {0: 1.0}
    return tuple(mix([(1.0, convolve(normal, rest)), (1.0 / 6, one)]).items())


def opend6_odds(rules: OpenD6Rules, attacker: OD6Fighter, defender: OD6Fighter,
                weapon: OD6Weapon, sit: OD6Situation) -> AttackOdds:
    mods = rules.difficulty_mods(sit)
    if sit.defense == "passive":
        difficulties = {rules.difficulty(rules.passive_defense(defender), mods): 1.0}
    else:
        bonus = rules.p.full_defense_bonus if sit.full_defense else 0
        if sit.defense_total is not None:
            rolled = {sit.defense_total: 1.0}
        else:
            rolled = d6_roll_dist(rules, rules.defense_code(defender, sit),
                                  extra_dice=sit.defender_character_points)
        difficulties = remap(rolled, lambda t: rules.difficulty(t + bonus, mods))
    attack = d6_roll_dist(rules, rules.attack_code(attacker, weapon, sit), extra_dice=sit.character_points)
    bonuses: Dist = defaultdict(float)
    if rules.blocked(sit) is None:
        for a, pa in attack.items():
            for d, pd in difficulties.items():
                if a >= d:
                    bonuses[rules.damage_bonus(a, d)] += pa * pd
    p_hit = sum(bonuses.values())
    damage: Dist = {0: 1.0 - p_hit}
    if p_hit > 0:
        armor_code = D6Code.parse(defender.armor)
        armor = ({armor_code.pips: 1.0} if armor_code.dice == 0
                 else d6_roll_dist(rules, armor_code, wild=False))
        rolled_damage = d6_roll_dist(rules, rules.damage_code(attacker, weapon),
                                     wild=rules.p.wild_die_on_damage)
        total = convolve(rolled_damage, {b: q / p_hit for b, q in bonuses.items()})
        through = remap(convolve(total, {-a: q for a, q in armor.items()}), lambda v: max(0, v))
        damage = mix([(1.0, damage), (p_hit, through)])
    states = states_of(damage, lambda d: rules.state_for(defender.damage + d, defender))
    note = f"Wild Die explosions cut below {rules.p.explosion_cutoff:g} probability"
    return AttackOdds(p_hit, (1.0 - p_hit, p_hit), damage, states, notes=(note,))


# --- d20 --------------------------------------------------------------------------------------

def d20_odds(rules: D20Rules, attacker: D20Fighter, defender: D20Fighter, weapon: D20Weapon,
             sit: D20Situation) -> AttackOdds:
    """Every natural hit roll and reaction roll enumerated; damage dice convolved."""
    kind = rules.attack_type(sit.attack_type, weapon)
    modifier = sum(v for _, v in rules.hit_parts(attacker, defender, weapon, sit))
    react = None
    if sit.reaction != "none":
        refused = rules.can_react(defender, weapon, sit)
        if refused:
            raise ValueError(refused)
        spec = rules.p.reactions[sit.reaction]
        react = (defender.attributes.get(spec.attribute, 0) + rules.reaction_bonus(sit.held_actions)
                 + sit.defender_reaction_bonus)
    die = rules.p.die
    groups: dict[tuple[int, bool], float] = defaultdict(float)
    for natural in range(1, die + 1):
        test = natural + modifier
        hit, critical = rules.hit_result(natural, test, defender.armor_rating, weapon.crit_range)
        if not hit:
            continue
        stop = 0.0
        if react is not None:
            stop = sum(1 for r in range(1, die + 1)
                       if rules.reaction_stops(r, r + react, test, critical)) / die
        hits = rules.hits_for(kind, weapon, test - defender.armor_rating)
        groups[(hits, critical)] += (1 - stop) / die
    code = DiceCode.parse(weapon.damage)
    dice = code_dist(code)
    parts = []
    for (hits, critical), weight in groups.items():
        one = remap(dice, lambda t, c=critical: rules.damage_total(t, attacker, weapon, defender, c,
                                                                   kind.damage_multiplier))
        parts.append((weight, power(one, hits)))
    p_hit = sum(groups.values())
    damage = mix([(1.0, {0: 1.0 - p_hit}), *parts])
    top = max((h for h, _ in groups), default=1)
    hits_dist = [0.0] * (top + 1)
    hits_dist[0] = 1.0 - p_hit
    for (hits, _), weight in groups.items():
        hits_dist[hits] += weight
    states = states_of(damage, lambda d: rules.state_for(defender.damage + d, defender))
    return AttackOdds(p_hit, tuple(hits_dist), damage, states,
                      notes=("critical statuses and retaliation damage are not counted",))
