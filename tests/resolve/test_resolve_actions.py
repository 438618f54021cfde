"""`skirmish resolve` beyond one attack: suppressive fire, a grenade throw, morale, a d20 ambush.

Each action against the text's numbers with forced dice, against the engine (the same dice
through a real battle give the same result), and its --odds against an enumeration of every
roll the action can make.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from game.content.loader import load_library
from game.content.schema import UnitSpec, WeaponSpec
from game.core.commands import EndTurn, SetOverwatch, Suppress, Throw
from game.core.dice import Dice
from game.core.events import Damaged, GrenadeThrown, SuppressionDodged, SuppressionTested
from game.resolve.main import main_resolve
from game.resolve.rolls import NamedRolls
from game.rulesets import new_battle
from game.rulesets.d20 import calculator_ambush
from game.rulesets.d20.core import D20Rules, Fighter
from game.rulesets.skirmish import calculator_actions as actions
from game.rulesets.skirmish.rules import SkirmishRules
from tests.core.builders import GRENADE, HEAVY, LIGHT, LMG, setup, unit

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "resolve"
LIBRARY = load_library()


def run(path: Path | str, *, odds: bool = False) -> dict[str, Any]:
    code, text = main_resolve(str(path), as_json=True, odds=odds)
    assert code == 0, text
    return json.loads(text)


def text_of(path: Path | str) -> str:
    code, text = main_resolve(str(path), as_json=False, odds=False)
    assert code == 0, text
    return text


def write(tmp_path: Path, data: dict[str, Any], name: str = "file.yaml") -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def inline(spec: UnitSpec, resist: dict[str, int] | None = None) -> dict[str, Any]:
    """A test unit written out in a resolve file, number for number."""
    return {"name": spec.name, "hp": spec.hp, "attributes": dict(spec.attributes), "skills": dict(spec.skills),
            "abilities": dict(spec.abilities), "armor": dict(resist or {})}


def weapon_dict(weapon: WeaponSpec) -> dict[str, Any]:
    return weapon.model_dump(exclude={"rules"})


# --- suppressive fire -----------------------------------------------------------------------


def test_the_supports_suppression_pins_maire_and_she_breaks_free() -> None:
    # "He rolls 10 (8 + Aim 7 + Dexterity mod. -1 + -4 LMG base aim penalty)... rolling a 15
    # (9 + 6 Willpower + Intelligence mod. 0). With such a high Dodge score, (Dodge 7 + Agility
    # mod. 3) she is able to avoid the burst of suppressing fire by default."
    result = run(EXAMPLES / "support_suppresses_maire.yaml")
    assert result["action"] == "suppress" and result["diameter"] == 3 and result["mode"] == "burst"
    assert result["attack"]["total"] == 10
    assert dict(map(tuple, result["attack"]["modifiers"])) == {"aim": 7, "dexterity": -1, "accuracy": -4}
    maire = result["targets"][0]
    assert (maire["dodge"]["total"], maire["hit"], maire["pinned"]) == (11, False, True)
    assert maire["break"]["willpower"]["total"] == 15 and maire["break"]["broken"] is True
    assert (maire["hp"], maire["state"]) == (26, "ok")
    text = text_of(EXAMPLES / "support_suppresses_maire.yaml")
    assert "Attack (aim): 8 + 7 aim - 1 dexterity - 4 accuracy = 10." in text
    assert "Willpower 9 + 6 willpower = 15 against 10: holds" in text and "free, acts normally" in text


def _suppress_units() -> tuple[UnitSpec, UnitSpec]:
    support = unit("support", hp=18, constitution=6, aim=7, dexterity=-1, dodge=3, agility=-1,
                   weapons=("lmg",), armor="heavy", abilities={"suppressive_fire": 1})
    trooper = unit("trooper", hp=40, dodge=0, agility=0, willpower=6, intelligence=0, armor="light")
    return support, trooper


def test_suppression_equals_the_engines_for_the_same_dice(tmp_path: Path) -> None:
    # The fire hits (10 against 2), the trooper tries to break free next turn: Willpower 15
    # holds, but Dodge 3 does not reach 10, so the fire hits again.
    support, trooper = _suppress_units()
    faces = [8, 2, 5, 5, 5, 5, 9, 3, 2, 2, 2, 2]
    dice = Dice(0)
    dice.force(5, 5, *faces)
    with new_battle(setup(["." * 16 for _ in range(8)], {"olea": [(support, (10, 3))],
                                                         "spacer": [(trooper, (3, 3))]}, ambush="olea"),
                    0, dice=dice) as battle:
        events = battle.submit(Suppress("olea-1", (3, 3)))
        engine_dodge = [e for e in events if isinstance(e, SuppressionDodged)][0]
        engine_test = [e for e in events if isinstance(e, SuppressionTested)][0]
        engine_damage = [e.taken for e in events if isinstance(e, Damaged)]
        engine_hp = battle.session.get("spacer-1", __import__("game.core.components", fromlist=["Health"]).Health).hp
    path = write(tmp_path, {
        "ruleset": "skirmish", "action": "suppress",
        "attacker": inline(support, HEAVY.resist), "weapon": weapon_dict(LMG),
        "targets": [inline(trooper, LIGHT.resist)],
        "situation": {"distance": 7, "break_free": True},
        "rolls": {"attack": 8, "dodge": 2, "damage": [5, 5, 5, 5, 2, 2, 2, 2], "willpower": 9, "break_dodge": 3}})
    result = run(path)
    target = result["targets"][0]
    assert result["attack"]["total"] == events[0].attack.total == 10
    assert (target["dodge"]["total"], target["hit"]) == (engine_dodge.dodge.total, engine_dodge.hit) == (2, True)
    assert (target["break"]["willpower"]["total"], target["break"]["dodge"]["total"], target["break"]["broken"]) == (
        engine_test.willpower.total, engine_test.dodge.total, engine_test.broken) == (15, 3, False)
    assert [target["damage"]["taken"], target["break"]["damage"]["taken"]] == engine_damage == [17, 5]
    assert target["hp"] == engine_hp == 18


def test_a_target_the_fire_drops_is_not_pinned_and_does_not_try_to_break(tmp_path: Path) -> None:
    path = write(tmp_path, {
        "ruleset": "skirmish", "action": "suppress", "attacker": {"unit": "support"},
        "targets": [{"name": "Frail", "hp": 3, "skills": {"dodge": 0}, "attributes": {"agility": 0}}],
        "situation": {"break_free": True}, "rolls": {"attack": 10, "dodge": 1, "damage": [9, 9, 9, 9]}})
    target = run(path)["targets"][0]
    assert target["hit"] and not target["pinned"] and "break" not in target and target["state"] == "dead"


def test_maire_breaks_free_of_the_supports_fire() -> None:
    # "Any attempt to break suppression requires a Willpower roll vs. the suppressing
    # character's Aim roll ... After a successful roll the suppressed character makes a Dodge
    # roll to avoid the fire, and a further success allows them to move and operate normally."
    result = run(EXAMPLES / "maire_breaks_free.yaml")
    assert (result["willpower"]["total"], result["dodge"]["total"], result["broken"]) == (15, 14, True)
    odds = run(EXAMPLES / "maire_breaks_free.yaml", odds=True)["odds"]
    assert odds["p_holds"] == pytest.approx(0.7) and odds["p_free"] == pytest.approx(0.7)   # 4+ on the d10


def test_a_failed_break_stays_prone_or_takes_the_fire(tmp_path: Path) -> None:
    base = {"ruleset": "skirmish", "action": "break", "against": 12, "weapon": "harrow_lmg",
            "target": {"name": "T", "hp": 30, "skills": {"willpower": 2, "dodge": 1}, "attributes": {}}}
    stays = run(write(tmp_path, {**base, "rolls": {"willpower": 9}}, "stays.yaml"))
    assert (stays["willpower"]["total"], stays["dodge"], stays["broken"], stays["hp"]) == (11, None, False, 30)
    shot = run(write(tmp_path, {**base, "rolls": {"willpower": 10, "break_dodge": 10, "damage": [1, 2, 3, 4]}},
                     "shot.yaml"))
    assert (shot["dodge"]["total"], shot["broken"], shot["damage"]["taken"], shot["hp"]) == (11, False, 10, 20)
    rules = SkirmishRules(LIBRARY.rulesets["skirmish"])
    data = actions.BreakModel.model_validate(base)
    odds = actions.break_odds(rules, data, LIBRARY).result["odds"]
    outcomes = every_roll(lambda rolls: actions.break_resolve(rules, data, rolls, LIBRARY).result)
    assert odds["p_free"] == pytest.approx(tally(outcomes, lambda r: r["broken"]).get(True, 0.0)) == pytest.approx(0.0)
    taken = tally(outcomes, lambda r: r["damage_applied"])
    assert odds["damage"] == pytest.approx({str(k): q for k, q in taken.items() if q > 0})


# --- exact odds by enumeration ----------------------------------------------------------------


class _Walk(NamedRolls):
    """Rolls that follow a path of faces, then the lowest face, noting each die's range."""

    def __init__(self, path: list[int]) -> None:
        super().__init__({}, 0)
        self.path = path
        self.ranges: list[tuple[int, int]] = []

    def __call__(self, name: str, low: int, high: int) -> int:
        index = len(self.ranges)
        if index == len(self.path):
            self.path.append(low)
        self.ranges.append((low, high))
        self.made.append((name, self.path[index], True))
        return self.path[index]


def every_roll(resolve: Callable[[NamedRolls], Any]) -> list[tuple[float, Any]]:
    """Every way the dice can fall, with its chance: (probability, resolve's result)."""
    out, path = [], []
    while True:
        walk = _Walk(list(path))
        result = resolve(walk)
        out.append((math.prod(1 / (high - low + 1) for low, high in walk.ranges), result))
        path = walk.path[:len(walk.ranges)]
        while path and path[-1] == walk.ranges[len(path) - 1][1]:
            path.pop()
        if not path:
            return out
        path[-1] += 1


def small_rules(die: int) -> SkirmishRules:
    spec = LIBRARY.rulesets["skirmish"]
    return SkirmishRules(spec.model_copy(update={"params": {**spec.params, "die": die}}))


def tally(outcomes: list[tuple[float, Any]], key: Callable[[Any], Any]) -> dict[Any, float]:
    out: dict[Any, float] = {}
    for p, result in outcomes:
        out[key(result)] = out.get(key(result), 0.0) + p
    return out


def test_suppression_odds_equal_every_roll_enumerated() -> None:
    rules = small_rules(4)
    weapon = {**weapon_dict(LMG), "damage": "1d2"}
    data = actions.SuppressModel.model_validate({
        "ruleset": "skirmish", "action": "suppress",
        "attacker": {"name": "S", "hp": 10, "skills": {"aim": 1}, "abilities": {"suppressive_fire": 2}},
        "weapon": weapon,
        "targets": [{"name": "A", "hp": 2, "skills": {"dodge": 0, "willpower": 1}},
                    {"name": "B", "hp": 9, "skills": {"dodge": 2}, "cover": "half"}],
        "situation": {"break_free": True}})
    odds = actions.suppress_odds(rules, data, LIBRARY).result["odds"]
    outcomes = every_roll(lambda rolls: actions.suppress_resolve(rules, data, rolls, LIBRARY).result)
    assert sum(p for p, _ in outcomes) == pytest.approx(1)
    hits = tally(outcomes, lambda r: r["hits"])
    assert odds["hits"] == pytest.approx([hits.get(k, 0.0) for k in range(3)])
    assert sum(odds["hits"]) == pytest.approx(1)
    for index, target in enumerate(odds["targets"]):
        assert sum(target["damage"].values()) == pytest.approx(1) and sum(target["states"].values()) == pytest.approx(1)
        taken = tally(outcomes, lambda r, i=index: r["targets"][i]["hp_before"] - r["targets"][i]["hp"])
        assert target["damage"] == pytest.approx({str(k): p for k, p in taken.items() if p > 0})
        states = tally(outcomes, lambda r, i=index: r["targets"][i]["state"])
        assert {k: p for k, p in target["states"].items() if p > 0} == pytest.approx(states)
        assert target["p_hit"] == pytest.approx(tally(outcomes, lambda r, i=index: r["targets"][i]["hit"]).get(True, 0))
        assert target["p_free"] == pytest.approx(
            tally(outcomes, lambda r, i=index: r["targets"][i].get("broke_free", False)).get(True, 0))
        assert target["p_pinned"] == pytest.approx(
            tally(outcomes, lambda r, i=index: r["targets"][i]["pinned"]).get(True, 0))


def test_throw_odds_equal_every_roll_enumerated() -> None:
    rules = LIBRARY.rulesets["skirmish"]
    skirmish = SkirmishRules(rules)
    data = actions.ThrowModel.model_validate({
        "ruleset": "skirmish", "action": "throw",
        "attacker": {"name": "T", "at": [0, 3], "skills": {"demolitions": 2}},
        "weapon": {**weapon_dict(GRENADE), "damage": "2d3"},
        "at": [6, 3],
        "targets": [{"name": "Near", "at": [6, 4], "hp": 3}, {"name": "Far", "at": [8, 3], "hp": 5}]},
        context={"library": LIBRARY, "rules": skirmish})
    odds = actions.throw_odds(skirmish, data, LIBRARY).result["odds"]
    outcomes = every_roll(lambda rolls: actions.throw_resolve(skirmish, data, rolls, LIBRARY).result)
    assert sum(p for p, _ in outcomes) == pytest.approx(1)
    landed = tally(outcomes, lambda r: tuple(r["landed"]))
    assert {tuple(x["at"]): x["p"] for x in odds["landings"]} == pytest.approx(landed)
    assert sum(x["p"] for x in odds["landings"]) == pytest.approx(1)
    for index, target in enumerate(odds["targets"]):
        taken = tally(outcomes, lambda r, i=index: r["targets"][i]["hp_before"] - r["targets"][i]["hp"])
        assert target["damage"] == pytest.approx({str(k): p for k, p in taken.items() if p > 0})
        states = tally(outcomes, lambda r, i=index: r["targets"][i]["state"])
        assert {k: p for k, p in target["states"].items() if p > 0} == pytest.approx(states)
        caught = tally(outcomes, lambda r, i=index: r["targets"][i]["ring"] is not None)
        assert target["p_caught"] == pytest.approx(caught.get(True, 0.0))


def test_ambush_odds_equal_every_roll_enumerated() -> None:
    rules = D20Rules(LIBRARY.rulesets["d20"])
    data = calculator_ambush.AmbushModel.model_validate({
        "ruleset": "d20", "action": "ambush",
        "ambushers": [{"name": "G", "attributes": {"dex": 3}, "stealth": 1}],
        "targets": [{"name": "A", "attributes": {"per": 2}, "awareness": 1}]})
    odds = calculator_ambush.ambush_odds(rules, data, LIBRARY).result["odds"]
    outcomes = every_roll(lambda rolls: calculator_ambush.ambush_resolve(rules, data, rolls, LIBRARY).result)
    caught = tally(outcomes, lambda r: len(r["ambushed"]))
    assert odds["ambushed"] == pytest.approx([caught.get(0, 0.0), caught.get(1, 0.0)])
    assert odds["pairs"][0]["p_ambushed"] == pytest.approx(caught[1]) == pytest.approx(210 / 400)
    assert sum(odds["ambushed"]) == pytest.approx(1) and odds["acts_first"]["G"] == pytest.approx(caught[1])


@pytest.mark.parametrize("name", ["support_suppresses_maire.yaml", "maire_breaks_free.yaml", "maire_throw.yaml",
                                  "goblins_ambush.yaml", "support_falls_morale.yaml"])
def test_every_action_example_has_odds_that_sum_to_one(name: str) -> None:
    result = run(EXAMPLES / name, odds=True)
    odds = result["odds"]
    assert "seed" not in result and result["action"] != "attack"
    for target in odds.get("targets", []):
        assert sum(target["damage"].values()) == pytest.approx(1)
        assert sum(target["states"].values()) == pytest.approx(1)
    for key in ("damage", "states"):
        if key in odds:
            assert sum(odds[key].values()) == pytest.approx(1)
    for key in ("hits", "ambushed"):
        if key in odds:
            assert sum(odds[key]) == pytest.approx(1)
    if "landings" in odds:
        assert sum(x["p"] for x in odds["landings"]) == pytest.approx(1)


# --- a grenade throw --------------------------------------------------------------------------


def test_maires_grenade_scatters_to_the_supports_feet() -> None:
    # "She rolls a six ... Rolling 1d10 for miss direction, the grenade lands four meters to
    # the left ... 16 +3 + 15 +12 + 12 = 58 - 30 Shock DR = 28 ... 12 damage on the enemy Soldier"
    result = run(EXAMPLES / "maire_throw.yaml")
    assert (result["difficulty"], result["throw"]["total"], result["scatter"]) == (10, 6, 4)
    assert result["landed"] == [11, 6] and result["blast_rolls"] == [16, 3, 15, 12, 12]
    support, soldier = result["targets"]
    assert (support["ring"], support["damage"]["rolled"], support["damage"]["taken"], support["state"]) == (
        0, 58, 28, "dead")
    assert (soldier["ring"], soldier["damage"]["taken"]) == (4, 12)
    assert "Missed by 4: it scatters 4 squares" in text_of(EXAMPLES / "maire_throw.yaml")


def test_throw_and_morale_equal_the_engines_for_the_same_dice(tmp_path: Path) -> None:
    # As the engine's worked example plays it: Maire at (0, 5) throws at (10, 5); the Support
    # stands at (9, 1), the Soldier at (13, 4).
    maire = unit("maire", ap=24, hp=20, morale=10, dexterity=0, demolitions=0, weapons=("smg",),
                 grenades={"he_grenade": 1})
    support = unit("support", hp=18, constitution=6, morale=8, weapons=("lmg",), armor="heavy")
    soldier = unit("soldier", hp=30, morale=8, abilities={"overwatch": 1})
    dice = Dice(0)
    dice.force(1, 10, 8, 6, 8, 16, 3, 15, 12, 12)
    with new_battle(setup(["." * 16 for _ in range(8)], {"scout": [(maire, (0, 5))],
                                                         "olea": [(support, (9, 1)), (soldier, (13, 4))]},
                          ambush="olea"), 0, dice=dice) as battle:
        assert battle.submit(EndTurn("olea-1")) and battle.submit(SetOverwatch("olea-2", (2, 5)))
        events = battle.submit(Throw("scout-1", (10, 5), GRENADE.id))
        thrown = [e for e in events if isinstance(e, GrenadeThrown)][0]
        hurt = {e.unit: e.taken for e in events if isinstance(e, Damaged)}
        pools = {side: battle.session.morale_percent(side) for side in ("scout", "olea")}
        modifiers = {side: battle.session.morale_modifier(side) for side in ("scout", "olea")}
    result = run(write(tmp_path, {
        "ruleset": "skirmish", "action": "throw",
        "attacker": {**inline(maire), "at": [0, 5]}, "weapon": weapon_dict(GRENADE), "at": [10, 5],
        "targets": [{**inline(support, HEAVY.resist), "at": [9, 1]}, {**inline(soldier), "at": [13, 4]}],
        "rolls": {"throw": 6, "scatter": 8, "damage": [16, 3, 15, 12, 12]}}))
    assert (result["throw"]["total"], result["difficulty"], result["scatter"]) == (
        thrown.check.total, thrown.difficulty, thrown.scatter_distance)
    assert tuple(result["landed"]) == thrown.landed == (9, 1)
    assert [t["damage"]["taken"] for t in result["targets"]] == [hurt["olea-1"], hurt["olea-2"]] == [28, 12]
    morale = run(write(tmp_path, {
        "ruleset": "skirmish", "action": "morale",
        "sides": [{"name": "scout", "members": [{"name": "Maire", "morale": 10}]},
                  {"name": "olea", "members": [{"name": "Support", "morale": 8, "down": True},
                                               {"name": "Soldier", "morale": 8}]}]}, "morale.yaml"))
    sides = {s["name"]: s for s in morale["sides"]}
    assert {k: s["percent"] for k, s in sides.items()} == pytest.approx(pools)
    assert {k: s["modifier"] for k, s in sides.items()} == modifiers == {"scout": 1, "olea": -1}


# --- morale -----------------------------------------------------------------------------------


def test_the_supports_fall_leaves_the_soldier_at_minus_one_and_maire_at_plus_one() -> None:
    # "The eight points of morale contributed by the Support ... is removed, leaving the Soldier
    # demoralized and suffering a -1 penalty ... Maire ... receives a +1 morale bonus."
    sides = {s["name"]: s for s in run(EXAMPLES / "support_falls_morale.yaml")["sides"]}
    assert (sides["Olea"]["start"], sides["Olea"]["pool"], sides["Olea"]["modifier"]) == (16, 8, -1)
    assert (sides["Maire"]["pool"], sides["Maire"]["modifier"]) == (16, 1)


@pytest.mark.parametrize("share, modifier", [(175, 5), (174.9, 3), (150, 3), (125, 1), (124, 0), (75, 0),
                                             (74.9, -1), (50, -1), (49, -3), (25, -3), (24.9, -5), (0, -5)])
def test_the_text_table_turns_a_percentage_into_a_modifier(tmp_path: Path, share: float, modifier: int) -> None:
    result = run(write(tmp_path, {"ruleset": "skirmish", "action": "morale", "percent": share}))
    assert result["modifier"] == modifier == SkirmishRules(LIBRARY.rulesets["skirmish"]).morale_modifier(share)


# --- d20 ambush -------------------------------------------------------------------------------


def test_the_goblin_catches_arik_but_not_devin() -> None:
    # "the ambushers roll a Stealth(DEX) test against the target they are attacking's
    # Awareness(PER). If they win, they remain hidden" -- member by member.
    result = run(EXAMPLES / "goblins_ambush.yaml")
    assert [(p["stealth"], p["awareness"], p["ambushed"]) for p in result["pairs"]] == [(14, 13, True), (14, 16, False)]
    assert result["ambushed"] == ["Arik"] and result["acts_first"] == ["Goblin"]
    rules = D20Rules(LIBRARY.rulesets["d20"])
    faces = iter([10, 12])
    engine = rules.ambush(Fighter("Goblin", {"dex": 2}), Fighter("Arik", {"per": 1}), 2, 0,
                          lambda name, low, high: next(faces))
    assert engine == (14, 13, True)


def test_a_tie_keeps_the_target_alert(tmp_path: Path) -> None:
    result = run(write(tmp_path, {"ruleset": "d20", "action": "ambush",
                                  "ambushers": [{"name": "A", "stealth": 3}],
                                  "targets": [{"name": "B", "awareness": 3}],
                                  "rolls": {"stealth": 10, "awareness": 10}}))
    assert result["ambushed"] == [] and result["acts_first"] == []


# --- problems, all at once ----------------------------------------------------------------------


def failed(tmp_path: Path, text: str) -> str:
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    code, message = main_resolve(str(path), as_json=False, odds=False)
    assert code == 2 and "Traceback" not in message
    return message


def test_a_file_with_three_problems_reports_the_three_with_their_places(tmp_path: Path) -> None:
    message = failed(tmp_path, "ruleset: skirmish\naction: suppress\nattacker: {unit: suport}\n"
                               "targets:\n  - {unit: maire, cover: halfway}\nsituation: {distanse: 12}\n")
    lines = message.splitlines()
    assert lines[0] == f"3 problems in {tmp_path / 'bad.yaml'}:"
    assert ":3:18: attacker.unit: unknown unit 'suport' (did you mean 'support'?)" in message
    assert ":5:26: targets[0].cover: Input should be 'none', 'half' or 'full' (got 'halfway')" in message
    assert ":6:13: situation.distanse: unknown key 'distanse' (did you mean 'distance'?)" in message


def test_an_unknown_key_is_compared_only_with_the_keys_of_its_place(tmp_path: Path) -> None:
    top = failed(tmp_path, "ruleset: skirmish\nattacker: {unit: hollis}\ndefender: {unit: support}\n"
                           "weapon: es63_custom\nskils: {aim: 3}\n")
    assert "unknown key 'skils'" in top and "did you mean 'skills'" not in top
    inside = failed(tmp_path, "ruleset: skirmish\nattacker: {unit: hollis, skils: {aim: 3}}\n"
                              "defender: {unit: support}\nweapon: {name: w, kind: melee, damage: 2d6, dammage: 3,"
                              " modes: [{name: strike, ap: 3}]}\n")
    assert "attacker.skils: unknown key 'skils' (did you mean 'skills'?)" in inside
    assert "weapon.dammage: unknown key 'dammage' (did you mean 'damage'?)" in inside
    assert inside.startswith("2 problems")


def test_an_unknown_action_names_the_ones_there_are(tmp_path: Path) -> None:
    message = failed(tmp_path, "ruleset: skirmish\naction: supress\n")
    assert ":2:9: action: unknown action under skirmish 'supress' (did you mean 'suppress'?); " \
           "known: attack, break, morale, suppress, throw" in message
    assert "did you mean 'ambush'" in failed(tmp_path, "ruleset: d20\naction: ambus\n")


def test_every_problem_of_a_d20_attack_at_once(tmp_path: Path) -> None:
    message = failed(tmp_path, "ruleset: d20\nattacker: {name: A, size: hugee}\ndefender: {name: B}\n"
                               "weapon: {name: w, damage: 1d6}\n"
                               "situation: {attack_type: basik, modifiers: [flankin]}\n")
    assert message.startswith("4 problems") or message.startswith("3 problems")
    assert "situation.attack_type: unknown attack type 'basik' (did you mean 'basic'?)" in message
    assert "situation.modifiers[0]: unknown modifier 'flankin' (did you mean 'flanking'?)" in message
    assert "attacker.size: unknown size 'hugee' (did you mean 'huge'?)" in message


@pytest.mark.parametrize("text, expected", [
    ("ruleset: skirmish\naction: suppress\nattacker: {unit: soldier}\ntargets: [{unit: maire}]\n",
     "attacker: Olea soldier does not have the Suppressive Fire ability"),
    ("ruleset: skirmish\naction: throw\nattacker: {unit: maire, at: [0, 0]}\nat: [30, 0]\n",
     "at: (30, 0) is 30 squares away; the High-explosive grenade is thrown 15 at most"),
    ("ruleset: skirmish\naction: throw\nattacker: {unit: hollis, at: [0, 0]}\nweapon: es63_custom\nat: [3, 0]\n",
     "weapon: the E&S '63 Custom is not a grenade"),
    ("ruleset: skirmish\naction: throw\nattacker: {unit: maire, at: [0, 0]}\nat: [3, 0]\nmap: alle\n",
     "map: unknown map 'alle' (did you mean 'alley'?)"),
    ("ruleset: skirmish\naction: morale\n", "give either percent"),
    ("ruleset: skirmish\naction: morale\nsides: [{name: A, members: [{name: X}]}]\n",
     "sides[0].members[0]: a member needs a unit, or a name and a morale score"),
    ("ruleset: d20\naction: ambush\nambushers: [{name: G}]\ntargets: [{name: A, by: Gob}]\n",
     "targets[0].by: no ambusher is named 'Gob'"),
    ("ruleset: skirmish\naction: suppress\nattacker: {unit: support}\ntargets: [{unit: maire}]\nrolls: {attack: 11}\n",
     "rolls.attack: fixed roll 11 cannot come up on this die (1 to 10)"),
])
def test_bad_action_files_say_what_is_wrong(tmp_path: Path, text: str, expected: str) -> None:
    assert expected in failed(tmp_path, text)


def test_the_command_line_resolves_each_action_and_refuses_a_bad_file(tmp_path: Path) -> None:
    for name in ("support_suppresses_maire.yaml", "maire_throw.yaml", "goblins_ambush.yaml"):
        done = subprocess.run([sys.executable, "-m", "game", "resolve", str(EXAMPLES / name), "--json"],
                              capture_output=True, text=True, cwd=ROOT, timeout=60)
        assert done.returncode == 0 and json.loads(done.stdout)["action"] in ("suppress", "throw", "ambush")
    odds = subprocess.run([sys.executable, "-m", "game", "resolve", str(EXAMPLES / "maire_throw.yaml"), "--odds"],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert odds.returncode == 0 and "exact odds" in odds.stdout and "Lands at:" in odds.stdout
    bad = tmp_path / "bad.yaml"
    bad.write_text("ruleset: skirmish\naction: throw\nattacker: {unit: mair, at: [0, -1]}\nat: [1, 1]\n")
    done = subprocess.run([sys.executable, "-m", "game", "resolve", str(bad)], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stdout + done.stderr
    assert "2 problems" in done.stdout + done.stderr and "did you mean 'maire'" in done.stdout + done.stderr


@pytest.mark.parametrize("text, count, expected", [
    ("ruleset: eclipse2\nattacker: {name: A, skills: {guns: 70}}\ndefender: {name: B}\n"
     "weapon: {name: p, skill: guns, damage: 2d10}\n"
     "situation: {attacker_modifiers: [ful_move], defender_modifiers: [blnd], range: clse}\n",
     3, ["situation.attacker_modifiers[0]: unknown modifier 'ful_move' (did you mean 'full_move'?)",
         "situation.defender_modifiers[0]: unknown modifier 'blnd' (did you mean 'blind'?)",
         "situation.range: unknown range 'clse' (did you mean 'close'?)"]),
    ("ruleset: opend6\nattacker: {name: A}\ndefender: {name: B}\nweapon: {name: w, skill: marksmanship, damage: 3D}\n"
     "situation: {range: shrt, cover: [darknes, moonlight]}\n",
     3, ["situation.range: unknown range 'shrt' (did you mean 'short'?)",
         "situation.cover[0]: unknown cover 'darknes' (did you mean 'darkness'?)",
         "situation.cover[1]: unknown cover 'moonlight' (did you mean 'moonlit'?)"]),
])
def test_every_name_problem_of_an_eclipse_or_opend6_file_at_once(tmp_path: Path, text: str, count: int,
                                                                 expected: list[str]) -> None:
    message = failed(tmp_path, text)
    assert message.startswith(f"{count} problems")
    for line in expected:
        assert line in message


def test_a_unit_already_down_is_passed_over_by_the_fire(tmp_path: Path) -> None:
    data = {"ruleset": "skirmish", "action": "suppress", "attacker": {"unit": "support"},
            "targets": [{"unit": "maire", "hp": 0}, {"unit": "soldier"}], "rolls": {"attack": 10, "dodge": 1}}
    result = run(write(tmp_path, data))
    assert result["targets"][0] == {"name": "Maire Jensen", "hp_before": 0, "hit": False, "pinned": False,
                                    "hp": 0, "state": "unconscious"}
    assert result["targets"][1]["dodge"]["rolls"] == [1]          # the one dodge roll went to the Soldier
    odds = run(write(tmp_path, data), odds=True)["odds"]
    assert odds["targets"][0]["p_hit"] == 0 and sum(odds["hits"]) == pytest.approx(1)
    assert odds["hits"][2] == 0


def test_a_throw_on_a_bundled_map_scatters_as_the_engine_does(tmp_path: Path) -> None:
    from game.content.maps import parse_map
    from game.core.grid import Grid
    from game.rulesets.skirmish import grenades

    data = {"ruleset": "skirmish", "action": "throw", "attacker": {"unit": "maire", "at": [2, 9]}, "at": [9, 3],
            "targets": [{"unit": "support", "at": [13, 2]}], "map": "alley"}
    parsed = parse_map(LIBRARY.maps["alley"], LIBRARY.terrain)
    grid = Grid(parsed.terrain_ids, LIBRARY.terrain, parsed.zones)
    for direction in range(1, 11):
        result = run(write(tmp_path, {**data, "rolls": {"throw": 1, "scatter": direction}}))
        assert tuple(result["landed"]) == grenades.scattered_to(grid, (2, 9), (9, 3), direction, 5, 10)
        assert grid.transparent[result["landed"][1], result["landed"][0]]
    message = failed(tmp_path, "ruleset: skirmish\naction: throw\nattacker: {unit: maire, at: [2, 9]}\n"
                               "at: [5, 3]\ntargets: [{unit: support, at: [20, 2]}]\nmap: alley\n")
    assert ":4:5: at: (5, 3) is solid (" in message and "targets[0].at: (20, 2) is off the map alley" in message
