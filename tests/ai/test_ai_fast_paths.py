"""The table and bit-set versions of the terrain and odds questions answer as the plain rules do."""

from __future__ import annotations

import random

import numpy as np
import pytest

from game.ai import geometry as geo
from game.ai import odds, sequences
from game.ai.assess import Assessor
from game.content.loader import load_setup
from game.rulesets import new_battle

LEVELS = ("none", "half", "full")


@pytest.fixture(scope="module")
def depot():
    with new_battle(load_setup("depot"), 1) as battle:
        yield battle


def some_squares(grid, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    ys, xs = np.nonzero(grid.walkable)
    pick = rng.choice(len(xs), n)
    return np.stack([xs[pick], ys[pick]], axis=1).astype(np.int32)


def test_cover_tables_agree_with_the_grid(depot):
    grid = depot.session.grid
    defenders, attackers = some_squares(grid, 300, 1), some_squares(grid, 9, 2)
    matrix = geo.cover_matrix(grid, defenders, attackers)
    for i, d in enumerate(map(tuple, defenders.tolist())):
        for j, a in enumerate(map(tuple, attackers.tolist())):
            expected = LEVELS.index(grid.cover_against(d, a))
            assert matrix[i, j] == expected == geo.cover_level(grid, d, a)


def test_unseen_counts_agree_with_square_by_square_counting(depot):
    grid = depot.session.grid
    squares = some_squares(grid, 200, 3)
    seen = np.random.default_rng(4).random(grid.walkable.shape) < 0.4
    for radius in (4, 11):
        hidden = grid.walkable & ~seen
        expected = []
        for x, y in squares.tolist():
            view = grid.view(x, y, radius)
            h, w = view.mask.shape
            expected.append(np.count_nonzero(view.mask & hidden[view.oy:view.oy + h, view.ox:view.ox + w]))
        assert geo.unseen_in_view(grid, seen, squares, radius).tolist() == expected


def test_fewer_ways_of_asking_give_the_same_shots(depot):
    a = Assessor(depot)
    guns = [odds.gun_of(a.rules, w, False) for w in depot.session.weapons.values()
            if w.kind == "firearm" and w.modes]
    rng = random.Random(5)
    for _ in range(300):
        gun = rng.choice(guns)
        attack, defense, ap = rng.randint(0, 12), rng.randint(2, 14), rng.randint(0, 30)
        ammo, hp = rng.randint(0, gun.magazine), rng.randint(1, 30)
        plain = sequences.best_shots(a.rules, gun, a.locations, attack, defense, 5, hp, ap, 0, ammo, 12.0)
        asked = a.best(gun, attack, defense, 5, hp, ap, 0, ammo, 12.0)
        assert plain == asked
