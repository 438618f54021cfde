"""Writing Tiled maps for tests: a sketch in the
bundled terrain glyphs becomes a `.tmj` or `.tmx` file as Tiled 1.10 saves it, tiles from the
bundled tileset content/maps/skirmish.tsj (one tile per terrain, gid = its index + 1).
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from xml.sax.saxutils import quoteattr

TILE = 16
ORDER = [("open", "."), ("rough", ","), ("wall", "#"), ("low_cover", "="), ("high_cover", "H"),
         ("door", "+"), ("water", "~"), ("brush", '"'), ("rubble", "%"), ("high_ground", "^"),
         ("dim", ":"), ("smoke", "&")]
GID = {glyph: index + 1 for index, (_, glyph) in enumerate(ORDER)}
Zone = tuple[str, int, int, int, int]      # name, x, y, width, height in squares (0x0: a point)


def rows_of(sketch: str) -> list[str]:
    return textwrap.dedent(sketch).strip("\n").splitlines()


def tileset_json(image: str = "skirmish.png") -> dict:
    return {
        "type": "tileset", "version": "1.10", "tiledversion": "1.10.2", "name": "skirmish",
        "tilewidth": TILE, "tileheight": TILE, "tilecount": len(ORDER), "columns": len(ORDER),
        "margin": 0, "spacing": 0, "image": image, "imagewidth": TILE * len(ORDER),
        "imageheight": TILE,
        "tiles": [{"id": index, "properties": [{"name": "terrain", "type": "string",
                                                "value": ident}]}
                  for index, (ident, _) in enumerate(ORDER)],
    }


def _objects(zones: list[Zone]) -> list[dict]:
    out = []
    for index, (name, x, y, w, h) in enumerate(zones, start=1):
        item = {"id": index, "name": name, "type": "", "rotation": 0, "visible": True,
                "x": x * TILE, "y": y * TILE, "width": w * TILE, "height": h * TILE}
        if w == 0 and h == 0:
            item.update(point=True, x=x * TILE + TILE // 2, y=y * TILE + TILE // 2)
        out.append(item)
    return out


def tmj(sketch: str, zones: list[Zone], *, tileset: str | dict = "skirmish.tsj",
        properties: dict[str, str] | None = None, layer: str = "terrain") -> dict:
    """A Tiled JSON map; `tileset` is an external tileset's path or an embedded tileset."""
    rows = rows_of(sketch)
    width, height = len(rows[0]), len(rows)
    tilesets = [{"firstgid": 1, "source": tileset}] if isinstance(tileset, str) else [
        {"firstgid": 1, **tileset}]
    return {
        "type": "map", "version": "1.10", "tiledversion": "1.10.2",
        "orientation": "orthogonal", "renderorder": "right-down", "infinite": False,
        "compressionlevel": -1, "width": width, "height": height,
        "tilewidth": TILE, "tileheight": TILE, "nextlayerid": 3,
        "nextobjectid": len(zones) + 1,
        "properties": [{"name": key, "type": "string", "value": value}
                       for key, value in (properties or {}).items()],
        "tilesets": tilesets,
        "layers": [
            {"id": 1, "name": layer, "type": "tilelayer", "x": 0, "y": 0, "width": width,
             "height": height, "opacity": 1, "visible": True,
             "data": [GID.get(glyph, 0) for row in rows for glyph in row]},
            {"id": 2, "name": "zones", "type": "objectgroup", "draworder": "topdown", "x": 0,
             "y": 0, "opacity": 1, "visible": True, "objects": _objects(zones)},
        ],
    }


def tmx(sketch: str, zones: list[Zone], *, properties: dict[str, str] | None = None) -> str:
    """A Tiled XML map with the skirmish tileset embedded."""
    rows = rows_of(sketch)
    width, height = len(rows[0]), len(rows)
    tiles = "".join(
        f'  <tile id="{index}"><properties><property name="terrain" value="{ident}"/>'
        "</properties></tile>\n" for index, (ident, _) in enumerate(ORDER))
    csv = ",\n".join(",".join(str(GID.get(glyph, 0)) for glyph in row) for row in rows)
    objects = ""
    for item in _objects(zones):
        point = "<point/>" if item.get("point") else ""
        size = "" if point else f' width="{item["width"]}" height="{item["height"]}"'
        objects += (f'  <object id="{item["id"]}" name={quoteattr(item["name"])} '
                    f'x="{item["x"]}" y="{item["y"]}"{size}>{point}</object>\n')
    props = "".join(f"  <property name={quoteattr(k)} value={quoteattr(v)}/>\n"
                    for k, v in (properties or {}).items())
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" '
        f'renderorder="right-down" width="{width}" height="{height}" tilewidth="{TILE}" '
        f'tileheight="{TILE}" infinite="0" nextlayerid="3" nextobjectid="{len(zones) + 1}">\n'
        + (f" <properties>\n{props} </properties>\n" if props else "")
        + f' <tileset firstgid="1" name="skirmish" tilewidth="{TILE}" tileheight="{TILE}" '
        f'tilecount="{len(ORDER)}" columns="{len(ORDER)}">\n'
        f'  <image source="skirmish.png" width="{TILE * len(ORDER)}" height="{TILE}"/>\n'
        f"{tiles} </tileset>\n"
        f' <layer id="1" name="terrain" width="{width}" height="{height}">\n'
        f'  <data encoding="csv">\n{csv}\n</data>\n </layer>\n'
        f' <objectgroup id="2" name="zones">\n{objects} </objectgroup>\n</map>\n'
    )


def write_json(path: Path, data: dict) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path
