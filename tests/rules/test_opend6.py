"""OpenD6: die codes, the Wild Die, difficulties, multi-action penalties, Body Points."""

from __future__ import annotations

import pytest

from game.content.schema import RulesetSpec
from game.rulesets.opend6.core import D6Code, Fighter, OpenD6Rules, Situation, Weapon
from tests.rules.rules_helpers import Fixed, spec

RULES = OpenD6Rules(spec("opend6"))
CIAN = Fighter("Cian", attributes={"agility": "3D", "physique": "3D+2", "coordination": "3D"},
               skills={"marksmanship": "5D", "dodge": "4D"})
GOBLIN = Fighter("Goblin", attributes={"agility": "2D"}, skills={"marksmanship": "3D+2"}, body_points=12)
CROSSBOW = Weapon("crossbow", "marksmanship", "4D")


def rules_with(**changes: object) -> OpenD6Rules:
    data = spec("opend6").model_dump()
    data["params"].update(changes)
    return OpenD6Rules(RulesetSpec.model_validate(data))


@pytest.mark.parametrize("text, code", [
    ("4D+2", D6Code(4, 2)), ("3D", D6Code(3)), ("+1D", D6Code(1, 0, True)), ("2d-1", D6Code(2, -1)),
    (5, D6Code(0, 5)),
])
def test_die_codes(text: str | int, code: D6Code) -> None:
    assert D6Code.parse(text) == code
    assert D6Code.parse(str(code)) == code


def test_cians_two_actions_lose_a_die_each() -> None:
    # "I'm going to take two actions ... you lose 1D from each action". Marksmanship 5D -> 4D:
    # three dice and the Wild Die, whose 6 is rolled again: 4+5+3 + 6+3 = 21. The crossbow's
    # damage comes to 18, and with Body Points the goblin takes the full 18.
    sit = Situation(actions=2, range="medium")
    roll = Fixed(attack=[4, 5, 3], attack_wild=[6, 3], damage=[5, 4, 6], damage_wild=[3])
    out = RULES.attack(CIAN, GOBLIN, CROSSBOW, sit, roll)
    assert out.attack.code == D6Code(4) and out.attack.wild == (6, 3) and out.attack.total == 21
    assert out.difficulty == 10 + 5 and out.hit
    assert out.damage.total == 18 and out.damage_applied == 18
    assert out.state == "dead" and roll.left() == {}


def test_cians_dodge_with_a_character_point_stops_the_goblins_bolt() -> None:
    # Her dodge (4D - 1D) rolls 13; a Character Point adds a die (5): 18. The goblin's 17 misses.
    dodge = RULES.roll_code("defense", RULES.defense_code(CIAN, Situation(defense="dodge", defense_actions=2)),
                            Fixed(defense=[5, 4, 5], defense_wild=[4]), extra_dice=1)
    assert dodge.code == D6Code(3) and dodge.total == 18
    sit = Situation(defense="dodge", defense_total=dodge.total, range="short")
    out = RULES.attack(GOBLIN, CIAN, CROSSBOW, sit, Fixed(attack=[5, 5], attack_wild=[5]))
    assert out.attack.total == 17 and out.difficulty == 18 and not out.hit


def test_active_defense_replaces_passive_even_below_ten_and_full_defense_adds_ten() -> None:
    low = RULES.attack(GOBLIN, CIAN, CROSSBOW, Situation(defense="dodge"),
                       Fixed(defense=[1, 2, 1], defense_wild=[2], attack=[1, 1], attack_wild=[3],
                             damage=[1, 1, 1], damage_wild=[2]))
    assert low.difficulty == 6 and low.hit
    full = RULES.attack(GOBLIN, CIAN, CROSSBOW, Situation(defense="dodge", full_defense=True, defense_actions=3),
                        Fixed(damage=[1, 1, 1], damage_wild=[2], defense=[1, 2, 1], defense_wild=[2], attack=[6, 6], attack_wild=[5]))
    assert full.defense.code == D6Code(4) and full.difficulty == 6 + 10
    assert full.attack.total == 19 and full.hit


def test_difficulty_modifiers_never_go_below_three_and_full_cover_blocks() -> None:
    sit = Situation(range="point_blank", defense="dodge", defense_total=4)
    assert RULES.difficulty(4, RULES.difficulty_mods(sit)) == 3
    mods = RULES.difficulty_mods(Situation(range="long", cover=("thick_smoke", "hidden_25")))
    assert RULES.difficulty(10, mods) == 10 + 10 + 6 + 3
    out = RULES.attack(CIAN, GOBLIN, CROSSBOW, Situation(cover=("hidden_100",)),
                       Fixed(attack=[6, 6, 6, 6], attack_wild=[5]))
    assert not out.hit and "cannot be hit directly" in out.reason


def test_aiming_adds_a_die_a_round_up_to_three() -> None:
    codes = [RULES.attack_code(CIAN, CROSSBOW, Situation(aim_rounds=n)) for n in range(5)]
    assert [c.dice for c in codes] == [5, 6, 7, 8, 8]
    assert RULES.attack_code(Fighter("X", skills={"marksmanship": "1D"}), CROSSBOW, Situation(actions=3)).dice == 1


def test_strength_damage_and_the_optional_damage_bonus() -> None:
    sword = Weapon("sword", "melee_combat", "+1D+1")
    assert RULES.strength_damage(CIAN) == 2                        # 3D+2 -> 3 / 2 rounded up
    assert RULES.damage_code(CIAN, sword) == D6Code(3, 1)
    bonus = rules_with(damage_bonus=True)
    assert [bonus.damage_bonus(t, 15) for t in (15, 16, 20, 21, 26)] == [0, 1, 1, 2, 3]
    assert RULES.damage_bonus(21, 15) == 0                         # optional: off by default


def test_the_wild_die() -> None:
    roll = RULES.roll_code("x", D6Code(3, 1), Fixed(x=[4, 6], x_wild=[1]))
    assert roll.complication and roll.total == 4 + 6 + 1 + 1
    strict = rules_with(wild_one="remove_highest")
    roll = strict.roll_code("x", D6Code(3, 1), Fixed(x=[4, 6], x_wild=[1]))
    assert roll.removed == (1, 6) and roll.total == 4 + 1
    roll = RULES.roll_code("x", D6Code(2), Fixed(x=[2], x_wild=[6, 6, 2]))
    assert roll.total == 2 + 14 and not roll.complication


def test_optional_passive_defense_bonus() -> None:
    bonus = rules_with(passive_bonus=True)
    assert bonus.passive_defense(Fighter("A", attributes={"agility": "4D"})) == 10
    assert bonus.passive_defense(Fighter("B", skills={"dodge": "7D"})) == 12
    assert RULES.passive_defense(Fighter("B", skills={"dodge": "7D"})) == 10


def test_the_passive_bonus_counts_any_skill_that_stands_for_dodging() -> None:
    """Seed 002, Optional Passive Defense Modifier: "For every 2D in Agility or dodge above 4D
    (round up) ... a character with 7D in acrobatics has a +2 bonus." Acrobatics counts as dodge."""
    bonus = rules_with(passive_bonus=True)
    assert bonus.passive_defense(Fighter("Acrobat", attributes={"agility": "3D"},
                                         skills={"acrobatics": "7D"})) == 10 + 2
    assert bonus.passive_defense(Fighter("C", attributes={"agility": "6D"}, skills={"dodge": "5D"})) == 11
    # The bonus does not touch the active defense total: a dodge rolls the dodge skill.
    assert bonus.defense_code(Fighter("Acrobat", skills={"acrobatics": "7D", "dodge": "2D"}),
                              Situation(defense="dodge")).dice == 2


def test_range_modifiers_apply_to_attacks_made_at_a_distance_only() -> None:
    """Seed 002: range modifies "any other attack made at a distance"; a melee blow at arm's
    length keeps the passive defense 10. A ranged attack at point blank still takes -5."""
    sword = Weapon("sword", "melee_combat", "+1D")
    melee = Situation(range="point_blank", melee=True)
    roll = Fixed(attack=[3, 2], attack_wild=[2])               # 3D: 3 + 2 + 2 = 7
    out = RULES.attack(CIAN, GOBLIN, sword, melee, roll)
    assert out.difficulty == 10 and out.difficulty_parts == (("passive defense", 10),) and not out.hit
    shot = RULES.attack(CIAN, GOBLIN, CROSSBOW, Situation(range="point_blank"),
                        Fixed(attack=[1, 1, 1, 1], attack_wild=[1], damage=[1, 1, 1], damage_wild=[1]))
    assert shot.difficulty == 5 and ("point blank range", -5) in shot.difficulty_parts and shot.hit
    old = rules_with(range_applies_to_melee=True)                # the option: melee is point blank
    assert old.attack(CIAN, GOBLIN, sword, melee, Fixed(attack=[3, 2], attack_wild=[2],
                      damage=[1, 1, 1], damage_wild=[1])).difficulty == 5


def test_melee_odds_by_enumeration() -> None:
    """Exact odds of a 2D blow (no Wild Die, so 36 equally likely rolls): at least 10 against
    the passive defense is 6/36; the old point-blank reading (difficulty 5) made it 30/36."""
    from game.rulesets.opend6.odds import opend6_odds
    plain = rules_with(wild_die=False)
    old = rules_with(wild_die=False, range_applies_to_melee=True)
    who = Fighter("Brawler", skills={"brawling": "2D"})
    fist = Weapon("fist", "brawling", "1D")
    melee = Situation(range="point_blank", melee=True)
    pairs = [a + b for a in range(1, 7) for b in range(1, 7)]
    assert opend6_odds(plain, who, GOBLIN, fist, melee).p_hit == pytest.approx(
        sum(t >= 10 for t in pairs) / 36, abs=1e-12) == pytest.approx(6 / 36)
    assert opend6_odds(old, who, GOBLIN, fist, melee).p_hit == pytest.approx(
        sum(t >= 5 for t in pairs) / 36, abs=1e-12) == pytest.approx(30 / 36)


def test_the_calculator_takes_melee_from_the_resolve_file(tmp_path) -> None:
    import json

    from game.resolve.main import main_resolve
    path = tmp_path / "blow.yaml"
    path.write_text("ruleset: opend6\n"
                    "attacker: {name: Cian, skills: {melee_combat: 3D}}\n"
                    "defender: {name: Goblin, body_points: 12}\n"
                    "weapon: {name: sword, skill: melee_combat, damage: 3D}\n"
                    "situation: {range: point_blank, melee: true}\n"
                    "rolls: {attack: [3, 2], attack_wild: [2]}\n", encoding="utf-8")
    code, text = main_resolve(str(path), as_json=True, odds=False)
    assert code == 0, text
    result = json.loads(text)
    assert (result["attack_total"], result["difficulty"], result["hit"]) == (7, 10, False)


def test_body_points_and_armor() -> None:
    armored = Fighter("Knight", body_points=30, armor="1D+1")
    out = RULES.attack(CIAN, armored, CROSSBOW, Situation(),
                       Fixed(attack=[6, 6, 6, 6], attack_wild=[5], damage=[6, 6, 6], damage_wild=[4], armor=[3]))
    assert out.armor == 4 and out.damage_applied == 22 - 4 and out.state == "wounded"
    assert [RULES.state_for(d, armored) for d in (15, 16, 29, 30)] == ["ok", "wounded", "wounded", "dead"]
    hurt = Fighter("Hurt", skills={"marksmanship": "5D"}, body_points=20, damage=11)
    assert RULES.attack_code(hurt, CROSSBOW, Situation()).dice == 4          # wounded: -1D


def test_range_bands_and_initiative() -> None:
    assert [RULES.range_band(m, (10, 50, 100)) for m in (2, 8, 30, 90, 120)] == [
        "point_blank", "short", "medium", "long", None]
    assert RULES.initiative(Fighter("P", attributes={"perception": "2D+1"}),
                            Fixed(initiative=[4], initiative_wild=[3])).total == 8
