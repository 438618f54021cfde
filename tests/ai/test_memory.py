"""A saved battle between computer players plays on exactly as the battle never saved.

Each side's player gives its memory (`memory()`), the save file carries it with the battle
(`write_save` / `read_save`), and a fresh player of the same level takes it back
(`restore(memory, battle)`) on the battle rebuilt from the save.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.ai import PLAYERS, make_player
from game.content.loader import load_setup
from game.core.commands import EndTurn
from game.core.engine import Battle
from game.core.events import Refused
from game.core.queries import sightings
from game.rulesets import load_battle, new_battle
from game.saves import read_save, write_save
from tests.sequential import sequential

SEED = 3
CONTACT = -1
# (scenario, ruleset, commands before the save): the skirmish engine's own player and the
# tabletop one, saved early (enemies not yet met) and a few commands after the sides met
# (CONTACT), with enemies remembered out of sight and units in mid-turn.
CASES = [("depot", "skirmish", 30), ("depot", "skirmish", CONTACT),
         ("eclipse2_alley", "eclipse2", CONTACT), ("d20_depot", "d20", CONTACT)]
AFTER_CONTACT = 12


def play(battle: Battle, players: dict, limit: int = 100_000) -> list[str]:
    """Play up to `limit` commands (or to the end); the events as JSON lines."""
    lines: list[str] = []
    s = battle.session
    for _ in range(limit):
        if s.over:
            break
        events = battle.submit(players[s.acting_side].next_command(battle))
        if isinstance(events, Refused):
            events = battle.submit(EndTurn(s.active or ""))
        lines.extend(json.dumps(e.to_dict(), sort_keys=True) for e in events)
    return lines


def play_to_contact(battle: Battle, players: dict) -> None:
    """Play until a side first sees an enemy, then a few commands more."""
    sides = battle.session.sides
    while not battle.session.over and not any(sightings(battle, side) for side in sides):
        play(battle, players, 1)
    play(battle, players, AFTER_CONTACT)


def players_for(level: str, sides: list[str]) -> dict:
    return {side: make_player(level, side, 11 + i) for i, side in enumerate(sides)}


def saved_and_unsaved(tmp_path: Path, level: str, scenario: str, ruleset: str, mid: int,
                      keep_memory: bool = True, *, one_at_a_time: bool = False
                      ) -> tuple[list[str], list[str], dict]:
    setup = load_setup(scenario, ruleset=ruleset)
    if one_at_a_time:
        setup = sequential(setup)
    sides = [side.id for side in setup.scenario.sides]
    with new_battle(setup, SEED) as battle:
        players = players_for(level, sides)
        if callable(mid):
            while not battle.session.over and not mid(players):
                play(battle, players, 1)
        elif mid == CONTACT:
            play_to_contact(battle, players)
        else:
            play(battle, players, mid)
        assert not battle.session.over, "the save must come before the end"
        state = battle.state()
        state["computers"] = {side: p.memory() for side, p in players.items()}
        write_save(tmp_path, "mid", state)
        unsaved = play(battle, players)
    loaded = read_save(tmp_path, "mid")
    again = load_battle(loaded)
    try:
        fresh = players_for(level, sides)
        if keep_memory:
            for side, player in fresh.items():
                player.restore(loaded["computers"][side], again)
        saved = play(again, fresh)
    finally:
        again.close()
    return unsaved, saved, loaded["computers"]


@pytest.mark.parametrize("level", list(PLAYERS))
@pytest.mark.parametrize(("scenario", "ruleset", "mid"), CASES)
def test_a_loaded_battle_plays_on_as_the_unsaved_one(tmp_path, level, scenario, ruleset, mid):
    unsaved, saved, _ = saved_and_unsaved(tmp_path, level, scenario, ruleset, mid)
    assert len(unsaved) > 20
    assert saved == unsaved


def remembers_one_out_of_sight(players: dict) -> bool:
    return any(not known.visible for p in players.values() for known in p.intel.memory.values())


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_the_memory_is_what_the_player_knows(tmp_path, level):
    """Saved while a side remembers an enemy it no longer sees: that is in the save, and the
    battle plays on alike."""
    unsaved, saved, memories = saved_and_unsaved(tmp_path, level, "depot", "skirmish",
                                                 remembers_one_out_of_sight)
    assert saved == unsaved
    intels = [memory["intel"] for memory in memories.values()]
    assert any(not known["visible"] for intel in intels for _, known in intel["memory"])
    assert all(any(cell >= 1 for row in intel["looked"] for cell in row) for intel in intels)
    assert any(intel["contact"] >= 1 for intel in intels)    # when it last saw an enemy
    # Under simultaneous orders a unit chooses on rehearsals of its turn: between commands no
    # turn of its own is under way to remember (one unit at a time, the test below).
    assert all(memory["turn"] is None for memory in memories.values())
    assert len(memories["alpha"]["rng"][1]) == 625


def test_one_unit_at_a_time_the_memory_holds_the_turn_under_way(tmp_path):
    unsaved, saved, memories = saved_and_unsaved(tmp_path, "hard", "depot", "skirmish",
                                                 remembers_one_out_of_sight, one_at_a_time=True)
    assert saved == unsaved
    assert all(memory["turn"] is not None for memory in memories.values())


def test_without_the_memory_the_battle_goes_otherwise(tmp_path):
    """What the test above guards: a player that forgot plays differently."""
    differ = [saved_and_unsaved(tmp_path, level, "depot", "skirmish", mid, keep_memory=False)
              for level, mid in (("easy", 30), ("hard", CONTACT))]
    assert any(unsaved != saved for unsaved, saved, _ in differ)


@pytest.mark.parametrize("level", list(PLAYERS))
def test_a_damaged_memory_is_refused_and_changes_nothing(level):
    setup = load_setup("depot", ruleset="skirmish")
    with new_battle(setup, SEED) as battle:
        players = players_for(level, ["alpha", "olea"])
        play(battle, players, 30)
        player = players["olea"]
        before = json.dumps(player.memory(), sort_keys=True)
        for bad in (None, [], {"kind": "something else"}, {**player.memory(), "rng": [3, [1], None]},
                    {**player.memory(), "moves": "many"}):
            with pytest.raises(ValueError, match="memory is damaged"):
                player.restore(bad, battle)
            assert json.dumps(player.memory(), sort_keys=True) == before


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_the_memory_is_taken_back_as_given_or_through_json(level):
    """A player's memory restores a new player whether it was saved (JSON) or handed on."""
    setup = load_setup("depot", ruleset="skirmish")
    with new_battle(setup, SEED) as battle:
        players = players_for(level, ["alpha", "olea"])
        while not battle.session.over and not players["olea"].memory()["intel"]["memory"]:
            play(battle, players, 1)
        memory = players["olea"].memory()
        assert memory["intel"]["memory"], "it knows of an enemy"
        for given in (memory, json.loads(json.dumps(memory))):
            other = players_for(level, ["olea"])["olea"]
            other.restore(given, battle)
            assert json.dumps(other.memory(), sort_keys=True) == json.dumps(memory, sort_keys=True)
