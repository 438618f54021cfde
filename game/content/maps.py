"""A map's rows of glyphs -> a grid of terrain ids and its deployment zones.

x is the column and y the row, from the top-left corner. A map's legend starts as every
terrain's own glyph; the map's `legend` adds glyphs or overrides them, and may mark a
deployment zone (`A: {terrain: open, zone: alpha}`). Shared by the loader (which reports each
issue at its line in the file) and the engine (which builds its arrays from the result).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from game.content.problems import ContentError, Loc, Problem, format_key, suggest
from game.content.schema import LegendEntry, MapSpec, TerrainSpec

MAX_WIDTH = 512
Square = tuple[int, int]


@dataclass(frozen=True)
class ParsedMap:
    """A map ready for play: terrain ids by row, and each zone's squares in row-major order."""

    id: str
    width: int
    height: int
    terrain_ids: list[list[str]]
    zones: dict[str, list[Square]]

    def inside(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def terrain_at(self, x: int, y: int) -> str:
        return self.terrain_ids[y][x]


@dataclass(frozen=True)
class MapIssue:
    """A problem at `loc` inside the map spec; `offset` is the character within a row."""

    loc: Loc
    message: str
    offset: int = 0


def legend_of(spec: MapSpec, terrain: Mapping[str, TerrainSpec]) -> dict[str, LegendEntry]:
    """Every terrain's glyph, then the map's own legend on top."""
    legend = {item.glyph: LegendEntry(terrain=item.id) for item in terrain.values()}
    legend.update(spec.legend)
    return legend


def _legend_issues(spec: MapSpec, terrain: Mapping[str, TerrainSpec]) -> list[MapIssue]:
    return [
        MapIssue(
            ("legend", glyph, "terrain"),
            f"unknown terrain {entry.terrain!r}" + suggest(entry.terrain, terrain),
        )
        for glyph, entry in spec.legend.items()
        if entry.terrain not in terrain
    ]


def _shape_issues(rows: list[str]) -> list[MapIssue]:
    width = len(rows[0])
    if width == 0:
        return [MapIssue(("rows", 0), "the first row is empty")]
    if width > MAX_WIDTH:
        return [MapIssue(("rows", 0), f"rows are {width} squares wide; at most {MAX_WIDTH}")]
    return [
        MapIssue(
            ("rows", y), f"row {y + 1} (y={y}) has {len(row)} squares; the first row has {width}"
        )
        for y, row in enumerate(rows)
        if len(row) != width
    ]


def _glyph_issues(rows: list[str], legend: Mapping[str, LegendEntry]) -> list[MapIssue]:
    first: dict[str, Square] = {}
    count: dict[str, int] = {}
    known = set(legend)
    for y, row in enumerate(rows):
        if known.issuperset(row):            # the common case, checked in C
            continue
        for x, glyph in enumerate(row):
            if glyph not in legend:
                first.setdefault(glyph, (x, y))
                count[glyph] = count.get(glyph, 0) + 1
    issues = []
    for glyph, (x, y) in first.items():
        more = count[glyph] - 1
        extra = f" (and {more} more square{'s' if more != 1 else ''})" if more else ""
        message = (
            f"unknown glyph {glyph!r} at [{x}, {y}] (row {y + 1}, column {x + 1}){extra}: "
            "add it to the legend or use a terrain's glyph"
        )
        issues.append(MapIssue(("rows", y), message, offset=x))
    return issues


def _zone_issues(spec: MapSpec) -> list[MapIssue]:
    width, height = len(spec.rows[0]), len(spec.rows)
    issues = []
    for name, rects in spec.zones.items():
        for index, (x, y, w, h) in enumerate(rects):
            if x + w > width or y + h > height:
                corner = [x + w - 1, y + h - 1]
                issues.append(MapIssue(
                    ("zones", name, index),
                    f"zone {name!r} [{x}, {y}, {w}, {h}] reaches {corner}, outside the "
                    f"{width}x{height} map"))
    return issues


def _add_rects(spec: MapSpec, zones: dict[str, list[Square]]) -> None:
    """The squares of the `zones` rectangles join the legend's, in row-major order."""
    for name, rects in spec.zones.items():
        squares = set(zones.get(name, ()))
        for x, y, w, h in rects:
            squares.update((sx, sy) for sy in range(y, y + h) for sx in range(x, x + w))
        zones[name] = sorted(squares, key=lambda square: (square[1], square[0]))


def scan_map(
    spec: MapSpec, terrain: Mapping[str, TerrainSpec]
) -> tuple[ParsedMap | None, list[MapIssue]]:
    """Parse `spec`, or return None with every issue found."""
    issues = _legend_issues(spec, terrain) + _shape_issues(spec.rows)
    legend = legend_of(spec, terrain)
    issues += _glyph_issues(spec.rows, legend)
    if not issues:
        issues += _zone_issues(spec)
    if issues:
        return None, issues
    zones: dict[str, list[Square]] = {}
    terrain_of = {glyph: entry.terrain for glyph, entry in legend.items()}
    zone_of = {glyph: entry.zone for glyph, entry in legend.items() if entry.zone is not None}
    grid = []
    for y, row in enumerate(spec.rows):
        grid.append(list(map(terrain_of.__getitem__, row)))
        if zone_of.keys().isdisjoint(row):   # most rows hold no zone: skip them in C
            continue
        for x, glyph in enumerate(row):
            zone = zone_of.get(glyph)
            if zone is not None:
                zones.setdefault(zone, []).append((x, y))
    _add_rects(spec, zones)
    width, height = len(spec.rows[0]), len(spec.rows)
    return ParsedMap(spec.id, width, height, grid, zones), []


def parse_map(spec: MapSpec, terrain: Mapping[str, TerrainSpec]) -> ParsedMap:
    """Parse a map for play. Raises ContentError naming every issue."""
    parsed, issues = scan_map(spec, terrain)
    if parsed is None:
        raise ContentError(
            Problem(f"map {spec.id}", None, None, format_key(issue.loc), issue.message)
            for issue in issues
        )
    return parsed
