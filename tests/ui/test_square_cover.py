"""The status line names the cover a square gives a unit standing on it, side by side, so the
player sees that cover counts only against attackers on the side it faces."""

from __future__ import annotations

import numpy as np

from game.ui.board import TerrainLook
from game.ui.picture import shelter, take_picture, where
from tests.ui.ui_helpers import DUEL, new_match


def test_the_status_line_names_the_cover_by_side():
    match = new_match(DUEL, 7, {"blue"})
    session = match.battle.session
    uid = match.active_uid
    picture = take_picture(match, "blue", uid, my_turn=True)
    look = TerrainLook.of(session.grid, session.setup)
    # (3, 1): the yard's north wall above it, a low wall (4, 2) to the south-east.
    assert where(match, picture, look, (3, 1)) == "(3,1) Open ground, full cover N NE NW, half cover SE"
    # (6, 2): open on every side.
    assert where(match, picture, look, (6, 2)) == "(6,2) Open ground"
    # The cover object's own square names its own cover, not its neighbours'.
    assert where(match, picture, look, (4, 2)) == "(4,2) Low cover, half cover"
    match.close()


def test_cover_the_side_has_not_seen_is_not_named():
    match = new_match(DUEL, 7, {"blue"})
    grid = match.battle.session.grid
    around = grid.cover_around((3, 1))
    assert sorted(around) == [((-1, -1), "full"), ((0, -1), "full"), ((1, -1), "full"),
                              ((1, 1), "half")]
    explored = np.ones((grid.height, grid.width), dtype=bool)
    assert shelter(around, explored, (3, 1)) == ", full cover N NE NW, half cover SE"
    explored[2, 4] = False             # the low wall not yet seen: not given away
    assert shelter(around, explored, (3, 1)) == ", full cover N NE NW"
    explored[0, 2:5] = False
    assert shelter(around, explored, (3, 1)) == ""
    match.close()
