"""The app's saves carry the computer players' memory: a loaded battle against the computer
plays on as it would have; an older save without the memory still loads."""

from __future__ import annotations

import json

import pytest

from game.ai import PLAYERS, make_player
from game.content.loader import load_setup
from game.core.commands import EndTurn, GiveOrders
from game.core.events import Refused
from game.core.queries import sightings
from game.rulesets import new_battle
from game.saves import read_save, write_save
from game.ui.match import Match, Seat

SEED = 5
PERSON = "alpha"          # played in these tests by a `simple` player standing in for a person
COMPUTER = "olea"


def match_against(level: str, scenario: str = "depot") -> Match:
    setup = load_setup(scenario, ruleset="skirmish")
    seats = {PERSON: Seat(PERSON, True, "Ann"), COMPUTER: Seat(COMPUTER, False, "Computer", level)}
    return Match(new_battle(setup, SEED), seats)


def play(match: Match, person, limit: int = 100_000) -> list[str]:
    lines: list[str] = []
    for _ in range(limit):
        if match.over:
            break
        side = match.acting_side
        player = person if side == PERSON else match.computer(side)
        uid = match.active_uid
        result = match.submit(player.next_command(match.battle))
        if isinstance(result, Refused):
            result = match.submit(GiveOrders(side=side) if match.planning else EndTurn(uid or ""))
        lines.extend(json.dumps(e.to_dict(), sort_keys=True) for e in result)
    return lines


@pytest.mark.parametrize("level", list(PLAYERS))
def test_a_loaded_match_against_the_computer_plays_on_alike(tmp_path, level):
    match = match_against(level)
    person = make_player("simple", PERSON, 1)
    while not match.over and not any(sightings(match.battle, side) for side in match.sides):
        play(match, person, 1)
    play(match, person, 10)                     # the sides have met
    assert not match.over
    write_save(tmp_path, "mid", match.state())
    person_memory = json.loads(json.dumps(person.memory()))
    unsaved = play(match, person)
    match.close()

    state = read_save(tmp_path, "mid")
    assert state["computers"][COMPUTER]["level"] == level
    loaded = Match.from_state(state)
    try:
        assert loaded.battle_id == match.battle_id
        again = make_player("simple", PERSON, 1)
        again.restore(person_memory, loaded.battle)
        assert play(loaded, again) == unsaved
        assert len(unsaved) > 20
    finally:
        loaded.close()


def test_an_older_save_without_the_memory_still_loads(tmp_path):
    match = match_against("hard")
    person = make_player("simple", PERSON, 1)
    play(match, person, 60)
    state = match.state()
    del state["computers"], state["battle_id"]
    write_save(tmp_path, "old", state)
    match.close()
    loaded = Match.from_state(read_save(tmp_path, "old"))
    try:
        assert loaded.memories == {}
        fresh = make_player("hard", COMPUTER, 0)
        assert loaded.computer(COMPUTER).memory()["intel"] == fresh.memory()["intel"]
        assert len(loaded.battle_id) == 6
        assert play(loaded, person, 40)             # and it plays on
    finally:
        loaded.close()


def test_a_damaged_memory_starts_the_computer_afresh(tmp_path):
    match = match_against("normal")
    person = make_player("simple", PERSON, 1)
    play(match, person, 60)
    state = match.state()
    state["computers"][COMPUTER]["memory"]["rng"] = "not a state"
    write_save(tmp_path, "odd", state)
    match.close()
    loaded = Match.from_state(read_save(tmp_path, "odd"))
    try:
        computer = loaded.computer(COMPUTER)
        assert computer.memory()["met"] is False          # knows nothing yet, but plays
        assert play(loaded, person, 40)
        assert loaded.state()["computers"][COMPUTER]["memory"]["met"] is True
    finally:
        loaded.close()


def test_a_memory_not_yet_used_is_saved_again(tmp_path):
    """Loaded, then saved again before the computer played: its memory is kept, not lost."""
    match = match_against("easy")
    person = make_player("simple", PERSON, 1)
    play(match, person, 60)
    write_save(tmp_path, "first", match.state())
    match.close()
    loaded = Match.from_state(read_save(tmp_path, "first"))
    try:
        write_save(tmp_path, "second", loaded.state())
    finally:
        loaded.close()
    first, second = read_save(tmp_path, "first"), read_save(tmp_path, "second")
    assert second["computers"] == first["computers"]
    assert first["computers"][COMPUTER]["memory"]["met"] is True
