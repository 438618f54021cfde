"""Leaning out from total cover in the app: the action bar offers it with its AP, greyed with
the reason when it is not possible, and `i` leans out and back (skirmish)."""

from __future__ import annotations

from pathlib import Path

from game.core import components as c
from game.core.queries import visible_enemies
from game.rulesets.skirmish.cover import Leaning
from tests.ui.ui_helpers import DATA, at_my_turn, make_app, new_match


def lean_item(screen):
    return next(item for item in screen.action_bar.items if item.key == "i")


async def test_i_leans_out_from_total_cover_and_back(save_dir: Path):
    match = new_match(DATA / "lean.yaml", 2, {"blue"})
    assert match.active_uid == "blue-1"
    session = match.battle.session
    app = make_app(save_dir)
    async with app.run_test(size=(110, 34)) as pilot:
        screen = await at_my_turn(app, pilot, match)
        item = lean_item(screen)
        assert (item.label, item.cost, item.enabled) == ("lean out", 2, True)
        assert visible_enemies(session, "blue") == []
        ap = session.get("blue-1", c.ActionPoints).current
        await pilot.press("i")
        await pilot.pause()
        assert visible_enemies(session, "blue") == ["red-1"]
        assert session.get("blue-1", c.ActionPoints).current == ap - 2
        item = lean_item(screen)
        assert (item.label, item.cost, item.enabled) == ("lean back", 2, True)
        await pilot.press("i")
        await pilot.pause()
        assert visible_enemies(session, "blue") == []
        assert session.get("blue-1", c.ActionPoints).current == ap - 4


async def test_in_the_open_lean_is_greyed_with_the_reason(save_dir: Path):
    match = new_match(DATA / "duel.yaml", 1, {"blue"})
    app = make_app(save_dir)
    async with app.run_test(size=(110, 34)) as pilot:
        screen = await at_my_turn(app, pilot, match)
        item = lean_item(screen)
        assert (item.label, item.enabled, item.why) == ("lean out", False, "not behind total cover")
        await pilot.press("i")
        await pilot.pause()
        assert not match.battle.session.has("blue-1", Leaning)
