"""Exact odds against simulation.

Each ruleset's exact odds are checked twice: against a 200,000-roll simulation written
independently with numpy (fixed seed), and against 20,000 attacks played by the ruleset's own
`attack` with a fixed-seed random.Random. Tolerances are five binomial standard errors (or
five standard errors of the mean).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.content.schema import RulesetSpec
from game.core.dice import Dice, DiceCode
from game.core.odds import AttackOdds, Dist, mean
from game.rulesets.d20.core import D20Rules
from game.rulesets.d20.core import Fighter as DF
from game.rulesets.d20.core import Situation as DS
from game.rulesets.d20.core import Weapon as DW
from game.rulesets.eclipse.first import Eclipse1Rules
from game.rulesets.eclipse.second import Eclipse2Rules
from game.rulesets.eclipse.core import Fighter, Situation, Weapon, attack_odds, defenses_beaten
from game.rulesets.opend6.core import Fighter as OF
from game.rulesets.opend6.core import OpenD6Rules
from game.rulesets.opend6.core import Situation as OS
from game.rulesets.opend6.core import Weapon as OW
from game.rulesets.d20.odds import d20_odds
from game.rulesets.opend6.odds import opend6_odds, wild_die
from game.rulesets.skirmish.odds import skirmish_hit_damage, skirmish_odds
from game.rulesets.skirmish.rules import AttackSituation, Combatant, SkirmishRules
from tests.rules.rules_helpers import random_roll, spec

N = 200_000
CORE_N = 20_000



def at_least(dist: Dist, threshold: int) -> float:
    return sum(p for value, p in dist.items() if value >= threshold)


def binomial_tolerance(p: float, n: int, sigmas: float = 5.0) -> float:
    """A tolerance for a simulated frequency: `sigmas` binomial standard errors (and a floor)."""
    return sigmas * math.sqrt(max(p * (1 - p), 1.0 / n) / n)

def close(freq: float, p: float, n: int) -> bool:
    return abs(freq - p) <= binomial_tolerance(p, n)


def close_mean(samples: np.ndarray | list[int], exact: float) -> bool:
    samples = np.asarray(samples, dtype=float)
    return abs(samples.mean() - exact) <= 5 * samples.std() / math.sqrt(len(samples)) + 1e-9


def agree(samples: np.ndarray | list[int], hit: np.ndarray | list[bool], result: AttackOdds,
          points: tuple[int, ...] = ()) -> None:
    samples, n = np.asarray(samples), len(samples)
    assert abs(sum(result.damage.values()) - 1) < 1e-6
    assert close(float(np.mean(hit)), result.p_hit, n), (np.mean(hit), result.p_hit)
    assert close_mean(samples, result.expected_damage), (samples.mean(), result.expected_damage)
    for k in (0, *points):
        assert close(float(np.mean(samples == k)), result.damage.get(k, 0.0), n), k
        assert close(float(np.mean(samples >= k)), at_least(result.damage, k), n), k


def d100_test(r: np.ndarray, target: int) -> tuple[np.ndarray, np.ndarray]:
    success = (r != 99) & ((r == 0) | (r <= target))
    return success, success & (r % 11 == 0)


def opposed(a: np.ndarray, d: np.ndarray, at: int, dt: int,
            criticals_win: bool = True) -> tuple[np.ndarray, np.ndarray]:
    sa, ca = d100_test(a, at)
    sd, cd = d100_test(d, dt)
    if not criticals_win:
        return sa & (~sd | (a > d)), ca
    return sa & (~sd | (ca & ~cd) | ((ca == cd) & (a > d))), ca


# --- eclipse2 ---------------------------------------------------------------------------------

EP2 = Eclipse2Rules(spec("eclipse2"))
JINX = Fighter("Jinx", skills={"guns": 70, "fray": 60})
EXHUMAN = Fighter("Exhuman", skills={"fray": 60}, armor={"kinetic": 10}, durability=50, wound_threshold=8)
PISTOL = Weapon("medium pistol", "guns", "2d10", burst="1d10")
BURST = Situation(range="close", burst=True)


def test_eclipse2_odds_against_a_simulation() -> None:
    rng = np.random.default_rng(2)
    a, d = rng.integers(0, 100, N), rng.integers(0, 100, N)
    hit, crit = opposed(a, d, 70, 30)
    superior = (a >= 33).astype(int) + (a >= 66)
    extra = rng.integers(1, 7, (N, 2)) * (np.arange(2) < superior[:, None])
    dv = (rng.integers(1, 11, (N, 3)).sum(1) + extra.sum(1)) * np.where(crit, 2, 1)
    damage = np.where(hit, np.maximum(0, dv - 10), 0)
    result = attack_odds(EP2, JINX, EXHUMAN, PISTOL, BURST)
    agree(damage, hit, result, (8, 11, 16, 30))
    assert close(float(np.mean(damage >= 16)), 1 - sum(result.wounds.get(k, 0) for k in (0, 1)), N)


def test_eclipse2_core_agrees_with_its_odds() -> None:
    roll = random_roll(5)
    outs = [EP2.attack(JINX, EXHUMAN, PISTOL, BURST, roll) for _ in range(CORE_N)]
    agree([o.damage_applied for o in outs], [o.hit for o in outs],
          attack_odds(EP2, JINX, EXHUMAN, PISTOL, BURST), (11,))


# --- eclipse1 ---------------------------------------------------------------------------------

EP1 = Eclipse1Rules(spec("eclipse1"))
SASHA = Fighter("Sasha", skills={"kinetic_weapons": 65})
GUARD = Fighter("Guard", skills={"fray": 45}, armor={"kinetic": 8}, wound_threshold=6)
RAIL = Weapon("rail pistol", "kinetic_weapons", "2d10+2", armor_penetration=-3)


def test_eclipse1_odds_against_a_simulation() -> None:
    rng = np.random.default_rng(3)
    a, d = rng.integers(0, 100, N), rng.integers(0, 100, N)
    hit, crit = opposed(a, d, 65, 22, criticals_win=False)   # 1e: the higher roll wins
    bonus = np.where(a >= 60, 10, np.where(a >= 30, 5, 0))
    dv = rng.integers(1, 11, (N, 2)).sum(1) + 2 + bonus
    damage = np.where(hit, np.maximum(0, dv - np.where(crit, 0, 5)), 0)
    agree(damage, hit, attack_odds(EP1, SASHA, GUARD, RAIL, Situation()), (6, 12, 20))


def test_eclipse1_core_agrees_with_its_odds() -> None:
    roll, sit = random_roll(6), Situation(defense="none")
    outs = [EP1.attack(SASHA, GUARD, RAIL, sit, roll) for _ in range(CORE_N)]
    agree([o.damage_applied for o in outs], [o.hit for o in outs], attack_odds(EP1, SASHA, GUARD, RAIL, sit))


# --- opend6 -----------------------------------------------------------------------------------

OD6 = OpenD6Rules(spec("opend6"))
CIAN = OF("Cian", skills={"marksmanship": "5D"})
GOBLIN = OF("Goblin", skills={"dodge": "3D"}, body_points=12, armor="1D")
CROSSBOW = OW("crossbow", "marksmanship", "4D")
SHOT = OS(actions=2, range="medium", defense="dodge")


def wild(rng: np.random.Generator, n: int) -> np.ndarray:
    total = rng.integers(1, 7, n)
    going = total == 6
    while going.any():
        idx = np.flatnonzero(going)
        more = rng.integers(1, 7, len(idx))
        total[idx] += more
        going[idx] = more == 6
    return total


def d6(rng: np.random.Generator, dice: int, pips: int = 0, with_wild: bool = True) -> np.ndarray:
    normal = rng.integers(1, 7, (N, dice - (1 if with_wild else 0))).sum(1)
    return normal + (wild(rng, N) if with_wild else 0) + pips


def test_wild_die_distribution_is_exact_to_its_cutoff() -> None:
    dist = wild_die(1e-9)
    assert 1 - 1e-9 < sum(dist.values()) <= 1.0
    assert dist[7] == pytest.approx(1 / 36) and 6 not in dist and 12 not in dist
    assert mean(dist) == pytest.approx(4.2, abs=1e-7)        # 3 + 6/5 for an endless chain


def test_opend6_odds_against_a_simulation() -> None:
    rng = np.random.default_rng(4)
    attack = d6(rng, 4)
    difficulty = np.maximum(3, d6(rng, 3) + 5)
    hit = attack >= difficulty
    damage = np.where(hit, np.maximum(0, d6(rng, 4) - rng.integers(1, 7, N)), 0)
    agree(damage, hit, opend6_odds(OD6, CIAN, GOBLIN, CROSSBOW, SHOT), (5, 12, 20))


def test_opend6_core_agrees_with_its_odds_under_the_optional_rules() -> None:
    data = spec("opend6").model_dump()
    data["params"].update(wild_one="remove_highest", damage_bonus=True)
    rules = OpenD6Rules(RulesetSpec.model_validate(data))
    sit = OS(range="point_blank", defense="dodge", full_defense=True, character_points=1)
    roll = random_roll(7)
    outs = [rules.attack(CIAN, GOBLIN, CROSSBOW, sit, roll) for _ in range(CORE_N)]
    agree([o.damage_applied for o in outs], [o.hit for o in outs],
          opend6_odds(rules, CIAN, GOBLIN, CROSSBOW, sit), (12,))


# --- d20 --------------------------------------------------------------------------------------

D20 = D20Rules(spec("d20"))
DEVIN = DF("Devin", {"str": 3})
THRASHER = DF("Wicked Thrasher", {"dex": 1}, armor_rating=14, hp=30, reactions=("dodge",))
SWORD = DW("sword", "1d8", "slashing", "melee", crit_range=19)


def test_d20_odds_against_a_simulation() -> None:
    rng = np.random.default_rng(5)
    natural, reaction = rng.integers(1, 21, N), rng.integers(1, 21, N)
    test = natural + 3
    crit = natural >= 19
    stopped = (reaction + 1 > test) & np.where(crit, reaction == 20, True)   # critical and above
    hit = (crit | (test >= 14)) & ~stopped
    damage = np.where(hit, rng.integers(1, 9, N) * np.where(crit, 2, 1) + 3, 0)
    agree(damage, hit, d20_odds(D20, DEVIN, THRASHER, SWORD, DS(reaction="dodge")), (4, 11, 15))


def test_d20_core_agrees_with_its_odds_for_bursts() -> None:
    smg = DW("smg", "1d6", "piercing", "ranged", burst=3)
    shooter, target = DF("Arik", {"dex": 4}), DF("T", {"dex": 1}, armor_rating=12, reactions=("dodge",))
    sit = DS(attack_type="burst", reaction="dodge", held_actions=1)
    roll = random_roll(8)
    outs = [D20.attack(shooter, target, smg, sit, roll) for _ in range(CORE_N)]
    result = d20_odds(D20, shooter, target, smg, sit)
    agree([o.damage_applied for o in outs], [o.hit for o in outs], result, (6,))
    for k, p in enumerate(result.hits):
        assert close(sum(o.hits == k for o in outs) / CORE_N, p, CORE_N)


# --- skirmish ---------------------------------------------------------------------------------

SK = SkirmishRules(spec("skirmish"))


def test_skirmish_odds_against_a_simulation() -> None:
    # The Olea trooper's burst (ROF 8, spread 4, 3d8) at Hollis in a combat vest (8 ballistic).
    dist = SK.hit_distribution(7, 5, 4, 8)
    result = skirmish_odds(dist, skirmish_hit_damage(DiceCode(3, 8), 1.0, 8), 20,
                             lambda hp: SK.state_for(hp, 4))
    rng = np.random.default_rng(6)
    margin = rng.integers(1, 11, N) + 7 - rng.integers(1, 11, N) - 5
    hits = np.where(margin > 0, np.minimum(8, -(-margin // 4)), 0)
    per_hit = np.maximum(0, rng.integers(1, 9, (N, 8, 3)).sum(2) - 8)
    damage = (per_hit * (np.arange(8) < hits[:, None])).sum(1)
    agree(damage, hits > 0, result, (3, 10, 20))
    for k, p in enumerate(dist):
        assert close(float(np.mean(hits == k)), p, N)
    assert result.states["dead"] == pytest.approx(at_least(result.damage, 24))


def test_skirmish_core_agrees_with_its_odds() -> None:
    from game.content.loader import load_library

    library = load_library()
    rifle = library.weapons["olea_rifle"]
    burst = next(m for m in rifle.modes if m.name == "burst")
    sit = AttackSituation(rifle, burst, 1, "stand", "torso", 10, "none", False, False, False, False, False)
    trooper = Combatant({"dexterity": 1}, {"aim": 5}, {}, 0)
    hollis = Combatant({"agility": 1}, {"dodge": 4}, {}, 0)
    dice, totals, hits = Dice(9), [], []
    for _ in range(CORE_N):
        a, d = SK.attack_check(trooper, sit, dice), SK.defense_check(hollis, sit, dice)
        n = SK.hit_count(a.total, d.total, rifle.spread, burst.rof)
        hits.append(n > 0)
        totals.append(sum(SK.damage(rifle.damage, "ballistic", "torso", {"ballistic": 8}, dice).taken
                          for _ in range(n)))
    a_mod = SK.static_modifier("aim", trooper, SK.attack_modifiers(sit))
    d_mod = SK.static_modifier("dodge", hollis, [("cover", 0)])
    result = skirmish_odds(SK.hit_distribution(a_mod, d_mod, rifle.spread, burst.rof),
                             skirmish_hit_damage(DiceCode(3, 8), 1.0, 8), 20, lambda hp: SK.state_for(hp, 4))
    agree(totals, hits, result, (10,))


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["eclipse1", "eclipse2"]), st.integers(-30, 130), st.integers(-30, 130),
       st.booleans())
def test_eclipse_defenses_beaten_counts_as_opposed_decides(ruleset, a_target, d_target, criticals_win):
    """The odds' fast count of the defense rolls an attack roll beats agrees with `opposed`,
    pair by pair, for every attack roll that succeeds (criticals winning or not)."""
    rules = {"eclipse1": Eclipse1Rules, "eclipse2": Eclipse2Rules}[ruleset](spec(ruleset))
    rules.p = rules.p.model_copy(update={"critical_wins_opposed": criticals_win})
    d_tests = [rules.test(d, d_target) for d in range(100)]
    beaten = defenses_beaten(rules, d_tests)
    for a in range(100):
        attack = rules.test(a, a_target)
        if attack.success:
            assert beaten(attack) == sum(rules.opposed(attack, d)[0] for d in d_tests)
    attack = next((rules.test(a, a_target) for a in range(100) if rules.test(a, a_target).success), None)
    if attack is not None:
        assert defenses_beaten(rules, [None])(attack) == 1          # no defense: a success hits
