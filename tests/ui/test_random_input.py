"""Random key presses and clicks never raise, whatever screen they land on: several seeds, and
bursts of queued events (up to 300 between two pauses) as from a key held down or pasted text,
which found screens handling keys and worker results after they had begun to close."""

from __future__ import annotations

import random

import pytest
from textual import events

from game.ui.screens import new_battle
from tests.ui.ui_helpers import FOG, make_app, new_match

KEYS = ["up", "down", "left", "right", "h", "j", "k", "l", "enter", "enter", "tab", "shift+tab",
        "f", "m", "plus", "minus", "t", "escape", "s", "c", "p", "d", "o", "x", "g", "r", "w",
        "v", "e", "e", "full_stop", "space", "pageup", "pagedown", "ctrl+s", "ctrl+o", "q",
        "f1", "question_mark", "n", "y", "z", "z", "a", "1", "backspace", "home", "end", "ctrl+p"]
EVENTS = 1000
BURSTS = (1, 5, 20, 50, 300)     # events queued between two pauses
PER_APP = 500
SEEDS = (2024, 2, 7)
SIZE = (90, 28)


def key_event(key: str) -> events.Key:
    char = key if len(key) == 1 else {"full_stop": ".", "plus": "+", "minus": "-",
                                       "question_mark": "?", "space": " "}.get(key)
    return events.Key(key, char)


def mouse_events(x: int, y: int, button: int) -> list[events.MouseEvent]:
    args = dict(widget=None, x=x, y=y, delta_x=0, delta_y=0, button=button, shift=False,
                meta=False, ctrl=False, screen_x=x, screen_y=y)
    return [events.MouseMove(**{**args, "button": 0}), events.MouseDown(**args),
            events.MouseUp(**args)]


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
async def test_random_keys_and_clicks_never_raise(save_dir, monkeypatch, seed):
    rng = random.Random(seed)
    monkeypatch.setattr(new_battle.random, "SystemRandom", lambda: random.Random(rng.random()))
    sent, apps, visited = 0, 0, set()
    while sent < EVENTS:
        app = make_app(save_dir)
        apps += 1
        limit = sent + PER_APP
        async with app.run_test(size=SIZE) as pilot:
            if apps % 2:                 # every other run starts in a battle, the rest at the menu
                await app.start_match(new_match(FOG, rng.randrange(1000), {"blue"}))
            visited.add(type(app.screen).__name__)       # the first batch lands on it
            while sent < min(EVENTS, limit) and app.is_running:
                for _ in range(rng.choice(BURSTS)):
                    if rng.random() < 0.15:
                        for event in mouse_events(rng.randrange(SIZE[0]), rng.randrange(SIZE[1]),
                                                  rng.choice((1, 1, 3))):
                            app.post_message(event)
                    else:
                        app.post_message(key_event(rng.choice(KEYS)))
                    sent += 1
                await pilot.pause()
                if not app.is_running or not app.screen_stack:     # a random key quit it
                    break
                visited.add(type(app.screen).__name__)
                if app.screen.__class__.__name__ == "Palette":
                    await pilot.press("escape")
        assert app.return_code in (None, 0)
    assert sent >= EVENTS
    assert apps <= EVENTS // 40, "the app kept quitting: the random input is not testing much"
    assert {"BattleScreen", "MainMenu"} <= visited, visited
    print(f"{apps} app runs; screens seen: {sorted(visited)}")


BURST = ["right", "down", "tab", "plus", "m", "t", "f", "escape", "ctrl+s", "escape", "f1",
         "escape", "ctrl+p", "escape", "u", "escape", "y", "escape", "n", "escape", "enter",
         "left", "up", "full_stop", "s", "c", "pageup", "pagedown", "e", "space", "o", "x"]


@pytest.mark.slow
async def test_a_burst_of_keys_on_the_battle_screen_never_raises(save_dir):
    """Keys queued faster than the screen answers them, dialogs and the palette opening and
    closing among them, and the screen left while keys are still arriving."""
    app = make_app(save_dir)
    async with app.run_test(size=SIZE) as pilot:
        await app.start_match(new_match(FOG, 5, {"blue"}))
        for _ in range(3):
            await pilot.press(*BURST)
        for key in BURST * 3 + ["q", "enter"] + BURST:
            app.post_message(key_event(key))
        await pilot.pause()
        await pilot.pause(0.2)
        assert app.is_running
    assert app.return_code in (None, 0)


async def test_new_battle_ignores_what_was_queued_before_it_closed(save_dir):
    """A burst moved the scenario list's highlight, then Escape closed the screen: the queued
    highlight arrived after its widgets were gone (NoMatches for '#side-0')."""
    from textual.widgets import OptionList

    from game.content.loader import load_library
    app = make_app(save_dir)
    async with app.run_test(size=SIZE) as pilot:
        screen = new_battle.NewBattle(load_library())
        app.push_screen(screen)
        await pilot.pause()
        options = screen.query_one("#scenarios", OptionList)
        queued = OptionList.OptionHighlighted(options, options.get_option_at_index(1), 1)
        screen.dismiss()
        await pilot.pause()
        screen.on_option_list_option_highlighted(queued)
        screen.on_radio_set_changed(None)
