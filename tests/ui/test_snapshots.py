"""Snapshots of the main menu, a battle and the targeting view (pytest-textual-snapshot).

Regenerate after a deliberate change of the look with `pytest tests/ui --snapshot-update`.
"""

from __future__ import annotations

from game.ui.screens.battle import BattleScreen
from tests.ui.ui_helpers import DUEL, make_app, new_match, wait_until

SEED = 2          # blue's Hollis acts first


def battle_app(save_dir):
    app = make_app(save_dir)

    async def start(pilot) -> None:
        await app.start_match(new_match(DUEL, SEED, {"blue"}))
        await wait_until(pilot, lambda: isinstance(app.screen, BattleScreen)
                         and app.screen.my_turn())

    return app, start


def test_main_menu(snap_compare, save_dir):
    assert snap_compare(make_app(save_dir), terminal_size=(80, 24))


def test_battle_screen(snap_compare, save_dir):
    app, start = battle_app(save_dir)
    assert snap_compare(app, run_before=start, press=["right", "right", "down"],
                        terminal_size=(80, 24))


def test_targeting_view(snap_compare, save_dir):
    app, start = battle_app(save_dir)
    assert snap_compare(app, run_before=start, press=["tab", "plus", "plus"],
                        terminal_size=(100, 30))
