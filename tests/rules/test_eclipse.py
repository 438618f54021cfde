"""Eclipse Phase, both editions: d100 tests, opposed tests, damage, armor and wounds."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from game.content.schema import RulesetSpec
from game.rulesets.eclipse.first import Eclipse1Rules
from game.rulesets.eclipse.second import Eclipse2Rules
from game.rulesets.eclipse.core import Fighter, Situation, Weapon
from tests.rules.rules_helpers import Fixed, spec

EP2 = Eclipse2Rules(spec("eclipse2"))
EP1 = Eclipse1Rules(spec("eclipse1"))

JINX = Fighter("Jinx", skills={"guns": 70, "fray": 60}, aptitudes={"som": 15},
               armor={"kinetic": 6}, durability=35, wound_threshold=7)
EXHUMAN = Fighter("Exhuman", skills={"fray": 60, "melee": 80}, aptitudes={"som": 25},
                  armor={"kinetic": 10, "energy": 10}, durability=50, wound_threshold=8)
PISTOL = Weapon("medium pistol", "guns", "2d10", burst="1d10")
CLAWS = Weapon("claws", "melee", "2d6", kind="melee")


def test_jinx_burst_against_the_exhuman() -> None:
    # Guns 70 at close range (+0); 69 is two superior successes. Fray 60 halved to 30, 07
    # succeeds, but 69 is higher. 3d10 + 2d6 = 7+5+5+1+3 = 21; kinetic 10 -> 11; WT 8: a wound;
    # the SOM check (25 x 3 = 75) rolls 09 and the exhuman stays up.
    roll = Fixed(attack=69, defense=7, damage=[7, 5, 5, 1, 3], knockdown=9)
    out = EP2.attack(JINX, EXHUMAN, PISTOL, Situation(range="close", burst=True), roll)
    assert (out.attack_test.target, out.attack_test.superior) == (70, 2)
    assert (out.defense_test.target, out.defense_test.success) == (30, True)
    assert out.hit and out.reason == "both succeed; 69 beats 07"
    assert [str(code) for _, code in out.plan.dice] == ["2d10", "1d10", "2d6"]
    assert (out.damage_rolled, out.armor, out.damage_applied, out.wounds) == (21, 10, 11, 1)
    assert out.knockdown.target == 75 and out.knockdown.success
    assert (out.damage_after, out.wounds_after, out.state) == (11, 1, "ok")
    assert roll.left() == {}


def test_the_exhumans_charge_is_beaten_by_a_critical_00() -> None:
    # Melee 80 - 10 charge - 10 wound = 60, rolls 07; Jinx's Fray 60 + 20 superior position
    # = 80, rolls 00: lower, but a critical, which trumps the exhuman's roll.
    wounded = Fighter("Exhuman", skills={"melee": 80}, wounds=1)
    sit = Situation(attacker_modifiers=("charge",), defender_modifiers=("superior_position",))
    out = EP2.attack(wounded, JINX, CLAWS, sit, Fixed(attack=7, defense=0))
    assert out.attack_test.target == 60 and out.attack_test.success
    assert out.defense_test.target == 80 and out.defense_test.critical
    assert not out.hit and "critical" in out.reason


@pytest.mark.parametrize("roll, target, success, critical, superior", [
    (0, 0, True, True, 0),        # 00 always succeeds, and is doubles
    (99, 150, False, False, 0),   # 99 always fails
    (33, 40, True, True, 1),
    (32, 40, True, False, 0),
    (66, 70, True, True, 2),
    (70, 70, True, False, 2),
    (71, 70, False, False, 0),
])
def test_d100_tests(roll: int, target: int, success: bool, critical: bool, superior: int) -> None:
    test = EP2.test(roll, target)
    assert (test.success, test.critical, test.superior) == (success, critical, superior)


def test_modifiers_are_capped_at_sixty() -> None:
    sit = Situation(attacker_extra=(("huge bonus", 90),))
    _, base, mods = EP2.attack_target(JINX, PISTOL, sit)
    assert base + sum(v for _, v in mods) == 70 + 60
    _, base, mods = EP2.attack_target(JINX, PISTOL, Situation(attacker_extra=(("awful", -90),)))
    assert base + sum(v for _, v in mods) == 70 - 60


def test_defenses() -> None:
    odd = Fighter("Odd", skills={"fray": 55, "melee": 40}, aptitudes={"wil": 20}, wounds=1)
    psi = Weapon("sleight", "psi_assault", "1d6", kind="psi")
    assert EP2.defense_target(odd, PISTOL, Situation())[1] == 28          # 55 / 2 rounds normally
    assert EP1.defense_target(odd, PISTOL, Situation())[1] == 27          # rounded down
    assert EP2.defense_target(odd, psi, Situation())[1] == 60             # WIL check: WIL x 3
    assert EP1.defense_target(odd, psi, Situation())[1] == 40             # WIL x 2
    _, base, mods = EP2.defense_target(odd, CLAWS, Situation(defense="melee", full_defense=True))
    assert base == 40 and dict(mods) == {"full defense": 30, "1 wound": -10}


def test_ties_go_to_the_defender_and_surprise_means_no_defense() -> None:
    a, d = EP2.test(40, 60), EP2.test(40, 60)
    assert EP2.opposed(a, d) == (False, "both succeed; 40 does not beat 40")
    assert EP2.opposed(a, None)[0]
    assert not EP2.opposed(EP2.test(61, 60), None)[0]


def test_a_critical_hit_doubles_the_damage_and_armor_piercing_halves_armor() -> None:
    ap = Weapon("ap rounds", "guns", "2d10", armor_piercing=True)
    target = Fighter("T", skills={"fray": 20}, armor={"kinetic": 15}, durability=40, wound_threshold=8)
    out = EP2.attack(JINX, target, ap, Situation(), Fixed(attack=44, defense=50, damage=[6, 4, 3]))
    assert out.attack_test.critical and out.attack_test.superior == 1
    assert out.damage_rolled == (6 + 4 + 3) * 2 and out.armor == 8        # 15 / 2 rounds to 8
    assert out.damage_applied == 18 and out.wounds == 2


@pytest.mark.parametrize("damage, wounds", [(6, 0), (7, 1), (13, 1), (14, 2), (21, 3)])
def test_one_wound_per_full_wound_threshold(damage: int, wounds: int) -> None:
    assert EP2.wounds_from(damage, 7) == wounds


def test_durability_and_death_rating() -> None:
    who = Fighter("W", durability=30)
    assert EP2.death_rating(who) == 45
    assert [EP2.state_for(d, who) for d in (29, 30, 44, 45)] == ["ok", "incapacitated", "incapacitated", "dead"]
    assert [EP1.state_for(d, who) for d in (30, 31)] == ["ok", "incapacitated"]   # "exceeds"


def test_eclipse1_excellent_successes_read_off_the_die() -> None:
    guard = Fighter("Guard", skills={"fray": 20}, armor={"kinetic": 8}, wound_threshold=6)
    rail = Weapon("rail pistol", "kinetic_weapons", "2d10+2", armor_penetration=-3)
    shooter = Fighter("Sasha", skills={"kinetic_weapons": 75})
    out = EP1.attack(shooter, guard, rail, Situation(), Fixed(attack=47, defense=50, damage=[6, 5]))
    assert out.attack_test.mos == 47 and out.plan.bonus == 2 + 5
    assert (out.damage_rolled, out.armor, out.damage_applied, out.wounds) == (18, 5, 13, 2)
    out = EP1.attack(shooter, guard, rail, Situation(), Fixed(attack=62, defense=50, damage=[1, 1]))
    assert out.plan.bonus == 2 + 10
    assert [EP1.excellent_bonus(m) for m in (29, 30, 59, 60)] == [0, 5, 5, 10]


def test_eclipse1_margin_of_success_option_and_armor_defeating_criticals() -> None:
    data = spec("eclipse1").model_dump()
    data["params"]["margin_of_success"] = "target_minus_roll"
    rules = Eclipse1Rules(RulesetSpec.model_validate(data))
    assert rules.test(10, 75).mos == 65
    guard = Fighter("Guard", skills={"fray": 20}, armor={"kinetic": 30})
    shooter = Fighter("S", skills={"kinetic_weapons": 60})
    rail = Weapon("rail", "kinetic_weapons", "1d10")
    out = EP1.attack(shooter, guard, rail, Situation(), Fixed(attack=44, defense=90, damage=[7]))
    assert out.attack_test.critical and out.plan.armor_ignored and out.damage_applied == 7 + 5


def test_a_missing_skill_defaults_to_its_aptitude() -> None:
    who = Fighter("Untrained", aptitudes={"ref": 15})
    assert EP1.skill(who, "fray") == ("ref (default for fray)", 15)


def test_ruleset_files_are_strict() -> None:
    data = spec("eclipse2").model_dump()
    data["params"]["superior_treshold"] = 30
    with pytest.raises(ValidationError):
        Eclipse2Rules(RulesetSpec.model_validate(data))


def test_called_shots_need_a_superior_success() -> None:
    sit = Situation(attacker_modifiers=("called_shot",))
    target = Fighter("T", skills={"fray": 10})
    lands = EP2.attack(JINX, target, PISTOL, sit, Fixed(attack=40, defense=50, damage=[1, 1, 1]))
    assert lands.attack_test.target == 60 and lands.notes == ("the called shot lands: it bypasses the armor",)
    plain = EP2.attack(JINX, target, PISTOL, sit, Fixed(attack=20, defense=50, damage=[1, 1]))
    assert plain.hit and plain.notes == ("the attack hits, but not where it was called",)


# --- eclipse1: "compare their dice rolls" ------------------------------------------------------
# Seed 001, STEP 5: "If both attacker and defender succeed in their tests, compare their dice
# rolls. If the attacker's dice roll is higher, the attack hits despite a spirited defense;
# otherwise, the attack fails to connect." A critical changes what a hit does (armor-defeating,
# STEP 5 "Criticals"), not who wins; eclipse2's "criticals trump" is `critical_wins_opposed`.

SHOOTER_1E = Fighter("Sasha", skills={"kinetic_weapons": 60})
DODGER_1E = Fighter("Guard", skills={"fray": 140}, armor={"kinetic": 4})    # ranged: Fray / 2 = 70
RAIL_1E = Weapon("rail", "kinetic_weapons", "1d10")


def eclipse1_with(**params) -> Eclipse1Rules:
    data = spec("eclipse1").model_dump()
    data["params"].update(params)
    return Eclipse1Rules(RulesetSpec.model_validate(data))


def test_eclipse1_the_higher_roll_wins_even_against_a_critical() -> None:
    assert EP1.p.critical_wins_opposed is False
    # The attacker's 44 is a critical success (doubles, under 60); the defender's 50 succeeds
    # (under 70) and is higher: the attack fails to connect.
    out = EP1.attack(SHOOTER_1E, DODGER_1E, RAIL_1E, Situation(), Fixed(attack=44, defense=50))
    assert out.attack_test.critical and out.defense_test.success and not out.defense_test.critical
    assert not out.hit and out.reason == "both succeed; 44 does not beat 50"
    # The defender's critical 33 is lower than the attacker's 47: the attack hits.
    out = EP1.attack(SHOOTER_1E, DODGER_1E, RAIL_1E, Situation(),
                     Fixed(attack=47, defense=33, damage=[6]))
    assert out.defense_test.critical and out.hit and out.reason == "both succeed; 47 beats 33"
    # An attacker's critical that wins is still armor-defeating: 6 + 5 (MoS 55, excellent)
    # DV, armor 4 ignored.
    out = EP1.attack(SHOOTER_1E, DODGER_1E, RAIL_1E, Situation(),
                     Fixed(attack=55, defense=50, damage=[6]))
    assert out.hit and out.plan.armor_ignored and out.damage_applied == 11


def test_eclipse1_criticals_trump_is_an_option() -> None:
    rules = eclipse1_with(critical_wins_opposed=True)
    out = rules.attack(SHOOTER_1E, DODGER_1E, RAIL_1E, Situation(), Fixed(attack=44, defense=50, damage=[3]))
    assert out.hit and out.reason == "the attacker's critical beats any roll"


def test_eclipse1_exact_odds_follow_the_higher_roll() -> None:
    """The exact odds count every one of the 10,000 roll pairs as `opposed` decides them, and
    the seed's reading changes them: with criticals trumping the hit chance is different."""
    from game.rulesets.eclipse.core import attack_odds
    for rules in (EP1, eclipse1_with(critical_wins_opposed=True)):
        hits = sum(rules.opposed(rules.test(a, 60), rules.test(d, 70))[0]
                   for a in range(100) for d in range(100))
        odds = attack_odds(rules, SHOOTER_1E, DODGER_1E, RAIL_1E, Situation())
        assert odds.p_hit == pytest.approx(hits / 10_000, abs=1e-12)
    # By hand: the attacker succeeds on 00-60, the defender on 00-70. An attack roll a hits
    # when the defender fails (71-99: 29 rolls) or succeeds lower (00 to a - 1: a rolls).
    by_hand = sum(29 + a for a in range(61)) / 10_000
    assert attack_odds(EP1, SHOOTER_1E, DODGER_1E, RAIL_1E, Situation()).p_hit == pytest.approx(by_hand)


def test_eclipse1_calculator_agrees(tmp_path) -> None:
    """`skirmish resolve` decides the same pair of rolls the same way (one rule, in the core)."""
    import json

    from game.resolve.main import main_resolve
    path = tmp_path / "crit.yaml"
    path.write_text("ruleset: eclipse1\n"
                    "attacker: {name: Sasha, skills: {kinetic_weapons: 60}}\n"
                    "defender: {name: Guard, skills: {fray: 140}}\n"
                    "weapon: {name: rail, skill: kinetic_weapons, damage: 1d10}\n"
                    "rolls: {attack: 44, defense: 50}\n", encoding="utf-8")
    code, text = main_resolve(str(path), as_json=True, odds=False)
    assert code == 0, text
    result = json.loads(text)
    assert result["attack"]["critical"] and not result["hit"]
