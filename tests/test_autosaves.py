"""Autosaves: one per round, named by scenario, battle and round; a battle keeps its last few."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from game.saves import (AUTOSAVES_KEPT, SaveError, autosave_name, list_saves, parse_autosave,
                        read_save, write_autosave, write_save)
from game.ui.screens.load import describe_save, in_order


def state(round_: int, scenario: str = "Depot") -> dict:
    return {"round": round_, "summary": {"scenario": scenario, "round": round_, "over": False}}


def names(folder: Path) -> set[str]:
    return {info.name for info in list_saves(folder)}


def age(folder: Path, name: str, seconds: float) -> None:
    """Make a save look `seconds` older than now."""
    path = folder / f"{name}.json"
    when = path.stat().st_mtime - seconds
    os.utime(path, (when, when))


def test_the_name_says_scenario_battle_and_round():
    name = autosave_name("d20 depot/../x", "3fa2c1", 7)
    assert name == "autosave-d20_depot_x-3fa2c1-r7"
    assert parse_autosave(name) is not None
    assert parse_autosave(name).battle == "3fa2c1" and parse_autosave(name).round == 7
    assert parse_autosave("autosave") is None
    assert parse_autosave("my game") is None
    with pytest.raises(SaveError):
        autosave_name("depot", "../x", 1)


def test_a_battle_keeps_its_last_rounds(tmp_path):
    for round_ in range(1, 7):
        write_autosave(tmp_path, "depot", "aa11", round_, state(round_))
        age(tmp_path, autosave_name("depot", "aa11", round_), 100 - round_)   # in order written
    kept = names(tmp_path)
    assert kept == {f"autosave-depot-aa11-r{n}" for n in (4, 5, 6)}
    assert AUTOSAVES_KEPT == 3
    assert read_save(tmp_path, "autosave-depot-aa11-r6")["round"] == 6


def test_other_battles_and_own_saves_are_left_alone(tmp_path):
    write_save(tmp_path, "my game", state(2))
    write_save(tmp_path, "autosave", state(9))            # the single slot of older versions
    for round_ in range(1, 5):
        write_autosave(tmp_path, "depot", "bb22", round_, state(round_))
    for round_ in range(1, 6):
        write_autosave(tmp_path, "depot", "aa11", round_, state(round_))
    kept = names(tmp_path)
    assert {"my game", "autosave"} <= kept
    assert len([n for n in kept if "-bb22-" in n]) == 3
    assert len([n for n in kept if "-aa11-" in n]) == 3


def test_after_loading_an_earlier_round_its_new_autosave_is_kept(tmp_path):
    """Played on from round 2 after rounds 3-5 were autosaved: the round just written stays,
    with the two written last before it."""
    for round_ in (3, 4, 5):
        write_autosave(tmp_path, "depot", "cc33", round_, state(round_))
        age(tmp_path, autosave_name("depot", "cc33", round_), 100 - round_)
    write_autosave(tmp_path, "depot", "cc33", 3, state(3))      # round 3 again, on a new course
    kept = names(tmp_path)
    assert kept == {f"autosave-depot-cc33-r{n}" for n in (3, 4, 5)}
    write_autosave(tmp_path, "depot", "cc33", 4, state(4))
    age(tmp_path, "autosave-depot-cc33-r3", 1)
    write_autosave(tmp_path, "depot", "cc33", 2, state(2))       # loaded again, further back
    assert names(tmp_path) == {f"autosave-depot-cc33-r{n}" for n in (2, 3, 4)}


def test_the_load_list_puts_own_saves_first_then_each_battle(tmp_path):
    write_autosave(tmp_path, "depot", "aa11", 1, state(1))
    write_autosave(tmp_path, "alley", "bb22", 1, state(1, "Alley"))
    write_autosave(tmp_path, "depot", "aa11", 2, state(2))
    write_save(tmp_path, "my game", state(2))
    for index, name in enumerate(["autosave-alley-bb22-r1", "autosave-depot-aa11-r1",
                                  "autosave-depot-aa11-r2", "my game"]):
        age(tmp_path, name, 50 - 10 * index)
    listed = in_order(list_saves(tmp_path))
    shown = [item if isinstance(item, str) else item.name for item in listed]
    assert shown == ["my game", "Autosaves: the last 3 rounds of each battle",
                     "autosave-depot-aa11-r2", "autosave-depot-aa11-r1", "autosave-alley-bb22-r1"]
    line = describe_save(listed[2])
    assert "Depot, round 2" in line and "battle aa11" in line
