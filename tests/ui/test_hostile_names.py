"""Names are data, never markup: every screen that draws a name shows `[/]` and `[/red]` as
written (Textual read them as markup and raised MarkupError)."""

from __future__ import annotations

from pathlib import Path

from tests.ui.ui_helpers import DUEL, make_app, new_match, screen_text, wait_until

from game.content.loader import load_library
from game.saves import write_save
from game.ui.screens.dialogs import message
from game.ui.screens.game_over import GameOver
from game.ui.screens.handoff import Summary
from game.ui.screens.help import Help
from game.ui.screens.load import LoadSave
from game.ui.screens.new_battle import NewBattle

SIZE = (100, 30)


def hostile_duel(folder: Path) -> Path:
    text = DUEL.read_text().replace("name: Yard duel", "name: 'A [/] duel'")
    text = text.replace("name: Blue team", "name: '[/]'").replace("name: Red team",
                                                                   "name: '[/red]'")
    path = folder / "hostile_duel.yaml"
    path.write_text(text.replace("id: ui_duel", "id: hostile_duel"))
    return path


async def test_summary_and_game_over_show_hostile_names(save_dir, tmp_path):
    match = new_match(hostile_duel(tmp_path), 1, {"blue", "red"})
    app = make_app(save_dir)
    async with app.run_test(size=SIZE) as pilot:
        seat = match.seats["blue"].name
        app.push_screen(Summary(f"{seat}: what {match.name('blue')} saw", ["[b]bold[/i]"]))
        await pilot.pause()
        assert "[/]: what [/] saw" in screen_text(app) and "[b]bold[/i]" in screen_text(app)
        app.pop_screen()
        session = match.battle.session
        session.winner, session.end_reason = "red", "the enemy was eliminated"
        app.push_screen(GameOver(match))
        await pilot.pause()
        assert "Victory: [/red]" in screen_text(app)
        match.close()


async def test_the_load_screen_shows_a_save_of_a_hostile_scenario(save_dir, tmp_path):
    match = new_match(hostile_duel(tmp_path), 1, {"blue"})
    write_save(save_dir, "hostile", match.state())
    match.close()
    app = make_app(save_dir)
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(LoadSave(save_dir))
        await wait_until(pilot, lambda: isinstance(app.screen, LoadSave))
        await pilot.pause()
        assert "A [/] duel, round 1" in screen_text(app)


async def test_new_battle_dialogs_and_help_show_hostile_names(save_dir, tmp_path):
    library = load_library([hostile_duel(tmp_path)])
    app = make_app(save_dir)
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(NewBattle(library))
        await pilot.pause()
        assert "A [/] duel (2 sides" in screen_text(app)
        app.push_screen(message("[/red] title", "[/] body"))
        await pilot.pause()
        assert "[/red] title" in screen_text(app) and "[/] body" in screen_text(app)
        app.pop_screen()
        app.pop_screen()
        app.push_screen(Help([("[/]", "[/red]")], []))
        await pilot.pause()
        sections = [str(widget.render()) for widget in app.screen.query(".section")]
        assert "Rules: [/]" in sections


async def test_a_save_folder_with_brackets_that_cannot_be_used_is_told(tmp_path):
    (tmp_path / "[").mkdir()
    blocker = tmp_path / "[" / "red]"            # the folder's path holds "[/red]"
    blocker.write_text("a file, not a folder")
    app = make_app(blocker / "saves")
    async with app.run_test(size=SIZE) as pilot:
        assert app.save_folder is None
        await pilot.pause()
        told = [n for n in app._notifications if "Saving is off" in n.message]
        assert len(told) == 1 and "[/red]" in told[0].message
        assert not told[0].markup                 # shown as written, never read as markup


async def test_a_player_name_with_control_characters_is_refused(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(NewBattle(load_library()))
        await pilot.pause()
        app.screen.query_one("#name-0").value = "Zoë\x1b[2J"
        app.screen.action_start()
        await pilot.pause()
        text = screen_text(app)
        assert "may not hold control characters (\\x1b at character" in text
        assert isinstance(app.screen, NewBattle)


def test_a_save_whose_player_name_holds_control_characters_is_refused(tmp_path):
    import pytest

    from game.ui.match import Match
    match = new_match(hostile_duel(tmp_path), 1, {"blue"})
    state = match.state()
    match.close()
    state["seats"]["blue"]["name"] = "\x1b]0;PWNED\x07"
    with pytest.raises(ValueError, match="player of side 'blue' cannot be shown"):
        Match.from_state(state)


async def test_the_battle_screen_shows_hostile_names(save_dir, tmp_path):
    from tests.ui.ui_helpers import at_my_turn
    text = hostile_duel(tmp_path).read_text().replace("name: Trooper", "name: '[b]Tr[/i]'")
    path = tmp_path / "hostile_duel.yaml"
    path.write_text(text)
    match = new_match(path, 1, {"blue"})
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        await at_my_turn(app, pilot, match)
        await pilot.pause()
        shown = screen_text(app)
        assert "[/]" in shown and "[/red]" in shown          # the initiative and morale cards
        await pilot.press("tab")                             # target the trooper if in sight
        await pilot.pause()
        assert app.is_running


async def test_notifications_of_a_screen_quote_names_as_written(save_dir, tmp_path):
    from tests.ui.ui_helpers import at_my_turn
    match = new_match(hostile_duel(tmp_path), 1, {"blue"})
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await at_my_turn(app, pilot, match)
        screen.notify("[/] has no grenades.", severity="warning", timeout=3)   # as orders do
        await pilot.pause()
        told = [n for n in app._notifications if "has no grenades" in n.message]
        assert told and told[0].message == "[/] has no grenades." and not told[0].markup
        assert app.is_running
