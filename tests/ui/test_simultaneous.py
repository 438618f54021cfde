"""Simultaneous orders on the battle screen: the Turns choice of the new-battle screen, orders
planned with the usual keys into each unit's queue, the round carried out step by step, and
hot-seat planning that never shows one side the other's orders or units it cannot see."""

from __future__ import annotations

import pytest

from game.ui.screens.battle import BattleScreen
from tests.ui.ui_helpers import DUEL, make_app, open_new_battle, wait_until


@pytest.mark.slow
async def test_the_new_battle_screen_sets_the_rulesets_turns(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_new_battle(pilot, str(DUEL), "5")
        screen = app.screen
        assert screen.query_one("#turns").display          # skirmish has the choice
        assert screen.query_one("#turns-sequential").value  # the ruleset file's way
        await pilot.click("#turns-simultaneous")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, BattleScreen))
        session = app.screen.match.battle.session
        assert session.setup.ruleset.params["turns"] == "simultaneous"
        assert session.rules.simultaneous


@pytest.mark.slow
async def test_the_turns_choice_is_hidden_for_a_ruleset_without_it(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_new_battle(pilot, str(DUEL), "5")
        await pilot.click("#ruleset-d20")
        await pilot.pause()
        assert not app.screen.query_one("#turns").display
