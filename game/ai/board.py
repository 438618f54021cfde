"""Where the active unit can go this turn, and what walking there risks.

Paths avoid the squares of every unit the side knows of (as `queries.reach` does). When the
side sees enemy overwatch cones, a second search treats cone squares as closed: a square
reachable that way is reached safely; otherwise its path runs through a cone and the square
carries the expected damage of the reaction shots it would draw.

The squares come out of the searches as numpy arrays (`Reach.arrays`); a path is only walked
back for the few squares that need one (the chosen move, and squares whose way crosses a cone).
"""

from __future__ import annotations

import random
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from game.core.engine import Battle
from game.core.grid import Grid, MoveCosts, Reach

Square = tuple[int, int]
Arrays = tuple[np.ndarray, np.ndarray, np.ndarray]      # xs, ys, AP costs


@dataclass(slots=True)
class Destinations:
    squares: np.ndarray            # (N, 2) x, y; row 0 is where the unit stands
    cost: np.ndarray               # AP to get there
    risk: np.ndarray               # expected HP lost to overwatch on the way
    searches: tuple[Reach, ...]    # the path searches the rows come from
    source: np.ndarray             # for each row, which search finds its path (-1: none needed)

    def path(self, index: int) -> tuple[Square, ...]:
        which = int(self.source[index])
        if which < 0:
            return ()
        x, y = self.squares[index].tolist()
        return tuple(self.searches[which].path_to((x, y)) or ())

    def __len__(self) -> int:
        return len(self.squares)


def destinations(battle: Battle, uid: str, budget: int, cones: dict[str, list[Square]],
                 reaction: Callable[[str, Square], float], limit: int = 0,
                 rng: random.Random | None = None,
                 blocked: list[Square] | None = None) -> Destinations:
    """Squares `uid` can walk to for at most `budget` AP (its own square first).

    `reaction(watcher, square)` prices the shot a watcher would take at the unit on `square`.
    `limit` > 0 keeps only that many squares, picked at random with `rng`. `blocked` are the
    squares of the units the side knows of, if the caller has them.
    """
    s = battle.session
    s.use()
    here = s.position(uid)
    if budget <= 0:           # staying put: no search needed
        return Destinations(np.array([here], dtype=np.int32), np.zeros(1, dtype=np.int32),
                            np.zeros(1), (), np.full(1, -1, dtype=np.int8))
    if blocked is None:
        side = s.side_of(uid)
        blocked = [sq for sq, other in s.occupied().items()
                   if other != uid and (s.side_of(other) == side or s.sees(side, sq))]
    full, (xs, ys, cost) = _search(s.grid, here, budget, s.rules.move_costs, tuple(sorted(blocked)))
    watched = {sq for cone in cones.values() for sq in cone}
    if not watched:
        risk = np.zeros(len(xs))
        searches, source = (full,), np.zeros(len(xs), dtype=np.int8)
    else:
        safe, safe_squares = _search(s.grid, here, budget, s.rules.move_costs,
                                     tuple(sorted({*blocked, *watched} - {here})))
        xs, ys, cost, risk, source = _through_cones(full, (xs, ys, cost), safe_squares,
                                                    s.grid.width, cones, reaction)
        searches = (safe, full)
    if limit and len(xs) > limit and rng is not None:
        order = np.array(rng.sample(range(len(xs)), limit), dtype=np.intp)
        xs, ys, cost, risk, source = xs[order], ys[order], cost[order], risk[order], source[order]
    n = len(xs) + 1
    out = Destinations(np.empty((n, 2), dtype=np.int32), np.zeros(n, dtype=np.int32), np.zeros(n),
                       searches, np.full(n, -1, dtype=np.int8))
    out.squares[0] = here
    out.squares[1:, 0], out.squares[1:, 1] = xs, ys
    out.cost[1:], out.risk[1:], out.source[1:] = cost, risk, source
    return out


_SEARCHES: OrderedDict[tuple, tuple[Grid, Reach, Arrays]] = OrderedDict()
_SEARCH_LIMIT = 512


def _search(grid: Grid, here: Square, budget: int, costs: MoveCosts, blocked: tuple[Square, ...]
            ) -> tuple[Reach, Arrays]:
    """`Grid.reach` and its squares as arrays, kept for a while: a unit that holds its ground
    asks the same question again next turn, and so do its friends' re-decisions."""
    radius = budget // min(costs.straight, costs.diagonal) + 1      # `Grid.reach`'s window
    blocked = tuple(sq for sq in blocked
                    if abs(sq[0] - here[0]) <= radius and abs(sq[1] - here[1]) <= radius)
    key = (id(grid), here, budget, costs, blocked)
    found = _SEARCHES.get(key)
    if found is not None and found[0] is grid:
        _SEARCHES.move_to_end(key)
        return found[1], found[2]
    reach = grid.reach(here, budget, costs, blocked)
    _SEARCHES[key] = (grid, reach, reach.arrays())
    if len(_SEARCHES) > _SEARCH_LIMIT:
        _SEARCHES.popitem(last=False)
    return reach, _SEARCHES[key][2]


def _through_cones(full: Reach, every: Arrays, safe: Arrays, width: int,
                   cones: dict[str, list[Square]], reaction: Callable[[str, Square], float]
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Squares reached safely (search 0) first, then the rest (search 1) with their risk."""
    sx, sy, sc = safe
    fx, fy, fc = every
    rest = ~np.isin(fy.astype(np.int64) * width + fx, sy.astype(np.int64) * width + sx)
    fx, fy, fc = fx[rest], fy[rest], fc[rest]
    inside = {watcher: set(cone) for watcher, cone in cones.items()}
    risk = np.zeros(len(fx))
    for i, (x, y) in enumerate(zip(fx.tolist(), fy.tolist(), strict=True)):
        path = full.path_to((x, y)) or []
        risk[i] = sum(reaction(watcher, sq) for watcher, cone in inside.items()
                      for sq in _first_in(path, cone))
    return (np.concatenate((sx, fx)), np.concatenate((sy, fy)), np.concatenate((sc, fc)),
            np.concatenate((np.zeros(len(sx)), risk)),
            np.concatenate((np.zeros(len(sx), dtype=np.int8), np.ones(len(fx), dtype=np.int8))))


def _first_in(path: list[Square], inside: set[Square]) -> list[Square]:
    """The first square of `path` inside a cone (a watcher fires once), if any."""
    for square in path:
        if square in inside:
            return [square]
    return []
