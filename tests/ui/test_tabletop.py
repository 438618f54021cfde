"""A battle under a tabletop ruleset, through the keyboard: the override on the new-battle
screen, a standing defense chosen in a dialog, full defense, the cards that explain them, and
the Defend dialog greying what the unit cannot pay for."""

from __future__ import annotations

import pytest

from game.core import components as c
from game.core.events import DefenseChosen, Defended
from game.core.queries import unit_info
from game.ui.screens.battle import BattleScreen
from game.ui.screens.dialogs import Choice
from tests.ui.ui_helpers import DUEL, make_app, open_new_battle, screen_text, wait_until


async def start_duel_under(app, pilot, ruleset: str) -> BattleScreen:
    """The duel, its ruleset overridden on the new-battle screen, at the person's first turn."""
    await open_new_battle(pilot, str(DUEL), "5")
    await pilot.click(f"#ruleset-{ruleset}")
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: isinstance(app.screen, BattleScreen))
    screen = app.screen
    await wait_until(pilot, screen.my_turn)
    return screen


@pytest.mark.slow
async def test_a_scenario_played_under_eclipse_phase_from_the_keyboard(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start_duel_under(app, pilot, "eclipse2")
        battle = screen.match.battle
        assert battle.session.setup.ruleset.id == "eclipse2"
        uid = battle.session.active
        assert "complex actions" in screen_text(app) and "in hand" in screen_text(app)

        await pilot.press("y")
        await wait_until(pilot, lambda: isinstance(app.screen, Choice))
        await pilot.click("#y-ask")
        await wait_until(pilot, lambda: isinstance(app.screen, BattleScreen))
        battle.session.use()
        assert battle.session.get(uid, c.Condition).standing == "ask"
        assert any(isinstance(e, DefenseChosen) and e.choice == "ask" for e in screen.match.history)

        await pilot.press("u")
        await pilot.pause()
        assert any(isinstance(e, Defended) for e in screen.match.history)
        assert "defending (full)" in unit_info(battle, uid).statuses


@pytest.mark.slow
async def test_a_ruleset_the_units_have_no_stats_for_is_greyed(save_dir, tmp_path):
    text = DUEL.read_text().replace("id: ui_duel", "id: ui_bare").replace(
        "{unit: olea_trooper, name: Trooper, at: [8, 3]}", "{unit: stranger, at: [8, 3]}")
    bare = tmp_path / "bare.yaml"
    bare.write_text(text + """units:
  - id: stranger
    name: Stranger
    ap: 10
    hp: 10
    attributes: {strength: 1, dexterity: 1, agility: 1, constitution: 3, intelligence: 1}
    skills: {aim: 2, melee: 2, unarmed: 2, dodge: 2, willpower: 2, heal: 2, demolitions: 0}
""")
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_new_battle(pilot, str(bare), "5")
        screen = app.screen
        for ruleset in ("eclipse2", "eclipse1", "opend6", "d20"):
            button = screen.query_one(f"#ruleset-{ruleset}")
            assert button.disabled and "no stats" in str(button.label)
        assert not screen.query_one("#ruleset-skirmish").disabled


@pytest.mark.slow
async def test_the_defend_dialog_offers_only_what_the_unit_can_pay_for(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start_duel_under(app, pilot, "d20")
        battle = screen.match.battle
        uid = battle.session.active

        await pilot.press("u")                  # two Actions: both defenses on offer
        await wait_until(pilot, lambda: isinstance(app.screen, Choice))
        assert not app.screen.query_one("#d-defensive_stance").disabled
        assert not app.screen.query_one("#d-total_disengage").disabled
        await pilot.pause()
        frame = app.screen.query_one(".dialog").region
        for button in app.screen.query("Button"):      # too long for a row: a column, all shown
            assert frame.contains_region(button.region), str(button.label)
            assert button.region.width >= len(str(button.label)), str(button.label)
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, BattleScreen))

        battle.session.get(uid, c.ActionPoints).current = 1     # one Action: neither
        await pilot.press("u")
        await pilot.pause()
        assert isinstance(app.screen, BattleScreen)
        assert any("No defense is affordable: 1 AP left." in n.message for n in app._notifications)
        assert not any(isinstance(e, Defended) for e in screen.match.history)


async def test_a_greyed_choice_cannot_be_taken_and_the_first_usable_one_is_focused(save_dir):
    app = make_app(save_dir)
    answers = []
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.push_screen(Choice("Defend", "Which?", [("d-a", "a (3 AP): 1 AP left"), ("d-b", "b (1 AP)")],
                               frozenset({"d-a"})), callback=answers.append)
        await wait_until(pilot, lambda: isinstance(app.screen, Choice))
        await pilot.pause()
        assert app.screen.query_one("#d-a").disabled
        assert app.screen.query_one("#d-b").variant == "primary"
        assert app.screen.focused is app.screen.query_one("#d-b")
        await pilot.click("#d-a")               # greyed: clicking it does nothing
        await pilot.pause()
        assert answers == [] and isinstance(app.screen, Choice)
        await pilot.press("enter")
        await wait_until(pilot, lambda: answers)
    assert answers == ["d-b"]
