"""Whole battles played through the keyboard: solo against the computer, and hot-seat."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.core.systems.health import set_state
from game.ui.screens.battle import BattleScreen
from game.ui.screens.game_over import GameOver
from game.ui.screens.handoff import Handoff, Summary
from tests.ui.ui_helpers import (DUEL, FOG, at_my_turn, make_app, new_match, open_new_battle,
                                 screen_text, wait_until)

MAX_PRESSES = 600


async def fight(pilot, presses: list[int]) -> None:
    """Whoever's turn it is at the keyboard: show the odds, fire, and end the turn if stuck."""
    app = pilot.app
    screen = app.screen
    assert isinstance(screen, BattleScreen)
    before = len(screen.match.battle.commands)
    await pilot.press("f", "f")
    presses[0] += 2
    if len(screen.match.battle.commands) == before:      # refused: no AP, no sight, ...
        await pilot.press("e")
        presses[0] += 1


@pytest.mark.slow
async def test_solo_battle_to_the_end(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_new_battle(pilot, str(DUEL), "11")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, BattleScreen))
        screen = app.screen
        assert [s.human for s in screen.match.seats.values()] == [True, False]
        presses = [0]
        while not screen.flow.ended:
            assert presses[0] < MAX_PRESSES, "the battle did not end"
            await wait_until(pilot, lambda: screen.my_turn() or screen.flow.ended)
            if screen.flow.ended:
                break
            await fight(pilot, presses)
        session = screen.match.battle.session
        assert session.over
        await pilot.pause()
        assert app.screen is screen and "Press Enter to see the result" in screen_text(app)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, GameOver))
        text = screen_text(app)
        winner = session.winner
        assert (f"Victory: {session.side_names[winner]}" if winner else "draw") in text
        for side in session.sides:
            assert session.side_names[side] in text
        shots = session.records["blue"].shots
        assert shots > 0 and str(shots) in text
        await pilot.press("m")
        await wait_until(pilot, lambda: app.match is None)


@pytest.mark.slow
async def test_hot_seat_battle_hides_the_board_between_players(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_new_battle(pilot, str(DUEL), "2")
        app.screen.query_one("#mode").focus()
        await pilot.press("down", "enter")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, Handoff))
        battle_screen = next(s for s in app.screen_stack if isinstance(s, BattleScreen))
        match = battle_screen.match
        assert all(seat.human for seat in match.seats.values())
        handoffs, presses, turns = 0, [0], []
        while not match.over:
            assert presses[0] < MAX_PRESSES, "the battle did not end"
            if isinstance(app.screen, Handoff):
                handoffs += 1
                text = screen_text(app)
                assert "Pass the keyboard to" in text
                for hidden in ("##", "Round ", "HP ", "Morale", "Trooper", "Hollis"):
                    assert hidden not in text, f"{hidden!r} shows through the handoff screen"
                coming = match.active_side
                await pilot.press("z")
                await wait_until(pilot, lambda: isinstance(app.screen, Summary))
                assert battle_screen.viewer == coming
                await pilot.press("enter")
                await wait_until(pilot, lambda: app.screen is battle_screen)
                continue
            assert battle_screen.my_turn()
            if not turns or turns[-1] != match.active_side:
                turns.append(match.active_side)
            await fight(pilot, presses)
        await wait_until(pilot, lambda: battle_screen.flow.ended and app.screen is battle_screen)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, GameOver))
        assert handoffs == len(turns)            # one before each player's stint at the keys
        assert handoffs >= 2


@pytest.mark.slow
async def test_hot_seat_summary_tells_only_what_the_side_saw(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(100, 30)) as pilot:
        match = new_match(FOG, 5, {"blue", "red", "green"})
        await app.start_match(match)
        await wait_until(pilot, lambda: isinstance(app.screen, Handoff))
        screen = next(s for s in app.screen_stack if isinstance(s, BattleScreen))
        for _ in range(6):                     # three sides, each hands over after its turn
            await wait_until(pilot, lambda: isinstance(app.screen, Handoff))
            side = match.active_side
            unseen = list(match.unseen[side])
            await pilot.press("space")
            await wait_until(pilot, lambda: isinstance(app.screen, Summary))
            shown = str(app.screen.query_one(".dialog-body Static").render())
            for event in unseen:
                assert side in event.seen_by
            told = [match.tell(e) for e in unseen]
            assert all(line in shown for line in told[-60:])
            hidden = [match.tell(e) for e in match.history if side not in e.seen_by]
            assert not any(line in shown for line in hidden if line not in told)
            await pilot.press("escape")
            await wait_until(pilot, lambda: screen.my_turn())
            await pilot.press("e")


async def test_the_unit_card_shows_the_active_unit_once_the_selected_one_is_dead(save_dir):
    match = new_match(FOG, 3, {"blue"})
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await at_my_turn(app, pilot, match)
        active = match.active_uid
        other = next(uid for uid in ("blue-1", "blue-2") if uid != active)
        screen.selected = other
        screen.refresh_state()
        await pilot.pause()
        assert match.name(other) in str(screen.query_one("#unit-card").render())
        match.battle.session.use()
        set_state(match.battle.session, other, "dead", cause="test")
        screen.refresh_state()
        await pilot.pause()
        card = str(screen.query_one("#unit-card").render())
        assert match.name(active) in card and "HP" in card


@pytest.mark.slow
async def test_new_battle_shows_each_sides_whole_name(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        scenario = Path(__file__).resolve().parents[2] / "content" / "scenarios" / "d20_depot.yaml"
        await open_new_battle(pilot, str(scenario), "")
        text = screen_text(app)
        assert "Jensen's team" in text and "Olea night watch" in text
