"""Grid questions against plain, obviously-correct versions."""

from __future__ import annotations

import heapq
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.grid import Grid, MoveCosts
from game.content.schema import TerrainSpec
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


DOOR = TerrainSpec(id="door", name="Door", glyph="+", blocks_sight=True)


def door_grid(rows: list[str]) -> Grid:
    kinds = {**KINDS, "+": "door"}
    return Grid([[kinds[ch] for ch in row] for row in rows], {t.id: t for t in (*TERRAIN, DOOR)})


def test_a_unit_in_a_doorway_is_seen_only_from_where_it_sees():
    """The alley's back door (2, 4): the field of view lit it from (6, 5), as a wall is lit,
    while from the doorway (6, 5) was out of sight: a soldier there shot Maire Jensen, who
    could not see him. Now neither sees the other."""
    from game.content.loader import load_library, load_setup
    from game.rulesets import new_battle
    with new_battle(load_setup("alley", load_library()), 1) as battle:
        grid = battle.session.grid
        assert grid.terrain_at(2, 4) == "door" and grid.walkable[4, 2]
        assert not grid.sees((6, 5), (2, 4), 20) and not grid.sees((2, 4), (6, 5), 20)
        assert grid.sees((2, 5), (2, 4), 20) and grid.sees((2, 4), (2, 5), 20)   # next to it


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text("....#+", min_size=9, max_size=9), min_size=7, max_size=7))
def test_sight_works_both_ways_even_through_doorways(rows):
    grid = door_grid(rows)
    squares = [(x, y) for y in range(grid.height) for x in range(grid.width) if grid.walkable[y, x]]
    for a in squares:
        for b in squares:
            assert grid.sees(a, b, 6) == grid.sees(b, a, 6), (a, b, rows)
