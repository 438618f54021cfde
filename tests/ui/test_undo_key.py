"""The undo key: `z` takes back a move that revealed nothing, and says why it cannot after a
shot; the command palette offers it too."""

from __future__ import annotations

import json

from game.core.commands import Move
from game.core.engine import Battle
from game.core.events import Refused
from game.rulesets import load_battle
from game.saves import read_save, write_save
from game.ui.screens.battle import BattleScreen
from tests.ui.ui_helpers import DUEL, at_my_turn, make_app, new_match, wait_until

SEED = 2              # blue acts first; in the walled yard both sides see everything


def log_text(screen: BattleScreen) -> str:
    return "\n".join("".join(seg.text for seg in strip) for strip in screen.log_view.lines)


def exact(battle: Battle) -> tuple[str, object]:
    return json.dumps(battle.state(), sort_keys=True), battle.session.dice._rng.getstate()


async def test_z_takes_back_a_move_and_refuses_after_a_shot(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(110, 32)) as pilot:
        match = new_match(DUEL, SEED, {"blue"})
        screen = await at_my_turn(app, pilot, match)
        battle = match.battle
        before = exact(battle)
        start = battle.session.position("blue-1")
        await pilot.press("right", "right", "enter")              # walk two squares
        await wait_until(pilot, lambda: battle.session.position("blue-1") != start)
        moved_lines = len(match.history)
        assert match.dirty
        await pilot.press("z")
        await wait_until(pilot, lambda: battle.session.position("blue-1") == start)
        assert exact(battle) == before
        assert len(match.history) < moved_lines and not match.dirty
        assert f"Undone: {match.name('blue-1')}'s move." in log_text(screen)
        assert screen.cursor == start

        await pilot.press("tab", "f")                              # shoot: dice are rolled
        await wait_until(pilot, lambda: len(battle.commands) == 1)
        assert type(battle.commands[0]).__name__ == "Attack"
        assert battle.session.active == "blue-1"
        after_shot = exact(battle)
        await pilot.press("z")
        await pilot.pause()
        assert "Cannot undo: dice were rolled." in log_text(screen)
        assert exact(battle) == after_shot


async def test_an_undone_move_is_not_in_the_save(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(110, 32)) as pilot:
        match = new_match(DUEL, SEED, {"blue"})
        await at_my_turn(app, pilot, match)
        battle = match.battle
        await pilot.press("right", "enter")
        await wait_until(pilot, lambda: len(battle.commands) == 1)
        await pilot.press("z")
        await wait_until(pilot, lambda: not battle.commands)
        await pilot.press("down", "enter")
        await wait_until(pilot, lambda: len(battle.commands) == 1)
        write_save(save_dir, "after undo", match.state())
        state = read_save(save_dir, "after undo")
        assert state["commands"] == [{"kind": "move", "path": [[1, 2]], "unit": "blue-1"}]
        with load_battle(state) as again:
            assert again.digest() == battle.digest()


async def test_the_palette_offers_undo(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(110, 32)) as pilot:
        match = new_match(DUEL, SEED, {"blue"})
        screen = await at_my_turn(app, pilot, match)
        titles = [command.title for command in app.get_system_commands(screen)]
        assert "Undo" in titles
        undo = next(c for c in app.get_system_commands(screen) if c.title == "Undo")
        start = match.battle.session.position("blue-1")
        await pilot.press("right", "enter")
        await wait_until(pilot, lambda: len(match.battle.commands) == 1)
        undo.callback()
        await pilot.pause()
        assert match.battle.session.position("blue-1") == start
        undo.callback()                                           # nothing left to undo
        await pilot.pause()
        assert "Cannot undo: there is nothing to undo this turn." in log_text(screen)


def test_in_hot_seat_the_other_player_is_not_told_of_an_undone_move():
    match = new_match(DUEL, SEED, {"blue", "red"})
    try:
        match.take_unseen("red")
        events = match.submit(Move("blue-1", ((2, 1),)))
        assert any("red" in e.seen_by for e in events)
        assert match.unseen["red"] and match.history[-len(events):] == events
        assert match.undo() == events
        assert match.unseen["red"] == []
        assert not any(e in match.history for e in events)
        refused = match.undo()
        assert isinstance(refused, Refused) and "nothing to undo" in refused.reason
    finally:
        match.close()


async def test_the_palette_does_not_undo_while_the_computer_plays(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(110, 32)) as pilot:
        match = new_match(DUEL, SEED, {"blue"})
        screen = await at_my_turn(app, pilot, match)
        await pilot.press("right", "enter")
        await wait_until(pilot, lambda: len(match.battle.commands) == 1)
        assert match.battle.undo_refusal() is None          # the engine would allow it...
        screen.busy = True                                  # ...but not while a computer plays
        undo = next(c for c in app.get_system_commands(screen) if c.title == "Undo")
        undo.callback()
        assert len(match.battle.commands) == 1
        screen.busy = False
        undo.callback()
        assert match.battle.commands == []
