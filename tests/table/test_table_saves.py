"""A battle at the table through the save file, the app's match and the replay: the typed
faces are in the command log, so each gives back the same battle."""

from __future__ import annotations

import pytest

from game.ai import make_player
from game.content.loader import load_setup
from game.replay import Replay, ReplayError
from game.saves import read_save, write_save
from game.ui.match import Match, Seat
from tests.table.table_helpers import play_at_table
from tests.sequential import sequential


@pytest.mark.parametrize("ruleset", ["skirmish", "opend6"])
def test_a_table_battle_saved_loads_and_replays_identically(tmp_path, ruleset):
    setup = sequential(load_setup("alley", ruleset=ruleset))
    players = {s.id: make_player("easy", s.id, 4) for s in setup.scenario.sides}
    first, second = (s.id for s in setup.scenario.sides)
    run = play_at_table(setup, 9, players, table=(first,), limit=30)
    seats = {first: Seat(first, True, "Ann", rolls="table"),
             second: Seat(second, False, "Computer", "easy")}
    match = Match(run.battle, seats)
    with run.battle:
        write_save(tmp_path, "table", match.state())
        state = read_save(tmp_path, "table")
        assert state["table"] == [first]
        assert any(entry.get("rolls") for entry in state["commands"])
        loaded = Match.from_state(state)
        try:
            assert loaded.battle.digest() == run.battle.digest()
            assert loaded.battle.table == {first}
            assert loaded.seats[first].at_table and not loaded.seats[second].at_table
            assert [e.to_dict() for e in loaded.history] == [e.to_dict() for e in run.events]
        finally:
            loaded.close()
        with Replay.from_state(state) as replay:
            assert replay.final_digest == run.battle.digest()
            shown = [e.to_dict() for e in replay.events_until(replay.total)]
            assert shown == [e.to_dict() for e in run.events]
            replay.seek(replay.total)
            assert replay.battle.digest() == run.battle.digest()
            replay.back()
            replay.forward()
            assert replay.battle.digest() == run.battle.digest()


def test_a_replay_whose_opening_rolls_do_not_fit_says_why(tmp_path):
    setup = sequential(load_setup("alley", ruleset="skirmish"))
    players = {s.id: make_player("easy", s.id, 4) for s in setup.scenario.sides}
    run = play_at_table(setup, 9, players, limit=3)
    with run.battle:
        state = run.battle.state()
    state["opening_rolls"] = [11] * len(state["opening_rolls"])
    with pytest.raises(ReplayError, match="opening rolls do not fit"):
        Replay.from_state(state)
