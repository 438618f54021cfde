"""The main menu's list stops at its ends: Up then Enter on the first screen opens New battle,
it does not wrap round to Quit and close the game."""

from __future__ import annotations

from tests.ui.ui_helpers import make_app, wait_until

from game.ui.screens.menu import MainMenu
from game.ui.screens.new_battle import NewBattle
from game.ui.widgets.choices import Choices


async def test_up_on_the_first_entry_stays_there(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, MainMenu))
        options = app.screen.query_one("#menu-options", Choices)
        await wait_until(pilot, lambda: options.highlighted == 0)
        await pilot.press("up")
        assert options.highlighted == 0
        await pilot.press("down", "down", "down", "down", "down")
        assert options.get_option_at_index(options.highlighted).id == "quit"
        await pilot.press("up", "up", "up", "up", "up")
        assert options.highlighted == 0
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, NewBattle))
        assert app.is_running
