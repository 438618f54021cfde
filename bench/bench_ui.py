"""Benchmarks of the terminal app: repainting the map, moving the cursor, starting up.

    .venv/bin/python bench/bench_ui.py

Prints the median, 90th percentile and worst of several runs (the worst is often another
process: the machine is shared). Targets: a full repaint of a 120x50 map view at most 8 ms of
work, a cursor move at most 1 ms, start to the main menu's first frame at most 1 s. "Work" is
the app's own code for the frame (building the map's lines); the terminal output is not counted
since it depends on the terminal.
"""

from __future__ import annotations

import asyncio
import gc
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from textual.app import App, ComposeResult  # noqa: E402

from game.content.loader import load_setup  # noqa: E402
from game.rulesets import new_battle  # noqa: E402
from game.ui.board import TerrainLook  # noqa: E402
from game.ui.match import Match, Seat  # noqa: E402
from game.ui.scene import board_scene, known_units, standing_tints  # noqa: E402
from game.ui.widgets.map_view import MapView  # noqa: E402

RUNS = 40


def figures(name: str, samples: list[float], target_ms: float) -> None:
    ms = sorted(s * 1000 for s in samples)
    p90 = ms[int(len(ms) * 0.9) - 1]
    verdict = "ok" if p90 <= target_ms else "OVER"
    print(f"{name:<38} median {statistics.median(ms):7.3f}  p90 {p90:7.3f}  worst {ms[-1]:7.3f} ms"
          f"   target {target_ms:g} ms (p90)  {verdict}")


def outskirts_match() -> Match:
    setup = load_setup("outskirts")
    seats = {s.id: Seat(s.id, s.id == "alpha", s.name, None if s.id == "alpha" else "simple")
             for s in setup.scenario.sides}
    return Match(new_battle(setup, 1), seats)


class MapOnly(App):
    CSS = "MapView { width: 120; height: 50; }"

    def __init__(self, match: Match) -> None:
        super().__init__()
        self.match = match

    def compose(self) -> ComposeResult:
        session = self.match.battle.session
        yield MapView(TerrainLook.of(session.grid, session.setup))


async def bench_repaint() -> None:
    match = outskirts_match()
    viewer = "alpha"
    app = MapOnly(match)
    async with app.run_test(size=(130, 56)) as pilot:
        view = app.query_one(MapView)
        known = known_units(match, viewer)
        scene = board_scene(match, viewer, known)
        tints = standing_tints(match, viewer, None)
        view.show(scene.with_overlay(tints, (5, 5)))
        await pilot.pause()
        assert view.size.width == 120 and view.size.height == 50, view.size
        samples = []
        for _ in range(RUNS + 1):
            view.forget()
            gc.collect()                 # a collection mid-sample would be counted as drawing
            start = time.perf_counter()
            for y in range(50):
                view.render_line(y)
            samples.append(time.perf_counter() - start)
        print(f"{'first full repaint (cold caches)':<38} {samples[0] * 1000:7.3f} ms")
        figures("full repaint, 120x50 map view", samples[1:], 8)
        samples = []
        for _ in range(RUNS):
            start = time.perf_counter()
            for y in range(50):
                view.render_line(y)
            samples.append(time.perf_counter() - start)
        figures("repaint from the line cache", samples, 8)
    match.close()


async def bench_cursor() -> None:
    from game.ui.app import SkirmishApp
    from game.ui.screens.battle import BattleScreen

    app = SkirmishApp(None, computer_delay=0)
    async with app.run_test(size=(152, 56)) as pilot:
        await app.start_match(outskirts_match())
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, BattleScreen)
        for _ in range(200):
            if screen.my_turn():
                break
            await pilot.pause(0.02)
        view = screen.map
        samples, lines = [], []
        step = 1
        for run in range(RUNS * 4 + 1):
            if run % 8 == 0:
                step = -step
            rows_before = view.rows_painted
            start = time.perf_counter()
            screen.action_cursor(step, 0)
            top = round(view.scroll_offset.y) - view.padding_cells()[1]
            for row in view.last_changed:    # the lines Textual asks for again
                view.render_line(row - top)
            samples.append(time.perf_counter() - start)
            lines.append(view.rows_painted - rows_before)
        figures("cursor move (handler + changed lines)", samples[1:], 1)
        print(f"{'':<38} map rows repainted per move: {statistics.median(lines):g}")
        for name, start_aiming in (("grenade", screen.action_throw),
                                   ("suppressive fire", screen.action_suppress)):
            start_aiming()
            await pilot.pause()
            if screen.area is None:
                print(f"{'aiming ' + name:<38} not offered to this unit")
                continue
            samples = []
            for run in range(RUNS + 1):
                if run % 8 == 0:
                    step = -step
                start = time.perf_counter()
                screen.action_cursor(step, 0)   # the preview is asked again, the card redrawn
                top = round(view.scroll_offset.y) - view.padding_cells()[1]
                for row in view.last_changed:
                    view.render_line(row - top)
                samples.append(time.perf_counter() - start)
            figures(f"cursor move aiming {name}", samples[1:], 16)
            screen.action_cancel()
            await pilot.pause()


def bench_startup() -> None:
    probe = (
        "import sys, time\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from game.ui.app import SkirmishApp\n"
        "from game.ui.screens.menu import MainMenu\n"
        "class Probe(SkirmishApp):\n"
        "    def on_mount(self):\n"
        "        super().on_mount()\n"
        "        self.call_after_refresh(self.first_frame)\n"
        "    def first_frame(self):\n"
        "        assert isinstance(self.screen, MainMenu)\n"
        "        print('frame', flush=True)\n"
        "        self.exit()\n"
        "Probe(None).run(headless=True)\n"
    )
    samples = []
    for _ in range(5):
        start = time.perf_counter()
        child = subprocess.Popen([sys.executable, "-c", probe], stdout=subprocess.PIPE, text=True)
        line = child.stdout.readline()
        samples.append(time.perf_counter() - start)
        child.wait()
        assert line.strip() == "frame", line
    figures("start to the main menu's first frame", samples, 1000)


def main() -> None:
    asyncio.run(bench_repaint())
    asyncio.run(bench_cursor())
    bench_startup()


if __name__ == "__main__":
    main()
