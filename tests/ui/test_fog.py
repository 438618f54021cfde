"""No enemy a side cannot see ever appears on that side's map, as the map widget draws it."""

from __future__ import annotations

import random

import numpy as np
from textual.app import App, ComposeResult

from game.core.commands import Attack, EndTurn, Move
from game.core.events import Refused
from game.core.queries import reach, unit_info, visible_squares
from game.ui.board import CELL, TerrainLook
from game.ui.glyphs import SIDE_LETTERS
from game.ui.scene import board_scene, known_units
from game.ui.widgets.map_view import MapView
from tests.ui.ui_helpers import FOG, new_match

UNIT_LETTERS = set(SIDE_LETTERS) | {letter.lower() for letter in SIDE_LETTERS}


class MapOnly(App):
    def __init__(self, look: TerrainLook) -> None:
        super().__init__()
        self.look = look

    def compose(self) -> ComposeResult:
        yield MapView(self.look)


def drawn_squares(view: MapView, width: int, height: int) -> dict[tuple[int, int], str]:
    """The two characters the widget draws on each square, from its strips."""
    out = {}
    for y in range(height):
        text = view.row_strip(y).text
        for x in range(width):
            out[(x, y)] = text[x * CELL:(x + 1) * CELL]
    return out


def random_command(match, rng: random.Random):
    battle = match.battle
    uid = battle.session.active
    side = battle.session.side_of(uid)
    enemies = [u for u in known_units(match, side) if u.side != side and u.state == "ok"]
    roll = rng.random()
    if enemies and roll < 0.4:
        return Attack(uid, rng.choice(enemies).uid)
    squares = list(reach(battle, uid).squares())
    if squares and roll < 0.9:
        return Move(uid, tuple(reach(battle, uid).path_to(rng.choice(squares))))
    return EndTurn(uid)


async def test_no_enemy_out_of_sight_is_ever_drawn():
    rng = random.Random(7)
    match = new_match(FOG, 5, {"blue", "red", "green"})
    grid = match.battle.session.grid
    app = MapOnly(TerrainLook.of(grid, match.battle.session.setup))
    checked_hidden = checked_seen = 0
    async with app.run_test(size=(60, 16)):
        view = app.query_one(MapView)
        for _ in range(120):
            if match.over:
                break
            for side in match.sides:
                view.show(board_scene(match, side, known_units(match, side)))
                drawn = drawn_squares(view, grid.width, grid.height)
                seen = visible_squares(match.battle, side)
                units = {u.square: u for u in (unit_info(match.battle, uid) for uid in match.battle.session.entities) if u.square is not None}
                for square, text in drawn.items():
                    unit = units.get(square)
                    x, y = square
                    if unit is not None and unit.side != side and not seen[y, x]:
                        checked_hidden += 1
                        assert text[0] not in UNIT_LETTERS, f"{side} sees {unit.name} at {square}"
                    elif text[0] in UNIT_LETTERS and text != view.look.texts[grid.terrain[y, x]]:
                        assert unit is not None, f"{side}'s map shows a unit at empty {square}"
                        assert unit.side == side or seen[y, x]
                        checked_seen += unit.side != side
            result = match.submit(random_command(match, rng))
            if isinstance(result, Refused):
                match.submit(EndTurn(match.battle.session.active))
    assert checked_hidden > 50 and checked_seen > 5      # both cases actually came up
    assert not np.all(visible_squares(match.battle, "blue"))


def test_a_replayed_step_into_the_fog_is_not_drawn():
    from game.ui.scene import with_unit_at

    match = new_match(FOG, 5, {"blue"})
    scene = board_scene(match, "blue", known_units(match, "blue"))
    own = next(u for u in known_units(match, "blue") if u.side == "blue")
    hidden = next((x, y) for y in range(scene.height) for x in range(scene.width)
                  if not scene.visible[y, x])
    x, y = own.square
    seen = next(sq for sq in [(x + 1, y), (x, y + 1)]
                if scene.visible[sq[1], sq[0]] and sq not in scene.units)
    stepped = with_unit_at(scene, match, own.uid, own.square, seen)
    assert own.square not in stepped.units and stepped.units[seen] == scene.units[own.square]
    vanished = with_unit_at(scene, match, own.uid, own.square, hidden)
    assert own.square not in vanished.units and hidden not in vanished.units
