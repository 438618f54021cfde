"""Terrain questions asked for many squares at once: cover, sight and walking distance.

`Grid.cover_against` and `Grid.sees` answer for one pair of squares; the computer player asks
for every square it could move to against every enemy it knows of, so these are the same
rules written over numpy arrays. Walking-distance fields are computed once per map and target.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Iterable, Sequence

import numpy as np
import tcod.path

from game.core.grid import NEIGHBOURS, Grid, MoveCosts

Square = tuple[int, int]
_COS45 = math.cos(math.radians(45)) - 1e-9
_FIELDS: OrderedDict[tuple, np.ndarray] = OrderedDict()
_FIELD_LIMIT = 256


def cover_matrix(grid: Grid, defenders: np.ndarray, attackers: np.ndarray) -> np.ndarray:
    """Cover level (0 none, 1 half, 2 full) of each defender square against each attacker.

    defenders: (N, 2) x, y; attackers: (M, 2). Same rule as `Grid.cover_against`.
    """
    n, m = len(defenders), len(attackers)
    out = np.zeros((n, m), dtype=np.int8)
    if not n or not m:
        return out
    dx = attackers[None, :, 0] - defenders[:, None, 0]
    dy = attackers[None, :, 1] - defenders[:, None, 1]
    length = np.hypot(dx, dy)
    length[length == 0] = 1.0
    far = np.maximum(np.abs(dx), np.abs(dy)) > 1
    for ux, uy in NEIGHBOURS:
        cx, cy = defenders[:, 0] + ux, defenders[:, 1] + uy
        inside = (cx >= 0) & (cx < grid.width) & (cy >= 0) & (cy < grid.height)
        level = np.zeros(n, dtype=np.int8)
        level[inside] = grid.cover[cy[inside], cx[inside]]
        if not level.any():
            continue
        cos = (ux * dx + uy * dy) / (math.hypot(ux, uy) * length)
        facing = cos >= _COS45
        np.maximum(out, np.where(facing, level[:, None], 0).astype(np.int8), out=out)
    out[~far] = 0
    return out


def seen_from(grid: Grid, origin: Square, radius: int, squares: np.ndarray) -> np.ndarray:
    """Which of `squares` (N, 2) are in the field of view from `origin` (symmetric)."""
    view = grid.view(origin[0], origin[1], radius)
    lx = squares[:, 0] - view.ox
    ly = squares[:, 1] - view.oy
    h, w = view.mask.shape
    inside = (lx >= 0) & (lx < w) & (ly >= 0) & (ly < h)
    out = np.zeros(len(squares), dtype=bool)
    out[inside] = view.mask[ly[inside], lx[inside]]
    return out


def distances(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Range in squares (rounded straight line, as `Grid.distance`) from each a to each b."""
    d = np.hypot(a[:, None, 0] - b[None, :, 0], a[:, None, 1] - b[None, :, 1])
    return np.rint(d).astype(np.int32)


def walk_field(grid: Grid, costs: MoveCosts, targets: Iterable[Square]) -> np.ndarray:
    """AP needed to walk from each square to the nearest target (ignoring units), [y, x].

    Unreachable squares get a large number. Cached per map and target set.
    """
    goal = tuple(sorted(set(targets)))
    key = (id(grid), hash(grid.walkable.tobytes()), goal)
    field = _FIELDS.get(key)
    if field is not None:
        _FIELDS.move_to_end(key)
        return field
    cost = np.where(grid.walkable, 1 + grid.rough * 0, 0).astype(np.int32)
    dist = tcod.path.maxarray((grid.height, grid.width), dtype=np.int32)
    for x, y in goal:
        if grid.in_bounds(x, y):
            dist[y, x] = 0
    tcod.path.dijkstra2d(dist, cost, costs.straight, costs.diagonal, out=dist)
    _FIELDS[key] = dist
    if len(_FIELDS) > _FIELD_LIMIT:
        _FIELDS.popitem(last=False)
    return dist


_COVER_SCORES: dict[int, tuple[Grid, np.ndarray]] = {}


def cover_scores(grid: Grid) -> np.ndarray:
    """`Grid.cover_score` of every square, [y, x] (cached per map)."""
    cached = _COVER_SCORES.get(id(grid))
    if cached is not None and cached[0] is grid:
        return cached[1]
    padded = np.pad(grid.cover.astype(np.int32), 1)
    h, w = grid.height, grid.width
    total = sum(padded[1 + dy:h + 1 + dy, 1 + dx:w + 1 + dx] for dx, dy in NEIGHBOURS)
    _COVER_SCORES[id(grid)] = (grid, total)
    return total


def unseen_in_view(grid: Grid, seen: np.ndarray, squares: np.ndarray, radius: int) -> np.ndarray:
    """For each square, how many walkable squares it would see that the side does not see now."""
    out = np.zeros(len(squares))
    hidden = grid.walkable & ~seen
    for i, (x, y) in enumerate(squares.tolist()):
        view = grid.view(x, y, radius)
        h, w = view.mask.shape
        out[i] = np.count_nonzero(view.mask & hidden[view.oy:view.oy + h, view.ox:view.ox + w])
    return out


def field_at(field: np.ndarray, squares: np.ndarray) -> np.ndarray:
    return field[squares[:, 1], squares[:, 0]].astype(np.float64)


def as_array(squares: Sequence[Square]) -> np.ndarray:
    return np.array(squares, dtype=np.int32).reshape(-1, 2)
