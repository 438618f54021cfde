"""A save whose checksum is valid but whose content no longer loads, and a Load screen path
that is not a file: each is told with its reason in full, and the app carries on."""

from __future__ import annotations

import os
import time

import pytest
from tests.ui.ui_helpers import DUEL, make_app, new_match, screen_text, wait_until

from game.ui.screens.dialogs import Choice
from game.ui.screens.load import LoadSave
from game.ui.screens.menu import MainMenu


def duel_state() -> dict:
    match = new_match(DUEL, 1, {"blue"})
    state = match.state()
    match.close()
    return state


async def told(app, pilot, state: dict) -> str:
    await app._load(state)
    await wait_until(pilot, lambda: isinstance(app.screen, Choice))
    await pilot.pause()
    assert "This save cannot be loaded" in screen_text(app)
    return app.screen.body


async def test_a_save_whose_side_zone_is_not_on_the_map_is_told(save_dir):
    state = duel_state()
    state["setup"]["scenario"]["sides"][0]["zone"] = "nowhere"
    app = make_app(save_dir)
    async with app.run_test(size=(100, 30)) as pilot:
        text = await told(app, pilot, state)
        assert "zone 'nowhere' is not marked on map 'ui_yard'" in text
        assert app.is_running and app.match is None


async def test_a_save_naming_an_unknown_weapon_says_what_it_names(save_dir):
    state = duel_state()
    for unit in state["setup"]["units"]:
        unit["weapons"] = [{"weapon": "no_such_gun", "spare_magazines": 1}]
    app = make_app(save_dir)
    async with app.run_test(size=(100, 30)) as pilot:
        text = await told(app, pilot, state)
        assert "It names 'no_such_gun', which its own content does not define." in text


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
async def test_the_load_screen_refuses_a_fifo_at_once(save_dir, tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    app = make_app(save_dir)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, MainMenu))
        app.push_screen(LoadSave(save_dir))
        await wait_until(pilot, lambda: isinstance(app.screen, LoadSave))
        await pilot.pause()
        app.screen.query_one("#save-path").value = str(fifo)
        start = time.monotonic()
        await pilot.press("enter")
        problem = app.screen.query_one("#load-problem")
        await wait_until(pilot, lambda: "it is a pipe, not a file" in str(problem.render()))
        assert time.monotonic() - start < 2
