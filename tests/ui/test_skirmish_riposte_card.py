"""The target card warns of a riposte before a blow is struck (skirmish)."""

from __future__ import annotations

from pathlib import Path

from game.core.queries import preview_attack
from tests.ui.ui_helpers import DATA, at_my_turn, make_app, new_match


async def test_the_target_card_shows_the_riposte_a_miss_would_meet(save_dir: Path):
    match = new_match(DATA / "riposte.yaml", 3, {"blue"})
    assert match.active_uid == "blue-1"
    app = make_app(save_dir)
    async with app.run_test(size=(100, 34)) as pilot:
        screen = await at_my_turn(app, pilot, match)
        await pilot.press("tab")
        assert screen.target == "red-1"
        card = str(screen.query_one("#target-card").render())
        expected = preview_attack(match.battle, "blue-1", "red-1")
        first, second = expected.how.splitlines()
        assert first.startswith("Riposte on a miss") and first in card and second in card
