"""The battle map: one ScrollView drawing rows with the Line API, not a widget per square.

It draws a `Scene` and nothing else. Painted rows are cached; a new scene drops and repaints only
the rows that changed (`board.rows_changed`), so moving the cursor repaints two lines. Over the
scene it may draw, for a moment, the effects of an action (`flash`: a shot's line and its target,
a throw, a blast, an area under suppressive fire), handed to it as tints by square.
"""

from __future__ import annotations

from rich.segment import Segment
from textual.events import Click, MouseMove
from textual.geometry import Region, Size, Spacing
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.timer import Timer

from game.ui.board import CELL, Scene, TerrainLook, blank_scene, paint_row, rows_changed
from game.ui.glyphs import MAP_BACKGROUND, cell_style

Square = tuple[int, int]


class MapView(ScrollView, can_focus=False):
    """Draws the battlefield as one side sees it; reports the square under the mouse."""

    class Hovered(Message):
        def __init__(self, square: Square) -> None:
            super().__init__()
            self.square = square

    class Clicked(Message):
        def __init__(self, square: Square, button: int) -> None:
            super().__init__()
            self.square = square
            self.button = button

    def __init__(self, look: TerrainLook, scene: Scene | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.look = look
        self.scene = scene if scene is not None else blank_scene(1, 1)
        self._rows: dict[int, Strip] = {}
        self._hover: Square | None = None
        self.virtual_size = Size(self.scene.width * CELL, self.scene.height)
        self.rows_painted = 0              # counted for the benchmark
        self.last_changed: set[int] = set()
        self.base = self.scene             # the scene as handed over, before any effects
        self.effects: dict[Square, str] = {}    # square -> key of board.EFFECTS, for a moment
        self._flash_timer: Timer | None = None

    # --- drawing ----------------------------------------------------------------------------

    def show(self, scene: Scene) -> set[int]:
        """Draw `scene` (under the effects being flashed); repaint only the rows that differ from
        the last one. Returns them."""
        self.base = scene
        if self.effects:
            scene = scene.with_overlay({**scene.tints, **self.effects}, scene.cursor)
        old, self.scene = self.scene, scene
        size = Size(scene.width * CELL, scene.height)
        if size != self.virtual_size:
            self.virtual_size = size
            self._rows.clear()
            self.refresh()
            return set(range(scene.height))
        changed = rows_changed(old, scene)
        for row in changed:
            self._rows.pop(row, None)
        self._refresh_rows(changed)
        self.last_changed = changed
        return changed

    def flash(self, effects: dict[Square, str], seconds: float) -> None:
        """Draw `effects` over the scene for `seconds` (0: until the next flash or `unflash`)."""
        if self._flash_timer is not None:
            self._flash_timer.stop()
            self._flash_timer = None
        self.effects = dict(effects)
        self.show(self.base)
        if seconds > 0 and effects and self.is_mounted:
            self._flash_timer = self.set_timer(seconds, self.unflash)

    def unflash(self) -> None:
        if self._flash_timer is not None:
            self._flash_timer.stop()
            self._flash_timer = None
        if self.effects:
            self.effects = {}
            self.show(self.base)

    def forget(self) -> None:
        """Drop every cached row (the benchmark's full repaint)."""
        self._rows.clear()
        self.refresh()

    def padding_cells(self, size: Size | None = None) -> tuple[int, int]:
        """Blank columns and rows before the map, which is centred when smaller than the view."""
        width, height = size or self.size
        return (max(0, (width - self.scene.width * CELL) // 2),
                max(0, (height - self.scene.height) // 2))

    def _refresh_rows(self, rows: set[int]) -> None:
        if not rows or not self.is_mounted:
            return
        _, pad_y = self.padding_cells()
        top = round(self.scroll_offset.y) - pad_y
        width = self.size.width
        for row in rows:
            if top <= row < top + self.size.height:
                self.refresh(Region(0, row - top, width, 1))

    def row_strip(self, row: int) -> Strip:
        """The whole map row `row`, from the cache or freshly painted."""
        strip = self._rows.get(row)
        if strip is None:
            strip = self._rows[row] = paint_row(self.scene, self.look, row)
            self.rows_painted += 1
        return strip

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        size = self.size
        pad_x, pad_y = self.padding_cells(size)
        row = y + scroll_y - pad_y
        width = size.width
        blank = cell_style(None, MAP_BACKGROUND)
        if not 0 <= row < self.scene.height:
            return Strip([Segment(" " * width, blank)], width)
        strip = self.row_strip(row)
        if pad_x:
            return Strip([Segment(" " * pad_x, blank), *strip], pad_x + strip.cell_length
                         ).extend_cell_length(width, blank)
        return strip.crop_extend(scroll_x, scroll_x + width, blank)

    def keep_in_view(self, *squares: Square) -> bool:
        """Scroll so that every one of `squares` is in view, or the last one if they do not fit
        together (a shot: its shooter and its target). Whether they all fit."""
        if not squares:
            return True
        fits = True
        xs, ys = [s[0] for s in squares], [s[1] for s in squares]
        region = Region(min(xs) * CELL, min(ys), (max(xs) - min(xs) + 1) * CELL,
                        max(ys) - min(ys) + 1)
        width, height = self.scrollable_content_region.size
        if region.width + 8 > width or region.height + 4 > height:
            last = squares[-1]
            region = Region(last[0] * CELL, last[1], CELL, 1)
            fits = False
        self.scroll_to_region(region, spacing=Spacing(2, 4, 2, 4), animate=False, immediate=True)
        odd = round(self.scroll_x) % CELL          # keep whole squares at the left edge
        if odd:
            self.scroll_to(x=round(self.scroll_x) - odd, animate=False, immediate=True)
        return fits

    # --- mouse ------------------------------------------------------------------------------

    def _square_at(self, event: MouseMove | Click) -> Square | None:
        offset = event.get_content_offset(self)
        if offset is None:
            return None
        pad_x, pad_y = self.padding_cells()
        x = (offset.x + self.scroll_offset.x - pad_x) // CELL
        y = offset.y + self.scroll_offset.y - pad_y
        if 0 <= x < self.scene.width and 0 <= y < self.scene.height:
            return (x, y)
        return None

    def on_mouse_move(self, event: MouseMove) -> None:
        square = self._square_at(event)
        if square is not None and square != self._hover:
            self._hover = square
            self.post_message(self.Hovered(square))

    def on_click(self, event: Click) -> None:
        square = self._square_at(event)
        if square is not None:
            event.stop()
            self.post_message(self.Clicked(square, event.button))
