"""OpenD6's optional rules on the grid: a scenario's `options:` block, the Wounds system in a
battle, a bare-handed block of a blade and a sharp parry of a fist."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.content.loader import load_setup
from game.content.problems import ContentError
from game.content.schema import BattleSetup
from game.core import components as c
from game.core.commands import Attack, Defend, EndTurn
from game.core.dice import Dice
from game.core.events import AttackResolved, Damaged, HealthChanged
from game.core.queries import preview_attack
from game.rulesets import new_battle
from tests.core import builders as b
from tests.rules.rules_helpers import with_rules
from tests.rules.test_opend6_grid import CROSSBOW, HIDE, OPEN, SLING, cian, goblin, of, ruleset

BLADE = with_rules(b.KNIFE, id="blade", name="Blade",
                   rules={"opend6": {"skill": "melee_combat", "damage": "+1D+1", "sharp": True}})
DAGGER = with_rules(b.KNIFE, id="dagger", name="Dagger",
                    rules={"opend6": {"skill": "melee_combat", "damage": "+1D", "sharp": True}})


def battle(options: dict | None = None, *, c_at=(2, 3), g_at=(14, 3), first="cian", cian_spec=None,
           goblin_spec=None):
    setup = b.setup(OPEN, {"red": [(cian_spec or cian(), c_at)], "blue": [(goblin_spec or goblin(), g_at)]})
    spec = ruleset().model_dump()
    spec["params"].update(options or {})
    setup = BattleSetup.model_validate({**setup.model_dump(), "ruleset": spec,
                                        "weapons": [w.model_dump() for w in (CROSSBOW, SLING, BLADE, DAGGER)],
                                        "armor": [HIDE.model_dump()]})
    dice = Dice(1)
    dice.force(*((5, 2) if first == "cian" else (2, 5)))
    return new_battle(setup, seed=1, dice=dice)


def test_the_goblin_dies_under_the_wounds_system_on_the_grid() -> None:
    """The seed's example played in a battle with the Wounds option and the damage bonus: 21
    against 15, the crossbow's 18 + 2 against the goblin's Physique 2 (a Wild Die 1): Dead."""
    with battle({"damage_system": "wounds", "damage_bonus": True}) as fight:
        assert fight.session.get("blue-1", c.Health).max_hp == 6          # six wound levels
        odds = preview_attack(fight, "red-1", "blue-1")
        assert 0 < odds.hit_chance < 1
        fight.session.dice.force(4, 5, 3, 6, 3, 5, 4, 6, 3, 1, 1)
        events = fight.submit(Attack("red-1", "blue-1"))
        damaged = of(events, Damaged)[0]
        assert (damaged.rolled, damaged.resisted, damaged.taken) == (20, 2, 6)
        assert [e.state for e in of(events, HealthChanged)] == ["dead"]
        assert fight.session.dice.forced_left == 0


def test_a_wound_level_costs_dice_until_healed() -> None:
    with battle({"damage_system": "wounds"}) as fight:
        # 4+5+3 and a Wild 6+3: 21 hits; the crossbow rolls 1+1+1+1 = 4 against Physique 1+1 = 2:
        # 2 over: stunned (-1D).
        fight.session.dice.force(4, 5, 3, 6, 3, 1, 1, 1, 1, 1, 1)
        of(fight.submit(Attack("red-1", "blue-1")), AttackResolved)
        assert fight.session.get("blue-1", c.Health).hp == 5
        assert "stunned" in fight.session.get("blue-1", c.Condition).statuses
        assert fight.session.rules.fighter(fight.session, "blue-1").damage == 1


def test_a_bare_handed_block_of_a_blade_cuts_the_blocker() -> None:
    """The goblin blocks (brawling 3D - 1D: 5+5 = 10); Cian's blade misses (2D: 1+3) and the
    goblin takes the blade's listed 1D+1 (no Strength Damage): a Wild 4 + 1 = 5."""
    with battle(c_at=(5, 3), g_at=(6, 3), first="goblin", cian_spec=cian(weapons=("blade",))) as fight:
        fight.session.dice.force(5, 5)
        fight.submit(Defend("blue-1", "block"))
        fight.submit(EndTurn("blue-1"))
        fight.session.dice.force(1, 3, 4)
        events = fight.submit(Attack("red-1", "blue-1"))
        attack = of(events, AttackResolved)[0]
        assert not attack.hit and "blocked the Blade bare-handed" in attack.detail
        damaged = of(events, Damaged)[0]
        assert (damaged.unit, damaged.rolled, damaged.taken) == ("blue-1", 5, 5)
        assert fight.session.get("blue-1", c.Health).hp == 12 - 5


def test_a_dagger_parrying_a_fist_hurts_the_puncher() -> None:
    """The goblin parries with a dagger (melee combat 2D - 1D: a Wild 6, 5 = 11); Cian punches
    (brawling 3D - 1D: 1+3) and misses; the dagger's listed 1D (no Physique) rolls 3 against her."""
    with battle(c_at=(5, 3), g_at=(6, 3), first="goblin", cian_spec=cian(weapons=()),
                goblin_spec=goblin(weapons=("dagger",))) as fight:
        fight.session.dice.force(6, 5)
        fight.submit(Defend("blue-1", "parry"))
        fight.submit(EndTurn("blue-1"))
        fight.session.dice.force(1, 3, 3)
        events = fight.submit(Attack("red-1", "blue-1"))
        assert not of(events, AttackResolved)[0].hit
        damaged = of(events, Damaged)[0]
        assert (damaged.unit, damaged.rolled, damaged.taken) == ("red-1", 3, 3)


SCENARIO = """\
id: alley_wounds
name: Alley under the Wounds system
ruleset: opend6
map: alley
sides:
  - {id: smugglers, name: Crew, zone: alpha, members: [{unit: hollis}]}
  - {id: olea, name: Patrol, zone: bravo, members: [{unit: olea_trooper}]}
options:
  opend6: {%s}
"""


def test_a_scenarios_options_switch_the_rules(tmp_path: Path) -> None:
    path = tmp_path / "scenario.yaml"
    path.write_text(SCENARIO % "damage_system: wounds, passive_bonus: true", encoding="utf-8")
    setup = load_setup(path)
    assert setup.ruleset.params["damage_system"] == "wounds" and setup.ruleset.params["passive_bonus"]
    with new_battle(setup, seed=2) as fight:
        assert fight.session.rules.core.wounds is not None
        assert {fight.session.get(uid, c.Health).max_hp for uid, _ in fight.session.units()} == {6}


@pytest.mark.parametrize("text, words", [
    ("damage_sytem: wounds", "did you mean 'damage_system'"),
    ("damage_system: hit_points", "damage_system"),
    ("multi_action_penalty: 0", "unknown option 'multi_action_penalty'"),
])
def test_a_scenarios_bad_options_are_named(tmp_path: Path, text: str, words: str) -> None:
    path = tmp_path / "scenario.yaml"
    path.write_text(SCENARIO % text, encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        load_setup(path)
    assert any(words in p.message and "options" in p.key for p in caught.value.problems), caught.value.problems


# --- aiming and Character Points on the grid ---------------------------------------------------

def pointed(points: int = 3):
    spec = cian()
    profile = {**spec.rules["opend6"], "character_points": points}
    return with_rules(spec, rules={"opend6": profile})


def pass_round(fight) -> None:
    """The goblin's turn: nothing; then Cian's again (initiative: Cian's Wild Die 5, its 2)."""
    fight.session.dice.force(5, 2)
    assert fight.session.active == "blue-1"
    fight.submit(EndTurn("blue-1"))
    assert fight.session.active == "red-1"


def test_two_rounds_of_aim_add_two_dice_to_the_shot() -> None:
    """"Each consecutive round of uninterrupted aiming adds 1D to the character's marksmanship
    ... up to a maximum bonus of +3D." Cian aims two rounds, then shoots: 5D + 2D - 1D."""
    from game.core.commands import Aim
    from game.core.events import Aimed
    with battle() as fight:
        aimed = of(fight.submit(Aim("red-1", "blue-1")), Aimed)[0]
        assert (aimed.level, aimed.ap_cost) == (1, 2)
        assert fight.session.active == "blue-1"                   # aiming took the whole round
        pass_round(fight)
        assert of(fight.submit(Aim("red-1", "blue-1")), Aimed)[0].level == 2
        pass_round(fight)
        before = preview_attack(fight, "red-1", "blue-1")
        assert ("aim D", 2) in before.attack_modifiers
        fight.session.dice.force(1, 1, 1, 1, 1, 2)                 # 6D: 7, a miss
        attack = of(fight.submit(Attack("red-1", "blue-1")), AttackResolved)[0]
        assert len(attack.attack.rolls) == 6 and "5D-1D+2D aim rolls 1+1+1+1+1, Wild Die 2 = 7" in attack.detail
        # The aim is spent: the next shot is back to 4D.
        fight.session.dice.force(1, 1, 1, 2)
        again = of(fight.submit(Attack("red-1", "blue-1")), AttackResolved)[0]
        assert len(again.attack.rolls) == 4


def test_moving_before_the_shot_or_acting_first_breaks_the_aim() -> None:
    from game.core.commands import Aim, Move
    with battle() as fight:
        fight.submit(Aim("red-1", "blue-1"))
        pass_round(fight)
        fight.submit(Move("red-1", ((2, 4),)))
        assert ("aim D", 1) not in preview_attack(fight, "red-1", "blue-1").attack_modifiers
        refused = fight.submit(Aim("red-1", "blue-1"))
        assert "already acted" in refused.reason


def test_character_points_add_a_die_each_and_come_from_the_units_pool() -> None:
    from game.core.commands import SpendPoints
    from game.core.events import PointsSpent
    with battle(cian_spec=pointed(3)) as fight:
        spent = of(fight.submit(SpendPoints("red-1", 2)), PointsSpent)[0]
        assert (spent.points, spent.left) == (2, 1)
        assert ("Character Point D", 2) in preview_attack(fight, "red-1", "blue-1").attack_modifiers
        assert "at most 2" in fight.submit(SpendPoints("red-1", 1)).reason
        fight.session.dice.force(1, 1, 1, 1, 1, 2)                 # 4D + 2 Character Point dice
        attack = of(fight.submit(Attack("red-1", "blue-1")), AttackResolved)[0]
        assert len(attack.attack.rolls) == 6 and "+2D Character Points rolls 1+1+1+1+1, Wild Die 2 = 7" in attack.detail
        assert fight.session.rules.character_points(fight.session, "red-1") == 1
        assert "has 1 Character Point left" in fight.submit(SpendPoints("red-1", 2)).reason


def test_a_character_point_on_a_dodge_and_unused_points_come_back() -> None:
    """Cian's dodge (4D - 1D) with a Character Point: the seed's 13 + 5 = 18."""
    from game.core.commands import SpendPoints
    from game.core.events import Defended
    with battle(cian_spec=pointed(1)) as fight:
        fight.submit(SpendPoints("red-1", 1))
        fight.session.dice.force(5, 4, 5, 4)                       # 3D: 5+4 and Wild 4 = 13; the point: 5
        defended = of(fight.submit(Defend("red-1", "dodge")), Defended)[0]
        assert defended.check.total == 18
        assert fight.session.rules.character_points(fight.session, "red-1") == 0
    with battle(cian_spec=pointed(1)) as fight:
        fight.submit(SpendPoints("red-1", 1))
        fight.submit(EndTurn("red-1"))
        assert fight.session.rules.character_points(fight.session, "red-1") == 1
        assert "has 0 Character Points left" in battle_refusal(fight)


def battle_refusal(fight) -> str:
    from game.core.commands import SpendPoints
    pass_round(fight)
    fight.submit(SpendPoints("red-1", 1))
    return fight.submit(SpendPoints("red-1", 1)).reason


def test_other_rulesets_refuse_aim_and_points_and_offer_neither() -> None:
    from game.core.commands import Aim, SpendPoints
    from game.core.queries import extra_actions
    from game.core.events import Refused
    setup = b.setup(["." * 8, "." * 8], {"red": [(b.unit("a", weapons=("pistol",)), (0, 0))],
                                "blue": [(b.unit("z", weapons=("pistol",)), (7, 0))]})
    with new_battle(setup, seed=1) as fight:
        uid = fight.session.active
        other = next(u for u, _ in fight.session.units() if u != uid)
        aimed = fight.submit(Aim(uid, other))
        assert isinstance(aimed, Refused) and "no aiming over rounds" in aimed.reason
        assert "no Character Points" in fight.submit(SpendPoints(uid, 1)).reason
        assert extra_actions(fight, uid) == []


def test_aim_is_greyed_with_the_reason_after_acting() -> None:
    from game.core.commands import Move
    from game.core.queries import extra_actions
    with battle() as fight:
        fight.submit(Move("red-1", ((2, 4),)))
        aim = {e.key: e for e in extra_actions(fight, "red-1", "blue-1")}["a"]
        assert aim.command is None and "already acted" in aim.why and aim.cost == 1


def test_the_calculator_resolves_an_aimed_pointed_shot_as_the_grid_does(tmp_path: Path) -> None:
    """Cian after a round of aim, with a Character Point, under the Wounds option with the
    damage bonus: the grid's battle and a resolve file with the same dice agree on every number."""
    import json

    from game.core.commands import Aim, SpendPoints
    from game.resolve.main import main_resolve
    faces = [4, 5, 3, 2, 1, 6, 3]                  # 5D - 1D + 1D aim: 4 ordinary dice, CP die, Wild 6+3
    with battle({"damage_system": "wounds", "damage_bonus": True}, cian_spec=pointed(1)) as fight:
        fight.submit(Aim("red-1", "blue-1"))
        pass_round(fight)
        fight.submit(SpendPoints("red-1", 1))
        fight.session.dice.force(*faces, 5, 4, 6, 3, 2, 2)
        events = fight.submit(Attack("red-1", "blue-1"))
        attack, damaged = of(events, AttackResolved)[0], of(events, Damaged)[0]
        grid = (attack.attack.total, attack.defense.total, damaged.rolled, damaged.resisted,
                fight.session.get("blue-1", c.Health).max_hp - fight.session.get("blue-1", c.Health).hp)
    path = tmp_path / "shot.yaml"
    path.write_text(
        "ruleset: opend6\noptions: {damage_system: wounds, damage_bonus: true}\n"
        "attacker: {name: Cian, attributes: {physique: 2D+2}, skills: {marksmanship: 5D}}\n"
        "defender: {name: Goblin, attributes: {physique: 2D, agility: 2D+2}}\n"
        "weapon: {name: crossbow, skill: marksmanship, damage: 4D}\n"
        "situation: {actions: 2, aim_rounds: 1, character_points: 1, range: medium}\n"
        "rolls: {attack: [4, 5, 3, 2, 1], attack_wild: [6, 3], damage: [5, 4, 6], damage_wild: [3],"
        " resist: [2], resist_wild: [2]}\n", encoding="utf-8")
    code, text = main_resolve(str(path), as_json=True, odds=False)
    assert code == 0, text
    result = json.loads(text)
    calc = (result["attack_total"], result["difficulty"], result["damage_rolled"], result["resist_total"],
            result["defender"]["wound_level"])
    assert grid == calc
    assert calc[0] == 4 + 5 + 3 + 2 + 1 + 6 + 3 and calc[4] == 6      # 24 against 15: Dead
