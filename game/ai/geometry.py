"""Terrain questions asked for many squares at once: cover, sight and walking distance.

`Grid.cover_against` and `Grid.sees` answer for one pair of squares; the computer player asks
for every square it could move to against every enemy it knows of, so these are the same
rules written over numpy arrays: cover read from per-map tables, fields of view kept as bit
sets. Walking-distance fields are computed once per map, target set and closed squares.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Iterable, Sequence

import numpy as np
import tcod.path

from game.core.grid import NEIGHBOURS, Grid, MoveCosts, corner_conditions, step_graph

Square = tuple[int, int]
_COS45 = math.cos(math.radians(45)) - 1e-9
_FIELDS: OrderedDict[tuple, tuple[Grid, np.ndarray]] = OrderedDict()
_FIELD_LIMIT = 256
_PER_GRID: OrderedDict[int, tuple[Grid, dict]] = OrderedDict()
_GRIDS_KEPT = 4


def per_grid(grid: Grid) -> dict:
    """Tables worked out once per map, kept for the last few maps played."""
    found = _PER_GRID.get(id(grid))
    if found is None or found[0] is not grid:
        found = _PER_GRID[id(grid)] = (grid, {})
        if len(_PER_GRID) > _GRIDS_KEPT:
            _PER_GRID.popitem(last=False)
    else:
        _PER_GRID.move_to_end(id(grid))
    return found[1]


def cover_matrix(grid: Grid, defenders: np.ndarray, attackers: np.ndarray) -> np.ndarray:
    """Cover level (0 none, 1 half, 2 full) of each defender square against each attacker.

    defenders: (N, 2) x, y; attackers: (M, 2). Same rule as `Grid.cover_against`, read from
    tables: which neighbours face each direction, and which neighbours of a square are cover.
    """
    n, m = len(defenders), len(attackers)
    if not n or not m:
        return np.zeros((n, m), dtype=np.int8)
    rule = _CoverRule.of(grid)
    dx = attackers[None, :, 0] - defenders[:, None, 0]
    dy = attackers[None, :, 1] - defenders[:, None, 1]
    facing = rule.facing[dy + rule.oy, dx + rule.ox]
    half = rule.half[defenders[:, 1], defenders[:, 0]][:, None]
    full = rule.full[defenders[:, 1], defenders[:, 0]][:, None]
    out = (facing & half != 0).astype(np.int8) + (facing & full != 0)
    out[np.maximum(np.abs(dx), np.abs(dy)) <= 1] = 0
    return out


def cover_level(grid: Grid, defender: Square, attacker: Square) -> int:
    """`cover_matrix` for one pair: 0, 1 or 2 (as `Grid.cover_against`)."""
    dx, dy = attacker[0] - defender[0], attacker[1] - defender[1]
    if max(abs(dx), abs(dy)) <= 1:
        return 0
    rule = _CoverRule.of(grid)
    facing = int(rule.facing[dy + rule.oy, dx + rule.ox])
    x, y = defender
    return (1 if facing & int(rule.half[y, x]) else 0) + (1 if facing & int(rule.full[y, x]) else 0)


class _CoverRule:
    """`Grid.cover_against` as tables: bit k of `facing[dy, dx]` is set when the k-th neighbour
    faces an attacker that far away (within 45°); bit k of `half` / `full` when that neighbour
    of a square gives at least half / full cover."""

    def __init__(self, grid: Grid) -> None:
        self.ox, self.oy = grid.width - 1, grid.height - 1
        dy, dx = np.mgrid[-self.oy:self.oy + 1, -self.ox:self.ox + 1]
        length = np.hypot(dx, dy)
        length[length == 0] = 1.0
        self.facing = np.zeros(dx.shape, dtype=np.uint8)
        padded = np.pad(grid.cover, 1)
        h, w = grid.height, grid.width
        self.half = np.zeros((h, w), dtype=np.uint8)
        self.full = np.zeros((h, w), dtype=np.uint8)
        for k, (ux, uy) in enumerate(NEIGHBOURS):
            cos = (ux * dx + uy * dy) / (math.hypot(ux, uy) * length)
            self.facing |= np.where(cos >= _COS45, 1 << k, 0).astype(np.uint8)
            level = padded[1 + uy:h + 1 + uy, 1 + ux:w + 1 + ux]
            self.half |= np.where(level >= 1, 1 << k, 0).astype(np.uint8)
            self.full |= np.where(level >= 2, 1 << k, 0).astype(np.uint8)

    @classmethod
    def of(cls, grid: Grid) -> _CoverRule:
        tables = per_grid(grid)
        if "cover" not in tables:
            tables["cover"] = cls(grid)
        return tables["cover"]


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


def walk_field(grid: Grid, costs: MoveCosts, targets: Iterable[Square],
               closed: tuple[Square, ...] = ()) -> np.ndarray:
    """AP needed to walk from each square to the nearest target, [y, x], round the `closed`
    squares (other units are ignored).

    A diagonal step past a wall's corner is taken only where the rules allow it, as the
    engine moves (`Grid.step_cost`). Unreachable squares get a large number. Cached per map,
    target set and closed squares (a grid never changes, so the map is known by the object
    itself).
    """
    goal = targets if isinstance(targets, tuple) else tuple(targets)
    key = (id(grid), costs, goal, closed)
    found = _FIELDS.get(key)
    if found is not None and found[0] is grid:
        _FIELDS.move_to_end(key)
        return found[1]
    cost = grid.walkable.astype(np.int32)
    for x, y in closed:
        if grid.in_bounds(x, y) and (x, y) not in goal:
            cost[y, x] = 0
    if costs.corner_cutting:
        dist = tcod.path.maxarray((grid.height, grid.width), dtype=np.int32)
        for x, y in goal:
            if grid.in_bounds(x, y):
                dist[y, x] = 0
        tcod.path.dijkstra2d(dist, cost, costs.straight, costs.diagonal, out=dist)
    else:
        dist = _corner_field(grid, costs, cost, goal)
    _FIELDS[key] = (grid, dist)
    if len(_FIELDS) > _FIELD_LIMIT:
        _FIELDS.popitem(last=False)
    return dist


def _corner_field(grid: Grid, costs: MoveCosts, cost: np.ndarray, goal: tuple[Square, ...]) -> np.ndarray:
    """The walking field where no diagonal step cuts a wall's corner (both side squares of a
    diagonal step must be walkable; a closed square still lets a step pass its corner)."""
    graph = step_graph(cost, cost, corner_conditions(grid.walkable), costs.straight, costs.diagonal)
    finder = tcod.path.Pathfinder(graph)
    for x, y in goal:
        if grid.in_bounds(x, y):
            finder.add_root((y, x))
    finder.resolve()
    return finder.distance.astype(np.int32)


def cover_scores(grid: Grid) -> np.ndarray:
    """How much cover each square offers in any direction: the cover levels of its eight
    neighbours added up, [y, x] (cached per map)."""
    tables = per_grid(grid)
    if "cover scores" not in tables:
        padded = np.pad(grid.cover.astype(np.int32), 1)
        h, w = grid.height, grid.width
        tables["cover scores"] = sum(padded[1 + dy:h + 1 + dy, 1 + dx:w + 1 + dx]
                                     for dx, dy in NEIGHBOURS)
    return tables["cover scores"]


def unseen_in_view(grid: Grid, seen: np.ndarray, squares: np.ndarray, radius: int) -> np.ndarray:
    """For each square, how many walkable squares it would see that the side does not see now."""
    views = _view_bits(grid, radius)
    if views is None:
        return _unseen_one_by_one(grid, grid.walkable & ~seen, squares, radius)
    hidden = views.pack(grid.walkable & ~seen)[views.band[squares[:, 1]]]
    rows = views.rows(squares)
    return np.add.reduce(np.bitwise_count(rows & hidden), axis=1, dtype=np.int32).astype(np.float64)


def _unseen_one_by_one(grid: Grid, hidden: np.ndarray, squares: np.ndarray, radius: int) -> np.ndarray:
    out = np.zeros(len(squares))
    for i, (x, y) in enumerate(squares.tolist()):
        view = grid.view(x, y, radius)
        out[i] = np.count_nonzero(view.mask & hidden[view.window])
    return out


class _ViewBits:
    """Each square's field of view as bits over the band of map rows it can reach.

    A band holds rows y - radius .. y + radius, each row padded to whole 64-bit words, so
    counting what a square would see of a set of squares is one AND and a popcount over the
    same band of that set. Filled in as squares are asked for; one per map and sight radius.
    """

    def __init__(self, grid: Grid, radius: int) -> None:
        self.grid, self.radius = grid, radius
        self.row_words = -(-grid.width // 64)
        self.words = (2 * radius + 1) * self.row_words
        self.bits = np.zeros((grid.width * grid.height, self.words), dtype=np.uint64)
        self.done = np.zeros(grid.width * grid.height, dtype=bool)
        # band[y]: where the words of the band around map row y sit in a `pack`ed map
        self.band = (np.arange(grid.height)[:, None] * self.row_words
                     + np.arange(self.words)[None, :])
        self._padded = np.zeros((grid.height + 2 * radius, self.row_words * 64), dtype=bool)

    def rows(self, squares: np.ndarray) -> np.ndarray:
        index = squares[:, 1].astype(np.intp) * self.grid.width + squares[:, 0]
        missing = index[~self.done[index]]
        if len(missing):
            for i in np.unique(missing).tolist():
                self._fill(i)
        return self.bits[index]

    def pack(self, area: np.ndarray) -> np.ndarray:
        """`area` [y, x] as words, with `radius` empty rows above and below the map."""
        r = self.radius
        self._padded[r:r + self.grid.height, :self.grid.width] = area
        return np.packbits(self._padded, axis=1, bitorder="little").view(np.uint64).ravel()

    def _fill(self, i: int) -> None:
        grid, r = self.grid, self.radius
        y, x = divmod(i, grid.width)
        view = grid.view(x, y, r)
        band = np.zeros((2 * r + 1, self.row_words * 64), dtype=bool)
        h, w = view.mask.shape
        band[view.oy - y + r:view.oy - y + r + h, view.ox:view.ox + w] = view.mask
        self.bits[i] = np.packbits(band, axis=1, bitorder="little").view(np.uint64).ravel()
        self.done[i] = True


_VIEW_BITS_LIMIT = 64 << 20        # bytes: on larger maps, count square by square


def _view_bits(grid: Grid, radius: int) -> _ViewBits | None:
    tables = per_grid(grid)
    key = ("view bits", radius)
    if key not in tables:
        words = (2 * radius + 1) * -(-grid.width // 64)
        fits = grid.width * grid.height * words * 8 <= _VIEW_BITS_LIMIT
        tables[key] = _ViewBits(grid, radius) if fits else None
    return tables[key]


def field_at(field: np.ndarray, squares: np.ndarray) -> np.ndarray:
    return field[squares[:, 1], squares[:, 0]].astype(np.float64)


def as_array(squares: Sequence[Square]) -> np.ndarray:
    return np.array(squares, dtype=np.int32).reshape(-1, 2)
