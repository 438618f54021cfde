"""The question an attack puts to a defender whose player chose to be asked."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text

from game.content.loader import load_setup
from game.core.systems.attack import plan_attack
from game.rulesets import new_battle
from game.ui.match import Match, Seat
from game.ui.screens.dialogs import Choice
from tests.ui.ui_helpers import DUEL, at_my_turn, make_app, screen_text, seats_for, wait_until


async def test_the_defense_prompt_opens_with_the_players_name_as_written(save_dir: Path):
    setup = load_setup(str(DUEL), ruleset="d20")
    battle = new_battle(setup, 3)
    seats = seats_for(setup, {"blue"})
    seats["red"] = Seat("red", False, "[/]Ann", "simple")         # a name that looks like markup
    match = Match(battle, seats)
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await at_my_turn(app, pilot, match)
        s = battle.session
        hollis = next(uid for uid, unit in s.units() if unit.side == "blue")
        trooper = next(uid for uid, unit in s.units() if unit.side == "red")
        plan = plan_attack(s, hollis, trooper, None, "torso", 0, turn_limits=False)
        s.pending = (plan, ("dodge", "parry"))             # the engine holds the attack
        prompt = screen.orders.defense_prompt()
        app.push_screen(prompt)
        await wait_until(pilot, lambda: "defend" in screen_text(app))
        assert app.screen is prompt
        shown = screen_text(app)
        assert "[/]Ann: defend" in shown and "defender meet it?" in shown     # the body wraps
        s.pending = None


async def test_a_dialog_titled_with_rich_text_shows_its_characters(save_dir: Path):
    app = make_app(save_dir)
    async with app.run_test(size=(100, 30)) as pilot:
        dialog = Choice(Text("[bold]Ann: defend"), "How?", [("r-auto", "auto")])
        app.push_screen(dialog)
        await pilot.pause()
        assert app.screen is dialog
        assert "[bold]Ann: defend" in screen_text(app)
