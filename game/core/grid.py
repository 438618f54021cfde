"""The battlefield's squares: terrain arrays, sight, cover, and movement costs.

Per-square data lives in numpy arrays indexed [y, x]. Terrain never changes during a battle,
so a grid is immutable and its field-of-view cache can be shared by every battle on the map.
Field of view and path search use python-tcod's C implementations on a window around the unit.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import tcod.constants
import tcod.map
import tcod.path

Square = tuple[int, int]
COVER_LEVELS = ("none", "half", "full")
NEIGHBOURS: tuple[Square, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


@dataclass(frozen=True, slots=True)
class MoveCosts:
    straight: int
    diagonal: int
    rough_extra: int
    corner_cutting: bool


@dataclass(frozen=True, slots=True)
class View:
    """A field of view: a boolean window whose top-left square is (ox, oy)."""

    ox: int
    oy: int
    mask: np.ndarray
    ones: np.ndarray          # the mask as int16, ready to add to a side's sight counts

    @property
    def window(self) -> tuple[slice, slice]:
        h, w = self.mask.shape
        return slice(self.oy, self.oy + h), slice(self.ox, self.ox + w)

    def __contains__(self, square: Square) -> bool:
        x, y = square[0] - self.ox, square[1] - self.oy
        return 0 <= y < self.mask.shape[0] and 0 <= x < self.mask.shape[1] and bool(self.mask[y, x])


class Grid:
    """Static terrain of one map, with the derived arrays the rules need."""

    def __init__(self, terrain_rows: Sequence[Sequence[str]], terrain: Mapping[str, object],
                 zones: Mapping[str, Sequence[Square]] | None = None) -> None:
        self.height = len(terrain_rows)
        self.width = len(terrain_rows[0])
        self.terrain_names = sorted(terrain)
        index = {name: i for i, name in enumerate(self.terrain_names)}
        self.terrain = np.array([[index[t] for t in row] for row in terrain_rows], dtype=np.int16)
        specs = [terrain[name] for name in self.terrain_names]

        def prop(getter) -> np.ndarray:
            return np.array([getter(s) for s in specs])[self.terrain]

        self.walkable = prop(lambda s: s.walkable).astype(bool)
        self.rough = prop(lambda s: s.rough).astype(bool)
        self.transparent = ~prop(lambda s: s.blocks_sight).astype(bool)
        self.cover = prop(lambda s: COVER_LEVELS.index(s.cover)).astype(np.int8)
        self.concealment = prop(lambda s: s.concealment).astype(bool)
        padded = np.pad(self.cover > 0, 1)
        self.near_cover = np.zeros_like(self.walkable)
        for ux, uy in NEIGHBOURS:
            self.near_cover |= padded[1 + uy:1 + uy + self.height, 1 + ux:1 + ux + self.width]
        self.zones = {name: list(squares) for name, squares in (zones or {}).items()}
        self._zone_sets: dict[str, frozenset[Square]] = {}
        self._views: dict[tuple[int, int, int], View] = {}
        self._lit_views: dict[tuple[int, int, int], tuple[int, int, np.ndarray]] = {}
        self._doorways = self.walkable & ~self.transparent     # walked through, not seen through
        self._covers: dict[tuple, str] = {}     # (defender, dx, dy) -> cover; the terrain never changes
        self._edges: dict[MoveCosts, tuple[np.ndarray, np.ndarray, dict]] = {}
        self._searchers: dict[tuple[MoveCosts, int], _Searcher] = {}

    # --- basics ---------------------------------------------------------------------------

    def in_bounds(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def disc(self, center: tuple[int, int], diameter: int) -> list[tuple[int, int]]:
        """The squares on the map within `diameter` / 2 of `center` (a suppressed area)."""
        r = diameter / 2
        reach = int(r)
        return [(center[0] + dx, center[1] + dy)
                for dy in range(-reach, reach + 1) for dx in range(-reach, reach + 1)
                if dx * dx + dy * dy <= r * r and self.in_bounds(center[0] + dx, center[1] + dy)]

    def terrain_at(self, x: int, y: int) -> str:
        return self.terrain_names[self.terrain[y, x]]

    def cover_at(self, x: int, y: int) -> str:
        return COVER_LEVELS[self.cover[y, x]]

    @staticmethod
    def distance(a: Square, b: Square) -> int:
        """Range in squares (a square is a meter): straight-line distance, rounded."""
        return round(math.hypot(a[0] - b[0], a[1] - b[1]))

    # --- sight ----------------------------------------------------------------------------

    def view(self, x: int, y: int, radius: int) -> View:
        """Squares seen from (x, y) within `radius`; symmetric, so sight works both ways.

        The field of view lights a square that blocks sight (a wall) when it can be seen, but a
        unit standing in such a square (a doorway) sees out of it less far: so a square that
        blocks sight and can be walked on is seen from here only if here is seen from it."""
        key = (x, y, radius)
        cached = self._views.get(key)
        if cached is None:
            x0, y0, mask = self._lit(x, y, radius)
            for wy, wx in np.argwhere(mask & self._doorways[y0:y0 + mask.shape[0], x0:x0 + mask.shape[1]]):
                dx, dy = int(wx) + x0, int(wy) + y0
                if (dx, dy) != (x, y) and not self._sees_back(dx, dy, x, y, radius):
                    mask[wy, wx] = False
            cached = self._views[key] = View(x0, y0, mask, mask.astype(np.int16))
        return cached

    def _lit(self, x: int, y: int, radius: int) -> tuple[int, int, np.ndarray]:
        """The field of view from (x, y) as tcod lights it: its window's corner and mask."""
        x0, y0 = max(0, x - radius), max(0, y - radius)
        x1, y1 = min(self.width, x + radius + 1), min(self.height, y + radius + 1)
        mask = tcod.map.compute_fov(self.transparent[y0:y1, x0:x1], (y - y0, x - x0), radius,
                                    light_walls=True, algorithm=tcod.constants.FOV_SYMMETRIC_SHADOWCAST)
        return x0, y0, mask

    def _sees_back(self, x: int, y: int, tx: int, ty: int, radius: int) -> bool:
        """Whether tcod's field of view from (x, y) lights (tx, ty)."""
        key = (x, y, radius)
        lit = self._lit_views.get(key)
        if lit is None:
            lit = self._lit_views[key] = self._lit(x, y, radius)
        x0, y0, mask = lit
        wx, wy = tx - x0, ty - y0
        return 0 <= wy < mask.shape[0] and 0 <= wx < mask.shape[1] and bool(mask[wy, wx])

    def sees(self, origin: Square, target: Square, radius: int) -> bool:
        return target in self.view(origin[0], origin[1], radius)

    # --- cover ----------------------------------------------------------------------------

    def cover_against(self, defender: Square, attacker: Square) -> str:
        """Best cover next to the defender on the side facing the attacker (within 45°).

        An attacker standing next to the defender is past any cover.
        """
        dx, dy = attacker[0] - defender[0], attacker[1] - defender[1]
        if max(abs(dx), abs(dy)) <= 1:
            return "none"
        if not self.near_cover[defender[1], defender[0]]:
            return "none"
        key = (defender, dx, dy)
        found = self._covers.get(key)
        if found is None:
            if len(self._covers) > 100_000:
                self._covers.clear()
            found = self._covers[key] = self._cover_facing(defender, dx, dy)
        return found

    def cover_around(self, square: Square) -> list[tuple[Square, str]]:
        """The cover objects next to `square`: (offset, level) for each neighbour that gives
        cover. A unit on the square has that cover against attackers on that side (within 45°,
        `cover_against`)."""
        x, y = square
        return [((ux, uy), COVER_LEVELS[int(self.cover[y + uy, x + ux])]) for ux, uy in NEIGHBOURS
                if self.in_bounds(x + ux, y + uy) and self.cover[y + uy, x + ux]]

    def _cover_facing(self, defender: Square, dx: int, dy: int) -> str:
        length = math.hypot(dx, dy)
        best = 0
        for ux, uy in NEIGHBOURS:
            cx, cy = defender[0] + ux, defender[1] + uy
            if not self.in_bounds(cx, cy) or not self.cover[cy, cx]:
                continue
            cos = (ux * dx + uy * dy) / (math.hypot(ux, uy) * length)
            if cos >= math.cos(math.radians(45)) - 1e-9:
                best = max(best, int(self.cover[cy, cx]))
        return COVER_LEVELS[best]

    # --- movement -------------------------------------------------------------------------

    def step_cost(self, start: Square, end: Square, costs: MoveCosts) -> int | None:
        """AP to step from `start` to the adjacent `end`, or None if the step is impossible."""
        dx, dy = end[0] - start[0], end[1] - start[1]
        if max(abs(dx), abs(dy)) != 1 or not self.in_bounds(*end) or not self.walkable[end[1], end[0]]:
            return None
        diagonal = dx != 0 and dy != 0
        if diagonal and not costs.corner_cutting and not (
                self.walkable[start[1], end[0]] and self.walkable[end[1], start[0]]):
            return None
        base = costs.diagonal if diagonal else costs.straight
        return base + (costs.rough_extra if self.rough[end[1], end[0]] else 0)

    def zone_set(self, name: str) -> frozenset[Square]:
        """The squares of a zone, as a set (asked after every command, in a `reach` battle)."""
        found = self._zone_sets.get(name)
        if found is None:
            found = self._zone_sets[name] = frozenset(self.zones.get(name, ()))
        return found

    def reach(self, origin: Square, budget: int, costs: MoveCosts,
              blocked: Iterable[Square] = ()) -> Reach:
        """Every square reachable from `origin` for at most `budget` AP, avoiding `blocked`."""
        radius = budget // min(costs.straight, costs.diagonal) + 1
        key = (costs, radius)
        searcher = self._searchers.get(key)
        if searcher is None:
            searcher = self._searchers[key] = _Searcher(2 * radius + 1)
        ox, oy = origin[0] - radius, origin[1] - radius
        straight, diagonal, corners = self._edge_arrays(costs)
        searcher.load(self, ox, oy, straight, diagonal, corners, blocked)
        distance, parents = searcher.search((radius, radius))
        return Reach(origin, ox, oy, distance, parents, budget)

    def walk_path(self, origin: Square, target: Square, costs: MoveCosts,
                  blocked: Iterable[Square] = ()) -> list[Square] | None:
        """The cheapest walk from `origin` to `target` (its squares after `origin`), however
        far, avoiding `blocked`; None when no way leads there."""
        straight, diagonal, corners = self._edge_arrays(costs)
        straight, diagonal = straight.copy(), diagonal.copy()
        for bx, by in blocked:
            straight[by, bx] = diagonal[by, bx] = 0
        finder = tcod.path.Pathfinder(step_graph(straight, diagonal, corners))
        finder.add_root((origin[1], origin[0]))
        finder.resolve((target[1], target[0]))
        if finder.distance[target[1], target[0]] >= _UNREACHED:
            return None
        return [(int(x), int(y)) for y, x in finder.path_to((target[1], target[0]))[1:].tolist()]

    def _edge_arrays(self, costs: MoveCosts) -> tuple[np.ndarray, np.ndarray, dict]:
        """Whole-map step costs into each square, and where each diagonal step is allowed."""
        cached = self._edges.get(costs)
        if cached is None:
            extra = self.rough * costs.rough_extra
            straight = np.where(self.walkable, costs.straight + extra, 0).astype(np.int32)
            diagonal = np.where(self.walkable, costs.diagonal + extra, 0).astype(np.int32)
            corners = ({d: np.ones_like(self.walkable, dtype=np.int8) for d in DIAGONALS}
                       if costs.corner_cutting else corner_conditions(self.walkable))
            cached = self._edges[costs] = (straight, diagonal, corners)
        return cached


STRAIGHTS = ((0, 1), (0, -1), (1, 0), (-1, 0))
DIAGONALS = ((1, 1), (1, -1), (-1, 1), (-1, -1))
_UNREACHED = np.iinfo(np.int32).max


def step_graph(straight: np.ndarray, diagonal: np.ndarray, corners: Mapping[Square, np.ndarray],
               straight_step: int = 1, diagonal_step: int = 1) -> tcod.path.CustomGraph:
    """A tcod graph of a unit's steps, as the engine takes them: four straight and four
    diagonal, each costing its array's value at the square stepped into (0: closed) times its
    step cost, a diagonal one only where `corners` (`corner_conditions`) allow it. The graph
    keeps the arrays themselves: refilled in place, they change the graph."""
    graph = tcod.path.CustomGraph(straight.shape)
    for step in STRAIGHTS:
        graph.add_edge(step, straight_step, cost=straight)
    for step in DIAGONALS:
        graph.add_edge(step, diagonal_step, cost=diagonal, condition=corners[step])
    return graph


def corner_conditions(walkable: np.ndarray) -> dict[Square, np.ndarray]:
    """For each diagonal step, where it may be taken: both side squares walkable (no unit
    cuts a wall's corner)."""
    return {step: corner_condition(walkable, *step) for step in DIAGONALS}


class _Searcher:
    """A reusable tcod path search over a square window: its arrays are refilled in place,
    which saves rebuilding the graph for every question (most of the cost of a small search)."""

    def __init__(self, size: int) -> None:
        shape = (size, size)
        self.straight: np.ndarray = np.zeros(shape, np.int32)
        self.diagonal: np.ndarray = np.zeros(shape, np.int32)
        self.corners: dict[Square, np.ndarray] = {d: np.zeros(shape, np.int8) for d in DIAGONALS}
        self.finder = tcod.path.Pathfinder(step_graph(self.straight, self.diagonal, self.corners))
        self.size = size

    def load(self, grid: Grid, ox: int, oy: int, straight: np.ndarray, diagonal: np.ndarray,
             corners: dict, blocked: Iterable[Square]) -> None:
        """Copy the map's window at (ox, oy) in; squares off the map or blocked cost 0 (closed)."""
        x0, y0 = max(0, ox), max(0, oy)
        x1, y1 = min(grid.width, ox + self.size), min(grid.height, oy + self.size)
        inner = (slice(y0 - oy, y1 - oy), slice(x0 - ox, x1 - ox))
        outer = (slice(y0, y1), slice(x0, x1))
        for mine, theirs in ((self.straight, straight), (self.diagonal, diagonal),
                             *((self.corners[d], corners[d]) for d in DIAGONALS)):
            mine.fill(0)
            mine[inner] = theirs[outer]
        for bx, by in blocked:
            wx, wy = bx - ox, by - oy
            if 0 <= wx < self.size and 0 <= wy < self.size:
                self.straight[wy, wx] = self.diagonal[wy, wx] = 0

    def search(self, root: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
        # Resetting distances by hand skips clear()'s rebuild of the whole traversal array; the
        # parents of every square reached in this search are rewritten as it is reached.
        self.finder.distance[...] = _UNREACHED
        self.finder.rebuild_frontier()
        self.finder.add_root((root[1], root[0]))
        self.finder.resolve()
        return self.finder.distance.copy(), self.finder.traversal.copy()


def corner_condition(walkable: np.ndarray, dy: int, dx: int) -> np.ndarray:
    """For each square, whether the diagonal step (dy, dx) clears both side squares."""
    h, w = walkable.shape
    padded = np.zeros((h + 2, w + 2), dtype=bool)
    padded[1:-1, 1:-1] = walkable
    side_y = padded[1 + dy:h + 1 + dy, 1:w + 1]
    side_x = padded[1:h + 1, 1 + dx:w + 1 + dx]
    return (side_y & side_x).astype(np.int8)


class Reach:
    """The result of a movement search: cost and path to each reachable square."""

    def __init__(self, origin: Square, ox: int, oy: int, distance: np.ndarray,
                 parents: np.ndarray, budget: int) -> None:
        self.origin = origin
        self.budget = budget
        self._ox, self._oy = ox, oy
        self._dist = distance
        self._parents = parents

    def cost(self, square: Square) -> int | None:
        x, y = square[0] - self._ox, square[1] - self._oy
        if not (0 <= y < self._dist.shape[0] and 0 <= x < self._dist.shape[1]):
            return None
        value = int(self._dist[y, x])
        return value if value <= self.budget else None

    def squares(self) -> dict[Square, int]:
        """Reachable squares (the origin excluded) with their AP cost."""
        ys, xs = np.nonzero(self._dist <= self.budget)
        out = {}
        for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
            square = (x + self._ox, y + self._oy)
            if square != self.origin:
                out[square] = int(self._dist[y, x])
        return out

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Reachable squares as arrays: xs, ys and AP costs (the origin excluded)."""
        ys, xs = np.nonzero(self._dist <= self.budget)
        costs = self._dist[ys, xs]
        keep = (xs + self._ox != self.origin[0]) | (ys + self._oy != self.origin[1])
        return xs[keep] + self._ox, ys[keep] + self._oy, costs[keep]

    def priced(self, price: Callable[[np.ndarray], np.ndarray], budget: int) -> Reach:
        """The same paths with their costs turned into AP by `price` (for rulesets whose
        movement is squares bought by move actions), within an AP `budget`."""
        reachable = self._dist <= self.budget
        dist = np.full(self._dist.shape, np.iinfo(np.int32).max, dtype=np.int64)
        dist[reachable] = price(self._dist[reachable].astype(np.int64))
        return Reach(self.origin, self._ox, self._oy, dist, self._parents, budget)

    def path_to(self, square: Square) -> list[Square] | None:
        """Squares to walk through to `square`, the origin excluded; None if out of reach."""
        if self.cost(square) is None:
            return None
        steps = []
        y, x = square[1] - self._oy, square[0] - self._ox
        root = (self.origin[1] - self._oy, self.origin[0] - self._ox)
        while (y, x) != root:
            steps.append((x + self._ox, y + self._oy))
            y, x = (int(v) for v in self._parents[y, x])
        return steps[::-1]
