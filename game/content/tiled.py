"""Maps made in the Tiled map editor (https://www.mapeditor.org): `.tmj` (JSON) and `.tmx` (XML).

    read_tiled(path) -> TiledMap (a MapSpec and where each terrain came from) or None, problems

The file is read by pytiled-parser. What the game takes from it:

- the tile layer named `terrain`: one tile per square; each tile names its terrain by a string
  property `terrain` (else by its Class). The bundled tileset `content/maps/skirmish.tsj` has
  one tile for each bundled terrain, ready to use;
- every object of every object layer is a zone named by the object's Name: a rectangle covers
  the squares it touches, a point the square it is in (deployment zones, objectives);
- map properties `id`, `name` and `description` (strings); the id defaults to the file's name.

Before pytiled-parser opens anything, the file and every external tileset it names are read
as regular files of at most MAX_FILE_BYTES (game.files), and the map's header is checked:
orthogonal, not infinite, at most 512 squares either way, tile data not compressed, no object
templates. A file it cannot read is told in a sentence with the file and, where there is one,
the layer, tile or object: never a traceback.
"""

from __future__ import annotations

import json
import math
import re
import xml.etree.ElementTree as etree
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from game.content.maps import MAX_WIDTH
from game.content.problems import Problem
from game.content.schema import MapSpec
from game.content.yaml_marks import MAX_FILE_BYTES
from game.files import NotRegularFile, read_regular

TILED_SUFFIXES = (".tmj", ".tmx")
TERRAIN_LAYER = "terrain"
GLYPHS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
"""The glyphs the map's rows are written in, one per terrain the map uses (never shown)."""
GID_MASK = 0x0FFFFFFF          # the high bits of a tile's gid are its flips and rotation
IDENT = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class TiledMap:
    spec: MapSpec
    places: dict[str, str]
    """glyph -> where its terrain was named ("tile 3 of tileset 'ground', first at [2, 5] in
    layer 'terrain'"), to say where an unknown terrain is."""


class _Refused(Exception):
    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key, self.message = key, message


def read_tiled(path: Path, file: str | None = None) -> tuple[TiledMap | None, list[Problem]]:
    """The map in a Tiled file, or None with the problems found."""
    file = file or str(path)
    try:
        _check_header(path)
        parsed = _parse(path)
        return _convert(path, parsed, file)
    except _Refused as refused:
        return None, [Problem(file, None, None, refused.key, refused.message)]
    except _Many as many:
        return None, [Problem(file, None, None, key, message) for key, message in many.found]


class _Many(Exception):
    def __init__(self, found: list[tuple[str, str]]) -> None:
        super().__init__(found)
        self.found = found


# --- guards, before pytiled-parser opens a file -------------------------------------------------

def _read(path: Path, what: str) -> bytes:
    try:
        raw = read_regular(path, MAX_FILE_BYTES + 1)
    except NotRegularFile as error:
        raise _Refused("", f"cannot read {what}: {error}") from None
    except OSError as error:
        raise _Refused("", f"cannot read {what}: {error.strerror or error}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise _Refused("", f"{what} is over {MAX_FILE_BYTES} bytes; content files are limited "
                       "to 1 MiB")
    return raw


def _check_header(path: Path) -> None:
    raw = _read(path, "the map")
    if path.suffix == ".tmj":
        header = _json_header(raw)
    else:
        header = _xml_header(raw)
    if header["orientation"] != "orthogonal":
        raise _Refused("orientation", f"the map is {header['orientation']}; only orthogonal "
                       "maps (square tiles in rows) can be played")
    if header["infinite"]:
        raise _Refused("infinite", "the map is infinite: in Tiled, untick Map > Map "
                       "Properties > Infinite")
    width, height = header["width"], header["height"]
    if not (1 <= width <= MAX_WIDTH and 2 <= height <= MAX_WIDTH):
        raise _Refused("", f"the map is {width}x{height} squares; at most {MAX_WIDTH} either "
                       "way, and at least 2 rows")
    if header["tilewidth"] < 1 or header["tileheight"] < 1:
        raise _Refused("", "the map's tile width and height must be at least 1 pixel")
    if header["compressed"]:
        raise _Refused(f"layer {header['compressed']!r}", "its tile data is compressed: in "
                       "Tiled, set Map > Map Properties > Tile Layer Format to CSV")
    if header["template"]:
        raise _Refused("", f"an object uses the template {header['template']!r}: detach it "
                       "(right-click > Detach) so the map holds the object itself")
    for source in header["tilesets"]:
        tileset = path.parent / source
        if tileset.suffix not in (".tsj", ".json", ".tsx"):
            raise _Refused(f"tileset {source!r}", "a tileset file ends in .tsj, .json or .tsx")
        _read(tileset, f"tileset {source!r}")


def _number(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise _Refused("", f"not a Tiled map: {value!r} where a number belongs") from None


def _json_header(raw: bytes) -> dict[str, Any]:
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as error:
        raise _Refused("", f"not a Tiled JSON map: {error}") from None
    if not isinstance(data, dict) or data.get("type") != "map":
        raise _Refused("", 'not a Tiled JSON map (a map has "type": "map")')
    compressed, template = "", ""
    layers = list(data.get("layers") or [])
    while layers:
        layer = layers.pop()
        if not isinstance(layer, dict):
            continue
        layers.extend(layer.get("layers") or [])
        if layer.get("compression"):
            compressed = str(layer.get("name", ""))
        for item in layer.get("objects") or []:
            if isinstance(item, dict) and item.get("template"):
                template = str(item["template"])
    sources = [str(t["source"]) for t in data.get("tilesets") or []
               if isinstance(t, dict) and t.get("source") is not None]
    return {
        "orientation": data.get("orientation"), "infinite": bool(data.get("infinite")),
        "width": _number(data.get("width")), "height": _number(data.get("height")),
        "tilewidth": _number(data.get("tilewidth")), "tileheight": _number(data.get("tileheight")),
        "compressed": compressed, "template": template, "tilesets": sources,
    }


def _xml_header(raw: bytes) -> dict[str, Any]:
    try:
        root = etree.fromstring(raw)
    except etree.ParseError as error:
        raise _Refused("", f"not a Tiled XML map: {error}") from None
    if root.tag != "map":
        raise _Refused("", "not a Tiled XML map (it starts with <map>)")
    compressed, template = "", ""
    for layer in root.iter("layer"):
        data = layer.find("data")
        if data is not None and data.get("compression"):
            compressed = layer.get("name", "")
    for item in root.iter("object"):
        if item.get("template"):
            template = item.get("template", "")
    attrib = root.attrib
    return {
        "orientation": attrib.get("orientation"), "infinite": attrib.get("infinite") == "1",
        "width": _number(attrib.get("width")), "height": _number(attrib.get("height")),
        "tilewidth": _number(attrib.get("tilewidth")),
        "tileheight": _number(attrib.get("tileheight")),
        "compressed": compressed, "template": template,
        "tilesets": [t.get("source", "") for t in root.findall("tileset") if t.get("source")],
    }


def _parse(path: Path) -> Any:
    import pytiled_parser

    try:
        return pytiled_parser.parse_map(path)
    except Exception as error:      # noqa: BLE001 - a third-party parser on a player's file
        text = str(error) or type(error).__name__
        raise _Refused("", f"Tiled map that cannot be read: {text}") from None


# --- what the game takes from it ------------------------------------------------------------------

def _layers(layers: list[Any] | None) -> list[Any]:
    """Every layer, those inside groups too, in order."""
    out = []
    for layer in layers or []:
        out.append(layer)
        if hasattr(layer, "layers"):
            out += _layers(layer.layers)
    return out


def _terrain_of(tile: Any, tileset: Any) -> str | None:
    properties = getattr(tile, "properties", None) or {}
    value = properties.get("terrain")
    if isinstance(value, str) and value:
        return value
    kind = getattr(tile, "class_", None) or getattr(tile, "type", None)
    return kind if isinstance(kind, str) and kind else None


def _tileset_for(tilesets: dict[int, Any], gid: int) -> tuple[Any, int] | None:
    firsts = [first for first in tilesets if first <= gid]
    if not firsts:
        return None
    first = max(firsts)
    tileset = tilesets[first]
    local = gid - first
    if tileset.tile_count is not None and local >= tileset.tile_count:
        return None
    return tileset, local


def _terrain_grid(parsed: Any, width: int, height: int) -> tuple[list[list[str]], dict[str, str]]:
    layers = [layer for layer in _layers(parsed.layers) if layer.name == TERRAIN_LAYER]
    tile_layers = [layer for layer in _layers(parsed.layers) if hasattr(layer, "data")]
    if not layers or not hasattr(layers[0], "data"):
        names = ", ".join(repr(layer.name) for layer in tile_layers) or "none"
        raise _Refused("layers", f"no tile layer named {TERRAIN_LAYER!r} (its tile layers: "
                       f"{names}): the game reads each square's terrain from it")
    layer = layers[0]
    data = layer.data or []
    where = f"layer {TERRAIN_LAYER!r}"
    if len(data) != height or any(len(row) != width for row in data):
        raise _Refused(where, f"the layer's data is not {width}x{height} tiles")
    tilesets: dict[int, Any] = dict(parsed.tilesets or {})
    grid: list[list[str]] = []
    places: dict[str, str] = {}
    known: dict[int, str] = {}
    found: list[tuple[str, str]] = []
    for y, row in enumerate(data):
        out = []
        for x, raw in enumerate(row):
            gid = raw & GID_MASK
            terrain = known.get(gid)
            if terrain is None:
                terrain = _name_terrain(tilesets, gid, x, y, places, found)
                known[gid] = terrain
            out.append(terrain)
        grid.append(out)
    if found:
        raise _Many(found)
    return grid, places


def _name_terrain(tilesets: dict[int, Any], gid: int, x: int, y: int, places: dict[str, str],
                  found: list[tuple[str, str]]) -> str:
    where = f"layer {TERRAIN_LAYER!r}"
    if gid == 0:
        found.append((where, f"no tile at [{x}, {y}] (and maybe more): every square of the "
                             "terrain layer needs a tile"))
        return ""
    hit = _tileset_for(tilesets, gid)
    if hit is None:
        found.append((where, f"tile gid {gid} at [{x}, {y}] belongs to no tileset of the map"))
        return ""
    tileset, local = hit
    tile = (tileset.tiles or {}).get(local)
    place = f"tile {local} of tileset {tileset.name!r}, first at [{x}, {y}] in {where}"
    terrain = _terrain_of(tile, tileset)
    if terrain is None:
        found.append((where, f"{place} names no terrain: give the tile a string property "
                             "`terrain` (a terrain id such as wall), or a Class"))
        return ""
    if not IDENT.match(terrain):
        found.append((where, f"{place} names terrain {terrain!r}, which is not a terrain id "
                             "(lowercase letters, digits and _)"))
        return ""
    places.setdefault(terrain, place)
    return terrain


def _zone_rects(parsed: Any, width: int, height: int) -> dict[str, list[tuple[int, ...]]]:
    tile_w, tile_h = parsed.tile_size.width, parsed.tile_size.height
    zones: dict[str, list[tuple[int, ...]]] = {}
    found: list[tuple[str, str]] = []
    for layer in _layers(parsed.layers):
        for item in getattr(layer, "tiled_objects", None) or []:
            where = f"layer {layer.name!r}"
            what = f"object {item.id}" + (f" {item.name!r}" if item.name else "")
            kind = type(item).__name__
            if not IDENT.match(item.name or ""):
                found.append((where, f"{what} needs a Name that is a zone id (lowercase "
                                     "letters, digits and _, like extract): every object is a zone"))
                continue
            if kind not in ("Rectangle", "Point") or item.rotation:
                found.append((where, f"{what} is a {kind.lower()}"
                              + (" turned" if item.rotation else "")
                              + ": a zone is an unturned rectangle or a point"))
                continue
            x, y = item.coordinates.x, item.coordinates.y
            if kind == "Point" or item.size.width <= 0 or item.size.height <= 0:
                x0, y0 = math.floor(x / tile_w), math.floor(y / tile_h)
                x1, y1 = x0, y0
            else:
                x0, y0 = math.floor(x / tile_w), math.floor(y / tile_h)
                x1 = math.ceil((x + item.size.width) / tile_w) - 1
                y1 = math.ceil((y + item.size.height) / tile_h) - 1
            if x0 < 0 or y0 < 0 or x1 >= width or y1 >= height:
                corner = [x0, y0] if x0 < 0 or y0 < 0 else [x1, y1]
                found.append((where, f"zone {item.name!r} ({what}) reaches {corner}, outside "
                                     f"the {width}x{height} map"))
                continue
            zones.setdefault(item.name, []).append((x0, y0, x1 - x0 + 1, y1 - y0 + 1))
    if found:
        raise _Many(found)
    return zones


def _text_property(parsed: Any, key: str) -> str | None:
    value = (parsed.properties or {}).get(key)
    return value if isinstance(value, str) else None


def _convert(path: Path, parsed: Any, file: str) -> tuple[TiledMap | None, list[Problem]]:
    width, height = parsed.map_size.width, parsed.map_size.height
    problems: list[tuple[str, str]] = []
    grid: list[list[str]] = []
    places: dict[str, str] = {}
    zones: dict[str, list[tuple[int, ...]]] = {}
    for step in ("terrain", "zones"):
        try:
            if step == "terrain":
                grid, places = _terrain_grid(parsed, width, height)
            else:
                zones = _zone_rects(parsed, width, height)
        except _Many as many:
            problems += many.found
        except _Refused as refused:
            problems.append((refused.key, refused.message))
    if problems:
        return None, [Problem(file, None, None, key, message) for key, message in problems]
    terrains = list(dict.fromkeys(ident for row in grid for ident in row))
    if len(terrains) > len(GLYPHS):
        message = f"the map uses {len(terrains)} terrains; at most {len(GLYPHS)}"
        return None, [Problem(file, None, None, f"layer {TERRAIN_LAYER!r}", message)]
    glyph = dict(zip(terrains, GLYPHS, strict=False))
    ident = _text_property(parsed, "id") or path.stem
    data = {
        "id": ident,
        "name": _text_property(parsed, "name") or path.stem.replace("_", " ").capitalize(),
        "description": _text_property(parsed, "description") or "",
        "legend": {glyph[t]: {"terrain": t} for t in terrains},
        "rows": ["".join(glyph[t] for t in row) for row in grid],
        "zones": zones,
    }
    try:
        spec = MapSpec.model_validate(data)
    except ValidationError as error:
        found = []
        for item in error.errors():
            key = ".".join(str(part) for part in item["loc"])
            hint = (" (the map's id is its file name, or its string property `id`)"
                    if key == "id" else "")
            found.append(Problem(file, None, None, f"map property {key!r}",
                                 f"{item['msg']}{hint}"))
        return None, found
    return TiledMap(spec, {glyph[t]: place for t, place in places.items()}), []
