"""Exact odds under d20: every natural roll and reaction enumerated, damage dice convolved."""

from __future__ import annotations

from collections import defaultdict

from game.core.dice import DiceCode
from game.core.odds import AttackOdds, code_dist, mix, power, remap, states_of
from game.rulesets.d20.core import D20Rules, Fighter, Situation, Weapon


def d20_odds(rules: D20Rules, attacker: Fighter, defender: Fighter, weapon: Weapon,
             sit: Situation) -> AttackOdds:
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
        if rules.jams(natural, weapon):
            continue                      # the weapon jams: no shot
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
    dice = code_dist(DiceCode(code.count, code.sides))      # the roll; damage_total adds the bonus
    parts = []
    for (hits, critical), weight in groups.items():
        one = remap(dice, lambda t, c=critical: rules.damage_total(t, attacker, weapon, defender, c,  # type: ignore[misc]  # mypy infers no lambda with a default
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
