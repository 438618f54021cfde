"""Can a side reach its objective? A `reach` scenario whose zone is walled off from every unit
of the side that must reach it cannot be won, only timed out: validate refuses it.

The check is generous on purpose: any walkable square counts and every diagonal step is allowed
(some rulesets forbid cutting a wall's corner), so a zone it calls unreachable is unreachable
under every ruleset. Path search runs in python-tcod's C code: a 512x512 map takes milliseconds.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np
import tcod.path

from game.content.maps import ParsedMap, Square
from game.content.schema import TerrainSpec


def walkable_array(parsed: ParsedMap, terrain: Mapping[str, TerrainSpec]) -> np.ndarray:
    """1 where a unit can stand, 0 elsewhere, indexed [y, x]."""
    walkable = {ident for ident, spec in terrain.items() if spec.walkable}
    return np.array([[ident in walkable for ident in row] for row in parsed.terrain_ids],
                    dtype=np.int32)


def reaches(parsed: ParsedMap, terrain: Mapping[str, TerrainSpec], starts: Iterable[Square],
            goal: Iterable[Square]) -> bool:
    """Whether a walk over walkable squares leads from any of `starts` to any of `goal`."""
    cost = walkable_array(parsed, terrain)
    distance = tcod.path.maxarray(cost.shape, dtype=np.int32)
    unreached = int(distance[0, 0])
    for x, y in starts:
        distance[y, x] = 0
    tcod.path.dijkstra2d(distance, cost, 1, 1, out=distance)
    return any(int(distance[y, x]) < unreached for x, y in goal)
