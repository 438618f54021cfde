"""Riposte under skirmish: a failed melee or unarmed attack against a defender with the ability
is answered by one free blow (docs/RULES-skirmish.md), on the grid, in its odds and in
`skirmish resolve`."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from game.core import components as c
from game.core.commands import Attack
from game.core.dice import Dice
from game.core.events import AttackResolved, Damaged
from game.core.queries import preview_attack
from game.core.systems.attack import plan_attack
from game.resolve.main import main_resolve
from game.rulesets import new_battle
from game.rulesets.skirmish.rules import SkirmishRules
from tests.core.builders import ruleset, setup, unit

OPEN = ["." * 8 for _ in range(4)]


def battle(placements, faces=()):
    dice = Dice(0)
    dice.force(*faces)
    return new_battle(setup(OPEN, placements, ambush="a"), 0, dice=dice)


def fencers(attacker_abilities=None):
    return {"a": [(unit("fencer", weapons=("knife",), abilities=attacker_abilities), (0, 0))],
            "b": [(unit("duelist", weapons=("knife",), abilities={"riposte": 1}), (1, 0))]}


def of(events, kind):
    return [e for e in events if isinstance(e, kind)]


def test_a_missed_blow_is_answered_by_the_riposte() -> None:
    # fencer: 1 + Melee 4 = 5 against the duelist's 10 + Dodge 4 = 14: a miss. The duelist
    # ripostes with its knife: 10 + 4 = 14 against the fencer's 1 + 4 = 5: a hit, 1d8 -> 6.
    with battle(fencers(), [5, 5, 1, 10, 10, 1, 6]) as b:
        events = b.submit(Attack("a-1", "b-1"))
        blow, back = of(events, AttackResolved)
        assert (blow.attacker, blow.hit, blow.reaction) == ("a-1", False, False)
        assert (back.attacker, back.target, back.weapon, back.reaction) == ("b-1", "a-1", "knife", True)
        assert (back.attack.total, back.defense.total, back.hits, back.ap_cost) == (14, 5, 1, 0)
        assert [(d.unit, d.taken) for d in of(events, Damaged)] == [("a-1", 6)]
        assert b.session.get("a-1", c.Health).hp == 14
        assert b.session.get("a-1", c.ActionPoints).current == 14 - 3   # only the blow is paid


def test_no_riposte_after_a_hit_a_shot_or_without_the_ability() -> None:
    with battle(fencers(), [5, 5, 10, 1, 3]) as b:                     # a hit: no answer
        assert len(of(b.submit(Attack("a-1", "b-1")), AttackResolved)) == 1
    shooters = {"a": [(unit("gunner"), (0, 0))],
                "b": [(unit("duelist", weapons=("knife",), abilities={"riposte": 1}), (1, 0))]}
    with battle(shooters, [5, 5, 1, 10]) as b:                          # a pistol miss: no answer
        assert len(of(b.submit(Attack("a-1", "b-1")), AttackResolved)) == 1
    plain = {"a": [(unit("fencer", weapons=("knife",)), (0, 0))],
             "b": [(unit("duelist", weapons=("knife",)), (1, 0))]}
    with battle(plain, [5, 5, 1, 10]) as b:
        assert len(of(b.submit(Attack("a-1", "b-1")), AttackResolved)) == 1


def test_a_riposte_is_not_riposted_and_bare_hands_answer_for_a_gun() -> None:
    # both can riposte: the answer misses (1 + 4 against 10 + 4) and nothing follows.
    with battle(fencers({"riposte": 1}), [5, 5, 1, 10, 1, 10]) as b:
        assert [e.reaction for e in of(b.submit(Attack("a-1", "b-1")), AttackResolved)] == [False, True]
    gun_in_hand = {"a": [(unit("fencer", weapons=("knife",)), (0, 0))],
                   "b": [(unit("duelist", abilities={"riposte": 1}, strength=2), (1, 0))]}
    # an unarmed riposte: 1d6 + Strength 2 -> 4 + 2.
    with battle(gun_in_hand, [5, 5, 1, 10, 10, 1, 4]) as b:
        events = b.submit(Attack("a-1", "b-1"))
        back = of(events, AttackResolved)[1]
        assert back.weapon == "unarmed" and [d.taken for d in of(events, Damaged)] == [6]


def brute_force(rules: SkirmishRules, a_mod: int, d_mod: int) -> float:
    die = rules.p.die
    return sum(a + a_mod > d + d_mod for a in range(1, die + 1) for d in range(1, die + 1)) / die ** 2


def test_the_odds_show_the_riposte_exactly() -> None:
    with battle(fencers()) as b:
        s = b.session
        rules = s.rules
        assert isinstance(rules, SkirmishRules)
        plan = plan_attack(s, "a-1", "b-1", None, "torso", 0)
        miss = 1 - brute_force(rules, 4, 4)
        back = brute_force(rules, 4, 4)
        hit_back, damage = rules.riposte_odds(s, plan)
        assert abs(hit_back - back) < 1e-12 and abs(damage - back * 4.5) < 1e-12
        preview = preview_attack(b, "a-1", "b-1")
        assert preview.how == (f"Riposte on a miss ({miss * 100:.1f}%):\n"
                               f"hit back {back * 100:.1f}%, {back * 4.5:.1f} dmg")


def resolve(tmp_path: Path, data: dict, odds: bool = False) -> dict:
    path = tmp_path / "riposte.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    code, text = main_resolve(str(path), as_json=True, odds=odds)
    assert code == 0, text
    return json.loads(text)


BREACHED = {"ruleset": "skirmish",
            "attacker": {"name": "Fencer", "hp": 20, "skills": {"melee": 4, "dodge": 4}},
            "defender": {"unit": "breacher"}, "weapon": "shock_baton", "riposte_weapon": "shock_baton"}


def test_the_calculator_resolves_the_riposte(tmp_path: Path) -> None:
    # Fencer: 2 + Melee 4 + accuracy 1 = 7 against the Breacher's 3 + Melee 7 + Str 3 = 13.
    # The Breacher answers: 9 + 7 + 3 + 1 = 20 against 1 + Dodge 4 = 5; 2d6 -> 5 + 6 = 11.
    result = resolve(tmp_path, {**BREACHED, "rolls": {"attack": 2, "defense": 3, "riposte attack": 9,
                                                      "riposte defense": 1, "riposte damage": [5, 6]}})
    riposte = result["riposte"]
    assert (riposte["attack"]["total"], riposte["defense"]["total"], riposte["hits"]) == (20, 5, 1)
    assert riposte["damage_applied"] == 11 and riposte["attacker"]["hp"] == 9


def test_the_calculator_odds_of_a_riposte(tmp_path: Path) -> None:
    # without a riposte_weapon the bundled Breacher answers with its first weapon, the baton.
    result = resolve(tmp_path, {k: v for k, v in BREACHED.items() if k != "riposte_weapon"}, odds=True)
    body = {key: value for key, value in result.items() if key != "riposte_weapon"}
    rules = SkirmishRules(ruleset())
    miss = 1 - brute_force(rules, 4 + 1, 7 + 3)
    back = brute_force(rules, 7 + 3 + 1, 4)
    assert abs(body["riposte_hit_chance"] - miss * back) < 1e-12
