"""The reach tint stays on ground the side has explored: it never draws the unexplored layout."""

from __future__ import annotations

from tests.ui.ui_helpers import FOG, new_match

from game.core.queries import explored_squares, reach
from game.ui.picture import take_picture


def test_reach_is_tinted_only_on_explored_squares():
    match = new_match(FOG, 5, {"blue", "red", "green"})
    uid = match.active_uid
    side = match.side_of(uid)
    explored = explored_squares(match.battle, side)
    walkable = set(reach(match.battle, uid).squares())
    hidden = {sq for sq in walkable if not explored[sq[1], sq[0]]}
    seen = walkable - hidden
    assert hidden and seen, "the unit can walk both into explored and unexplored ground"
    picture = take_picture(match, side, uid, my_turn=True)
    tinted = {sq for sq, tint in picture.standing.items() if tint == "reach"}
    assert not tinted & hidden
    assert tinted and tinted <= seen
    assert seen <= set(picture.standing)         # every explored square in reach is tinted
    assert picture.reach is not None and set(picture.reach.squares()) == walkable  # moves still priced
    match.close()
