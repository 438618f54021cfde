"""Setting up an encounter by hand: units put on any free square (zones or not), a wall or a
taken square refused with the reason, a player character added from its unit file, the
encounter written as a scenario file that validates and loads, and the battle starting with
every unit where it was put."""

from __future__ import annotations

from game.content.deploy import deploy
from game.content.loader import load_library, load_setup, validate_paths
from game.core import components as c
from game.ui.screens.battle import BattleScreen
from game.ui.screens.dialogs import Choice
from game.ui.screens.setup import SetupScreen
from tests.ui.ui_helpers import DATA, DUEL, make_app, open_new_battle, screen_text, wait_until

ROOK = DATA / "rook.yaml"


async def open_setup(app, pilot) -> SetupScreen:
    await open_new_battle(pilot, str(DUEL), "5")
    await pilot.press("ctrl+g")
    await wait_until(pilot, lambda: isinstance(app.screen, SetupScreen))
    await pilot.pause()
    return app.screen


def positions(battle) -> dict[str, tuple[int, int]]:
    s = battle.session
    return {s.get(uid, c.Unit).name: s.position(uid) for uid, _ in s.units()}


async def test_units_placed_by_hand_start_the_battle_where_they_were_put(save_dir, tmp_path):
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        setup = await open_setup(app, pilot)
        assert setup.cursor == (1, 1)                       # on Hollis, in the alpha zone
        await pilot.press("enter", "right", "right", "right", "right", "down", "down", "enter")
        assert setup.squares[0] == (5, 3)                   # in no zone
        assert "Hollis is at [5, 3]" in screen_text(app)

        await pilot.press("tab")
        assert setup.cursor == (8, 3)
        await pilot.press("enter", *["left"] * 4, "up", "enter")
        text = screen_text(app)
        assert "Trooper cannot stand at [4, 2], on a low cover square where no unit can stand" in text
        await pilot.press("right", "down", "enter")
        assert "already taken by Hollis" in screen_text(app)
        await pilot.press("up", "up", "enter")
        assert setup.squares[1] == (5, 1) and setup.held is None

        await pilot.press("a", *str(ROOK), "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, Choice))
        await pilot.click("#s-0")
        await wait_until(pilot, lambda: app.screen is setup)
        assert setup.held == 2
        await pilot.press("ctrl+s")                          # not while Rook is held
        assert "Put Rook down first" in screen_text(app)
        await pilot.press("left", "left", "left", "down", "down", "enter")
        assert setup.squares[2] == (2, 3)

        written = tmp_path / "yard_ambush.yaml"
        await pilot.press("w", *str(written), "enter")
        await pilot.pause()
        assert "Written" in screen_text(app)
        assert validate_paths([written]) == []
        loaded = load_setup(written, load_library())
        placed = {d.name: (d.x, d.y) for d in deploy(loaded)}
        assert placed == {"Hollis": (5, 3), "Trooper": (5, 1), "Rook": (2, 3)}

        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, BattleScreen))
        assert positions(app.screen.match.battle) == placed


async def test_a_bad_unit_file_and_escape_say_why_and_change_nothing(save_dir, tmp_path):
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        setup = await open_setup(app, pilot)
        before = list(setup.squares)
        await pilot.press("a", *str(tmp_path / "nobody.yaml"), "enter")
        assert "Cannot add: there is no file" in screen_text(app)
        await pilot.press("escape")                          # closes the path field
        await pilot.press("enter", "right", "escape")        # pick Hollis up, put him back
        assert setup.squares == before and setup.held is None
        await pilot.press("w", *str(tmp_path / "no_folder" / "x.yaml"), "enter")
        assert "Not written: there is no folder" in screen_text(app)
        await pilot.press("escape", "escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, SetupScreen))


async def test_a_unit_without_stats_for_the_rules_is_refused(save_dir, tmp_path):
    odd = tmp_path / "odd.yaml"
    odd.write_text(ROOK.read_text().replace("id: rook", "id: odd").split("    rules:")[0])
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_new_battle(pilot, str(DUEL), "5")
        await pilot.click("#ruleset-d20")
        await pilot.press("ctrl+g")
        await wait_until(pilot, lambda: isinstance(app.screen, SetupScreen))
        setup = app.screen
        await pilot.press("a", *str(odd), "enter")
        await pilot.pause()
        assert "Cannot add Rook" in screen_text(app) and "d20" in screen_text(app)
        assert len(setup.units) == 2


async def test_the_mouse_picks_a_unit_up_and_puts_it_down(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        setup = await open_setup(app, pilot)
        await pilot.click("#setup-board", offset=(8 * 2, 3))          # the Trooper at [8, 3]
        assert setup.held == 1 and setup.cursor == (8, 3)
        await pilot.click("#setup-board", offset=(4 * 2, 2))          # the crate at [4, 2]
        assert setup.held == 1 and "low cover square" in screen_text(app)
        await pilot.click("#setup-board", offset=(6 * 2 + 1, 2))      # open ground at [6, 2]
        assert setup.held is None and setup.squares[1] == (6, 2)


async def test_the_arrows_move_the_cursor_on_a_map_larger_than_the_screen(save_dir):
    """The map scrolls to follow the cursor; it never takes the arrows for itself."""
    from game.content.loader import bundled_content_dir
    app = make_app(save_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_new_battle(pilot, str(bundled_content_dir() / "scenarios" / "outskirts.yaml"), "5")
        await pilot.press("ctrl+g")
        await wait_until(pilot, lambda: isinstance(app.screen, SetupScreen))
        setup = app.screen
        await pilot.pause()
        await pilot.click("#setup-map")                 # a click on the map leaves the keys alone
        start = setup.cursor
        await pilot.press("right", "right", "down")
        await pilot.pause()
        assert setup.cursor == (start[0] + 2, start[1] + 1)
        board = setup.query_one("#setup-map")
        before = board.scroll_y
        await pilot.press(*["up"] * 40)
        await pilot.pause()
        assert setup.cursor[1] == start[1] + 1 - 40
        assert board.scroll_y < before                   # it followed the cursor up
