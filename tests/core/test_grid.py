"""Grid questions against plain, obviously-correct versions."""

from __future__ import annotations

import heapq
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.grid import Grid, MoveCosts
from tests.core.builders import TERRAIN

COSTS = MoveCosts(3, 4, 1, False)
KINDS = {".": "open", ",": "rough", "#": "wall", "=": "low_cover"}


def make_grid(rows: list[str]) -> Grid:
    return Grid([[KINDS[ch] for ch in row] for row in rows], {t.id: t for t in TERRAIN})


def plain_dijkstra(grid: Grid, origin, budget, blocked):
    best = {origin: 0}
    queue = [(0, origin)]
    while queue:
        cost, here = heapq.heappop(queue)
        if cost > best[here]:
            continue
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                step = (here[0] + dx, here[1] + dy)
                if step == here or step in blocked:
                    continue
                price = grid.step_cost(here, step, COSTS)
                if price is None or cost + price > budget:
                    continue
                if cost + price < best.get(step, 1 << 30):
                    best[step] = cost + price
                    heapq.heappush(queue, (cost + price, step))
    best.pop(origin)
    return best


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), budget=st.integers(0, 30), size=st.integers(3, 14))
def test_reach_matches_a_plain_search(seed, budget, size):
    rng = random.Random(seed)
    rows = ["".join(rng.choice("....,#=") for _ in range(size)) for _ in range(size)]
    grid = make_grid(rows)
    open_squares = [(x, y) for y in range(size) for x in range(size) if grid.walkable[y, x]]
    if len(open_squares) < 2:
        return
    origin = rng.choice(open_squares)
    blocked = set(rng.sample(open_squares, min(3, len(open_squares)))) - {origin}
    for _ in range(2):      # twice: a reused search must not remember the previous one
        reach = grid.reach(origin, budget, COSTS, blocked)
        expected = plain_dijkstra(grid, origin, budget, blocked)
        assert reach.squares() == expected
        for square, cost in expected.items():
            path = reach.path_to(square)
            here, total = origin, 0
            for step in path:
                total += grid.step_cost(here, step, COSTS)
                assert step not in blocked
                here = step
            assert here == square and total == cost
        origin = rng.choice(open_squares)
        blocked -= {origin}


def test_cover_faces_the_attacker():
    grid = make_grid([".......",
                      ".......",
                      "...=...",
                      ".......",
                      "......."])
    defender = (3, 3)
    assert grid.cover_against(defender, (3, 0)) == "half"     # the crate is between them
    assert grid.cover_against(defender, (1, 0)) == "half"     # within 45 degrees of it
    assert grid.cover_against(defender, (3, 2 + 3)) == "none" # from behind: flanked
    assert grid.cover_against(defender, (6, 3)) == "none"     # from the side
    assert grid.cover_against(defender, (4, 2)) == "none"     # adjacent: past the crate


def test_walls_block_sight_both_ways():
    grid = make_grid(["........", "...#....", "........"])
    assert not grid.sees((0, 1), (6, 1), 20) and not grid.sees((6, 1), (0, 1), 20)
    assert grid.sees((0, 0), (7, 0), 20) and grid.sees((7, 0), (0, 0), 20)
