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
