"""Building a `Scene` from the battle, for the side whose player is looking.

Only what that side knows goes in: its fog (seen now, remembered), its own units, enemies
standing where it sees, overwatch cones of enemies it sees and its own, and suppression fire
it saw. Nothing here decides anything; it reads the engine's queries.
"""

from __future__ import annotations

from game.core.queries import (UnitInfo, enemy_cones, explored_squares, floor_items, own_cones,
                               unit_info, units_known_to, visible_squares)
from game.ui.board import Scene, UnitMark
from game.ui.glyphs import side_color, unit_text
from game.ui.match import Match
from game.ui.objectives import zone_tints

Square = tuple[int, int]
ITEM_COLOR = "#e0c040"     # an item on the floor (d20: a medical kit, a spare magazine)


def known_units(match: Match, viewer: str) -> list[UnitInfo]:
    """The viewer's own units and the enemies it sees now."""
    return units_known_to(match.battle, viewer)


def board_scene(match: Match, viewer: str, known: list[UnitInfo]) -> Scene:
    """Fog and units as `viewer` knows them (rebuild after every command)."""
    battle = match.battle
    active = match.active_uid
    units: dict[Square, UnitMark] = {}
    for item in floor_items(battle, viewer):      # items lying on ground the side has seen
        units[item.at] = UnitMark(item.glyph + " ", ITEM_COLOR, bold=True)
    for info in known:
        if info.square is None:
            continue
        index = match.side_index(info.side)
        text = unit_text(index, info.stance, info.state, info.statuses)
        units[info.square] = UnitMark(text, side_color(index), bold=info.uid == active,
                                      underline=info.stance == "prone",
                                      reverse=info.uid == active)
    return Scene(battle.session.grid.terrain, visible_squares(battle, viewer).copy(),
                 explored_squares(battle, viewer).copy(), units)


def standing_tints(match: Match, viewer: str, reach: dict[Square, int] | None) -> dict[Square, str]:
    """Overlays that stay while the cursor moves: reach, cones, suppression circles.

    Reach is tinted only on squares the side has explored: tinting the rest would draw the
    walls and doors of ground it has never seen.
    """
    battle = match.battle
    tints: dict[Square, str] = zone_tints(match)
    if reach:
        explored = explored_squares(battle, viewer)
        for square in reach:
            if explored[square[1], square[0]]:
                tints[square] = "reach"
    for squares in own_cones(battle, viewer).values():
        for square in squares:
            tints[square] = "own_cone"
    for squares in enemy_cones(battle, viewer).values():
        for square in squares:
            tints[square] = "cone"
    for at, diameter, seen in match.suppressions.values():
        if viewer in seen:
            for square in battle.session.grid.disc(at, diameter):
                tints[square] = "suppressed"
    return tints


def danger_squares(match: Match, viewer: str) -> set[Square]:
    """Squares inside the overwatch cone of an enemy this side can see."""
    return {sq for squares in enemy_cones(match.battle, viewer).values() for sq in squares}


def with_unit_at(scene: Scene, match: Match, uid: str, origin: Square, square: Square) -> Scene:
    """The scene drawn before `uid` moved from `origin`, with it at `square` (a replayed step).

    A step onto a square the viewing side does not see leaves the unit out of the picture.
    """
    units = dict(scene.units)
    mark = units.pop(origin, None)
    if not scene.visible[square[1], square[0]]:
        return Scene(scene.terrain, scene.visible, scene.explored, units, scene.tints, scene.cursor)
    if mark is None:
        info = unit_info(match.battle, uid)
        index = match.side_index(info.side)
        mark = UnitMark(unit_text(index, info.stance, info.state, info.statuses), side_color(index))
    units[square] = mark
    return Scene(scene.terrain, scene.visible, scene.explored, units, scene.tints, scene.cursor)
