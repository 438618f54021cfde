"""The game served to a real browser (headless Chromium): menu, a battle by keyboard and mouse,
a save, and the page after the game ends or the server goes away.

Set SKIRMISH_BROWSER_REPORT to a folder to keep the screenshot and the timings there (docs/APP.md
and docs/PERFORMANCE.md show them).
"""

from __future__ import annotations

import json
import os
import struct
import time
from pathlib import Path

import pytest

from tests.web.browser import FLAGS, VIEWPORT, Page, Served, find_chromium, why_no_browser

DUEL = Path(__file__).resolve().parents[1] / "ui" / "data" / "duel.yaml"
REASON = why_no_browser()
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")


@pytest.fixture
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=find_chromium(), args=FLAGS)
        yield chromium
        chromium.close()


def open_game(browser, served: Served) -> tuple[Page, float]:
    """A new page on the served game; the seconds from asking for it to the main menu."""
    page = browser.new_page(viewport=VIEWPORT)
    start = time.monotonic()
    page.goto(served.url)
    game = Page(page)
    game.wait_for("New battle", timeout=30)
    page.focus(".xterm-helper-textarea")             # keys go to the terminal, as after a click
    return game, time.monotonic() - start


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", data[16:24])


def report(name: str, figures: dict | None = None, shot: bytes | None = None) -> None:
    folder = os.environ.get("SKIRMISH_BROWSER_REPORT")
    if not folder:
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    if figures is not None:
        (Path(folder) / f"{name}.json").write_text(json.dumps(figures, indent=2) + "\n")
    if shot is not None:
        (Path(folder) / f"{name}.png").write_bytes(shot)


def test_a_battle_in_the_browser(browser, tmp_path):
    with Served(tmp_path) as served:
        game, to_menu = open_game(browser, served)
        # The mouse: a click on the menu's first item opens it. A click in the page's first
        # moment, while the terminal is still being set up, can go unreported: a second chance.
        game.click_text("New battle")
        try:
            game.wait_for("Seed (blank: random)", timeout=5)
        except AssertionError:
            game.click_text("New battle")
            game.wait_for("Seed (blank: random)")
        # The keyboard from here: the scenario file, a fixed seed, Ctrl+S to start.
        game.press("Tab", pause=0.3)
        game.type(str(DUEL))
        game.press("Enter", "Tab", "Tab")
        game.type("7")
        game.press("Control+s")
        game.wait_for("Hollis's turn: 10 AP.", timeout=30)  # the log: his turn has begun
        map_before = [line for line in game.lines() if "##A" in line]
        assert map_before, "Hollis is not in the yard's corner at the start"

        start = time.monotonic()
        game.page.keyboard.press("ArrowRight")
        game.wait_for("(2,1)")
        key_response = time.monotonic() - start
        game.wait_for("(2,1) Open ground, full cover N NE NW · path 3 AP")  # cover and the walk

        game.press("ArrowRight", "Enter")
        game.wait_for("##. . A")                       # Hollis walked two squares east
        game.press("Tab")
        game.wait_for("Hit chance")
        game.press("f")
        game.wait_for("Hollis attacks Trooper")
        text = game.text()
        assert "against defense" in text             # the attack's breakdown in the log

        shot = game.page.screenshot()
        width, height = png_size(shot)
        assert (width, height) == (VIEWPORT["width"], VIEWPORT["height"])
        assert len(shot) > 20_000, "the screenshot is nearly blank"
        report("browser", {"seconds_to_main_menu": round(to_menu, 3),
                           "seconds_key_to_screen": round(key_response, 3)}, shot)

        # A save from the page lands in the server's save folder.
        saved = tmp_path / "ui_duel-round1.json"
        assert not saved.exists()
        game.press("Control+s")
        game.wait_for("round1")                        # the suggested name
        game.press("Enter")
        deadline = time.monotonic() + 10
        while not saved.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert saved.exists(), [path.name for path in tmp_path.iterdir()]


def test_the_page_says_when_the_game_ends_and_starts_a_fresh_one(browser, tmp_path):
    with Served(tmp_path) as served:
        game, _ = open_game(browser, served)
        game.press("Control+q")
        closed = game.page.locator(".closed-dialog")
        closed.wait_for(state="visible", timeout=10_000)
        assert "Session ended" in closed.inner_text()
        game.page.get_by_role("button", name="Restart").click()
        game.wait_for("New battle", timeout=30)


def test_the_page_says_when_the_server_goes_away(browser, tmp_path):
    served = Served(tmp_path)
    with served:
        game, _ = open_game(browser, served)
        start = time.monotonic()
        served.stop()                                   # Ctrl+C: the open page's game ends too
        assert served.process.returncode == 0
        assert time.monotonic() - start < 10, "the server waited for the open page"
        closed = game.page.locator(".closed-dialog")
        closed.wait_for(state="visible", timeout=10_000)
        assert "Session ended" in closed.inner_text()
