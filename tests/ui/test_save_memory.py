"""In the app: a battle against each computer level, saved with Ctrl+S and loaded with Ctrl+O,
hands the computer player back what it remembered."""

from __future__ import annotations

import json

import pytest

from game.saves import read_save
from game.ui import players
from game.ui.screens.battle import BattleScreen
from game.ui.screens.dialogs import SaveAs
from game.ui.screens.load import LoadSave
from tests.ui.ui_helpers import DUEL, at_my_turn, make_app, new_match, seats_for, wait_until

SEED = 2


def memory_json(player) -> str:
    return json.dumps(player.memory(), sort_keys=True)


@pytest.mark.parametrize("level", players.computer_levels())
async def test_save_and_load_against_the_computer_keep_its_memory(save_dir, level):
    app = make_app(save_dir)
    async with app.run_test(size=(110, 32)) as pilot:
        match = new_match(DUEL, SEED, {"blue"})
        match.seats = seats_for(match.battle.session.setup, {"blue"}, level)
        screen = await at_my_turn(app, pilot, match)
        for _ in range(1):                                    # the computer plays a turn
            await pilot.press("e")
            await wait_until(pilot, lambda: screen.my_turn() or match.over, 1000)
        assert not match.over
        remembered = memory_json(match.computer("red"))
        seed = match.battle.session.seed + 7919 * (match.side_index("red") + 1)   # the match's
        assert remembered != memory_json(players.make_computer(level, "red", seed))  # it learned
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, SaveAs))
        await pilot.press(*"vs", "enter")
        await wait_until(pilot, lambda: app.screen is screen)
        saved = read_save(save_dir, "vs")["computers"]["red"]
        assert saved["level"] == level
        assert json.dumps(saved["memory"], sort_keys=True) == remembered

        await pilot.press("ctrl+o")
        await wait_until(pilot, lambda: isinstance(app.screen, LoadSave))
        app.screen.query_one("#save-path").focus()
        app.screen.query_one("#save-path").value = str(save_dir / "vs.json")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, BattleScreen)
                         and app.screen is not screen)
        loaded = app.screen.match
        assert loaded is not match
        assert memory_json(loaded.computer("red")) == remembered
