"""Dice bounds: every die the schema accepts keeps exact odds fast."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from tests.content.content_helpers import Write, only, problems_in

from game.content.schema import MAX_ATTACK_TOTAL, MAX_DICE, MAX_SIDES
from game.resolve.main import main_resolve

WEAPON = """
weapons:
  - id: hose
    name: Hose
    kind: firearm
    damage: {damage}
    modes: [{{name: single, ap: 2}}, {{name: burst, ap: 4, rof: {rof}}}]
"""


def test_huge_dice_and_rates_of_fire_are_refused(write: Write) -> None:
    path = write("w.yaml", WEAPON.format(damage="99d999+999", rof=100))
    problems = problems_in(path)
    assert only(problems, "weapons[0].damage").message == (
        f"'99d999+999': at most {MAX_DICE} dice of at most {MAX_SIDES} faces")
    assert only(problems, "weapons[0].modes").message == (
        "a mode's rof is at most 20")


def test_one_attack_rolls_at_most_max_attack_total(write: Write) -> None:
    path = write("w.yaml", WEAPON.format(damage="10d100", rof=2))
    problem = only(problems_in(path), "weapons[0]")
    assert problem.message.startswith("damage 10d100 at rof 2 can roll 2000 in one attack")
    fine = write("fine/w.yaml", WEAPON.format(damage="10d10", rof=10))
    assert problems_in(fine) == []


@pytest.mark.parametrize("damage, rof", [("10d100", 1), ("10d10", 10), ("1d50", 20)])
def test_exact_odds_at_the_largest_dice_allowed_stay_fast(
    tmp_path: Path, damage: str, rof: int
) -> None:
    path = tmp_path / "r.yaml"
    weapon = WEAPON.format(damage=damage, rof=rof).split("  - ", 1)[1].replace("\n    ", "\n  ")
    path.write_text("ruleset: skirmish\nattacker: {unit: hollis}\ndefender: {unit: olea_trooper}\n"
                    f"weapon:\n  {weapon}situation: {{mode: burst, distance: 4}}\n")
    start = time.perf_counter()
    code, text = main_resolve(str(path), as_json=False, odds=True)
    assert code == 0, text
    assert time.perf_counter() - start < 5         # unbounded: minutes
    assert MAX_ATTACK_TOTAL == 1000


def test_a_full_magazine_of_another_rulesets_dice_is_bounded(write: Write) -> None:
    text = WEAPON.format(damage="1d6", rof=3) + ("    magazine: 100\n"
                                                "    rules: {d20: {damage: 3d8}}\n")
    problem = only(problems_in(write("w.yaml", text)), "weapons[0].rules.d20.damage")
    assert problem.message.startswith("d20 damage 3d8 over 100 hits (a full magazine) can roll "
                                      "2400 in one attack")
