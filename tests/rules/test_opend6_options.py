"""OpenD6's optional rules and the rules the seed states beside the attack: the Wounds system
(the goblin of the combat example), a bare-handed block of a blade, a sharp parry of a fist,
and switching the optional rules in a resolve file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.resolve.main import main_resolve
from game.rulesets.opend6.core import D6Code, Fighter, OpenD6Rules, Situation, Weapon
from game.rulesets.opend6.odds import opend6_odds
from tests.rules.rules_helpers import Fixed, spec

RULES = OpenD6Rules(spec("opend6"))
WOUNDS = RULES.with_options({"damage_system": "wounds", "damage_bonus": True})
CIAN = Fighter("Cian", attributes={"agility": "3D", "physique": "2D+2", "coordination": "3D+1"},
               skills={"marksmanship": "5D", "dodge": "4D", "melee_combat": "4D"})
GOBLIN = Fighter("Goblin", attributes={"agility": "2D+2", "physique": "2D"}, skills={"dodge": "3D"},
                 body_points=12)
CROSSBOW = Weapon("crossbow", "marksmanship", "4D")
SWORD = Weapon("sword", "melee_combat", "+1D+1", sharp=True)
DAGGER = Weapon("dagger", "melee_combat", "+1D", sharp=True)
FIST = Weapon("fist", "brawling", "+0D", unarmed=True)
EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "resolve"


def test_the_goblin_resists_with_physique_and_is_dead_under_the_wounds_system() -> None:
    """Seed 002's example: the damage 18 against the goblin's Physique roll of 2 (a 1 on the Wild
    Die): 16 over; the optional damage bonus (21 - 15) / 5 = +2 makes it 18: Dead."""
    roll = Fixed(attack=[4, 5, 3], attack_wild=[6, 3], damage=[5, 4, 6], damage_wild=[3],
                 resist=[1], resist_wild=[1])
    out = WOUNDS.attack(CIAN, GOBLIN, CROSSBOW, Situation(actions=2, range="medium"), roll)
    assert (out.attack.total, out.difficulty, out.damage.total, out.damage_bonus) == (21, 15, 18, 2)
    assert out.resist.total == 2 and out.resist.complication
    assert out.over == 18 and out.state == "dead" and roll.left() == {}
    # Without the bonus the 16 over is still Dead (the chart's last level starts at 16).
    plain = RULES.with_options({"damage_system": "wounds"})
    again = plain.attack(CIAN, GOBLIN, CROSSBOW, Situation(actions=2, range="medium"),
                         Fixed(attack=[4, 5, 3], attack_wild=[6, 3], damage=[5, 4, 6], damage_wild=[3],
                               resist=[1], resist_wild=[1]))
    assert again.over == 16 and again.state == "dead"
    # "if the gamemaster had decided to use the Body Points system, the merc would not have made
    # a resistance roll, instead taking the full 18 points of damage."
    body = RULES.with_options({"damage_bonus": False})
    assert body is RULES or body.p == RULES.p
    bp = RULES.attack(CIAN, GOBLIN, CROSSBOW, Situation(actions=2, range="medium"),
                      Fixed(attack=[4, 5, 3], attack_wild=[6, 3], damage=[5, 4, 6], damage_wild=[3]))
    assert bp.resist is None and bp.damage_applied == 18


def test_wound_levels_and_their_penalties() -> None:
    w = WOUNDS
    assert [w.state_for(w.level_for(o), GOBLIN) for o in (0, 1, 3, 4, 8, 9, 12, 13, 15, 16, 30)] == [
        "ok", "stunned", "stunned", "wounded", "wounded", "incapacitated", "incapacitated",
        "mortally_wounded", "mortally_wounded", "dead", "dead"]
    # A second wound no worse than the first makes it one level worse: wounded -> severely wounded.
    assert w.state_for(w.wound_after(2, 5), GOBLIN) == "severely_wounded"
    assert w.wound_after(2, 0) == 2 and w.wound_after(1, 10) == 4
    hurt = Fighter("Hurt", skills={"marksmanship": "5D"}, damage=3)          # severely wounded: -2D
    assert w.attack_code(hurt, CROSSBOW, Situation()).dice == 3
    # Armor adds to the resistance total.
    armored = Fighter("Knight", attributes={"physique": "2D"}, armor=4)
    out = w.attack(CIAN, armored, CROSSBOW, Situation(),
                   Fixed(attack=[6, 6, 6, 6], attack_wild=[5], damage=[3, 3, 3], damage_wild=[3],
                         resist=[3], resist_wild=[3]))
    assert out.damage_bonus == 4 and out.over == 12 + 4 - 6 - 4 and out.state == "wounded"


def test_wound_odds_by_enumeration() -> None:
    """Exact odds without the Wild Die: a certain hit (difficulty 3) with a 1D weapon against a
    0D+1 Physique: the damage 1-6 minus 1 is 0-5 over: 1/6 none, 3/6 stunned, 2/6 wounded."""
    plain = RULES.with_options({"damage_system": "wounds", "wild_die_on_damage": False})
    rules = OpenD6Rules(plain.spec.model_copy(update={"params": {**plain.spec.params, "wild_die": False}}))
    target = Fighter("T", attributes={"physique": "0D+1", "agility": "0D"})
    odds = opend6_odds(rules, Fighter("A", skills={"marksmanship": "3D"}), target,
                       Weapon("dart", "marksmanship", "1D"), Situation(range="point_blank", defense="dodge",
                                                                      defense_total=0))
    assert odds.p_hit == pytest.approx(1.0)
    assert odds.damage == pytest.approx({0: 1 / 6, 1: 3 / 6, 2: 2 / 6})
    assert odds.states["stunned"] == pytest.approx(3 / 6) and odds.states["wounded"] == pytest.approx(2 / 6)


def test_a_bare_handed_block_of_a_blade_takes_its_listed_damage() -> None:
    """"If the opponent strikes ... with a bladed hand weapon and the character uses any part of
    his body to intercept the attack, the defender always takes the weapon's damage total. If
    the block was successful, then the attacker's Strength Damage is not added." Armor avoids it."""
    sit = Situation(range="point_blank", melee=True, defense="block", defense_total=15)
    roll = Fixed(attack=[2, 2, 2], attack_wild=[2], backlash=[], backlash_wild=[4])
    out = RULES.attack(CIAN, GOBLIN, SWORD, sit, roll)
    assert not out.hit and out.backlash is not None and out.backlash.victim == "defender"
    assert out.backlash.damage.code == D6Code(1, 1)           # +1D+1 less Strength Damage: 1D+1
    assert out.backlash.damage.total == 5 and out.backlash.applied == 5 and roll.left() == {}
    # A blocker in armor, a parry, a dodge or a fist: nothing.
    for who, kind, weapon in ((GOBLIN.__class__("G", armor=1), "block", SWORD), (GOBLIN, "parry", SWORD),
                              (GOBLIN, "dodge", SWORD), (GOBLIN, "block", FIST)):
        other = Situation(range="point_blank", melee=True, defense=kind, defense_total=15)
        assert RULES.attack(CIAN, who, weapon, other, Fixed(attack=[2, 2, 2], attack_wild=[2])).backlash is None
    # The rule is the text's default; the option turns it off.
    off = RULES.with_options({"blade_block": False})
    assert off.attack(CIAN, GOBLIN, SWORD, sit, Fixed(attack=[2, 2, 2], attack_wild=[2])).backlash is None


def test_a_sharp_parry_of_a_fist_hurts_the_attacker() -> None:
    """"If the character uses a sharp weapon (sword or dagger) to parry an unarmed blow and is
    successful, the attacker takes damage from the weapon ... do not add the defender's Physique."""
    sit = Situation(range="point_blank", melee=True, defense="parry", defense_total=15, defender_weapon=DAGGER)
    roll = Fixed(attack=[1], attack_wild=[1], backlash=[], backlash_wild=[6, 2])
    out = RULES.attack(GOBLIN, CIAN, FIST, sit, roll)
    assert not out.hit and out.backlash.victim == "attacker" and out.backlash.damage.code == D6Code(1)
    assert out.backlash.applied == 8 and out.backlash.after == 8 and roll.left() == {}
    blunt = Situation(range="point_blank", melee=True, defense="parry", defense_total=15,
                      defender_weapon=Weapon("club", "melee_combat", "+1D"))
    assert RULES.attack(GOBLIN, CIAN, FIST, blunt, Fixed(attack=[1], attack_wild=[1])).backlash is None


def run(path: Path, *, odds: bool = False) -> dict:
    code, text = main_resolve(str(path), as_json=True, odds=odds)
    assert code == 0, text
    return json.loads(text)


def test_the_calculator_plays_the_goblin_under_the_wounds_option() -> None:
    result = run(EXAMPLES / "cian_crossbow_wounds.yaml")
    assert (result["attack_total"], result["difficulty"], result["damage_rolled"]) == (21, 15, 18 + 2)
    assert (result["resist_total"], result["over"], result["defender"]["state"]) == (2, 18, "dead")
    code, text = main_resolve(str(EXAMPLES / "cian_crossbow_wounds.yaml"), as_json=False, odds=False)
    assert "Wounds: resisted with physique 2D" in text and "Goblin: dead." in text
    odds = run(EXAMPLES / "cian_crossbow_wounds.yaml", odds=True)
    assert json.dumps(odds)                                   # the odds take the options too


def test_the_calculator_blade_block_and_option_problems(tmp_path: Path) -> None:
    path = tmp_path / "block.yaml"
    path.write_text("ruleset: opend6\n"
                    "attacker: {name: Orc, skills: {melee_combat: 3D}}\n"
                    "defender: {name: Monk, skills: {brawling: 4D}, body_points: 12}\n"
                    "weapon: {name: sword, skill: melee_combat, damage: +1D+1, sharp: true}\n"
                    "situation: {melee: true, range: point_blank, defense: block, defense_total: 15}\n"
                    "rolls: {attack: [2, 2], attack_wild: [2], backlash: [], backlash_wild: [4]}\n",
                    encoding="utf-8")
    result = run(path)
    assert result["hit"] is False and result["backlash"] == {
        "victim": "defender", "damage_rolled": 5, "damage_applied": 5, "state": "ok"}
    bad = tmp_path / "bad.yaml"
    bad.write_text(path.read_text().replace("ruleset: opend6\n", "ruleset: opend6\noptions: "
                                            "{damage_sytem: wounds, passive_bonus: 3, free_dice: 2}\n"),
                   encoding="utf-8")
    code, text = main_resolve(str(bad), as_json=False, odds=False)
    assert code != 0
    assert "did you mean 'damage_system'" in text and "free_dice" in text


def test_aim_and_character_point_odds_by_enumeration() -> None:
    """Without the Wild Die: a 1D shot against difficulty 5 hits 2/6 of the time; a round of aim
    makes it 2D (30/36 at least 5), a Character Point the same, both 3D (212/216)."""
    plain = OpenD6Rules(RULES.spec.model_copy(update={"params": {**RULES.spec.params, "wild_die": False}}))
    shooter = Fighter("A", skills={"marksmanship": "1D"})
    dart = Weapon("dart", "marksmanship", "1D")
    easy = Situation(range="point_blank")                  # passive 10, point blank -5: 5

    def chance(n: int) -> float:
        import itertools
        rolls = list(itertools.product(range(1, 7), repeat=n))
        return sum(sum(r) >= 5 for r in rolls) / len(rolls)

    assert opend6_odds(plain, shooter, GOBLIN, dart, easy).p_hit == pytest.approx(chance(1)) == pytest.approx(2 / 6)
    aimed = Situation(range="point_blank", aim_rounds=1)
    pointed = Situation(range="point_blank", character_points=1)
    both = Situation(range="point_blank", aim_rounds=1, character_points=1)
    assert opend6_odds(plain, shooter, GOBLIN, dart, aimed).p_hit == pytest.approx(chance(2)) == pytest.approx(30 / 36)
    assert opend6_odds(plain, shooter, GOBLIN, dart, pointed).p_hit == pytest.approx(30 / 36)
    assert opend6_odds(plain, shooter, GOBLIN, dart, both).p_hit == pytest.approx(chance(3)) == pytest.approx(212 / 216)
    # Aim stops at +3D.
    assert (opend6_odds(plain, shooter, GOBLIN, dart, Situation(range="long", aim_rounds=5)).p_hit
            == pytest.approx(opend6_odds(plain, shooter, GOBLIN, dart, Situation(range="long", aim_rounds=3)).p_hit))


def test_blade_block_odds_leave_the_hit_chance_alone() -> None:
    """The backlash comes after a miss: the odds of the attack itself do not change."""
    sit = Situation(range="point_blank", melee=True, defense="block", defense_total=12)
    on = opend6_odds(RULES, CIAN, GOBLIN, SWORD, sit)
    off = opend6_odds(RULES.with_options({"blade_block": False}), CIAN, GOBLIN, SWORD, sit)
    assert on.p_hit == pytest.approx(off.p_hit) and 0 < on.p_hit < 1
