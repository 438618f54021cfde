"""The d20 Defend dialog offers Disengage from each engaged enemy (One Action) beside Defensive
Stance and Total Disengage, greys what the unit cannot pay for with the reason, and the order
it gives takes effect."""

from __future__ import annotations

import pytest

from game.core import components as c
from game.core.events import Defended
from game.ui.screens.battle import BattleScreen
from game.ui.screens.dialogs import Choice
from tests.ui.ui_helpers import DUEL, make_app, open_new_battle, wait_until


@pytest.mark.slow
async def test_the_defend_dialog_offers_disengaging_from_the_enemy_next_to_the_unit(save_dir,
                                                                                 tmp_path):
    close = tmp_path / "close.yaml"
    close.write_text(DUEL.read_text().replace("id: ui_duel", "id: ui_close")
                     .replace("{unit: hollis, at: [1, 1]}", "{unit: hollis, at: [4, 1]}")
                     .replace("name: Trooper, at: [8, 3]", "name: Trooper, at: [5, 1]"))
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_new_battle(pilot, str(close), "5")
        await pilot.click("#ruleset-d20")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, BattleScreen))
        screen = app.screen
        await wait_until(pilot, screen.my_turn)
        battle = screen.match.battle
        uid = battle.session.active
        enemy = next(u for u, unit in battle.session.units() if unit.side != battle.session.side_of(uid))
        assert max(abs(a - b) for a, b in zip(battle.session.position(uid),
                                              battle.session.position(enemy), strict=True)) == 1

        battle.session.get(uid, c.ActionPoints).current = 1    # one Action: Disengage only
        await pilot.press("u")
        await wait_until(pilot, lambda: isinstance(app.screen, Choice))
        button = app.screen.query_one(f"#d-disengage-{enemy}")
        assert not button.disabled and str(button.label) == "disengage from Trooper (1 AP)"
        stance = app.screen.query_one("#d-defensive_stance")
        assert stance.disabled and str(stance.label) == "defensive stance (2 AP): 1 AP left"
        assert app.screen.query_one("#d-total_disengage").disabled
        await pilot.click(f"#d-disengage-{enemy}")
        await wait_until(pilot, lambda: any(isinstance(e, Defended) for e in screen.match.history))
        done = next(e for e in screen.match.history if isinstance(e, Defended))
        assert done.defense == f"disengage:{enemy}" and done.ap_cost == 1


@pytest.mark.slow
async def test_the_defend_dialog_offers_stealth_to_a_unit_no_enemy_sees(save_dir, tmp_path):
    walled = tmp_path / "walled.yaml"
    walled.write_text(DUEL.read_text().replace("id: ui_duel", "id: ui_walled")
                      .replace("#A.......#\n    #...=....#\n    #.......B#",
                               "#A..#....#\n    #...#....#\n    #...#...B#"))
    assert "#...#...B#" in walled.read_text()
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_new_battle(pilot, str(walled), "5")
        await pilot.click("#ruleset-d20")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, BattleScreen))
        screen = app.screen
        await wait_until(pilot, screen.my_turn)
        await pilot.press("u")
        await wait_until(pilot, lambda: isinstance(app.screen, Choice))
        button = app.screen.query_one("#d-stealth")
        assert not button.disabled and str(button.label) == "stealth (1 AP)"
        await pilot.click("#d-stealth")
        await wait_until(pilot, lambda: any(isinstance(e, Defended) for e in screen.match.history))
        done = next(e for e in screen.match.history if isinstance(e, Defended))
        assert done.defense == "stealth" and done.ap_cost == 1
