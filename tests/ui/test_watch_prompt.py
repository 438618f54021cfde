"""An overwatch that asks, in the app: a computer's move halts and the person chooses the shot
from a dialog that shows each one's odds, as the engine gives them."""

from __future__ import annotations

from pathlib import Path

from game.core.commands import EndTurn, Move, SetOverwatch
from game.core.queries import preview_attack
from game.ui.screens.dialogs import Choice
from game.ui.screens.handoff import Handoff, Summary
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
        focused = app.screen.focused
        assert focused is not None and "wait for the next step" in str(focused.label)  # Enter holds
        await pilot.press("down", "enter")               # the first shot: the widest mode, unaimed
        await wait_until(pilot, lambda: battle.watch_question is None and screen.my_turn(),
                         tries=1500)
        log = "\n".join(strip.text for strip in screen.log_view.lines)
        assert "Trooper steps into Watcher's overwatch at (7, 2): fire, or hold?" in log
        assert "Watcher reacts and fires at Trooper" in log


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


async def past_the_handoff(pilot, app, says: str = "") -> None:
    """Wait for the handoff cover, check what it says, and go past it (and any catch-up)."""
    await wait_until(pilot, lambda: isinstance(app.screen, Handoff), tries=1500)
    assert says in app.screen.text, app.screen.text
    await pilot.press("space")
    await wait_until(pilot, lambda: not isinstance(app.screen, Handoff), tries=1500)
    if isinstance(app.screen, Summary):
        await pilot.press("enter")
        await wait_until(pilot, lambda: not isinstance(app.screen, Summary), tries=1500)


async def test_in_hot_seat_the_keyboard_goes_to_the_watcher_and_back(save_dir: Path):
    match = new_match(WATCH, 2, {"blue", "red"})
    app = make_app(save_dir)
    async with app.run_test(size=(100, 40)) as pilot:
        await app.start_match(match)
        s = match.battle.session
        for steps in (((11, 2), (10, 2), (9, 2), (8, 2)), ((7, 2), (6, 2))):
            await past_the_handoff(pilot, app, "Blue team: your turn")
            screen = app.screen
            screen.orders.play(SetOverwatch("blue-1", (7, 2), ask=True))
            await past_the_handoff(pilot, app, "Red team: your turn")
            screen.orders.play(Move("red-1", steps))
            await pilot.pause()
            if match.battle.watch_question is None:
                screen.orders.play(EndTurn("red-1"))
        assert match.battle.watch_question is not None
        await past_the_handoff(pilot, app, "Blue team: an enemy steps into your overwatch")
        await wait_until(pilot, lambda: isinstance(app.screen, Choice), tries=1500)
        assert screen.viewer == "blue" and "Blue team: overwatch" in screen_text(app)
        await pilot.press("enter")                            # wait for the next step
        await wait_until(pilot, lambda: isinstance(app.screen, (Handoff, Choice)), tries=1500)
        if isinstance(app.screen, Choice):                    # asked again at (6, 2)
            assert s.position("red-1") == (6, 2)
            await pilot.press("escape")
        await past_the_handoff(pilot, app, "Red team: your turn")   # back to the mover
        assert screen.viewer == "red" and match.battle.watch_question is None


def test_a_battle_saved_while_a_move_waits_on_the_watcher_loads_waiting_the_same():
    """The question lives in the command log: a save made while it waits loads with the same
    question, the same state, and plays on to the same events."""
    import json

    from game.core.commands import Respond
    from game.ui.match import Match

    match = new_match(WATCH, 2, {"blue"})
    battle = match.battle
    while battle.session.active != "blue-1":
        battle.submit(EndTurn(battle.session.active))
    for steps in (((11, 2), (10, 2), (9, 2), (8, 2)), ((7, 2), (6, 2))):
        if battle.session.active == "blue-1":
            assert isinstance(battle.submit(SetOverwatch("blue-1", (7, 2), ask=True)), list)
        battle.submit(Move("red-1", steps))
        if battle.watch_question is None:
            battle.submit(EndTurn("red-1"))
            while battle.session.active != "blue-1":
                battle.submit(EndTurn(battle.session.active))
    assert battle.watch_question is not None
    loaded = Match.from_state(json.loads(json.dumps(match.state())))
    try:
        assert loaded.battle.watch_question == battle.watch_question
        assert loaded.battle.digest() == battle.digest()
        answer = Respond("blue-1", battle.watch_question[3][0])
        assert [e.kind for e in loaded.submit(answer)] == [e.kind for e in match.submit(answer)]
        assert loaded.battle.digest() == battle.digest()
    finally:
        loaded.close()
        match.close()
