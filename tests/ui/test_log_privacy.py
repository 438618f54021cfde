"""Hot-seat: the battle log and the full log, rebuilt for the side now at the keyboard, tell the
other side's moves and turns without their AP, as the catch-up summary does."""

from __future__ import annotations

from tests.ui.ui_helpers import DUEL, make_app, new_match, wait_until

from game.core.commands import Move
from game.ui.screens.battle import BattleScreen
from game.ui.screens.handoff import Handoff, Summary
from game.ui.screens.log import FullLog


def log_text(screen: BattleScreen) -> str:
    return "\n".join(strip.text for strip in screen.log_view.lines)


async def test_the_log_hides_the_enemys_ap_after_the_handoff(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(100, 32)) as pilot:
        match = new_match(DUEL, 2, {"blue", "red"})
        await app.start_match(match)
        checked = False
        for _ in range(4):
            await wait_until(pilot, lambda: isinstance(app.screen, Handoff))
            side = match.active_side
            await pilot.press("space")
            await wait_until(pilot, lambda: isinstance(app.screen, Summary))
            await pilot.press("enter")
            await wait_until(pilot, lambda: isinstance(app.screen, BattleScreen))
            screen = app.screen
            text = log_text(screen)
            if side == "blue" and "Trooper moves" in text:
                checked = True
                moved = [line for line in text.splitlines() if line.startswith("Trooper")]
                assert moved and not any("AP" in line for line in moved), moved
                assert "Hollis's turn: 10 AP." in text         # its own AP it is told
                await pilot.press("L")
                await wait_until(pilot, lambda: isinstance(app.screen, FullLog))
                full = app.screen.lines
                assert any(line.startswith("Trooper moves") for line in full)
                assert not any("AP" in line for line in full if line.startswith("Trooper"))
                await pilot.press("escape")
                await wait_until(pilot, lambda: isinstance(app.screen, BattleScreen))
                break
            if side == "red":
                uid = match.active_uid
                x, y = match.battle.session.position(uid)
                assert match.submit(Move(uid, ((x - 1, y),)))
            await pilot.press("e")
            await pilot.pause()
        assert checked
    match.close()
