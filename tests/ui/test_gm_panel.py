"""The game master's view (`G`): every unit in initiative order in its ruleset's words, the
modifier table, and the game master's calls given from it, into the log and the save."""

from __future__ import annotations

import pytest

from game.core import components as c
from game.core.commands import GiveModifier, SetHealth
from game.core.queries import initiative_order
from game.rulesets import load_battle
from game.ui.screens.battle import BattleScreen
from game.ui.screens.gm import GmPanel, parse_call
from game.ui.screens.handoff import Handoff, Summary
from tests.ui.ui_helpers import at_my_turn, make_app, new_match, screen_text, wait_until

# each ruleset's bundled scenario, and words its sheet and modifier table must show
TERMS = {
    "alley": ("Constitution", "dead at", "morale at", "stance: prone"),
    "eclipse2_alley": ("Durability", "Death Rating", "Wound Threshold", "superior position"),
    "eclipse1_depot": ("Durability", "Death Rating", "Wounds", "range:"),
    "opend6_alley": ("Body Points", "Wound level", "cover (difficulty)", "each action beyond"),
    "d20_depot": ("Armor Rating", "Reaction", "ready", "to hit:"),
}


async def open_panel(app, pilot, scenario: str) -> tuple[BattleScreen, GmPanel]:
    match = new_match(scenario, 4, {"jensen", "alpha", "smugglers"})
    screen = await at_my_turn(app, pilot, match)
    await pilot.press("G")
    await wait_until(pilot, lambda: isinstance(app.screen, GmPanel))
    await pilot.pause()
    return screen, app.screen


@pytest.mark.parametrize("scenario", list(TERMS))
async def test_the_panel_shows_each_rulesets_own_terms(save_dir, scenario):
    app = make_app(save_dir)
    async with app.run_test(size=(140, 50)) as pilot:
        screen, panel = await open_panel(app, pilot, scenario)
        text = screen_text(app)
        for word in TERMS[scenario]:
            assert word in text, (scenario, word)
        battle = screen.match.battle
        order = initiative_order(battle)
        assert len(order) == len(battle.session.entities)
        names = [battle.session.get(uid, c.Unit).name for uid in order]
        for name in names:                  # every unit, the enemy's unseen ones too
            assert name in text
        assert "Initiative order" in text and "Modifier table" in text
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, BattleScreen))


@pytest.mark.parametrize("scenario, modifier, health", [
    ("alley", "+2 high ground", "HP"), ("eclipse2_alley", "+20 high ground", "Durability left"),
    ("opend6_alley", "+2 high ground", "Body Points")])
async def test_the_examples_and_health_are_in_the_rulesets_scale_and_words(save_dir, scenario, modifier, health):
    app = make_app(save_dir)
    async with app.run_test(size=(140, 50)) as pilot:
        screen, panel = await open_panel(app, pilot, scenario)
        assert panel.query_one("#gm-modifier").placeholder == modifier
        hp = screen.match.battle.session.get(panel.chosen, c.Health)
        assert panel.query_one("#gm-health").placeholder == f"{hp.max_hp * 3 // 4} fell down the stairs"
        assert f"'s {health} set by hand" in screen_text(app)
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, BattleScreen))
        card = screen_text(app)
        short = {"HP": "HP ", "Durability left": "DUR ", "Body Points": "BP "}[health]
        assert f"{short}{hp.hp:>3}/{hp.max_hp}" in card


async def test_a_modifier_and_hp_given_from_the_panel_are_logged_and_saved(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(140, 50)) as pilot:
        screen, panel = await open_panel(app, pilot, "alley")
        battle = screen.match.battle
        active = screen.actor                 # the unit being planned: its orders are given
        assert active is not None and panel.chosen == active
        await pilot.press("m", *"+2 high ground", "enter")
        await pilot.pause()
        assert battle.commands[-1] == GiveModifier(active, 2, "high ground")
        assert "Next attack roll: +2 (high ground)" in screen_text(app)
        done = str(panel.query_one("#gm-done").render())
        assert done.startswith("Done (in the log): The game master gives") and "+2: high ground" in done
        await pilot.press("h", *"15 fell down the stairs", "enter")
        await pilot.pause()
        assert battle.commands[-1] == SetHealth(active, 15, "fell down the stairs")
        assert battle.session.get(active, c.Health).hp == 15
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, BattleScreen))
        log = screen_text(app)
        assert "gives" in log and "+2: high ground" in log
        assert "sets" in log and "fell down the stairs" in log
        with load_battle(battle.state()) as again:
            assert again.digest() == battle.digest()
            assert again.session.get(active, c.Health).hp == 15


async def test_a_refused_call_says_why_and_changes_nothing(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(140, 50)) as pilot:
        screen, panel = await open_panel(app, pilot, "alley")
        battle = screen.match.battle
        before = list(battle.commands)
        await pilot.press("h", *"999 a miracle", "enter")
        await pilot.pause()
        assert "Not possible" in screen_text(app) and "not 999" in screen_text(app)
        panel.query_one("#gm-health").value = ""
        await pilot.press(*"lots of damage", "enter")
        await pilot.pause()
        assert "Start with a number" in screen_text(app)
        panel.query_one("#gm-units").focus()
        await pilot.press("m", *"+3", "enter")
        await pilot.pause()
        assert "Give a reason" in screen_text(app)
        assert battle.commands == before


def test_a_call_is_a_number_then_a_reason():
    assert parse_call("+2 high ground") == (2, "high ground")
    assert parse_call("-10 fog") == (-10, "fog")
    assert parse_call("12") == (12, "")
    assert isinstance(parse_call("high ground"), str)
    assert isinstance(parse_call("+99999999 x"), str)


async def test_a_hot_seat_player_is_not_shown_every_unit(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(140, 50)) as pilot:
        match = new_match("alley", 4, {"jensen", "olea"})
        assert match.hot_seat
        await app.start_match(match)
        for _ in range(200):                           # the first player takes the keyboard
            screen = app.screen
            if isinstance(screen, BattleScreen) and screen.my_turn():
                break
            if isinstance(screen, (Handoff, Summary)):
                await pilot.press("space" if isinstance(screen, Handoff) else "enter")
            await pilot.pause(0.02)
        assert isinstance(screen, BattleScreen) and screen.my_turn()
        await pilot.press("G")
        await pilot.pause()
        assert app.screen is screen and not isinstance(app.screen, GmPanel)
        assert "not for a player of a hot-seat battle" in " ".join(screen_text(app).split())
