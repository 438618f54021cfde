"""An overwatch that asks, in the app: a computer's move halts and the person chooses the shot
from a dialog that shows each one's odds, as the engine gives them."""

from __future__ import annotations

from pathlib import Path

from game.core.queries import preview_attack
from game.ui.screens.dialogs import Choice
from tests.ui.ui_helpers import DATA, at_my_turn, make_app, new_match, screen_text, wait_until

WATCH = DATA / "watch_door.yaml"


async def watch_the_door(app, pilot, screen) -> None:
    """The Watcher watches the door each turn until the Trooper steps into the cone."""
    for _ in range(3):
        screen.cursor = (7, 2)
        await pilot.press("o")
        await wait_until(pilot, lambda: isinstance(app.screen, Choice)
                         or (screen.my_turn() and not screen.match.battle.session.watchers()),
                         tries=1500)
        if isinstance(app.screen, Choice):
            return
    raise AssertionError("the Trooper never came through the door")


async def test_the_watchers_player_is_asked_and_the_chosen_shot_is_fired(save_dir: Path):
    match = new_match(WATCH, 2, {"blue"})
    app = make_app(save_dir)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await at_my_turn(app, pilot, match)
        await watch_the_door(app, pilot, screen)
        battle = match.battle
        watcher, mover, at, choices = battle.watch_question
        assert (watcher, mover, at) == ("blue-1", "red-1", (7, 2))
        shown = screen_text(app)
        assert "Blue team: overwatch" in shown and "Trooper steps into Watcher's overwatch" in shown
        odds = preview_attack(battle, watcher, mover, choices[0], reaction=True)
        assert f"fire {choices[0]}: {round(odds.hit_chance * 100)}% to hit" in shown
        assert "wait for the next step" in shown and "let this move pass" in shown
        await pilot.press("enter")                        # the first: the widest mode, unaimed
        await wait_until(pilot, lambda: battle.watch_question is None and screen.my_turn(),
                         tries=1500)
        log = "\n".join(strip.text for strip in screen.log_view.lines)
        assert "Trooper moves into Watcher's overwatch at (7, 2)!" in log
        assert "Trooper steps into Watcher's overwatch" in log      # the question, logged


async def test_escape_holds_fire_until_the_next_step(save_dir: Path):
    match = new_match(WATCH, 2, {"blue"})
    app = make_app(save_dir)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await at_my_turn(app, pilot, match)
        await watch_the_door(app, pilot, screen)
        first = match.battle.watch_question[2]
        await pilot.press("escape")
        await wait_until(pilot, lambda: match.battle.watch_question is None
                         or match.battle.watch_question[2] != first, tries=1500)
        question = match.battle.watch_question
        assert question is not None and question[2] == (6, 2)    # asked again, one step on
