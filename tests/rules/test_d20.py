"""The d20 chapter: initiative, hit tests against Armor Rating, reactions, criticals, statuses."""

from __future__ import annotations

import pytest

from game.rulesets.d20.core import D20Rules, Fighter, Situation, Weapon
from tests.rules.rules_helpers import Fixed, spec

RULES = D20Rules(spec("d20"))
DEVIN = Fighter("Devin", {"str": 3, "dex": 2})
ARIK = Fighter("Arik", {"dex": 2, "per": 1})
THRASHER = Fighter("Wicked Thrasher", {"str": 3, "dex": 1}, armor_rating=14, hp=30,
                   reactions=("dodge", "parry"))
PISTOL = Weapon("pistol", "1d8", "piercing", "ranged")
SWORD = Weapon("sword", "1d8", "slashing", "melee", crit_range=19)


def test_initiative_devin_thrasher_arik() -> None:
    # "Arik rolls a 7, Devin rolls a 19, the Wicked Thrasher rolls a 15. The order is Devin ->
    # Wicked Thrasher -> Arik." (d20 + DEX: 5 + 2, 17 + 2, 14 + 1.)
    roll = Fixed(**{"initiative:Arik": 5, "initiative:Devin": 17, "initiative:Wicked Thrasher": 14})
    assert RULES.initiative_order([ARIK, DEVIN, THRASHER], roll) == [
        ("Devin", 19), ("Wicked Thrasher", 15), ("Arik", 7)]


def test_initiative_ties_go_to_dex_then_d6_roll_offs() -> None:
    quick, slow, twin = Fighter("Quick", {"dex": 4}), Fighter("Slow", {"dex": 1}), Fighter("Twin", {"dex": 4})
    roll = Fixed(**{"initiative:Quick": 10, "initiative:Slow": 13, "initiative:Twin": 10,
                    "tie:Quick": [3, 2], "tie:Twin": [3, 5]})
    assert [name for name, _ in RULES.initiative_order([quick, slow, twin], roll)] == ["Twin", "Quick", "Slow"]


def test_ariks_hit_test_below_the_armor_rating_misses() -> None:
    out = RULES.attack(ARIK, THRASHER, PISTOL, Situation(), Fixed(hit=9))
    assert out.hit_test == 11 < THRASHER.armor_rating and not out.hit
    assert "below Armor Rating 14" in out.reason


def test_all_out_attack_and_a_hit_test_equal_to_the_armor_rating() -> None:
    out = RULES.attack(DEVIN, THRASHER, SWORD, Situation(attack_type="all_out"), Fixed(hit=7, damage=[5]))
    assert dict(out.hit_parts) == {"str": 3, "all out": 4} and out.hit_test == 14 and out.hit
    assert out.damage_applied == 5 + 3 and out.state == "ok"


def test_a_critical_goes_through_armor_and_doubles_the_weapon_dice() -> None:
    # Natural 19 with a 19-20 sword: 2 x 6 + STR 3 = 15; slashing: d20 17 -> bleeding 1d4 turns.
    weak = Fighter("Grub", armor_rating=30, hp=10)
    roll = Fixed(hit=19, damage=[6], critical_effect=17, status_duration=3)
    out = RULES.attack(DEVIN, weak, SWORD, Situation(), roll)
    assert out.critical and out.hit and out.damage_applied == 15
    assert (out.status, out.status_turns) == ("bleeding", 3) and out.state == "unconscious"


def test_reactions() -> None:
    sit = Situation(reaction="dodge")
    stopped = RULES.attack(ARIK, THRASHER, PISTOL, sit, Fixed(hit=13, reaction=15))
    assert stopped.reaction == (15, 16, True) and not stopped.hit               # 16 > 15
    level = RULES.attack(ARIK, THRASHER, PISTOL, sit, Fixed(hit=13, reaction=14, damage=[4]))
    assert level.reaction == (14, 15, False) and level.hit                    # not above
    held = RULES.attack(ARIK, THRASHER, PISTOL, Situation(reaction="dodge", held_actions=1),
                        Fixed(hit=13, reaction=14))
    assert held.reaction == (14, 16, True)
    crit = RULES.attack(ARIK, THRASHER, PISTOL, sit, Fixed(hit=20, reaction=19, damage=[2], critical_effect=3))
    assert crit.critical and crit.hit                                         # needs a critical
    nimble = Fighter("Nimble Thrasher", {"dex": 3}, armor_rating=14, reactions=("dodge",))
    crit = RULES.attack(ARIK, nimble, PISTOL, sit, Fixed(hit=20, reaction=20))
    assert crit.reaction == (20, 23, True) and not crit.hit                   # critical and 23 > 22


def test_a_critical_hit_is_stopped_only_by_a_critical_reaction_above_it() -> None:
    """Seed 003, Responding to Attacks: "Actions that stop, dodge, or redirect attacks that
    were critical on their hit tests only succeed if the reaction is critical as well." The
    reaction still has to succeed: "If the value is above your opponent's hit test, you dodge."
    Arik's natural 20 + DEX 2 = 22; the Thrasher's natural 20 + DEX 1 = 21 is critical but not
    above 22, so the critical hit lands (a natural 20 used to stop any critical)."""
    sit = Situation(reaction="dodge")
    out = RULES.attack(ARIK, THRASHER, PISTOL, sit, Fixed(hit=20, reaction=20, damage=[5],
                                                          critical_effect=1))
    assert (out.hit_test, out.critical) == (22, True)
    assert out.reaction == (20, 21, False) and out.hit and out.damage_applied == 10
    # Two held Actions (+2) take the critical dodge to 23, above 22: stopped.
    held = RULES.attack(ARIK, THRASHER, PISTOL, Situation(reaction="dodge", held_actions=2),
                        Fixed(hit=20, reaction=20))
    assert held.reaction == (20, 23, True) and not held.hit
    assert held.reason == "critical dodge 23 beats the critical hit test 22"
    # Above the hit test but not critical: the critical hit lands all the same.
    quick = Fighter("Quick Thrasher", {"dex": 9}, armor_rating=14, reactions=("dodge",))
    out = RULES.attack(ARIK, quick, PISTOL, sit, Fixed(hit=20, reaction=19, damage=[5],
                                                       critical_effect=1))
    assert out.reaction == (19, 28, False) and out.hit


def test_critical_reaction_odds_by_enumeration() -> None:
    """Exact odds: every hit roll and reaction roll enumerated by hand against d20_odds.
    Arik (DEX 2, crit 20) at AR 14, a dodge at DEX +1 with two held Actions (+3 in all)."""
    from fractions import Fraction

    from game.rulesets.d20.odds import d20_odds
    sit = Situation(reaction="dodge", held_actions=2)
    p = Fraction(0)
    for hit in range(1, 21):
        test = hit + 2
        critical = hit == 20
        if not (critical or test >= 14):
            continue
        for react in range(1, 21):
            total = react + 3
            stopped = total > test and (react == 20 if critical else True)
            p += Fraction(0 if stopped else 1, 400)
    # By hand: non-critical hits 12-19 (tests 14-21) are stopped by reactions above them;
    # the critical (test 22) only by the natural 20 (23 > 22): 19 of 20 reactions fail.
    assert p == sum(Fraction(test - 3, 400) for test in range(14, 22)) + Fraction(19, 400)
    odds = d20_odds(RULES, ARIK, THRASHER, PISTOL, sit)
    assert odds.p_hit == pytest.approx(float(p), abs=1e-12)


def test_reactions_that_cannot_be_made() -> None:
    with pytest.raises(ValueError, match="only against melee"):
        RULES.attack(ARIK, THRASHER, PISTOL, Situation(reaction="parry"), Fixed(hit=15))
    feint = RULES.can_react(THRASHER, SWORD, Situation(attack_type="feint", reaction="parry"))
    assert feint == "a feint cannot be reacted to"
    assert RULES.can_react(ARIK, SWORD, Situation(reaction="parry")) == "Arik lacks the parry skill"


def test_riposte_deals_the_defenders_weapon_damage() -> None:
    fencer = Fighter("Fencer", {"dex": 3}, armor_rating=10, reactions=("riposte",))
    out = RULES.attack(DEVIN, fencer, SWORD, Situation(reaction="riposte", riposte_damage="1d6"),
                       Fixed(hit=10, reaction=12, retaliation=4))
    assert not out.hit and out.retaliation == 4


def test_feint_subtracts_awareness_and_berserk_doubles_damage() -> None:
    wary = Fighter("Wary", armor_rating=10, awareness=3)
    feint = RULES.attack(DEVIN, wary, SWORD, Situation(attack_type="feint"), Fixed(hit=10, damage=[2]))
    assert dict(feint.hit_parts)["target's awareness"] == -3 and feint.hit_test == 10
    berserk = RULES.attack(DEVIN, wary, SWORD, Situation(attack_type="berserk"), Fixed(hit=12, damage=[4]))
    assert berserk.hit_test == 12 + 3 - 4 and berserk.damage_applied == 4 * 2 + 3


def test_resistance_weakness_and_size_and_proficiency() -> None:
    golem = Fighter("Golem", armor_rating=5, resistances=("slashing",), size="large")
    out = RULES.attack(DEVIN, golem, SWORD, Situation(proficient=False), Fixed(hit=5, damage=[6]))
    assert dict(out.hit_parts) == {"str": 3, "large target": 2, "untrained": -2}
    assert out.damage_applied == (6 + 3) // 2
    bug = Fighter("Bug", armor_rating=5, weaknesses=("slashing",))
    assert RULES.attack(DEVIN, bug, SWORD, Situation(), Fixed(hit=5, damage=[6])).damage_applied == 18


def test_burst_and_full_auto_hit_several_times() -> None:
    smg = Weapon("smg", "1d6", "piercing", "ranged", burst=3, clip=20)
    target = Fighter("T", armor_rating=10)
    out = RULES.attack(ARIK, target, smg, Situation(attack_type="burst"), Fixed(hit=17, damage=[1, 2, 3]))
    assert out.hit_test == 21 and out.hits == 3 and out.damage_applied == 6    # 1 + 11 // 5, cap 3
    auto = RULES.attack(ARIK, target, smg, Situation(attack_type="full_auto"), Fixed(hit=17, damage=[1] * 4))
    assert auto.hit_test == 23 and auto.hits == 1 + 13 // 5


@pytest.mark.parametrize("damage_type, face, status", [
    ("rending", 14, "bleeding"), ("piercing", 15, None), ("piercing", 16, "bleeding")])
def test_critical_effects_by_damage_type(damage_type: str, face: int, status: str | None) -> None:
    weapon = Weapon("w", "1d4", damage_type, "melee")
    out = RULES.attack(DEVIN, THRASHER, weapon, Situation(),
                       Fixed(hit=20, damage=[1], critical_effect=face, status_duration=2))
    assert out.status == status
    needs = {"rending": 14, "piercing": 16}[damage_type]
    assert out.effect == (f"critical effect (bleeding): d20 {face}, {needs} or more to take hold: "
                          + ("it does" if status else "it does not"))


def test_concussive_and_aether_criticals() -> None:
    club = Weapon("club", "1d6", "concussive", "melee")
    plated = Fighter("Plated", armor_rating=16, armored=True, hp=40)
    out = RULES.attack(DEVIN, plated, club, Situation(), Fixed(hit=20, damage=[3], critical_effect=16))
    assert out.armor_loss == 1
    bare = RULES.attack(DEVIN, THRASHER, club, Situation(), Fixed(hit=20, damage=[3], critical_effect=16))
    assert bare.armor_loss == 0
    bolt = Weapon("aether bolt", "1d6", "aether", "magic")
    mage = Fighter("Mage", {"mag": 2})
    out = RULES.attack(mage, Fighter("T", {"wil": 2}), bolt, Situation(), Fixed(hit=20, damage=[2], willpower=13))
    assert out.status == "stunned" and out.status_turns == 2               # 13 + 2 = 15 < 16
    assert out.effect == "critical effect (stunned): Willpower 15, below 16 to take hold: it does"


def test_turn_budget_statuses_and_ambush() -> None:
    assert RULES.speed(Fighter("F", {"dex": 5})) == 5 + 2
    assert [RULES.reaction_bonus(n) for n in (0, 1, 2)] == [0, 1, 2]
    assert RULES.status_tick("bleeding", Fixed(bleeding=3)) == 3
    assert RULES.status_tick("shocked", Fixed()) == 0
    assert RULES.p.statuses["stunned"].hit_bonus == 2
    assert RULES.ambush(ARIK, THRASHER, 2, 1, Fixed(stealth=10, awareness=12))[2] is True   # 14 > 13
    with pytest.raises(ValueError, match="defensive_stance is not an attack"):
        RULES.attack_type("defensive_stance", SWORD)


def test_the_calculator_agrees_on_a_critical_reaction(tmp_path) -> None:
    """`skirmish resolve` (the d20 calculator) reads the same rule from the core: a critical
    dodge of 21 does not stop a critical hit test of 22."""
    import json

    from game.resolve.main import main_resolve
    path = tmp_path / "crit.yaml"
    path.write_text("ruleset: d20\n"
                    "attacker: {name: Arik, attributes: {dex: 2}}\n"
                    "defender: {name: Thrasher, attributes: {dex: 1}, armor_rating: 14, hp: 30,"
                    " reactions: [dodge]}\n"
                    "weapon: {name: pistol, damage: 1d8, damage_type: piercing, style: ranged}\n"
                    "situation: {reaction: dodge}\n"
                    "rolls: {hit: 20, reaction: 20, damage: [5], critical_effect: 1}\n",
                    encoding="utf-8")
    code, text = main_resolve(str(path), as_json=True, odds=False)
    assert code == 0, text
    result = json.loads(text)
    assert result["critical"] and result["hit"] and result["damage_applied"] == 10
    code, text = main_resolve(str(path), as_json=False, odds=False)
    assert "not above the hit test 22" in text


@pytest.mark.parametrize("size, face, damage", [
    ("giant", 4, 4 + 3 + 3),       # 1d6 + Str + Str
    ("huge", 4, 4 + 3 + 2),        # 1d6 + Str + 2
    ("large", 3, 3 + 3 + 2),       # 1d4 + Str + 2
    ("medium", 3, 3 + 3),          # 1d4 + Str
    ("small", 3, 3),               # 1d4
    ("tiny", 3, 3),                # 1d4
    ("flea", 3, 1),                # 1d4 / 2 (rounded down)
])
def test_unarmed_damage_by_size(size: str, face: int, damage: int) -> None:
    """Seed 003, Unarmed Combat: "the weapon damage is determined by size via the following
    list" (Giant 1d6 + Str + Str ... Flee 1d4 / 2). A STR 3 puncher of each size."""
    puncher = Fighter("Puncher", {"str": 3}, size=size)
    out = RULES.attack(puncher, Fighter("Target"), RULES.unarmed(size), Situation(),
                       Fixed(hit=15, damage=[face]))
    assert out.hit and out.damage_applied == damage


def test_a_large_punch_odds_by_enumeration() -> None:
    """Exact odds of a large STR 3 punch at AR 10: hits on 7-20 (d20 + 3 >= 10), a natural 20
    doubling the 1d4 before STR and the +2 are added."""
    from fractions import Fraction

    from game.rulesets.d20.odds import d20_odds
    puncher = Fighter("Brute", {"str": 3}, size="large")
    by_hand: dict[int, Fraction] = {0: Fraction(6, 20)}
    for natural in range(7, 21):
        for face in range(1, 5):
            dealt = (2 * face if natural == 20 else face) + 3 + 2
            by_hand[dealt] = by_hand.get(dealt, Fraction(0)) + Fraction(1, 20 * 4)
    odds = d20_odds(RULES, puncher, Fighter("Target"), RULES.unarmed("large"), Situation())
    assert set(odds.damage) == set(by_hand)
    for dealt, p in by_hand.items():
        assert odds.damage[dealt] == pytest.approx(float(p), abs=1e-12)


def test_the_calculator_punches_by_size(tmp_path) -> None:
    import json

    from game.resolve.main import main_resolve
    path = tmp_path / "punch.yaml"
    path.write_text("ruleset: d20\n"
                    "attacker: {name: Brute, attributes: {str: 3}, size: large}\n"
                    "defender: {name: Target}\n"
                    "weapon: unarmed\n"
                    "rolls: {hit: 15, damage: [3]}\n", encoding="utf-8")
    code, text = main_resolve(str(path), as_json=True, odds=False)
    assert code == 0, text
    assert json.loads(text)["damage_applied"] == 8
    code, text = main_resolve(str(path), as_json=False, odds=False)
    assert "1d4+2 = 3, +2, +3 str" in text, text
