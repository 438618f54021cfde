"""How things look on the map: one square is two terminal cells wide.

Units of each side differ by letter as well as colour, so players who cannot tell the colours
apart can still tell the sides apart. The letter's case shows the stance (upper-case standing,
lower-case crouched); a prone unit is lower-case and underlined. The second cell of a unit's
square shows its condition: `+` down, `!` pinned by suppressive fire, `^` on overwatch.
"""

from __future__ import annotations

from functools import lru_cache

from rich.color import Color, ColorParseError
from rich.style import Style
from rich.text import Text
from textual.content import Content

from game.content.text import printable

SIDE_LETTERS = ("A", "X", "O", "V")
# Okabe-Ito colours: told apart by most colour-blind players, and by letter by everyone else.
SIDE_COLORS = ("#56b4e9", "#e69f00", "#cc79a7", "#f0e442")

STANCE_WORDS = {"stand": "standing", "crouch": "crouched", "prone": "prone"}
STATUS_MARKS = (("down", "+"), ("pinned", "!"), ("overwatch", "^"))

# background tints of the map's overlays, weakest first (a later one wins on the same square)
TINTS = {
    "objective": "#2a2a40",          # a zone an objective names (game/ui/objectives.py)
    "reach": "#17304a",
    "own_cone": "#1d3d1d",
    "cone": "#4a1d1d",
    "suppressed": "#4a3510",
    "path": "#55551a",
    "danger": "#7a2a2a",
    "target": "#7a1f5a",
    "aim_blast": "#8a4a14",          # a grenade being aimed: its even rings,
    "aim_blast_odd": "#5c3412",      # its odd rings,
    "aim_landing": "#3c3c78",        # and the squares beyond them it may land on
    "aim_area": "#6e5a10",           # suppressive fire being aimed: its circle
}
MAP_BACKGROUND = "#0c0c0c"
REMEMBERED = "#4a4a4a"


def side_letter(index: int) -> str:
    return SIDE_LETTERS[index % len(SIDE_LETTERS)]


def side_color(index: int) -> str:
    return SIDE_COLORS[index % len(SIDE_COLORS)]


def unit_text(side_index: int, stance: str, state: str, statuses: tuple[str, ...]) -> str:
    """The two characters drawn on a unit's square."""
    letter = side_letter(side_index)
    if stance != "stand" or state != "ok":
        letter = letter.lower()
    flags = set(statuses)
    if state != "ok":
        flags.add("down")
    mark = next((m for flag, m in STATUS_MARKS if flag in flags), " ")
    return letter + mark


def safe_color(name: str, fallback: str = "white") -> str:
    """A colour name from content, or `fallback` when the terminal library cannot parse it."""
    try:
        Color.parse(name)
    except ColorParseError:
        return fallback
    return name


@lru_cache(maxsize=4096)
def cell_style(fg: str | None, bg: str | None, bold: bool = False, underline: bool = False,
               reverse: bool = False, dim: bool = False) -> Style:
    return Style(color=fg, bgcolor=bg or MAP_BACKGROUND, bold=bold or None,
                 underline=underline or None, reverse=reverse or None, dim=dim or None)


def plain(text: str | Text) -> Content:
    """Text to show as written: brackets are never read as markup, control characters are
    shown as escapes (for labels, options and buttons, which read markup from a str). A rich
    Text is shown by its characters."""
    return Content(printable(text.plain if isinstance(text, Text) else text))
