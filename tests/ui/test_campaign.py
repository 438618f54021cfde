"""The campaign in the app: start it from the menu, the briefing after a battle, continuing a
campaign save in another run of the app, and a damaged campaign save shown but left alone."""

from __future__ import annotations

import json

from game.campaign import read_campaign
from game.core import components as c
from game.core.systems.turns import finish
from game.saves import campaign_dir
from game.ui import players
from game.ui.screens.battle import BattleScreen
from game.ui.screens.campaign import Briefing, CampaignMenu
from game.ui.screens.game_over import GameOver
from game.ui.screens.menu import MainMenu
from tests.ui.ui_helpers import make_app, screen_text, wait_until


async def _open_campaigns(pilot) -> CampaignMenu:
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, MainMenu))
    await pilot.press("down", "down", "enter")               # Campaign
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, CampaignMenu))
    return pilot.app.screen


def _uid(session, name: str) -> str:
    return next(uid for uid, unit in session.units() if unit.name == name)


async def test_a_campaign_is_briefed_between_battles_and_continued_later(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(100, 34)) as pilot:
        await _open_campaigns(pilot)
        await pilot.press("enter")                           # Start: Breakout
        await wait_until(pilot, lambda: isinstance(app.screen, Briefing))
        text = screen_text(app)
        assert "Campaign: Breakout" in text and "Breakout 1: the alley" in text
        assert read_campaign(save_dir, "campaign-breakout").step == "alley"

        await pilot.press("f")                               # Fight
        await wait_until(pilot, lambda: isinstance(app.screen, BattleScreen))
        match = app.match
        session = match.battle.session
        await players.settle()                               # no computer reading the battle
        session.use()
        maire = _uid(session, "Maire Jensen")
        session.get(maire, c.Health).hp = 11
        weapon = session.get(maire, c.Loadout).weapons[0]
        weapon.ammo, weapon.spare = 5, 1
        finish(session, "jensen", "the test ended it")
        app.push_screen(GameOver(match), callback=app.after_game_over)
        await wait_until(pilot, lambda: isinstance(app.screen, GameOver))
        await pilot.press("m")
        await wait_until(pilot, lambda: isinstance(app.screen, Briefing))
        text = screen_text(app)
        assert "Battle 1, Breakout 1: the alley: won (the test ended it, round 1)." in text
        assert "Maire Jensen" in text and "11/26" in text and "Thensi SMG 5/" in text
        assert "Next battle" in text and "Breakout 2: the depot" in text
        saved = read_campaign(save_dir, "campaign-breakout")
        assert saved.step == "depot" and saved.roster[0].hp == 11
        await pilot.press("m")                               # to the main menu
        await wait_until(pilot, lambda: isinstance(app.screen, MainMenu))

    again = make_app(save_dir)                               # another day: continue
    async with again.run_test(size=(100, 34)) as pilot:
        menu = await _open_campaigns(pilot)
        assert "1 battle fought" in screen_text(again)
        await pilot.press("down", "enter")                   # the saved campaign
        await wait_until(pilot, lambda: isinstance(again.screen, Briefing))
        assert "11/26" in screen_text(again) and menu is not again.screen
        await pilot.press("f")
        await wait_until(pilot, lambda: isinstance(again.screen, BattleScreen))
        session = again.match.battle.session
        await players.settle()
        session.use()
        assert session.setup.scenario.id == "breakout_depot"
        maire = _uid(session, "Maire Jensen")
        assert session.get(maire, c.Health).hp == 11
        assert (session.get(maire, c.Loadout).weapons[0].ammo,
                session.get(maire, c.Loadout).weapons[0].spare) == (5, 1)


async def test_a_damaged_campaign_save_is_shown_and_left_as_it_was(save_dir):
    folder = campaign_dir(save_dir)
    folder.mkdir()
    bad = folder / "campaign-broken.json"
    bad.write_text(json.dumps({"format": "skirmish-campaign", "version": 1, "checksum": "0",
                               "saved_at": "x", "state": {}}))
    before = bad.read_bytes()
    app = make_app(save_dir)
    async with app.run_test(size=(100, 34)) as pilot:
        await _open_campaigns(pilot)
        assert "campaign-broken" in screen_text(app)
        assert "cannot be loaded: it is corrupt (the checksum" in screen_text(app)
        await pilot.press("down")                            # disabled: cannot be chosen
        choices = app.screen.query_one("#campaigns")
        assert choices.highlighted_option.id == "start:breakout"
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, MainMenu))
    assert bad.read_bytes() == before


async def _win_battle(app, pilot, winner: str | None) -> None:
    """Fight the briefed battle and end it at once with `winner`, through the game-over screen."""
    await pilot.press("f")
    await wait_until(pilot, lambda: isinstance(app.screen, BattleScreen))
    match = app.match
    await players.settle()
    match.battle.session.use()
    finish(match.battle.session, winner, "the test ended it")
    app.push_screen(GameOver(match), callback=app.after_game_over)
    await wait_until(pilot, lambda: isinstance(app.screen, GameOver))
    await pilot.press("m")
    await wait_until(pilot, lambda: isinstance(app.screen, Briefing) and app.screen.is_current)


async def test_the_bundled_campaign_is_played_to_its_end_in_the_app(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(100, 34)) as pilot:
        await _open_campaigns(pilot)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, Briefing))
        await _win_battle(app, pilot, "olea")                # lost: the fallback battle
        assert "Breakout 2: fallback" in screen_text(app)
        await _win_battle(app, pilot, "jensen")
        assert "Breakout 3: the causeway" in screen_text(app)
        await _win_battle(app, pilot, "jensen")
        text = screen_text(app)
        assert "Victory: the campaign is won." in text and "Next battle" not in text
        assert not app.screen.query("#fight")                # nothing left to fight
        await pilot.press("f")
        await pilot.pause()
        assert isinstance(app.screen, Briefing)
    state = read_campaign(save_dir, "campaign-breakout")
    assert state.ending == "victory"
    assert [record.step for record in state.history] == ["alley", "fallback", "causeway"]
    async with make_app(save_dir).run_test(size=(100, 34)) as pilot:   # the app opened again
        await _open_campaigns(pilot)
        text = screen_text(pilot.app)
        assert "Finished campaigns: see how they ended" in text and "ended in victory" in text
        assert "Continue a saved campaign" not in text     # nothing left to continue


async def test_a_campaign_battle_saved_midway_goes_on_with_its_campaign(save_dir):
    from textual.widgets import Input

    from game.ui.screens.dialogs import SaveAs
    from game.ui.screens.load import LoadSave
    app = make_app(save_dir)
    async with app.run_test(size=(100, 34)) as pilot:
        await _open_campaigns(pilot)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, Briefing))
        await _win_battle(app, pilot, "jensen")              # on to the depot
        await pilot.press("f")
        await wait_until(pilot, lambda: isinstance(app.screen, BattleScreen))
        app.save_match()
        await wait_until(pilot, lambda: isinstance(app.screen, SaveAs))
        await pilot.pause()
        app.screen.query_one("#save-name", Input).value = "midway"
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, BattleScreen))
        assert (save_dir / "midway.json").is_file()
        app.campaign = None                                   # as after a restart
        app.action_load()
        await wait_until(pilot, lambda: isinstance(app.screen, LoadSave))
        await pilot.pause()
        field = app.screen.query_one("#save-path", Input)
        field.focus()
        field.value = str(save_dir / "midway.json")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, BattleScreen)
                         and app.campaign is not None)
        assert app.campaign.match is app.match
        assert app.campaign.state.step == "depot"
        assert app.match.battle.session.setup.scenario.id == "breakout_depot"


async def test_a_campaign_file_with_problems_shows_them(save_dir, tmp_path):
    bad = tmp_path / "mine.yaml"
    bad.write_text("id: mine\nname: Mine\nside: jensen\nsteps:\n  - id: one\n    scenario: nowhere\n")
    app = make_app(save_dir)
    async with app.run_test(size=(100, 34)) as pilot:
        menu = await _open_campaigns(pilot)
        field = menu.query_one("#campaign-path")
        field.focus()
        field.value = str(bad)
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is menu
        assert "steps[0].scenario: unknown scenario 'nowhere'" in screen_text(app).replace("\n", "")


async def test_an_older_battle_save_never_writes_over_a_campaign_that_went_on(save_dir):
    """Loaded from a save made before the campaign went on, a battle's outcome is saved beside
    the campaign save, which stays as it was."""
    from textual.widgets import Input

    from game.ui.screens.dialogs import SaveAs
    from game.ui.screens.load import LoadSave
    app = make_app(save_dir)
    async with app.run_test(size=(100, 34)) as pilot:
        await _open_campaigns(pilot)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, Briefing))
        await _win_battle(app, pilot, "jensen")              # on to the depot
        await pilot.press("f")
        await wait_until(pilot, lambda: isinstance(app.screen, BattleScreen))
        app.save_match()
        await wait_until(pilot, lambda: isinstance(app.screen, SaveAs))
        await pilot.pause()
        app.screen.query_one("#save-name", Input).value = "before-depot"
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, BattleScreen))
        name = app.campaign.save_name
        match = app.match
        match.battle.session.use()
        finish(match.battle.session, "jensen", "the test ended it")   # the depot is won
        app.push_screen(GameOver(match), callback=app.after_game_over)
        await wait_until(pilot, lambda: isinstance(app.screen, GameOver))
        await pilot.press("m")
        await wait_until(pilot, lambda: isinstance(app.screen, Briefing) and app.screen.is_current)
        went_on = read_campaign(save_dir, name)
        assert [b.step for b in went_on.history] == ["alley", "depot"]
        app.campaign = None                                   # as after a restart
        app.action_load()
        await wait_until(pilot, lambda: isinstance(app.screen, LoadSave))
        await pilot.pause()
        field = app.screen.query_one("#save-path", Input)
        field.focus()
        field.value = str(save_dir / "before-depot.json")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, BattleScreen)
                         and app.campaign is not None)
        match = app.match
        match.battle.session.use()
        finish(match.battle.session, "olea", "the test ended it")     # this time it is lost
        app.push_screen(GameOver(match), callback=app.after_game_over)
        await wait_until(pilot, lambda: isinstance(app.screen, GameOver))
        await pilot.press("m")
        await wait_until(pilot, lambda: app.campaign is not None and app.campaign.match is None
                         and app.campaign.save_name != name)
        assert read_campaign(save_dir, name) == went_on       # untouched
        lost = read_campaign(save_dir, app.campaign.save_name)
        assert app.campaign.save_name == f"{name}-2"
        assert [(b.step, b.result) for b in lost.history] == [("alley", "win"), ("depot", "lose")]


async def test_starting_a_campaign_again_keeps_the_one_under_way(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(100, 34)) as pilot:
        await _open_campaigns(pilot)
        await pilot.press("enter")                           # Start: Breakout
        await wait_until(pilot, lambda: isinstance(app.screen, Briefing))
        await _win_battle(app, pilot, "jensen")              # on to the depot
        under_way = read_campaign(save_dir, "campaign-breakout")
        assert under_way.step == "depot"
        await pilot.press("m")
        await wait_until(pilot, lambda: isinstance(app.screen, MainMenu))
        app.action_campaign()
        await wait_until(pilot, lambda: isinstance(app.screen, CampaignMenu))
        await pilot.press("enter")                           # Start: Breakout, afresh
        await wait_until(pilot, lambda: isinstance(app.screen, Briefing))
        assert app.campaign.save_name == "campaign-breakout-2"
        assert read_campaign(save_dir, "campaign-breakout") == under_way
        assert read_campaign(save_dir, "campaign-breakout-2").step == "alley"


async def test_a_campaign_battles_end_offers_the_campaign_not_a_new_battle(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(100, 34)) as pilot:
        await _open_campaigns(pilot)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, Briefing))
        await pilot.press("f")
        await wait_until(pilot, lambda: isinstance(app.screen, BattleScreen))
        match = app.match
        await players.settle()
        match.battle.session.use()
        finish(match.battle.session, "jensen", "the test ended it")
        app.push_screen(GameOver(match), callback=app.after_game_over)
        await wait_until(pilot, lambda: isinstance(app.screen, GameOver))
        await pilot.pause()
        text = screen_text(app)
        assert "Back to the campaign" in text
        assert "New battle" not in text and "Main menu" not in text
        await pilot.press("n")                               # not offered: nothing happens
        await pilot.pause()
        assert isinstance(app.screen, GameOver)
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, Briefing) and app.screen.is_current)


def test_the_survivors_table_says_wounded_and_lists_only_grenades_left():
    from game.campaign import CampaignState, RosterMember
    from game.ui.screens.campaign import survivors_table
    from rich.console import Console

    roster = [RosterMember(unit="maire", name="Maire", hp=10, max_hp=26, grenades={"he_grenade": 0}),
              RosterMember(unit="medic", name="Sana", hp=20, max_hp=20, grenades={"he_grenade": 1}),
              RosterMember(unit="hollis", name="Hollis", hp=-2, max_hp=20, state="dying")]
    state = CampaignState(campaign="breakout", name="Breakout", step="depot", seed=1, roster=roster)
    console = Console(width=100, record=True)
    console.print(survivors_table(state))
    rows = {line.split()[0]: line for line in console.export_text().splitlines()[1:] if line.strip()}
    assert "wounded" in rows["Maire"] and "x0" not in rows["Maire"] and rows["Maire"].rstrip().endswith("-")
    assert "fit" in rows["Sana"] and "x1" in rows["Sana"]
    assert "dying" in rows["Hollis"]
