"""Names are shown as they are written, never read as markup: a team, a unit or a player may
be called "[/]" or "[bold]"."""

from __future__ import annotations

import pytest

from game.content.loader import load_setup
from game.rulesets import new_battle
from game.ui.match import Match, Seat
from game.ui.screens.battle import BattleScreen
from game.ui.screens.handoff import Handoff, Summary
from tests.ui.ui_helpers import DUEL, make_app, screen_text, wait_until

ODD = "[/]"


@pytest.mark.slow
async def test_names_that_look_like_markup_are_shown_as_written(save_dir, tmp_path):
    text = (DUEL.read_text().replace("name: Blue team", "name: '[bold]Blue'")
            .replace("name: Red team", "name: '[/]'")
            .replace("name: Trooper", "name: '[/red]'"))
    scenario = tmp_path / "odd.yaml"
    scenario.write_text(text)
    setup = load_setup(str(scenario))
    seats = {side.id: Seat(side.id, True, ODD, None) for side in setup.scenario.sides}
    app = make_app(save_dir)
    async with app.run_test(size=(100, 30)) as pilot:
        await app.start_match(Match(new_battle(setup, 2), seats))
        screen = next(s for s in app.screen_stack if isinstance(s, BattleScreen))
        for _ in range(2):                       # each side's player takes the keyboard
            await wait_until(pilot, lambda: isinstance(app.screen, Handoff))
            await pilot.press("space")
            await wait_until(pilot, lambda: isinstance(app.screen, Summary))
            assert f"{ODD}: what" in screen_text(app)
            await pilot.press("escape")
            await wait_until(pilot, screen.my_turn)
            await pilot.press("tab", "w", "g", "f", "f")
            shown = screen_text(app)
            assert "[/red]" in shown or "[bold]Blue" in shown
            await pilot.press("e")
        assert app.is_running
    assert app.return_code in (None, 0)
