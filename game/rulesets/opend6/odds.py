"""Exact odds under OpenD6: die codes with the exploding Wild Die, enumerated. Under the Wounds
system the damage is the wound levels a hit adds."""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache

from game.core.odds import AttackOdds, Dist, convolve, dice_sum, mix, remap, shift, states_of
from game.rulesets.opend6.core import D6Code, Fighter, OpenD6Rules, Situation, Weapon


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


def opend6_odds(rules: OpenD6Rules, attacker: Fighter, defender: Fighter,
                weapon: Weapon, sit: Situation) -> AttackOdds:
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
        if rules.wounds is None:
            through = remap(convolve(total, {-a: q for a, q in armor.items()}), lambda v: max(0, v))
        else:
            # Wounds: the damage over a Physique roll (and armor), read as the levels it adds.
            resist = d6_roll_dist(rules, rules.resist_code(defender))
            if rules.wounds.armor_adds:
                resist = convolve(resist, armor)
            over = convolve(total, {-r: q for r, q in resist.items()})
            now = defender.damage
            through = remap(over, lambda v: rules.wound_after(now, v) - now)
        damage = mix([(1.0, damage), (p_hit, through)])
    states = states_of(damage, lambda d: rules.state_for(defender.damage + d, defender))
    note = f"Wild Die explosions cut below {rules.p.explosion_cutoff:g} probability"
    return AttackOdds(p_hit, (1.0 - p_hit, p_hit), damage, states, notes=(note,))
