"""Snapshots of following a battle: a shot drawn on the board, the whole log on its own screen,
and the board waiting after the last blow (pytest-textual-snapshot; regenerate after a deliberate
change of the look with `pytest tests/ui --snapshot-update`)."""

from __future__ import annotations

from game.core import components as c
from game.core.commands import EndTurn
from game.ui.screens.battle import BattleScreen
from game.ui.screens.log import FullLog
from tests.ui.ui_helpers import DUEL, make_app, new_match, wait_until

SEED = 2          # blue's Hollis acts first


def duel_app(save_dir, then):
    app = make_app(save_dir)

    async def start(pilot) -> None:
        await app.start_match(new_match(DUEL, SEED, {"blue"}))
        await wait_until(pilot, lambda: isinstance(app.screen, BattleScreen)
                         and app.screen.my_turn())
        app.screen.flow.flash_seconds = 600          # the moment lasts for the picture
        await then(pilot, app.screen)

    return app, start


def test_a_shot_on_the_board(snap_compare, save_dir):
    async def fire(pilot, screen) -> None:
        await pilot.press("f", "f")
        await pilot.pause()

    app, start = duel_app(save_dir, fire)
    assert snap_compare(app, run_before=start, terminal_size=(100, 30))


def test_the_whole_log(snap_compare, save_dir):
    async def open_log(pilot, screen) -> None:
        await pilot.press("f", "f", "L")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, FullLog))

    app, start = duel_app(save_dir, open_log)
    assert snap_compare(app, run_before=start, terminal_size=(100, 30))


def test_the_board_after_the_last_blow(snap_compare, save_dir):
    async def finish(pilot, screen) -> None:
        match = screen.match
        match.battle.session.use()
        match.battle.session.get("red-1", c.Health).hp = 1
        for _ in range(40):
            await pilot.press("f", "f")
            if match.over:
                break
            assert match.submit(EndTurn(match.active_uid))
            screen.flow.next_turn()
            await wait_until(pilot, lambda: screen.my_turn() or match.over, tries=3000)
        await wait_until(pilot, lambda: screen.flow.ended)
        screen.map.unflash()
        await pilot.pause()

    app, start = duel_app(save_dir, finish)
    assert snap_compare(app, run_before=start, terminal_size=(100, 30))
