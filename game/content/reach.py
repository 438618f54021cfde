"""Can a side reach its objective? A `reach` scenario whose zone is walled off from every unit
of the side that must reach it cannot be won, only timed out: validate refuses it.

Any walkable square counts (other units are not in the way). A diagonal step past a wall's
corner is allowed only where the scenario's own ruleset allows one (`movement: corner_cutting`;
every bundled ruleset forbids it): a gap that opens onto a square no unit can stand on, with
only a corner to cut round it, leads nowhere. Path search runs in python-tcod's C code.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np
import tcod.path

from game.content.deploy import Deployment
from game.content.maps import ParsedMap, Square
from game.content.schema import ScenarioSpec, TerrainSpec
from game.core.grid import corner_conditions, step_graph


def unreachable_objective(
    scenario: ScenarioSpec, parsed: ParsedMap, terrain: Mapping[str, TerrainSpec],
    deployments: list[Deployment], *, corner_cutting: bool = False,
) -> str | None:
    """Why a `reach` objective cannot be won (no unit of its side can walk there), or None."""
    victory = scenario.victory
    if victory.type != "reach" or not deployments or victory.zone not in parsed.zones:
        return None
    starts = [(d.x, d.y) for d in deployments if d.side == victory.side]
    if not starts or reaches(parsed, terrain, starts, parsed.zones[victory.zone], corner_cutting=corner_cutting):
        return None
    return (f"no unit of side {victory.side!r} can walk to zone {victory.zone!r}: "
            f"{_why_cut_off(parsed, terrain, starts, parsed.zones[victory.zone])}, so the side "
            "can never win")


def unreachable_zones(
    scenario: ScenarioSpec, parsed: ParsedMap, terrain: Mapping[str, TerrainSpec],
    deployments: list[Deployment], *, corner_cutting: bool = False,
) -> list[tuple[int, str]]:
    """(index, why) of each `reach`, `extract` or `escort` objective whose zone no unit of its
    side can walk to: the side could never meet it."""
    found = []
    for index, objective in enumerate(scenario.objectives):
        zone = objective.zone
        if objective.type not in ("reach", "extract", "escort") or zone not in parsed.zones:
            continue
        starts = [(d.x, d.y) for d in deployments if d.side == objective.side]
        goal = parsed.zones[zone or ""]
        if starts and not reaches(parsed, terrain, starts, goal, corner_cutting=corner_cutting):
            found.append((index, f"no unit of side {objective.side!r} can walk to zone {zone!r}: "
                                 f"{_why_cut_off(parsed, terrain, starts, goal)}"))
    return found


def _why_cut_off(parsed: ParsedMap, terrain: Mapping[str, TerrainSpec], starts: list[Square],
                 goal: Iterable[Square]) -> str:
    if reaches(parsed, terrain, starts, goal, corner_cutting=True):
        return ("the only way there steps diagonally past a wall's corner, which these rules do "
                "not allow (open the square beside it)")
    return "walls or other ground no unit can stand on cut it off"


def walkable_array(parsed: ParsedMap, terrain: Mapping[str, TerrainSpec]) -> np.ndarray:
    """1 where a unit can stand, 0 elsewhere, indexed [y, x]."""
    walkable = {ident for ident, spec in terrain.items() if spec.walkable}
    return np.array([[ident in walkable for ident in row] for row in parsed.terrain_ids],
                    dtype=np.int32)


def reaches(parsed: ParsedMap, terrain: Mapping[str, TerrainSpec], starts: Iterable[Square],
            goal: Iterable[Square], *, corner_cutting: bool = False) -> bool:
    """Whether a walk over walkable squares leads from any of `starts` to any of `goal`.

    An A* search toward one goal square stops as soon as it gets there (milliseconds on a
    512x512 map); when it cannot, it has explored every square the starts reach, so the other
    goal squares are read from its distances.
    """
    goal = list(goal)
    if not goal:
        return False
    walkable = walkable_array(parsed, terrain)
    graph: tcod.path.SimpleGraph | tcod.path.CustomGraph
    if corner_cutting:
        graph = tcod.path.SimpleGraph(cost=walkable, cardinal=1, diagonal=1)
    else:
        graph = step_graph(walkable, walkable, corner_conditions(walkable.astype(bool)))
    finder = tcod.path.Pathfinder(graph)
    for x, y in starts:
        finder.add_root((y, x))
    finder.resolve((goal[0][1], goal[0][0]))
    unreached = np.iinfo(finder.distance.dtype).max
    return any(int(finder.distance[y, x]) < unreached for x, y in goal)
