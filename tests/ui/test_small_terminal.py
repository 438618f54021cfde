"""At 80×24, the smallest terminal the app supports, nothing a player needs is cut: the new
battle form (each bundled scenario's description and side names, the ruleset, the seed, Start),
and the battle screen's side panel and log."""

from __future__ import annotations

import io

from rich.console import Console
from tests.sequential import sequential
from tests.ui.ui_helpers import DUEL, at_my_turn, make_app, new_match, seats_for, wait_until

from game.content.loader import load_setup
from game.rulesets import new_battle
from game.ui.match import Match

from game.ui.screens.new_battle import NewBattle

SIZE = (80, 24)


def screen_rows(app) -> list[str]:
    """The terminal's rows as text, as the screenshot draws them."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system="truecolor", record=True, legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(
        full=True, screen_stack=app._background_screens))
    return console.export_text().splitlines()


def drawn(rows: list[str], widget) -> str:
    """The words drawn inside a widget's region."""
    region = widget.region
    return words(" ".join(row[region.x:region.right] for row in rows[region.y:region.bottom]))


def words(text: str) -> str:
    return " ".join(text.split())


async def open_form(app, pilot) -> NewBattle:
    await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(app.screen, NewBattle))
    await pilot.pause()
    return app.screen


async def test_the_new_battle_form_shows_every_scenario_whole(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=SIZE) as pilot:
        form = await open_form(app, pilot)
        scenarios = sorted(form.library.scenarios.values(), key=lambda s: s.name)
        for number, scenario in enumerate(scenarios):
            if number:
                await pilot.press("down")
            await wait_until(pilot, lambda ident=scenario.id: form.rows_for == ident)
            await pilot.pause()
            rows = screen_rows(app)
            left = words(" ".join(row[:40] for row in rows))
            assert words(scenario.description) in left, (scenario.id, rows)
            for index, side in enumerate(scenario.sides):
                assert words(side.name) == drawn(rows, form.query_one(f"#side-{index}")), \
                    (scenario.id, rows)
            text = "\n".join(rows)
            for needed in ("Ruleset", "Skirmish", "Seed (blank: random)", "Start", "Back"):
                assert needed in text, (scenario.id, needed, rows)


async def test_the_battle_screen_side_panel_and_log_are_whole(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=SIZE) as pilot:
        match = new_match(DUEL, 2, {"blue"})
        screen = await at_my_turn(app, pilot, match)
        await pilot.pause()
        rows = screen_rows(app)
        panel = "\n".join(row[49:] for row in rows)
        for needed in ("Hollis", "Blue team", "HP", "AP", "standing", "E&S '63 Custom",
                       "8/8 +3 mag", "Round 1 of 30", "Trooper", "Morale", "Red team"):
            assert needed in panel, (needed, rows)
        assert screen.query_one("#side").max_scroll_y == 0      # nothing below the fold
        log = screen.query_one("#log")
        assert log.max_scroll_x == 0                             # nothing past the right edge
    match.close()


async def test_a_bigger_battle_keeps_the_whole_unit_card_in_view(save_dir):
    """In a unit's own turn (one unit at a time) its whole card fits beside the map."""
    app = make_app(save_dir)
    async with app.run_test(size=SIZE) as pilot:
        setup = sequential(load_setup("alley"))
        match = Match(new_battle(setup, 2), seats_for(setup, {"jensen"}))
        screen = await at_my_turn(app, pilot, match)
        await pilot.pause()
        card, side = screen.query_one("#unit-card"), screen.query_one("#side")
        assert card.region.bottom <= side.region.bottom
        rows = screen_rows(app)
        assert "High-explosive grenade ×1" in drawn(rows, card)
        assert "AP 24/24" in drawn(rows, card) and "+3 mag" in drawn(rows, card)
    match.close()


async def test_planning_keeps_the_orders_card_in_view(save_dir):
    """While a round is planned the unit's orders come first beside the map, whole."""
    app = make_app(save_dir)
    async with app.run_test(size=SIZE) as pilot:
        match = new_match("alley", 2, {"jensen"})
        screen = await at_my_turn(app, pilot, match)
        await pilot.pause()
        assert screen.planning_now()
        card, side = screen.query_one("#queue-card"), screen.query_one("#side")
        assert side.region.y <= card.region.y and card.region.bottom <= side.region.bottom
        text = drawn(screen_rows(app), card)
        assert "Orders: Maire Jensen" in text and "No orders yet" in text
    match.close()


async def test_the_cards_beside_the_map_scroll_from_the_keyboard(save_dir):
    """What does not fit beside the map (the unit card under the orders) is reached with
    Shift+Down and Shift+Up (or Ctrl), without the mouse."""
    app = make_app(save_dir)
    async with app.run_test(size=SIZE) as pilot:
        match = new_match("alley", 2, {"jensen"})
        screen = await at_my_turn(app, pilot, match)
        await pilot.pause()
        side, cursor = screen.query_one("#side"), screen.cursor
        assert side.max_scroll_y > 0 and side.scroll_y == 0
        await pilot.press("shift+down")
        await wait_until(pilot, lambda: side.scroll_y > 0)
        await pilot.press("ctrl+down", "ctrl+down", "ctrl+down")
        await wait_until(pilot, lambda: side.scroll_y == side.max_scroll_y)
        await pilot.press("shift+up", "shift+up", "shift+up", "shift+up")
        await wait_until(pilot, lambda: side.scroll_y == 0)
        assert screen.cursor == cursor            # the map's cursor did not move
    match.close()
