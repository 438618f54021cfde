"""Saving, loading, bad files, quitting, help, the palette, small terminals, computer turns."""

from __future__ import annotations

import json
import time

import pytest

from game.core.commands import EndTurn
from game.saves import list_saves
from game.ui import players
from game.ui.screens.battle import BattleScreen
from game.ui.screens.dialogs import Choice, SaveAs
from game.ui.screens.help import Help
from game.ui.screens.load import LoadSave
from game.ui.screens.menu import MainMenu
from game.ui.screens.new_battle import NewBattle
from tests.ui.ui_helpers import DUEL, make_app, new_match, screen_text, wait_until

SEED = 2              # blue acts first


async def start_duel(app, pilot, humans=frozenset({"blue"})) -> BattleScreen:
    await app.start_match(new_match(DUEL, SEED, set(humans)))
    screen = next(s for s in app.screen_stack if isinstance(s, BattleScreen))
    await wait_until(pilot, lambda: screen.flow.started)
    return screen


async def type_into(pilot, selector: str, text: str) -> None:
    """Fill an input at once (typing a long path key by key is slow) and press Enter."""
    field = pilot.app.screen.query_one(selector)
    field.focus()
    field.value = text
    await pilot.press("enter")


@pytest.mark.slow
async def test_save_then_load_restores_the_battle(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start_duel(app, pilot)
        await pilot.press("right", "right", "enter")          # walk two squares
        assert screen.match.dirty
        digest = screen.match.battle.digest()
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, SaveAs))
        await pilot.press(*"my game", "enter")
        await wait_until(pilot, lambda: app.screen is screen)
        assert not screen.match.dirty
        names = {info.name for info in list_saves(save_dir)}
        assert "my game" in names
        assert any(name.startswith(f"autosave-ui_duel-{screen.match.battle_id}-r") for name in names)
        await pilot.press("q")                                 # saved: no question asked
        await wait_until(pilot, lambda: isinstance(app.screen, MainMenu))
        await pilot.press("down", "enter")                     # Load a saved battle
        await wait_until(pilot, lambda: isinstance(app.screen, LoadSave))
        listed = app.screen.query_one("#saves").option_count
        assert listed == 3                       # my game, the autosaves' heading, round 1
        saves = app.screen.query_one("#saves")
        names = [saves.get_option_at_index(i).prompt for i in range(listed)]
        index = next(i for i, name in enumerate(names) if str(name).startswith("my game"))
        await pilot.press(*["down"] * index, "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, BattleScreen))
        assert app.screen.match.battle.digest() == digest
        assert app.screen.match.battle.session.position("blue-1") == (3, 1)


async def test_a_save_of_another_battle_is_not_written_over_unasked(save_dir):
    from game.saves import read_save, write_save
    write_save(save_dir, "ui_duel-round1", {"battle_id": "0badc0", "seed": 1})   # another battle's
    app = make_app(save_dir)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start_duel(app, pilot)
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, SaveAs))
        field = app.screen.query_one("#save-name")
        assert field.value == "ui_duel-round1-2"             # its name is not offered
        field.value = "ui_duel-round1"
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, Choice))
        assert "is there already" in screen_text(app)
        await pilot.press("right", "enter")                     # Another name
        await wait_until(pilot, lambda: isinstance(app.screen, SaveAs))
        assert read_save(save_dir, "ui_duel-round1")["battle_id"] == "0badc0"
        assert "Choose another name" in screen_text(app)
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, SaveAs))
        app.screen.query_one("#save-name").value = "ui_duel-round1"
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, Choice))
        await pilot.press("enter")                              # Replace it
        await wait_until(pilot, lambda: app.screen is screen)
        assert read_save(save_dir, "ui_duel-round1")["battle_id"] == screen.match.battle_id


@pytest.mark.slow
async def test_a_corrupt_save_is_explained_and_left_alone(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(100, 30)) as pilot:
        await start_duel(app, pilot)
        await pilot.press("e")
        await wait_until(pilot, lambda: app.screen.my_turn())
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, SaveAs))
        await pilot.press(*"broken", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, BattleScreen))
        path = save_dir / "broken.json"
        data = json.loads(path.read_text())
        data["state"]["seed"] += 1                              # the checksum no longer fits
        path.write_text(json.dumps(data))
        before = path.read_bytes()
        await pilot.press("ctrl+o")
        await wait_until(pilot, lambda: isinstance(app.screen, LoadSave))
        await type_into(pilot, "#save-path", str(path))
        problem = str(app.screen.query_one("#load-problem").render())
        assert "corrupt" in problem and "broken.json" in problem
        await pilot.pause()
        assert app.screen.query_one("#load-problem").region.height > 0      # on screen
        assert path.read_bytes() == before
        assert isinstance(app.screen, LoadSave)


async def test_a_broken_scenario_file_shows_every_problem(save_dir, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: bad\nname: Bad\nmap: nowhere\nsides:\n  - id: a\n    name: A\n    zone: z\n"
                   "    squad: no_such_squad\n")
    app = make_app(save_dir)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, NewBattle))
        await type_into(pilot, "#scenario-path", str(bad))
        problem = str(app.screen.query_one("#new-problem").render())
        assert "bad.yaml" in problem and "cannot be played" in problem
        await pilot.pause()
        assert app.screen.query_one("#new-problem").region.height > 0       # on screen
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, NewBattle)
        assert "Traceback" not in screen_text(app)


async def test_a_tall_terminal_lists_every_scenario_and_a_small_one_scrolls(save_dir):
    for size, shown in (((120, 60), "all"), ((80, 24), "some")):
        app = make_app(save_dir)
        async with app.run_test(size=size) as pilot:
            await pilot.press("enter")
            await wait_until(pilot, lambda app=app: isinstance(app.screen, NewBattle))
            await pilot.pause()
            listing = app.screen.query_one("#scenarios")
            rows = listing.scrollable_content_region.height
            if shown == "all":
                assert rows >= listing.option_count, (rows, listing.option_count)
            else:
                assert 4 <= rows < listing.option_count      # room for the rest of the form


async def test_quitting_an_unsaved_battle_asks_first(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(100, 30)) as pilot:
        await start_duel(app, pilot)
        await pilot.press("right", "enter")
        await pilot.press("ctrl+q")
        await wait_until(pilot, lambda: isinstance(app.screen, Choice))
        await pilot.press("escape")                            # cancel: still playing
        await wait_until(pilot, lambda: isinstance(app.screen, BattleScreen))
        assert app.is_running
        await pilot.press("ctrl+q")
        await wait_until(pilot, lambda: isinstance(app.screen, Choice))
        await pilot.click("#discard")
        await pilot.pause()
    assert app.return_code == 0


async def test_help_shows_keys_and_the_rules(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start_duel(app, pilot)
        await pilot.press("f1")
        await wait_until(pilot, lambda: isinstance(app.screen, Help))
        text = screen_text(app)
        assert "Keys" in text and "Tab / Shift+Tab" in text
        description = screen.match.battle.session.setup.ruleset.description
        shown = [str(widget.render()) for widget in app.screen.query("Static")]
        assert any(description in each for each in shown)        # further down the help
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)


@pytest.mark.slow
async def test_the_command_palette_ends_a_turn(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start_duel(app, pilot, humans={"blue", "red"})
        await wait_until(pilot, lambda: screen.flow.cover is not None)
        await pilot.press("space")             # past the hot-seat handoff ...
        await pilot.press("escape")            # ... and its summary
        await wait_until(pilot, lambda: screen.my_turn())
        uid = screen.match.active_uid
        await pilot.press("ctrl+p", *"End turn")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.match.active_uid != uid)
        assert isinstance(screen.match.battle.commands[-1], EndTurn)


async def test_a_small_terminal_is_told_so(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(70, 20)) as pilot:
        await pilot.pause()
        assert "too small" in screen_text(app)
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        assert "too small" not in screen_text(app)


THINKING = 4.0      # seconds: long enough that a busy machine still answers a key well before


class SlowPlayer:
    """Thinks for a while, then ends its turn (a stand-in for a strong computer player)."""

    def __init__(self, side: str) -> None:
        self.side = side

    def next_command(self, battle):
        time.sleep(THINKING)
        return EndTurn(battle.session.active)


@pytest.mark.slow
async def test_computer_turns_keep_the_app_responsive(save_dir, monkeypatch):
    monkeypatch.setattr(players, "make_computer", lambda level, side, seed: SlowPlayer(side))
    app = make_app(save_dir)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start_duel(app, pilot)
        await pilot.press("e")                                 # the computer's turn begins
        await wait_until(pilot, lambda: screen.busy)
        started = time.perf_counter()
        await pilot.press("f1")                                # answered while it thinks
        assert isinstance(app.screen, Help)
        assert screen.busy and time.perf_counter() - started < THINKING / 2
        await pilot.press("escape")
        await pilot.press("e")                                 # not its turn: ignored
        await wait_until(pilot, lambda: screen.my_turn())
        assert [type(c).__name__ for c in screen.match.battle.commands] == ["EndTurn"] * 2


async def test_a_save_that_does_not_replay_is_explained(save_dir):
    from game.saves import write_save

    match = new_match(DUEL, SEED, {"blue"})
    state = match.state()
    state["digest"] = "0" * 16                                  # not the position it replays to
    match.close()
    path = write_save(save_dir, "odd", state)
    before = path.read_bytes()
    app = make_app(save_dir)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("down", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, LoadSave))
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, Choice))
        assert "did not give the saved position" in screen_text(app)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, MainMenu))
    assert path.read_bytes() == before


def outskirts_match(computer_first: bool):
    """Outskirts (64x64), Alpha at the keyboard: a seed where Alpha's unit, or the computer's,
    acts first (one unit at a time); Alpha plans first under simultaneous orders."""
    from game.content.loader import load_setup
    from game.rulesets import new_battle
    from game.ui.match import Match
    from tests.sequential import sequential
    from tests.ui.ui_helpers import seats_for

    setup = load_setup("outskirts")
    if computer_first:
        setup = sequential(setup)
    for seed in range(100):
        battle = new_battle(setup, seed)
        if (battle.session.acting_side == "olea") == computer_first:
            return Match(battle, seats_for(setup, {"alpha"}))
        battle.close()
    raise AssertionError("no such seed")


async def test_a_big_map_opens_on_the_players_units(save_dir):
    """The board starts scrolled to the viewer's units, down in the map's far corner, whoever
    acts first; the cursor never starts on an enemy's square."""
    for computer_first in (False, True):
        app = make_app(save_dir)
        async with app.run_test(size=(100, 30)) as pilot:
            await app.start_match(outskirts_match(computer_first))
            screen = next(s for s in app.screen_stack if isinstance(s, BattleScreen))
            await wait_until(pilot, lambda screen=screen: screen.flow.started)
            await pilot.pause()
            match = screen.match
            assert match.side_of(match.battle.session.occupant(screen.cursor)) == "alpha"
            top, height = round(screen.map.scroll_offset.y), screen.map.size.height
            assert top > 0 and top <= screen.cursor[1] < top + height
