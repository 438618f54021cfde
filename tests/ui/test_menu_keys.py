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


async def test_a_radio_sets_keys_start_from_the_chosen_button(save_dir):
    """With the last level chosen (hard, the default), Up then Enter picks the one above it:
    the keys start from the chosen button, not from the first (Up there wrapped round to the
    chosen one and seemed ignored)."""
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, NewBattle))
        form = app.screen
        levels = form.query_one("#level")
        names = [button.id for button in levels.query("Radio")]
        assert names[-1] == "level-hard" and levels.pressed_index == len(names) - 1
        levels.focus()
        await pilot.press("up", "enter")
        await wait_until(pilot, lambda: levels.pressed_index == len(names) - 2)
        assert form.query_one(f"#{names[-2]}").value and not form.query_one("#level-hard").value
