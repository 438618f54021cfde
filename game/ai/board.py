"""Where the active unit can go this turn, and what walking there risks.

Paths avoid the squares of every unit the side knows of (as `queries.reach` does). When the
side sees enemy overwatch cones, a second search treats cone squares as closed: a square
reachable that way is reached safely; otherwise its path runs through a cone and the square
carries the expected damage of the reaction shots it would draw.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from game.core.engine import Battle
from game.core.grid import Reach

Square = tuple[int, int]


@dataclass(slots=True)
class Destinations:
    squares: np.ndarray            # (N, 2) x, y; row 0 is where the unit stands
    cost: np.ndarray               # AP to get there
    risk: np.ndarray               # expected HP lost to overwatch on the way
    _paths: list[Callable[[], list[Square] | None]]

    def path(self, index: int) -> tuple[Square, ...]:
        found = self._paths[index]()
        return tuple(found or ())

    def __len__(self) -> int:
        return len(self.squares)


def destinations(battle: Battle, uid: str, budget: int, cones: dict[str, list[Square]],
                 reaction: Callable[[str, Square], float], limit: int = 0,
                 rng: random.Random | None = None) -> Destinations:
    """Squares `uid` can walk to for at most `budget` AP (its own square first).

    `reaction(watcher, square)` prices the shot a watcher would take at the unit on `square`.
    `limit` > 0 keeps only that many squares, picked at random with `rng`.
    """
    s = battle.session
    s.use()
    here = s.position(uid)
    side = s.side_of(uid)
    blocked = [sq for sq, other in s.occupied().items()
               if other != uid and (s.side_of(other) == side or s.sees(side, sq))]
    costs = s.rules.move_costs
    full = s.grid.reach(here, max(0, budget), costs, blocked)
    squares: dict[Square, tuple[int, float, Callable[[], list[Square] | None]]] = {}
    watched = {sq for cone in cones.values() for sq in cone}
    safe: Reach | None = None
    if watched:
        safe = s.grid.reach(here, max(0, budget), costs, blocked + sorted(watched - {here}))
        for square, cost in safe.squares().items():
            squares[square] = (cost, 0.0, _path_of(safe, square))
    for square, cost in full.squares().items():
        if square in squares:
            continue
        risk = 0.0
        if watched:
            path = full.path_to(square) or []
            risk = sum(reaction(watcher, sq) for watcher, cone in cones.items()
                       for sq in _first_in(path, cone))
        squares[square] = (cost, risk, _path_of(full, square))
    items = list(squares.items())
    if limit and len(items) > limit and rng is not None:
        items = rng.sample(items, limit)
    rows = [(here, 0, 0.0, lambda: [])] + [(sq, cost, risk, get) for sq, (cost, risk, get) in items]
    return Destinations(np.array([r[0] for r in rows], dtype=np.int32).reshape(-1, 2),
                        np.array([r[1] for r in rows], dtype=np.int32),
                        np.array([r[2] for r in rows], dtype=np.float64),
                        [r[3] for r in rows])


def _path_of(found: Reach, square: Square) -> Callable[[], list[Square] | None]:
    return lambda: found.path_to(square)


def _first_in(path: list[Square], cone: list[Square]) -> list[Square]:
    """The first square of `path` inside `cone` (a watcher fires once), if any."""
    inside = set(cone)
    for square in path:
        if square in inside:
            return [square]
    return []
