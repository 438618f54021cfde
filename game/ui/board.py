"""Painting the map: a `Scene` (what one side sees, plus the UI's overlays) into Strips.

A scene is a plain snapshot: the map widget draws from it and never asks the battle anything,
so drawing stays cheap and never runs while a computer player is reading the battle.
Rows are painted one at a time (Textual's Line API); `rows_changed` tells which rows differ
between two scenes so the widget repaints only those.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from game.ui.glyphs import MAP_BACKGROUND, REMEMBERED, TINTS, cell_style, safe_color

Square = tuple[int, int]
CELL = 2                      # terminal cells per square
CURSOR_BG = "#d8d8d8"
CURSOR_FG = "#000000"

# A moment of action drawn over the board (a shot's line, its target, a throw, a blast, an area
# under suppressive fire): a background, and on an empty square a mark that does without colour.
EFFECTS = {
    "shot": "#6a5a10",
    "hit": "#b01818",
    "miss": "#2a4a7a",
    "flight": "#6a4a10",
    "blast": "#a04000",
    "blast_ring": "#6a2a00",
    "area": "#5a4010",
}
EFFECT_MARKS = {"shot": "· ", "flight": "· ", "blast": "**", "blast_ring": "* ",
                "area": ": ", "hit": "><", "miss": "<>"}
BACKGROUNDS = {**TINTS, **EFFECTS}


@dataclass(frozen=True, slots=True)
class UnitMark:
    text: str                 # two characters
    color: str
    bold: bool = False
    underline: bool = False
    reverse: bool = False


@dataclass(frozen=True, slots=True)
class TerrainLook:
    """Text and colour of each terrain index, in sight and remembered."""

    texts: tuple[str, ...]
    colors: tuple[str, ...]
    names: tuple[str, ...]

    @classmethod
    def of(cls, grid, setup) -> TerrainLook:
        specs = {t.id: t for t in setup.terrain}
        texts, colors, names = [], [], []
        for ident in grid.terrain_names:
            spec = specs.get(ident)
            glyph = spec.glyph if spec else "?"
            solid = spec is not None and not spec.walkable and spec.blocks_sight
            texts.append(glyph * 2 if solid else glyph + " ")
            colors.append(safe_color(spec.color) if spec else "white")
            names.append(spec.name if spec else ident)
        return cls(tuple(texts), tuple(colors), tuple(names))


@dataclass(slots=True)
class Scene:
    terrain: np.ndarray                        # terrain index, [y, x]
    visible: np.ndarray                        # bool [y, x]: seen now by the viewing side
    explored: np.ndarray                       # bool [y, x]: ever seen
    units: dict[Square, UnitMark] = field(default_factory=dict)
    tints: dict[Square, str] = field(default_factory=dict)   # square -> key of glyphs.TINTS
    cursor: Square | None = None
    _unit_rows: dict[int, dict[int, UnitMark]] | None = None
    _tint_rows: dict[int, dict[int, str]] | None = None

    @property
    def width(self) -> int:
        return int(self.terrain.shape[1])

    @property
    def height(self) -> int:
        return int(self.terrain.shape[0])

    def unit_rows(self) -> dict[int, dict[int, UnitMark]]:
        if self._unit_rows is None:
            self._unit_rows = _by_row(self.units)
        return self._unit_rows

    def tint_rows(self) -> dict[int, dict[int, str]]:
        if self._tint_rows is None:
            self._tint_rows = _by_row(self.tints)
        return self._tint_rows

    def with_overlay(self, tints: dict[Square, str], cursor: Square | None) -> Scene:
        """The same board with other overlays (cheap: the arrays are shared)."""
        return Scene(self.terrain, self.visible, self.explored, self.units, tints, cursor,
                     self._unit_rows, None)


def _by_row(squares: dict) -> dict[int, dict[int, object]]:
    rows: dict[int, dict[int, object]] = {}
    for (x, y), value in squares.items():
        rows.setdefault(y, {})[x] = value
    return rows


def blank_scene(width: int, height: int) -> Scene:
    shape = (height, width)
    return Scene(np.zeros(shape, np.int16), np.zeros(shape, bool), np.zeros(shape, bool))


def paint_row(scene: Scene, look: TerrainLook, y: int) -> Strip:
    """One map row as a Strip, CELL columns per square, equal styles merged into one segment."""
    width = scene.width
    if not 0 <= y < scene.height:
        blank = cell_style(None, MAP_BACKGROUND)
        return Strip([Segment(" " * (width * CELL), blank)], width * CELL)
    units = scene.unit_rows().get(y, {})
    tints = scene.tint_rows().get(y, {})
    cursor_x = scene.cursor[0] if scene.cursor is not None and scene.cursor[1] == y else -1
    visible = scene.visible[y].tolist()
    explored = scene.explored[y].tolist()
    terrain = scene.terrain[y].tolist()
    texts, colors = look.texts, look.colors
    segments: list[Segment] = []
    run: list[str] = []
    run_style: Style | None = None
    for x in range(width):
        tint = tints.get(x)
        bg = BACKGROUNDS[tint] if tint else None
        unit = units.get(x)
        if unit is not None:
            text = unit.text
            style = cell_style(unit.color, bg, unit.bold, unit.underline, unit.reverse)
        elif tint in EFFECT_MARKS:
            text = EFFECT_MARKS[tint]
            style = cell_style("#ffffff", bg, True)
        elif visible[x]:
            text = texts[terrain[x]]
            style = cell_style(colors[terrain[x]], bg)
        elif explored[x]:
            text = texts[terrain[x]]
            style = cell_style(REMEMBERED, bg)
        else:
            text = "  "
            style = cell_style(None, bg)
        if x == cursor_x and tint not in EFFECTS:     # a moment's effect shows over the cursor
            style = cell_style(CURSOR_FG, CURSOR_BG, True, unit is not None and unit.underline)
        if style is not run_style:
            if run:
                segments.append(Segment("".join(run), run_style))
            run, run_style = [text], style
        else:
            run.append(text)
    if run:
        segments.append(Segment("".join(run), run_style))
    return Strip(segments, width * CELL)


def rows_changed(old: Scene | None, new: Scene) -> set[int]:
    """Rows whose drawing differs between two scenes."""
    if old is None or old.terrain.shape != new.terrain.shape or old.terrain is not new.terrain:
        return set(range(new.height))
    rows: set[int] = set()
    if old.visible is not new.visible:
        diff = (old.visible != new.visible) | (old.explored != new.explored)
        rows.update(np.nonzero(diff.any(axis=1))[0].tolist())
    if old.units is not new.units:
        rows.update(_differing(old.unit_rows(), new.unit_rows()))
    if old.tints is not new.tints:
        rows.update(_differing(old.tint_rows(), new.tint_rows()))
    if old.cursor != new.cursor:
        rows.update(c[1] for c in (old.cursor, new.cursor) if c is not None)
    return rows


def line_between(a: Square, b: Square) -> list[Square]:
    """The squares a straight line from `a` to `b` crosses, both ends included (a drawing of
    where a shot or a throw went, not a line of sight: the engine decided what it could hit)."""
    (x0, y0), (x1, y1) = a, b
    dx, dy = abs(x1 - x0), -abs(y1 - y0)
    sx, sy = (1 if x1 > x0 else -1), (1 if y1 > y0 else -1)
    err, squares = dx + dy, []
    while True:
        squares.append((x0, y0))
        if (x0, y0) == (x1, y1):
            return squares
        twice = 2 * err
        if twice >= dy:
            err += dy
            x0 += sx
        if twice <= dx:
            err += dx
            y0 += sy


def rings(at: Square, radius: int, width: int, height: int) -> dict[Square, int]:
    """The squares of each ring around `at`, out to `radius` rings (0 is `at` itself)."""
    out: dict[Square, int] = {}
    for dy in range(-radius, radius + 1):
        for dx in range(-radius, radius + 1):
            x, y = at[0] + dx, at[1] + dy
            if 0 <= x < width and 0 <= y < height:
                out[(x, y)] = max(abs(dx), abs(dy))
    return out


def _differing(old: dict[int, dict], new: dict[int, dict]) -> list[int]:
    return [y for y in old.keys() | new.keys() if old.get(y) != new.get(y)]
