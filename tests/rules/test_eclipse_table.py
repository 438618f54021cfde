"""Eclipse Phase's Combat Modifiers table on the grid (seed 000, Step 3), under both editions:
superior position (high ground), target size, impaired visibility (dim light, smoke), called
shots (a superior success needed; a landed one bypasses armor, a documented choice), a
two-handed weapon in one hand, blind attacks. Each by name in the attack, its preview and the
log, with the text's numbers; the same through the calculator; exact odds where it changes them.

Dice are forced: a d100 face f reads as f - 1.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.content.schema import BattleSetup, TerrainSpec
from game.core import components as c
from game.core.commands import Attack, EndTurn, Move
from game.core.dice import Dice
from game.core.events import AttackResolved, Damaged, Refused
from game.core.narrate import describe
from game.core.queries import preview_attack
from game.core.systems.attack import plan_attack
from game.resolve.main import main_resolve
from game.rulesets import new_battle
from game.rulesets.eclipse.core import Fighter, Situation, Weapon, attack_odds
from tests.core import builders as b
from tests.rules.rules_helpers import spec, with_rules
from tests.rules.test_eclipse_grid import HIDE, KNIFE, PISTOL, exhuman, jinx

ROOT = Path(__file__).resolve().parents[2]
TERRAIN = [*b.TERRAIN,
           TerrainSpec(id="high_ground", name="High ground", glyph="^", elevation=1),
           TerrainSpec(id="dim", name="Dim light", glyph=":", visibility="minor"),
           TerrainSpec(id="smoke", name="Smoke", glyph="&", visibility="major")]
OPEN = ["." * 16 for _ in range(8)]
RIFLE = with_rules(b.RIFLE, rules={"eclipse2": {"skill": "guns", "damage": "2d10", "hands": 2}},
                   modes=[{"name": "single", "ap": 2}])


def legend() -> dict:
    return {t.glyph: {"terrain": t.id, "zone": "field"} for t in TERRAIN}


def battle(j_at=(2, 3), x_at=(6, 3), *, j=None, x=None, rows=OPEN, params=None):
    setup = b.setup(rows, {"red": [(j or jinx(), j_at)], "blue": [(x or exhuman(), x_at)]})
    ruleset = spec("eclipse2").model_dump()
    ruleset["params"].update(params or {})
    data = setup.model_dump()
    data["map"]["legend"] = legend()
    setup = BattleSetup.model_validate({**data, "ruleset": ruleset,
                                        "terrain": [t.model_dump() for t in TERRAIN],
                                        "weapons": [PISTOL.model_dump(), KNIFE.model_dump(),
                                                    RIFLE.model_dump()],
                                        "armor": [HIDE.model_dump()]})
    dice = Dice(1)
    dice.force(10, 1)                    # initiative: Jinx first
    return new_battle(setup, seed=1, dice=dice)


def row(cells: dict[int, str], y: int = 3) -> list[str]:
    rows = list(OPEN)
    line = list(rows[y])
    for x, glyph in cells.items():
        line[x] = glyph
    rows[y] = "".join(line)
    return rows


def shot(fight, *faces, location: str = "torso", mode: str = "single") -> tuple[AttackResolved, list]:
    fight.session.dice.force(*faces)
    events = fight.submit(Attack("red-1", "blue-1", mode, location))
    assert not isinstance(events, Refused), events
    return next(e for e in events if isinstance(e, AttackResolved)), events


# --- superior position --------------------------------------------------------------------------

def test_an_attacker_on_high_ground_gains_superior_position():
    with battle(rows=row({2: "^"})) as fight:
        preview = preview_attack(fight, "red-1", "blue-1", "single")
        assert ("superior position", 20) in preview.attack_modifiers
        attack, _ = shot(fight, 91, 99)            # 90 against Guns 70 + 20 at close range
        assert ("superior position", 20) in attack.attack.modifiers
        assert attack.attack.total == 90 and attack.attack.rolls == (90,)
        line = describe(attack, str)
        assert "90 against 90 (guns 70, superior position +20): success" in line


def test_level_ground_and_lower_ground_give_no_superior_position():
    with battle(rows=row({6: "^"})) as fight:      # the target stands higher
        preview = preview_attack(fight, "red-1", "blue-1", "single")
        assert all(label != "superior position" for label, _ in preview.attack_modifiers)
        assert ("superior position", 20) in preview.defense_modifiers


def test_jinx_at_the_ceiling_the_exhuman_charge_on_the_grid():
    """Seed 000's second exchange on the grid: the wounded exhuman charges (a full move), Melee
    80 - 10 charge - 10 wound = 60, rolls 07; Jinx, above it, dodges with Fray 60 + 20 superior
    position = 80 and rolls 00, a critical that beats the higher roll. The calculator's file
    of the same exchange (docs/resolve/exhuman_charge.yaml) reads the same."""
    with battle(j_at=(2, 3), x_at=(9, 3), rows=row({2: "^"})) as fight:
        fight.session.use()
        fight.session.get("blue-1", c.Condition).wounds = 1
        assert not isinstance(fight.submit(EndTurn("red-1")), Refused)
        assert not isinstance(fight.submit(Move("blue-1", tuple((x, 3) for x in range(8, 2, -1)))), Refused)
        fight.session.dice.force(8, 1)
        events = fight.submit(Attack("blue-1", "red-1", "strike"))
        attack = next(e for e in events if isinstance(e, AttackResolved))
        assert attack.attack.modifiers == (("melee", 80), ("charge", -10), ("1 wound", -10))
        assert attack.defense.modifiers == (("fray", 60), ("superior position", 20))
        assert (attack.attack.total, attack.defense.total) == (60, 80)
        assert not attack.hit and "critical beats a higher roll" in attack.detail
    code, text = main_resolve(str(ROOT / "docs/resolve/exhuman_charge.yaml"), as_json=True, odds=False)
    result = json.loads(text)
    assert code == 0 and not result["hit"]
    assert (result["attack"]["target"], result["defense"]["target"]) == (60, 80)


# --- target size ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("size", "value"), [("very_small", -30), ("small", -10), ("large", 10),
                                             ("very_large", 30)])
def test_a_targets_size_is_the_tables_modifier(size, value):
    big = exhuman()
    big = with_rules(big, rules={"eclipse2": {**big.rules["eclipse2"], "size": size}})
    with battle(x=big) as fight:
        attack, _ = shot(fight, 51, 99)
        assert (f"{size.replace('_', ' ')} target", value) in attack.attack.modifiers
        assert attack.attack.total == 70 + value


def test_a_medium_target_has_no_size_modifier():
    with battle() as fight:
        attack, _ = shot(fight, 51, 99)
        assert [m for m in attack.attack.modifiers if m[1]] == [("guns", 70)]


# --- impaired visibility --------------------------------------------------------------------------

def test_smoke_is_major_impaired_visibility_and_counts_once():
    with battle(rows=row({2: ":", 6: "&"})) as fight:     # the shooter in dim light, the target in smoke
        attack, _ = shot(fight, 51, 99)
        assert ("major visibility", -20) in attack.attack.modifiers
        assert all(label != "minor visibility" for label, _ in attack.attack.modifiers)
        assert attack.attack.total == 50


def test_dim_light_and_brush_are_one_minor_visibility():
    with battle(rows=row({2: ":", 6: '"'})) as fight:
        attack, _ = shot(fight, 51, 99)
        minors = [m for m in attack.attack.modifiers if m[0] == "minor visibility"]
        assert minors == [("minor visibility", -10)] and attack.attack.total == 60


# --- called shots ---------------------------------------------------------------------------------

def test_a_called_shot_with_a_superior_success_bypasses_the_armor():
    """Guns 70 - 10 = 60; 40 is a superior success: the exhuman's kinetic armor 10 does not apply."""
    with battle() as fight:
        preview = preview_attack(fight, "red-1", "blue-1", "single", "called_shot")
        assert ("called shot", -10) in preview.attack_modifiers
        attack, events = shot(fight, 41, 99, 5, 5, 1, location="called_shot")
        assert attack.attack.total == 60 and attack.hit
        assert "the called shot lands: it bypasses the armor" in attack.detail
        damage = next(e for e in events if isinstance(e, Damaged))
        assert (damage.rolled, damage.resisted, damage.taken) == (11, 0, 11)   # 5 + 5 + 1d6 1


def test_a_called_shot_without_a_superior_success_hits_as_any_other():
    with battle() as fight:
        attack, events = shot(fight, 21, 99, 5, 7, location="called_shot")
        assert attack.hit and "not where it was called" in attack.detail
        damage = next(e for e in events if isinstance(e, Damaged))
        assert (damage.rolled, damage.resisted, damage.taken) == (12, 10, 2)


def test_the_called_shot_odds_exactly():
    """No defense (an unseen shooter): a hit is a roll of 00-60 (61 faces). 33-60 land the
    called shot (one superior success, +1d6) and ignore armor 10; doubles are criticals (x2).
    The preview's expected damage is this enumeration's."""
    with battle() as fight:
        fight.session.use()
        fight.session.get("blue-1", c.Stats).sight = 1          # it cannot see Jinx: no defense
        from game.core.systems.sight import refresh_view
        refresh_view(fight.session, "blue-1")
        preview = preview_attack(fight, "red-1", "blue-1", "single", "called_shot")
        assert preview.defense_modifiers == (("cannot defend", 0),)
        assert preview.hit_chance == pytest.approx(61 / 100)
        two_d10 = {t: (10 - abs(t - 11)) / 100 for t in range(2, 21)}
        total = 0.0
        for roll in range(61):
            critical = 2 if roll % 11 == 0 else 1
            if roll >= 33:                       # bypasses the armor: the mean of 2d10 + 1d6
                total += critical * (11 + 3.5)
            else:
                total += sum(p * max(0, critical * t - 10) for t, p in two_d10.items())
        assert preview.expected_damage == pytest.approx(total / 100)
        torso = preview_attack(fight, "red-1", "blue-1", "single")
        assert torso.hit_chance == pytest.approx(71 / 100)


# --- a two-handed weapon in one hand --------------------------------------------------------------

def test_a_two_handed_weapon_in_one_hand_is_minus_twenty():
    one = jinx(weapons=[{"weapon": "rifle"}])
    one = with_rules(one, rules={"eclipse2": {**one.rules["eclipse2"], "hands": 1}})
    with battle(j=one) as fight:
        attack, _ = shot(fight, 51, 99)
        assert ("two handed one hand", -20) in attack.attack.modifiers and attack.attack.total == 50
    both = jinx(weapons=[{"weapon": "rifle"}])
    with battle(j=both) as fight:
        attack, _ = shot(fight, 51, 99)
        assert all(label != "two handed one hand" for label, _ in attack.attack.modifiers)
        assert attack.attack.total == 70


# --- blind attacks ---------------------------------------------------------------------------------

def blinded(fight) -> None:
    """Jinx's side loses sight of the exhuman's square (as in a blackout)."""
    fight.session.use()
    x, y = fight.session.position("blue-1")
    fight.session.sight["red"].count[y, x] = 0


def test_a_melee_attack_on_an_unseen_unit_is_a_blind_attack():
    knife = jinx(weapons=[{"weapon": "knife"}])
    with battle(j=knife, x_at=(3, 3)) as fight:
        blinded(fight)
        plan = plan_attack(fight.session, "red-1", "blue-1", None, "torso", 0)
        sit = fight.session.rules.situation(fight.session, plan, fight.session.rules.weapon(plan.weapon), False)
        assert "blind" in sit.attacker_modifiers and not sit.blind_miss_chance
        label, _, mods = fight.session.rules.core.attack_target(
            fight.session.rules.fighter(fight.session, "red-1"), fight.session.rules.weapon(plan.weapon), sit)
        assert ("blind", -30) in mods


def test_the_blind_miss_chance_reading():
    knife = jinx(weapons=[{"weapon": "knife"}])
    with battle(j=knife, x_at=(3, 3), params={"blind_attack": "miss_chance"}) as fight:
        blinded(fight)
        rules = fight.session.rules
        plan = plan_attack(fight.session, "red-1", "blue-1", None, "torso", 0)
        weapon = rules.weapon(plan.weapon)
        sit = rules.situation(fight.session, plan, weapon, False)
        assert "blind" not in sit.attacker_modifiers and sit.blind_miss_chance
        odds = attack_odds(rules.core, rules.fighter(fight.session, "red-1"),
                           rules.fighter(fight.session, "blue-1"), weapon, sit)
        plain = attack_odds(rules.core, rules.fighter(fight.session, "red-1"),
                            rules.fighter(fight.session, "blue-1"), weapon,
                            Situation(defense=sit.defense, defense_skill=sit.defense_skill))
        assert odds.p_hit == pytest.approx(plain.p_hit / 2)


# --- the calculator agrees -------------------------------------------------------------------------

def test_the_calculator_resolves_the_grids_modifiers_the_same(tmp_path):
    """Jinx on high ground calls a shot at a large exhuman in dim light: the grid's target and
    the calculator's, from the same names, are one number; so are the exact odds."""
    big = exhuman()
    big = with_rules(big, rules={"eclipse2": {**big.rules["eclipse2"], "size": "large"}})
    with battle(rows=row({2: "^", 6: ":"}), x=big) as fight:
        preview = preview_attack(fight, "red-1", "blue-1", "single", "called_shot")
        attack, _ = shot(fight, 41, 99, 5, 5, 1, location="called_shot")
    names = ["minor_visibility", "superior_position", "large_target", "called_shot"]
    assert attack.attack.total == 70 - 10 + 20 + 10 - 10 == 80
    data = {"ruleset": "eclipse2",
            "attacker": {"name": "Jinx", "skills": {"guns": 70, "fray": 60}},
            "defender": {"name": "Exhuman", "skills": {"fray": 60}, "armor": {"kinetic": 10},
                         "durability": 50, "wound_threshold": 8},
            "weapon": {"name": "pistol", "skill": "guns", "damage": "2d10"},
            "situation": {"attacker_modifiers": names, "range": "close"},
            "rolls": {"attack": 40, "defense": 98, "damage": [5, 5, 1]}}
    path = tmp_path / "called.yaml"
    path.write_text(json.dumps(data))
    code, text = main_resolve(str(path), as_json=True, odds=False)
    assert code == 0, text
    result = json.loads(text)
    assert result["attack"]["target"] == 80 and result["armor"] == 0 and result["damage_applied"] == 11
    code, text = main_resolve(str(path), as_json=True, odds=True)
    assert code == 0, text
    odds = json.loads(text)["odds"]
    assert odds["p_hit"] == pytest.approx(preview.hit_chance, abs=5e-5)      # printed to 4 places
    assert odds["expected_damage"] == pytest.approx(preview.expected_damage)


def test_the_exact_odds_move_with_superior_position():
    """Against no defense, Guns 70 + 20 hits on 00-90: 91 faces of 100."""
    core = spec("eclipse2")
    from game.rulesets.eclipse.second import Eclipse2Rules
    rules = Eclipse2Rules(core)
    jinx_f = Fighter("Jinx", skills={"guns": 70})
    target = Fighter("T")
    pistol = Weapon("pistol", "guns", "2d10")
    up = attack_odds(rules, jinx_f, target, pistol, Situation(("superior_position",), defense="none"))
    level = attack_odds(rules, jinx_f, target, pistol, Situation(defense="none"))
    assert (up.p_hit, level.p_hit) == (pytest.approx(0.91), pytest.approx(0.71))


# --- eclipse1: the same table (the file copies the core's), called shots on an excellent success

def battle1(rows=OPEN, size="medium"):
    shooter = with_rules(b.unit("sasha", weapons=("pistol",)), rules={"eclipse1": {
        "hp": 35, "attributes": {"cog": 15, "coo": 15, "int": 15, "ref": 20, "sav": 10, "som": 15,
                                 "wil": 15, "wound_threshold": 7},
        "skills": {"kinetic_weapons": 60, "fray": 40}}})
    guard = with_rules(b.unit("guard", weapons=("knife",), armor="hide"), rules={"eclipse1": {
        "hp": 40, "attributes": {"cog": 10, "coo": 10, "int": 10, "ref": 10, "sav": 5, "som": 20,
                                 "wil": 10, "wound_threshold": 8},
        "skills": {"fray": 40, "blades": 50}, "size": size}})
    pistol = with_rules(PISTOL, rules={"eclipse1": {"skill": "kinetic_weapons", "damage": "2d10"}})
    knife = with_rules(KNIFE, rules={"eclipse1": {"skill": "blades", "damage": "1d10"}})
    hide = HIDE.model_validate({**HIDE.model_dump(), "rules": {"eclipse1": {"kinetic": 10, "energy": 10}}})
    setup = b.setup(rows, {"red": [(shooter, (2, 3))], "blue": [(guard, (6, 3))]})
    data = setup.model_dump()
    data["map"]["legend"] = legend()
    setup = BattleSetup.model_validate({**data, "ruleset": spec("eclipse1").model_dump(),
                                        "terrain": [t.model_dump() for t in TERRAIN],
                                        "weapons": [pistol.model_dump(), knife.model_dump()],
                                        "armor": [hide.model_dump()]})
    dice = Dice(1)
    dice.force(10, 1)
    return new_battle(setup, seed=1, dice=dice)


def test_eclipse1_superior_position_and_size_on_the_grid():
    with battle1(rows=row({2: "^", 6: "&"}), size="small") as fight:
        attack, _ = shot(fight, 51, 99)
        names = dict(attack.attack.modifiers)
        assert names["superior position"] == 20 and names["small target"] == -10
        assert names["major visibility"] == -20 and attack.attack.total == 50


def test_eclipse1_called_shot_lands_on_an_excellent_success():
    """Kinetic Weapons 60 - 10 = 50: a roll of 35 is MoS 35 (read off the die), excellent (+5
    DV) and a landed called shot: armor 10 does not apply. A roll of 20 hits, but on armor."""
    with battle1() as fight:
        attack, events = shot(fight, 36, 99, 4, 4, location="called_shot")
        assert attack.attack.total == 50 and "the called shot lands" in attack.detail
        damage = next(e for e in events if isinstance(e, Damaged))
        assert (damage.rolled, damage.resisted, damage.taken) == (13, 0, 13)
    with battle1() as fight:
        attack, events = shot(fight, 21, 99, 4, 4, location="called_shot")
        damage = next(e for e in events if isinstance(e, Damaged))
        assert (damage.rolled, damage.resisted, damage.taken) == (8, 10, 0)


def lit(lighting: str, rows=OPEN):
    with battle(rows=rows) as fight:
        data = fight.session.setup.model_dump()
    data["scenario"]["lighting"] = lighting
    dice = Dice(1)
    dice.force(10, 1)
    return new_battle(BattleSetup.model_validate(data), seed=1, dice=dice)


@pytest.mark.parametrize(("lighting", "expected"), [("clear", []), ("minor", [("minor visibility", -10)]),
                                                    ("major", [("major visibility", -20)])])
def test_the_scenarios_lighting_impairs_every_attack(lighting, expected):
    """A dim or dark scene (the scenario's `lighting`): every attack, on any square, takes it."""
    with lit(lighting) as fight:
        attack, _ = shot(fight, 51, 99)
        assert [m for m in attack.attack.modifiers if m[0].endswith("visibility")] == expected
        assert attack.attack.total == 70 + sum(v for _, v in expected)


def test_smoke_in_a_dim_scene_is_one_modifier_the_worse():
    with lit("minor", rows=row({6: "&"})) as fight:
        attack, _ = shot(fight, 51, 99)
        assert [m for m in attack.attack.modifiers if m[0].endswith("visibility")] == [
            ("major visibility", -20)]


def test_a_ranged_attack_is_never_blind():
    """A shot needs the shooter's own sight, so it is not a blind attack even where its side's
    record of sight lags (the computer's "what if I stood there" copies)."""
    with battle() as fight:
        blinded(fight)
        preview = preview_attack(fight, "red-1", "blue-1", "single")
        assert all(label != "blind" for label, _ in preview.attack_modifiers)


def test_the_bundled_rifles_are_two_handed_and_the_pistol_is_not():
    from game.content.loader import load_setup
    for ruleset in ("eclipse2", "eclipse1"):
        setup = load_setup("eclipse2_alley", ruleset=ruleset)
        with new_battle(setup, seed=1) as fight:
            rules, weapons = fight.session.rules, fight.session.weapons
            hands = {w: rules.weapon_profile(weapons[w]).hands
                     for w in ("olea_rifle", "vanter_battle_rifle", "es63_custom", "thensi_smg")}
            assert hands == {"olea_rifle": 2, "vanter_battle_rifle": 2, "es63_custom": 1,
                             "thensi_smg": 1}, ruleset
