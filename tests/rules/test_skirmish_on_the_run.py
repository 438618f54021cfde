"""Shot on the Run and Attack on the Run (skirmish): the grid and the calculator agree that each
lifts the running penalty from its own kind of attack only (docs/RULES-skirmish.md, CHOICE)."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from game.core.commands import Attack, Move
from game.core.dice import Dice
from game.core.events import AttackResolved
from game.resolve.main import main_resolve
from game.rulesets import new_battle
from tests.core.builders import setup, unit

OPEN = ["." * 12 for _ in range(3)]


def run_and_attack(abilities, weapons, target_at):
    dice = Dice(0)
    dice.force(5, 5, 5, 5)
    placements = {"a": [(unit("runner", ap=16, weapons=weapons, abilities=abilities), (0, 1))],
                  "b": [(unit("target", hp=500), target_at)]}
    with new_battle(setup(OPEN, placements, ambush="a"), 0, dice=dice) as b:
        b.submit(Move("a-1", ((1, 1), (2, 1), (3, 1))))          # 9 AP of 16: a run
        shot = [e for e in b.submit(Attack("a-1", "b-1")) if isinstance(e, AttackResolved)][0]
        return dict(shot.attack.modifiers)


def test_each_ability_lifts_the_running_penalty_from_its_own_kind_of_attack():
    assert run_and_attack(None, ("pistol",), (9, 1))["running"] == -3
    assert "running" not in run_and_attack({"shot_on_the_run": 1}, ("pistol",), (9, 1))
    assert run_and_attack({"attack_on_the_run": 1}, ("pistol",), (9, 1))["running"] == -3
    assert "running" not in run_and_attack({"attack_on_the_run": 1}, ("knife",), (4, 1))
    assert run_and_attack({"shot_on_the_run": 1}, ("knife",), (4, 1))["running"] == -3


def resolve(tmp_path: Path, attacker: dict) -> dict:
    data = {"ruleset": "skirmish", "attacker": attacker,
            "defender": {"unit": "olea_trooper"}, "weapon": "thensi_smg",
            "situation": {"running": True, "distance": 6}, "rolls": {"attack": 5, "defense": 5}}
    path = tmp_path / "run.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    code, text = main_resolve(str(path), as_json=True, odds=False)
    assert code == 0, text
    return dict(map(tuple, json.loads(text)["attack"]["modifiers"]))


def test_the_calculator_lifts_it_as_the_grid_does(tmp_path: Path):
    # the bundled Scout has Shot on the Run: running costs its SMG nothing; without it, -3
    assert "running" not in resolve(tmp_path, {"unit": "scout"})
    assert resolve(tmp_path, {"name": "Runner", "skills": {"aim": 6}})["running"] == -3
