"""A moment's effect (suppressive fire's circle) is drawn only on squares the side has explored,
and the circle leaves wall squares to their glyphs."""

from __future__ import annotations

from game.core import events as ev
from game.core.events import Check
from game.core.queries import explored_squares
from game.ui.picture import effects_of, take_picture
from tests.ui.ui_helpers import FOG, new_match


def test_a_suppressed_circle_flashes_only_on_explored_open_ground():
    match = new_match(FOG, 3, {"blue"})
    try:
        battle = match.battle
        explored = explored_squares(battle, "blue")
        grid = battle.session.grid
        picture = take_picture(match, "blue", None, False)
        shooter = next(uid for uid, _ in battle.session.units() if match.side_of(uid) == "blue")
        at, diameter = (8, 2), 9            # the door in the wall: half of it beyond, unseen
        fired = ev.SuppressionFired(shooter, at, diameter, Check.of("aim", (5,), []), 10, 16,
                                    seen_by=("blue",))
        circle = set(grid.disc(at, diameter))
        assert any(not explored[y, x] for x, y in circle)      # the test means something
        assert any(not grid.walkable[y, x] and not grid.transparent[y, x] for x, y in circle)
        drawn = effects_of(match, picture, [fired])
        areas = {sq for sq, effect in drawn.items() if effect == "area"}
        assert areas
        assert all(explored[y, x] for x, y in drawn)
        assert all(grid.walkable[y, x] or grid.transparent[y, x] for x, y in areas)
    finally:
        match.close()
