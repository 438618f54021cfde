"""Following a battle: the view follows the unit that acts, shots, throws and suppressive fire
are drawn for a moment from their events, the log grows and opens full screen, and the end of
the battle waits on the board until the player asks for the result."""

from __future__ import annotations

from pathlib import Path

from game.core import components as c
from game.core import events as ev
from game.core.commands import EndTurn, Suppress, Throw
from game.ui.app import SkirmishApp
from game.ui.board import EFFECTS, line_between, rings
from game.ui.picture import Witness, take_picture
from game.ui.screens.game_over import GameOver
from game.ui.screens.log import FullLog
from game.ui.widgets import panels
from tests.ui.ui_helpers import (DATA, DUEL, at_my_turn, make_app, new_match, screen_text,
                                 wait_until)

LONG_FIELD = DATA / "long_field.yaml"       # 10x40: Hollis at (1,2), the trooper at (8,20)
WATCH = DATA / "watch.yaml"


def in_view(screen, square, top: float | None = None) -> bool:
    top = round(screen.map.scroll_offset.y if top is None else top)
    return top <= square[1] < top + screen.map.scrollable_content_region.height


def backgrounds(screen, row: int) -> set[str]:
    strip = screen.map.row_strip(row)
    return {seg.style.bgcolor.name for seg in strip if seg.style and seg.style.bgcolor}


async def test_the_view_follows_the_computers_unit_and_comes_back(save_dir: Path):
    match = new_match(LONG_FIELD, 0, {"blue"})          # seed 0: Hollis acts first
    app = SkirmishApp(str(save_dir), computer_delay=0.2)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await at_my_turn(app, pilot, match)
        trooper, hollis = match.position("red-1"), match.position("blue-1")
        assert screen.map.size.height < 20, "the map must be taller than its view"
        assert in_view(screen, hollis) and not in_view(screen, trooper)
        tops: list[float] = []                          # every place the view scrolled to
        screen.watch(screen.map, "scroll_y", lambda top: tops.append(top), init=False)
        await pilot.press("e")
        await wait_until(pilot, lambda: screen.busy)
        await wait_until(pilot, screen.my_turn, tries=3000)
        assert tops and in_view(screen, trooper, tops[0])    # first: the trooper about to act
        await pilot.pause()
        assert in_view(screen, match.position("blue-1")) and screen.cursor == match.position(
            "blue-1")


async def test_a_shot_draws_its_line_and_flashes_its_target(save_dir: Path):
    match = new_match(DUEL, 2, {"blue"})                # seed 2: blue acts first
    app = make_app(save_dir)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await at_my_turn(app, pilot, match)
        screen.flow.flash_seconds = 60                  # long enough to look at
        await pilot.press("f", "f")
        await pilot.pause()
        shot = [e for e in match.history if isinstance(e, ev.AttackResolved)]
        assert len(shot) == 1 and shot[0].attacker == "blue-1"
        start, end = match.position("blue-1"), match.position("red-1")
        effects = screen.map.effects
        result = "hit" if shot[0].hit else "miss"
        assert effects[end] == result
        line = line_between(start, end)[1:-1]
        assert line and all(effects[square] == "shot" for square in line)
        assert EFFECTS[result] in backgrounds(screen, end[1])
        assert EFFECTS["shot"] in backgrounds(screen, line[0][1])
        screen.map.unflash()                            # the moment passes: the board is back
        await pilot.pause()
        assert not screen.map.effects
        assert EFFECTS[result] not in backgrounds(screen, end[1])


async def test_the_computers_shot_is_drawn_on_the_watching_sides_board(save_dir: Path):
    match = new_match(DUEL, 2, {"blue"})
    app = make_app(save_dir)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await at_my_turn(app, pilot, match)
        screen.flow.flash_seconds = 60
        await pilot.press("e")
        await wait_until(pilot, screen.my_turn, tries=3000)
        shots = [e for e in match.history
                 if isinstance(e, ev.AttackResolved) and e.attacker == "red-1"]
        assert shots, "the trooper should have fired on its turn"
        effects = screen.map.effects
        assert effects[match.position("blue-1")] == ("hit" if shots[-1].hit else "miss")


def test_suppressive_fire_and_a_grenade_are_drawn_as_their_areas():
    """From the events alone: the circle a burst sprays, a throw's flight, the blast's rings."""
    match = new_match(WATCH, 1, {"blue"})
    grid = match.battle.session.grid
    assert match.submit(EndTurn("red-1"))               # the watcher first, then the gunner
    picture = take_picture(match, "blue", None, False)
    events = match.submit(Suppress("red-2", (3, 4)))
    fired = next(e for e in events if isinstance(e, ev.SuppressionFired))
    assert "blue" in fired.seen_by
    drawn, view = Witness(match, picture).effects(fired)
    area = set(grid.disc((3, 4), fired.diameter))
    assert {sq for sq, effect in drawn.items() if effect == "area"} == area - set(
        line_between(match.position("red-2"), (3, 4))[1:-1])
    assert view == (match.position("red-2"), (3, 4))

    match = new_match(DATA / "throw.yaml", 1, {"red"})
    grid = match.battle.session.grid
    if match.active_side == "red":
        assert match.submit(EndTurn(match.active_uid))
    picture = take_picture(match, "red", None, False)
    events = match.submit(Throw("blue-1", match.position("red-1"), "he_grenade"))
    assert not isinstance(events, ev.Refused), events
    witness = Witness(match, picture)
    thrown = next(e for e in events if isinstance(e, ev.GrenadeThrown))
    drawn, _ = witness.effects(thrown)
    assert drawn[thrown.landed] == "blast"
    flight = line_between(match.position("blue-1"), thrown.landed)[1:-1]
    assert all(drawn[square] == "flight" for square in flight)
    blast = next(e for e in events if isinstance(e, ev.Exploded))
    drawn, _ = witness.effects(blast)
    expected = rings(blast.at, blast.radius, grid.width, grid.height)
    assert drawn.keys() == expected.keys()
    assert all(drawn[sq] == ("blast" if ring % 2 == 0 else "blast_ring")
               for sq, ring in expected.items())


def test_nothing_is_drawn_of_an_event_the_side_did_not_see():
    match = new_match(WATCH, 1, {"blue"})
    assert match.submit(EndTurn("red-1"))
    picture = take_picture(match, "blue", None, False)
    events = match.submit(Suppress("red-2", (3, 4)))
    fired = next(e for e in events if isinstance(e, ev.SuppressionFired))
    hidden = ev.SuppressionFired(fired.unit, fired.at, fired.diameter, fired.attack,
                                 fired.ammo_used, fired.ap_cost, seen_by=("red",))
    assert Witness(match, picture).effects(hidden) is None


async def test_the_log_grows_and_opens_full_screen_from_the_first_line(save_dir: Path,
                                                                         monkeypatch):
    monkeypatch.setattr(panels, "LOG_EVENTS", 3)       # the battle screen keeps only a few
    match = new_match(DUEL, 2, {"blue"})
    app = make_app(save_dir)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await at_my_turn(app, pilot, match)
        first = match.tell(match.history[0])
        assert first.startswith("Battle begins")
        shown = "".join(strip.text for strip in screen.log_view.lines)
        assert first not in shown
        height = screen.log_view.outer_size.height
        assert height > 5, "a small map leaves the log the rest of the height"
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert screen.log_view.outer_size.height == height + 5
        for _ in range(10):
            await pilot.press("right_square_bracket")
        await pilot.pause()
        assert screen.map.size.height >= 5               # the map keeps a few rows
        for _ in range(12):
            await pilot.press("left_square_bracket")
        await pilot.pause()
        assert screen.log_view.outer_size.height == 5
        await pilot.press("L")
        await wait_until(pilot, lambda: isinstance(app.screen, FullLog))
        await pilot.press("end", "home")
        await pilot.pause()
        assert first in screen_text(app)
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)


async def test_page_up_keeps_its_place_while_lines_come_in(save_dir: Path):
    match = new_match(DUEL, 2, {"blue"})
    app = make_app(save_dir)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await at_my_turn(app, pilot, match)
        log = screen.log_view
        log.tell([f"line {n}" for n in range(40)])
        await pilot.pause()
        assert log.is_vertical_scroll_end
        await pilot.press("pageup")
        await pilot.pause()
        place = log.scroll_y
        assert place < log.max_scroll_y
        log.tell(["a new line"])
        await pilot.pause()
        assert log.scroll_y == place                    # reading back is not interrupted
        for _ in range(20):
            await pilot.press("pagedown")
        log.tell(["another line"])
        await pilot.pause()
        assert log.is_vertical_scroll_end               # at the end again: it follows


async def test_the_end_waits_on_the_board_for_a_key(save_dir: Path):
    match = new_match(DUEL, 2, {"blue"})
    app = make_app(save_dir)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await at_my_turn(app, pilot, match)
        session = match.battle.session
        session.use()
        session.get("red-1", c.Health).hp = 1           # the next hit ends it
        for _ in range(40):
            await pilot.press("f", "f")
            if match.over:
                break
            assert match.submit(EndTurn(match.active_uid))
            screen.flow.next_turn()
            await wait_until(pilot, lambda: screen.my_turn() or match.over, tries=3000)
        assert match.over and session.winner == "blue"
        await wait_until(pilot, lambda: screen.flow.ended)
        await pilot.pause(0.3)
        assert app.screen is screen, "the game-over screen must wait for the player"
        text = screen_text(app)
        assert "Victory: Blue team. Press Enter to see the result." in text
        assert "Hollis" in text                          # the board and the log are still there
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, GameOver))


async def test_space_skips_the_replay(save_dir: Path):
    match = new_match(DUEL, 2, {"blue"})
    app = SkirmishApp(str(save_dir), computer_delay=30.0)    # a command every half minute
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await at_my_turn(app, pilot, match)
        await pilot.press("e")
        await wait_until(pilot, lambda: screen.busy)
        await pilot.press("space")
        await wait_until(pilot, screen.my_turn, tries=300)  # seconds, not the replay's pace
        assert any(isinstance(e, ev.AttackResolved) and e.attacker == "red-1"
                   for e in match.history)


async def test_the_whole_log_wraps_to_a_small_terminal(save_dir: Path):
    match = new_match(DUEL, 2, {"blue"})
    app = make_app(save_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await at_my_turn(app, pilot, match)
        match.tell = lambda event: "a " * 60          # lines that wrap at any width
        await pilot.press("L")
        await wait_until(pilot, lambda: isinstance(app.screen, FullLog))
        await pilot.pause()
        log = app.screen.log_view
        assert len(log.lines) > len(match.history)    # they did wrap
        width = log.scrollable_content_region.width
        assert all(len(strip.text.rstrip()) <= width for strip in log.lines)
