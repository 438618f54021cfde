"""Helpers for the app's tests: start the app on a small scenario, wait for the computer."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

from game.content.loader import load_setup
from game.rulesets import new_battle
from game.ui.app import SkirmishApp
from game.ui.match import Match, Seat
from game.ui.screens.battle import BattleScreen
from game.ui.screens.new_battle import NewBattle

DATA = Path(__file__).parent / "data"
DUEL = DATA / "duel.yaml"
FOG = DATA / "fog.yaml"


def make_app(save_dir: Path) -> SkirmishApp:
    return SkirmishApp(str(save_dir), computer_delay=0)


def seats_for(setup, humans: set[str], level: str = "simple") -> dict[str, Seat]:
    return {side.id: Seat(side.id, side.id in humans,
                          side.name if side.id in humans else "Computer",
                          None if side.id in humans else level)
            for side in setup.scenario.sides}


def new_match(scenario: Path | str, seed: int, humans: set[str]) -> Match:
    setup = load_setup(str(scenario))
    return Match(new_battle(setup, seed), seats_for(setup, humans))


async def at_my_turn(app, pilot, match: Match) -> BattleScreen:
    """Start `match` in the app and wait for the person's first turn; the battle screen."""
    await app.start_match(match)
    screen = app.screen
    assert isinstance(screen, BattleScreen)
    await wait_until(pilot, screen.my_turn)
    return screen


async def open_new_battle(pilot, path: str, seed: str) -> None:
    """Main menu -> New battle -> the scenario file and the seed, by keyboard."""
    await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, NewBattle))
    await pilot.press("tab", *path, "enter")
    await pilot.pause()
    pilot.app.screen.query_one("#seed").focus()      # below the fold at this size
    await pilot.press(*seed)


async def wait_until(pilot, condition, tries: int = 400) -> None:
    """Let the app run until `condition()` holds (the computer plays in a worker)."""
    for _ in range(tries):
        if condition():
            return
        await pilot.pause(0.01)
    raise AssertionError("the app never got there")


def screen_text(app) -> str:
    """The characters on the terminal right now (from the app's screenshot)."""
    svg = app.export_screenshot()
    lines = re.findall(r"<text[^>]*>(.*?)</text>", svg, flags=re.S)
    return unescape("".join(re.sub(r"<[^>]+>", "", line) for line in lines)).replace("\xa0", " ")
