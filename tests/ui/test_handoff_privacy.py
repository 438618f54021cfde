"""Hot-seat: the catch-up summary tells what the other side did, not the AP its units had."""

from __future__ import annotations

from tests.ui.ui_helpers import DUEL, make_app, new_match, screen_text, wait_until

from game.core.commands import Move
from game.ui.screens.handoff import Handoff, Summary, without_ap


def test_ap_figures_leave_the_line_and_nothing_else_does():
    assert without_ap("Trooper's turn: 14 AP.") == "Trooper's turn."
    assert without_ap("Trooper's turn: 14 AP (3 still owed).") == "Trooper's turn."
    assert without_ap("Trooper moves 2 squares to (6, 3) (6 AP, 1 of them rough ground; 8 left).") \
        == "Trooper moves 2 squares to (6, 3)."
    assert without_ap("Trooper: full defense until its next turn (+2) (3 AP).") \
        == "Trooper: full defense until its next turn (+2)."
    assert without_ap("Trooper attacks Hollis (burst): 2 hits.") == "Trooper attacks Hollis (burst): 2 hits."


async def test_the_summary_hides_the_enemys_ap_but_not_the_sides_own(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(100, 30)) as pilot:
        match = new_match(DUEL, 2, {"blue", "red"})
        await app.start_match(match)
        seen_enemy_turn = False
        for _ in range(4):
            await wait_until(pilot, lambda: isinstance(app.screen, Handoff))
            side = match.active_side
            await pilot.press("space")
            await wait_until(pilot, lambda: isinstance(app.screen, Summary))
            text = "\n".join(app.screen.lines)
            assert app.screen.lines[-1] in screen_text(app)
            if side == "blue" and "Trooper moves" in text:
                seen_enemy_turn = True
                assert "Trooper's turn:" not in text
                after = text[text.index("Trooper moves"):]
                assert "AP" not in after[:after.index(".") + 1]
                assert "Hollis's turn: 10 AP." in text       # its own AP it is told
            await pilot.press("enter")
            await pilot.pause()
            if side == "red":
                uid = match.active_uid
                x, y = match.battle.session.position(uid)
                assert match.submit(Move(uid, ((x - 1, y),)))
            await pilot.press("e")
            await pilot.pause()
        assert seen_enemy_turn
    match.close()
