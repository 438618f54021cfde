"""Engine benchmarks (issue targets in brackets). Run: .venv/bin/python bench/bench_engine.py

Figures go to docs/PERFORMANCE.md. Each figure is the median of several repeats.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.ai import make_player  # noqa: E402
from game.content.loader import load_setup  # noqa: E402
from game.core.grid import Grid, MoveCosts  # noqa: E402
from game.sim import play  # noqa: E402

TERRAIN = {
    "open": SimpleNamespace(walkable=True, rough=False, blocks_sight=False, cover="none", concealment=False),
    "rough": SimpleNamespace(walkable=True, rough=True, blocks_sight=False, cover="none", concealment=False),
    "wall": SimpleNamespace(walkable=False, rough=False, blocks_sight=True, cover="full", concealment=False),
    "crate": SimpleNamespace(walkable=False, rough=False, blocks_sight=False, cover="half", concealment=False),
}
COSTS = MoveCosts(3, 4, 1, False)


def random_grid(size: int, seed: int = 1) -> Grid:
    rng = random.Random(seed)
    kinds = ["open"] * 80 + ["rough"] * 8 + ["wall"] * 8 + ["crate"] * 4
    rows = [[rng.choice(kinds) for _ in range(size)] for _ in range(size)]
    return Grid(rows, TERRAIN)


def open_squares(grid: Grid, n: int, seed: int = 2) -> list[tuple[int, int]]:
    rng = random.Random(seed)
    ys, xs = np.nonzero(grid.walkable)
    picks = rng.sample(range(len(xs)), n)
    return [(int(xs[i]), int(ys[i])) for i in picks]


def per_call(fn, items, repeats: int = 5) -> float:
    """Median over repeats of the mean seconds per call."""
    runs = []
    for _ in range(repeats):
        start = time.perf_counter()
        for item in items:
            fn(item)
        runs.append((time.perf_counter() - start) / len(items))
    return statistics.median(runs)


def bench_reach() -> dict[int, float]:
    out = {}
    for size in (32, 64, 128, 256):
        grid = random_grid(size)
        squares = open_squares(grid, 300)
        out[size] = per_call(lambda sq, grid=grid: grid.reach(sq, 30, COSTS).squares(), squares)
        print(f"reachable area, 30 AP, {size}x{size}: {out[size] * 1e3:.3f} ms per query [<= 0.5 ms]")
    print(f"  256x256 / 32x32 = {out[256] / out[32]:.2f} [<= 2]")
    return out


def bench_fov() -> None:
    grid = random_grid(256)
    squares = open_squares(grid, 500)

    def fresh_view(sq):
        grid._views.clear()
        grid.view(sq[0], sq[1], 20)

    print(f"field of view, radius 20: {per_call(fresh_view, squares) * 1e6:.1f} us per unit "
          f"(uncached) [<= 20 us]")
    sides = [open_squares(grid, 12, seed) for seed in range(50)]

    def fog(units):
        grid._views.clear()
        count = np.zeros((grid.height, grid.width), np.int16)
        for x, y in units:
            view = grid.view(x, y, 20)
            h, w = view.mask.shape
            count[view.oy:view.oy + h, view.ox:view.ox + w] += view.mask
        return count > 0

    print(f"fog of war, a side of 12 units, 256x256: {per_call(fog, sides) * 1e3:.3f} ms "
          f"(from scratch) [<= 2 ms]")


def bench_battles(n: int = 60, repeats: int = 3) -> None:
    """The same n battles `repeats` times; the best run counts (as timeit advises: slower runs
    are the machine's other work, not the code's). Wall-clock and CPU-time figures both."""
    setup = load_setup("depot")
    sides = [s.id for s in setup.scenario.sides]
    play(setup, 0, {s: make_player("simple", s, 0) for s in sides}, keep_events=False)  # warm caches
    walls, cpus, rounds = [], [], []
    for _ in range(repeats):
        rounds.clear()
        wall, cpu = time.perf_counter(), time.process_time()
        for seed in range(n):
            result = play(setup, seed, {s: make_player("simple", s, seed) for s in sides},
                          keep_events=False)
            rounds.append(result.rounds)
        walls.append(n / (time.perf_counter() - wall))
        cpus.append(n / (time.process_time() - cpu))
    print(f"headless 6-vs-6 battles on depot (32x32), simple vs simple: {max(walls):.1f} battles/s "
          f"wall clock, {max(cpus):.1f} CPU time, best of {repeats} runs of {n} "
          f"(all runs: {', '.join(f'{w:.0f}' for w in walls)}; mean {statistics.mean(rounds):.1f} "
          "rounds) [>= 50/s]")


if __name__ == "__main__":
    bench_reach()
    bench_fov()
    bench_battles()
