"""The Replay screen: a saved battle watched again from the load screen, the game-over screen
or `skirmish replay`, step by step, through one side's eyes or all-seeing."""

from __future__ import annotations

import copy

import pytest

from game.core.queries import unit_info, visible_squares
from game.saves import write_save
from game.ui.app import SkirmishApp
from game.ui.match import Match
from game.ui.screens.dialogs import Choice
from game.ui.screens.game_over import GameOver
from game.ui.screens.load import LoadSave
from game.ui.screens.menu import MainMenu
from game.ui.screens.replay import ReplayScreen
from tests.replay_helpers import played
from tests.ui.test_fog import UNIT_LETTERS, drawn_squares
from tests.ui.ui_helpers import FOG, make_app, screen_text, wait_until


@pytest.fixture(scope="module")
def fought():
    """A three-sided battle in fog, played to its end (a draw in round 12)."""
    return played(str(FOG), 3)[0]


def status(screen: ReplayScreen) -> str:
    return str(screen.status_line.render())


def log_text(screen: ReplayScreen) -> str:
    return " ".join(" ".join(strip.text.split()) for strip in screen.log_view.lines)


async def open_replay(app, pilot, state) -> ReplayScreen:
    app.watch_replay(state)
    await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen) and status(app.screen))
    return app.screen


async def test_a_save_watched_to_its_end_shows_the_saved_position(save_dir, fought):
    write_save(save_dir, "fight", fought)
    app = make_app(save_dir)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("down", "enter")                      # Load a saved battle
        await wait_until(pilot, lambda: isinstance(app.screen, LoadSave))
        assert "Watch replay" in screen_text(app)               # the footer says so
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        screen = app.screen
        total = len(fought["commands"])
        assert status(screen).startswith(f"Step 0 of {total} · round 1 · view: everything")
        assert "Battle begins: Divided yard" in log_text(screen)
        for _ in range(total):
            await pilot.press("n")
        await pilot.pause()
        assert screen.replay.position == total
        rounds = fought["summary"]["round"]
        assert status(screen).startswith(f"Step {total} of {total} · round {rounds} ")
        assert status(screen).endswith("· the end: a draw")
        assert f"Round {rounds} of 12" in screen_text(app)
        assert screen.replay.battle.state() == fought
        assert "time ran out" in log_text(screen)
        await pilot.press("n")                                  # nothing after the end
        assert screen.replay.position == total
        digest = screen.replay.battle.digest()
        await pilot.press("b", "left")
        assert screen.replay.position == total - 2
        assert f"Step {total - 2} of {total}" in status(screen)
        await pilot.press("right", "n")
        assert screen.replay.battle.digest() == digest
        await pilot.press("q")
        await wait_until(pilot, lambda: isinstance(app.screen, MainMenu))
        assert screen.replay.battle.session.closed


async def test_a_side_view_hides_what_the_side_did_not_see(save_dir, fought):
    app = make_app(save_dir)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_replay(app, pilot, fought)
        await pilot.press("v")
        assert screen.view == "blue" and "view: Blue team" in status(screen)
        hidden = shown = 0
        while not screen.replay.at_end:
            await pilot.press("n")
            battle = screen.replay.battle
            grid = battle.session.grid
            seen = visible_squares(battle, "blue")
            drawn = drawn_squares(screen.map, grid.width, grid.height)
            for uid in battle.session.entities:
                info = unit_info(battle, uid)
                if info.square is None or info.side == "blue":
                    continue
                x, y = info.square
                if seen[y, x]:
                    shown += 1
                    assert drawn[info.square][0] in UNIT_LETTERS
                else:
                    hidden += 1
                    assert drawn[info.square][0] not in UNIT_LETTERS, f"blue sees {info.name}"
        assert hidden > 50 and shown > 10
        assert "acts, out of sight" in log_text(screen)         # only what blue was told
        await pilot.press("v", "v", "v")                        # red, green, everything
        assert screen.view is None
        battle = screen.replay.battle
        drawn = drawn_squares(screen.map, battle.session.grid.width, battle.session.grid.height)
        squares = [unit_info(battle, uid).square for uid in battle.session.entities]
        assert all(drawn[square][0] in UNIT_LETTERS for square in squares if square)
        assert "acts, out of sight" not in log_text(screen)
        await pilot.press("v")
        assert screen.view == "blue"


async def test_play_pause_and_speed(save_dir, fought):
    app = make_app(save_dir)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_replay(app, pilot, fought)
        assert "2 steps/s, paused" in status(screen)
        await pilot.press("minus", "minus", "minus")
        assert "0.5 steps/s" in status(screen)
        for _ in range(6):
            await pilot.press("plus")
        assert "16 steps/s, paused" in status(screen)
        await pilot.press("space")
        assert "playing" in status(screen)
        await wait_until(pilot, lambda: screen.replay.position >= 3)
        await pilot.press("space")
        stopped = screen.replay.position
        assert "paused" in status(screen)
        await pilot.pause(0.3)
        assert screen.replay.position == stopped
        await pilot.press(*["minus"] * 5, "end", "space")       # at the end: from the start
        assert screen.playing and screen.replay.position <= 1
        await pilot.press("home")
        assert not screen.playing and screen.replay.position == 0


async def test_an_unfinished_battle_is_watched_through_a_sides_eyes_only(save_dir):
    state = played("depot", 4, commands=30)[0]
    state["seats"] = {"alpha": {"human": False, "name": "Computer", "level": "simple"},
                      "olea": {"human": True, "name": "Ann"}}
    app = make_app(save_dir)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_replay(app, pilot, state)
        assert screen.view == "olea"                            # the person's side
        await pilot.press("v")
        assert screen.view == "olea"                  # never the computer's, nor everything
        assert any("the battle is not over" in n.message for n in app._notifications)


async def test_an_unfinished_hot_seat_battle_is_not_replayed_until_it_ends(save_dir):
    state = played("depot", 4, commands=30)[0]
    state["seats"] = {"alpha": {"human": True, "name": "Ann"},
                      "olea": {"human": True, "name": "Bo"}}
    write_save(save_dir, "hotseat", state)
    app = make_app(save_dir)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("down", "enter")                      # Load a saved battle
        await wait_until(pilot, lambda: isinstance(app.screen, LoadSave))
        await pilot.press("w")
        await wait_until(pilot, lambda: "cannot be replayed yet" in screen_text(app))
        assert "once it has ended" in screen_text(app)
        assert not any(isinstance(screen, ReplayScreen) for screen in app.screen_stack)


async def test_the_game_over_screen_opens_the_replay_and_comes_back(save_dir, fought):
    app = make_app(save_dir)
    async with app.run_test(size=(100, 30)) as pilot:
        match = Match.from_state(fought)
        app.match = match
        over = GameOver(match)
        app.push_screen(over, callback=app.after_game_over)
        await wait_until(pilot, lambda: app.screen is over)
        await pilot.pause()
        assert "Watch replay" in screen_text(app)
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        assert app.screen.replay.total == len(fought["commands"])
        await pilot.press("end")
        assert app.screen.replay.battle.digest() == match.battle.digest()
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is over)
        assert app.match is match and not match.battle.session.closed
        await pilot.click("#watch")                             # the button does the same
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen))


async def test_a_save_whose_log_does_not_replay_is_explained(save_dir, fought):
    state = copy.deepcopy(fought)
    state["commands"].insert(3, state["commands"][5])
    path = write_save(save_dir, "odd", state)
    before = path.read_bytes()
    app = make_app(save_dir)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("down", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, LoadSave))
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(app.screen, Choice))
        text = screen_text(app)
        assert "cannot be replayed" in text and "Command 4 of" in text
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, MainMenu))
    assert path.read_bytes() == before


async def test_skirmish_replay_opens_the_app_on_the_replay(save_dir, fought):
    app = SkirmishApp(str(save_dir), computer_delay=0, watch=fought)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        assert "Step 0 of" in screen_text(app)
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, MainMenu))


def replay_app(save_dir, state):
    app = SkirmishApp(str(save_dir), computer_delay=0, watch=state)

    async def opened(pilot) -> None:
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen)
                         and status(app.screen))

    return app, opened


def test_snapshot_of_a_sides_view(snap_compare, save_dir, fought):
    app, opened = replay_app(save_dir, fought)
    assert snap_compare(app, run_before=opened, press=["v", *["n"] * 20],
                        terminal_size=(80, 24))


def test_snapshot_of_the_end_seen_by_all(snap_compare, save_dir, fought):
    app, opened = replay_app(save_dir, fought)
    assert snap_compare(app, run_before=opened, press=["end"], terminal_size=(100, 30))
