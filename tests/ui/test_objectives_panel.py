"""The objectives card, the marked zones and the scenario's messages in the app."""

from __future__ import annotations

from pathlib import Path

from game.ui.glyphs import TINTS
from game.ui.screens.game_over import GameOver
from tests.ui.ui_helpers import DATA, at_my_turn, make_app, new_match, screen_text, wait_until

ESCAPE = DATA / "escape.yaml"
GATE = {(7, 1), (8, 1)}
ROUTE = [(2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (7, 1)]


async def test_the_card_the_zone_and_the_end_follow_the_objectives(save_dir: Path):
    match = new_match(ESCAPE, 1, {"blue"})
    app = make_app(save_dir)
    async with app.run_test(size=(110, 36)) as pilot:
        screen = await at_my_turn(app, pilot, match)
        assert "objective" in TINTS
        tints = screen.map.scene.tints
        assert all(tints.get(square) == "objective" for square in GATE)
        assert tints.get((1, 1)) != "objective"              # a deployment zone is not marked
        card = str(screen.objectives_card.render())
        assert "○ Get Hollis out by gate" in card and "○ Take down Hollis" in card
        assert "After round 30: Red team wins" in card
        screen.move_cursor_to((7, 1))
        await pilot.pause()
        assert "[gate]" in str(screen.query_one("#status").render())
        for _ in range(6):                                   # walk as far as each turn goes
            if screen.flow.ended:
                break
            reach = screen.picture.reach
            square = max((sq for sq in ROUTE if reach.cost(sq) is not None), key=ROUTE.index)
            screen.move_cursor_to(square)
            await pilot.pause()
            await pilot.press("enter")
            await pilot.pause()
            if match.battle.session.position("blue-1") in GATE:
                assert "Hollis is at the gate!" in screen_text(app)      # the notice
            if not screen.flow.ended:
                await pilot.press("e")
            await wait_until(pilot, lambda: screen.my_turn() or screen.flow.ended)
        session = match.battle.session
        assert session.over and session.winner == "blue"
        await pilot.pause()
        card = str(screen.objectives_card.render())
        assert "After round 30" not in card and f"Over in round {session.round}: " in card
        assert screen.check_action("fire", ()) is False       # no order keys once it is over
        assert "End turn" not in screen_text(app)
        assert "Hollis is at the gate!" in "\n".join(match.tell(e) for e in match.history
                                                      if "blue" in e.seen_by)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, GameOver))
        text = screen_text(app)
        assert "Hollis got out by gate, round" in text
        assert "✓ Get Hollis out by gate" in text and "✗ Take down Hollis" in text   # he got away


async def test_reinforcements_join_the_board_by_name_with_their_message(save_dir: Path):
    match = new_match(DATA / "reserve.yaml", 1, {"blue"})
    app = make_app(save_dir)
    async with app.run_test(size=(110, 36)) as pilot:
        screen = await at_my_turn(app, pilot, match)
        assert "red-2" not in match.battle.session.entities
        while match.battle.session.round < 2 and not screen.flow.ended:
            await pilot.press("e")
            await wait_until(pilot, lambda: screen.my_turn() or screen.flow.ended)
        assert "red-2" in match.battle.session.entities
        assert match.name("red-2") == "Reserve"
        text = screen_text(app)
        assert "Reserve" in text and "The reserve is here." in text
