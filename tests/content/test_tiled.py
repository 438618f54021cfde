"""Maps made in Tiled (.tmj, .tmx): read by pytiled-parser, played, and bad ones refused with
the file and the layer, tile or object at fault."""

from __future__ import annotations

import copy
import json
import os
import shutil
from pathlib import Path

import pytest

from game.cli import main
from game.content.loader import (
    ContentError,
    bundled_content_dir,
    load_library,
    load_setup,
    parse_map,
    validate_paths,
)
from game.content.tiled import read_tiled
from game.sim import play
from game.ai import make_player
from tests.content.tiled_helpers import tileset_json, tmj, tmx, write_json

TERRAIN = load_library().terrain
SKETCH = """
##########
#....=...#
#..~~..H.#
#..+..,,.#
##########
"""
ZONES = [("alpha", 1, 1, 2, 3), ("bravo", 7, 1, 2, 3), ("extract", 4, 1, 0, 0)]
SCENARIO = """id: probe
name: Probe
map: {map}
sides:
  - {{id: west, name: West, zone: alpha, members: [{{unit: rifleman, count: 2}}]}}
  - {{id: east, name: East, zone: bravo, members: [{{unit: soldier, count: 2}}]}}
victory: {{type: eliminate, max_rounds: 6}}
"""


def with_tileset(folder: Path) -> Path:
    """The bundled tileset and its image, beside the maps a test writes."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("skirmish.tsj", "skirmish.png"):
        shutil.copy(bundled_content_dir() / "maps" / name, folder / name)
    return folder


def problems_of(path: Path) -> list:
    found, problems = read_tiled(path)
    assert found is None
    return problems


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return with_tileset(tmp_path / "mod")


def test_json_and_xml_maps_read_the_same(folder: Path) -> None:
    json_map, found = read_tiled(write_json(folder / "probe.tmj", tmj(SKETCH, ZONES)))
    assert found == []
    (folder / "probe.tmx").write_text(tmx(SKETCH, ZONES), encoding="utf-8")
    xml_map, found = read_tiled(folder / "probe.tmx")
    assert found == [] and json_map is not None and xml_map is not None
    parsed = parse_map(json_map.spec, TERRAIN)
    assert parse_map(xml_map.spec, TERRAIN) == parsed
    assert (parsed.width, parsed.height) == (10, 5)
    assert parsed.terrain_at(0, 0) == "wall" and parsed.terrain_at(5, 1) == "low_cover"
    assert parsed.terrain_at(3, 2) == "water" and parsed.terrain_at(3, 3) == "door"
    assert parsed.terrain_at(7, 2) == "high_cover" and parsed.terrain_at(6, 3) == "rough"
    assert parsed.zones == {
        "alpha": [(1, 1), (2, 1), (1, 2), (2, 2), (1, 3), (2, 3)],
        "bravo": [(7, 1), (8, 1), (7, 2), (8, 2), (7, 3), (8, 3)],
        "extract": [(4, 1)],                                        # a point: its square
    }
    assert json_map.spec.id == "probe" and json_map.spec.name == "Probe"


def test_map_properties_name_it(folder: Path) -> None:
    data = tmj(SKETCH, ZONES, properties={"id": "ruin", "name": "The ruin",
                                          "description": "Old walls."})
    found, _ = read_tiled(write_json(folder / "Any Name.tmj", data))
    assert found is not None
    assert (found.spec.id, found.spec.name, found.spec.description) == (
        "ruin", "The ruin", "Old walls.")


def test_a_tile_class_names_its_terrain(folder: Path) -> None:
    tileset = tileset_json()
    for tile in tileset["tiles"]:
        tile["type"] = tile.pop("properties")[0]["value"]
    found, problems = read_tiled(write_json(folder / "embedded.tmj",
                                            tmj(SKETCH, ZONES, tileset=tileset)))
    assert problems == [] and found is not None
    assert parse_map(found.spec, TERRAIN).terrain_at(3, 3) == "door"


@pytest.mark.parametrize("suffix", [".tmj", ".tmx"])
def test_a_scenario_plays_on_a_tiled_map(folder: Path, suffix: str) -> None:
    if suffix == ".tmj":
        write_json(folder / "maps" / "probe.tmj", tmj(SKETCH, ZONES, tileset="../skirmish.tsj"))
    else:
        (folder / "maps").mkdir()
        shutil.copy(folder / "skirmish.png", folder / "maps" / "skirmish.png")
        (folder / "maps" / "probe.tmx").write_text(tmx(SKETCH, ZONES), encoding="utf-8")
    scenario = folder / "probe.yaml"
    scenario.write_text(SCENARIO.format(map=f"maps/probe{suffix}"), encoding="utf-8")
    assert validate_paths([folder]) == []
    setup = load_setup(scenario)
    assert setup.map.zones["extract"] == [(4, 1, 1, 1)]
    players = {side.id: make_player("simple", side.id, 5) for side in setup.scenario.sides}
    result = play(setup, 5, players)
    assert 1 <= result.rounds <= 6 and result.commands > 0
    by_id = load_setup("probe", load_library([folder]))          # the mod's map by its id too
    assert by_id.map == setup.map


def test_the_bundled_tiled_map_and_scenario(capsys) -> None:
    library = load_library()
    assert library.source("map", "quarry").endswith("quarry.tmj")
    setup = load_setup("quarry", library)
    parsed = parse_map(setup.map, {t.id: t for t in setup.terrain})
    assert (parsed.width, parsed.height) == (24, 15)
    assert parsed.zones["extract"] == [(11, 5), (12, 5), (13, 5), (14, 5),
                                       (11, 6), (12, 6), (13, 6), (14, 6)]
    assert [(o.type, o.zone) for o in setup.scenario.objectives] == [("hold", "extract")]
    assert main(["sim", "quarry", "--seed", "2"]) == 0
    assert "Winner: " in capsys.readouterr().out
    tileset = json.loads((bundled_content_dir() / "maps" / "skirmish.tsj").read_text())
    assert tileset["image"] == "skirmish.png" and tileset["tilecount"] == len(TERRAIN)
    assert (bundled_content_dir() / "maps" / "skirmish.png").read_bytes()[:4] == b"\x89PNG"
    assert {tile["properties"][0]["value"] for tile in tileset["tiles"]} == set(TERRAIN)


def test_what_tiled_itself_writes_reads_the_same_in_both_formats() -> None:
    """The bundled quarry.tmj was drawn and saved in Tiled's window (Tiled 1.8.2); its .tmx
    beside the tests is Tiled's own export of it (`tiled --export-map tmx`), with the tileset
    named by a path that leaves the map's folder. Both read to the same map."""
    bundled = bundled_content_dir() / "maps" / "quarry.tmj"
    exported = Path(__file__).parent / "tiled" / "quarry.tmx"
    assert 'source="../../../content/maps/skirmish.tsj"' in exported.read_text(encoding="utf-8")
    json_map, json_problems = read_tiled(bundled)
    xml_map, xml_problems = read_tiled(exported)
    assert json_problems == xml_problems == [] and json_map is not None and xml_map is not None
    assert json_map.spec == xml_map.spec
    spec = json_map.spec
    assert spec.name == "Quarry office" and spec.legend[spec.rows[4][11]].terrain == "door"
    assert spec.zones["extract"] == [(11, 5, 4, 2)] and spec.zones["lookout"] == [(11, 2, 1, 1)]


# --- bad maps: refused with the file and the place ---------------------------------------------

def test_a_missing_terrain_layer(folder: Path) -> None:
    path = write_json(folder / "m.tmj", tmj(SKETCH, ZONES, layer="ground"))
    [problem] = problems_of(path)
    assert problem.file == str(path) and problem.key == "layers"
    assert "no tile layer named 'terrain' (its tile layers: 'ground')" in problem.message


def test_an_unknown_terrain_names_its_tile(folder: Path) -> None:
    tileset = tileset_json()
    tileset["tiles"][6]["properties"][0]["value"] = "lava"        # the water tile
    path = write_json(folder / "m.tmj", tmj(SKETCH, ZONES, tileset=tileset))
    [problem] = [p for p in validate_paths([folder]) if p.file == str(path)]
    assert problem.key == "layer 'terrain'"
    assert problem.message.startswith(
        "unknown terrain 'lava' (tile 6 of tileset 'skirmish', first at [3, 2] in layer "
        "'terrain')")


def test_tiles_without_terrain_outside_tilesets_or_missing(folder: Path) -> None:
    tileset = tileset_json()
    del tileset["tiles"][2]                                      # the wall tile: no terrain
    data = tmj(SKETCH, ZONES, tileset=tileset)
    data["layers"][0]["data"][11] = 40                            # [1, 1]: no such tile
    data["layers"][0]["data"][12] = 0                             # [2, 1]: no tile at all
    path = write_json(folder / "m.tmj", data)
    messages = [p.message for p in problems_of(path)]
    assert messages == [
        "tile 2 of tileset 'skirmish', first at [0, 0] in layer 'terrain' names no terrain: "
        "give the tile a string property `terrain` (a terrain id such as wall), or a Class",
        "tile gid 40 at [1, 1] belongs to no tileset of the map",
        "no tile at [2, 1] (and maybe more): every square of the terrain layer needs a tile",
    ]


def test_a_zone_off_the_map(folder: Path) -> None:
    path = write_json(folder / "m.tmj", tmj(SKETCH, ZONES + [("far", 8, 3, 4, 1)]))
    [problem] = problems_of(path)
    assert problem.key == "layer 'zones'"
    assert problem.message == "zone 'far' (object 4 'far') reaches [11, 3], outside the 10x5 map"
    (folder / "m.tmx").write_text(tmx(SKETCH, ZONES + [("under", 2, 9, 0, 0)]), encoding="utf-8")
    [problem] = problems_of(folder / "m.tmx")
    assert "zone 'under' (object 4 'under') reaches [2, 9], outside the 10x5 map" == \
        problem.message


def test_objects_that_are_no_zone(folder: Path) -> None:
    data = tmj(SKETCH, ZONES)
    objects = data["layers"][1]["objects"]
    objects[0]["name"] = ""
    objects[1]["polygon"] = [{"x": 0, "y": 0}, {"x": 16, "y": 0}, {"x": 0, "y": 16}]
    objects[2]["rotation"] = 45
    messages = [p.message for p in problems_of(write_json(folder / "m.tmj", data))]
    assert messages[0].startswith("object 1 needs a Name that is a zone id")
    assert messages[1] == "object 2 'bravo' is a polygon: a zone is an unturned rectangle or a point"
    assert "turned" in messages[2]


@pytest.mark.parametrize(("change", "expected"), [
    ({"width": 600}, "the map is 600x5 squares; at most 512 either way"),
    ({"orientation": "isometric"}, "only orthogonal maps"),
    ({"infinite": True}, "the map is infinite"),
    ({"type": "tileset"}, "not a Tiled JSON map"),
    ({"layers": "nothing"}, "Tiled map that cannot be read"),
])
def test_headers_refused_before_parsing(folder: Path, change: dict, expected: str) -> None:
    data = tmj(SKETCH, ZONES)
    data.update(change)
    [problem] = problems_of(write_json(folder / "m.tmj", data))
    assert expected in problem.message


def test_a_huge_map_is_refused_without_reading_its_tiles(folder: Path) -> None:
    """A 513x512 map: the header says too big; nothing of its 262,000 tiles is parsed."""
    data = tmj("..\n..", [])
    data.update(width=513, height=512)
    [problem] = problems_of(write_json(folder / "huge.tmj", data))
    assert "513x512 squares; at most 512" in problem.message
    data = tmj("..\n..", [])
    data["layers"][0]["data"] = [1] * (600 * 600)                 # over 1 MiB of tiles
    path = write_json(folder / "big.tmj", data)
    [problem] = problems_of(path)
    assert "limited to 1 MiB" in problem.message and problem.file == str(path)


def test_the_largest_map_reads_quickly(folder: Path) -> None:
    """512x512, the most either way, in CSV: half a MiB, read in well under a second."""
    import time

    sketch = "\n".join(["#" * 512] + ["#" + "." * 510 + "#"] * 510 + ["#" * 512])
    path = folder / "largest.tmj"
    path.write_text(json.dumps(tmj(sketch, [("alpha", 1, 1, 5, 5)]), separators=(",", ":")))
    start = time.perf_counter()
    found, problems = read_tiled(path)
    assert problems == [] and found is not None and len(found.spec.rows) == 512
    assert time.perf_counter() - start < 3


def test_compressed_data_templates_and_odd_tilesets_are_refused(folder: Path) -> None:
    data = tmj(SKETCH, ZONES)
    data["layers"][0].update(data="eJwLAAAA", encoding="base64", compression="zlib")
    [problem] = problems_of(write_json(folder / "z.tmj", data))
    assert problem.key == "layer 'terrain'" and "Tile Layer Format to CSV" in problem.message
    data = tmj(SKETCH, ZONES)
    data["layers"][1]["objects"][0]["template"] = "../../etc/zone.tj"
    [problem] = problems_of(write_json(folder / "t.tmj", data))
    assert "detach it" in problem.message
    os.mkfifo(folder / "pipe.tsj")
    [problem] = problems_of(write_json(folder / "p.tmj", tmj(SKETCH, ZONES, tileset="pipe.tsj")))
    assert problem.message == "cannot read tileset 'pipe.tsj': it is a pipe, not a file"
    [problem] = problems_of(write_json(folder / "g.tmj", tmj(SKETCH, ZONES, tileset="gone.tsj")))
    assert problem.message.startswith("cannot read tileset 'gone.tsj'")
    bad = copy.deepcopy(tileset_json())
    del bad["tilecount"]
    write_json(folder / "bad.tsj", bad)
    [problem] = problems_of(write_json(folder / "b.tmj", tmj(SKETCH, ZONES, tileset="bad.tsj")))
    assert problem.message.startswith("Tiled map that cannot be read")


def test_broken_xml_and_the_command_line(folder: Path, capsys) -> None:
    (folder / "x.tmx").write_text("<map><layer", encoding="utf-8")
    (folder / "y.tmx").write_text(tmx(SKETCH, ZONES).replace('name="terrain"', 'name="t"'),
                                  encoding="utf-8")
    assert main(["validate", str(folder)]) == 1
    out = capsys.readouterr()
    assert f"{folder / 'x.tmx'}: not a Tiled XML map" in out.out
    assert f"{folder / 'y.tmx'}: layers: no tile layer named 'terrain'" in out.out
    assert "Traceback" not in out.out + out.err
    scenario = folder / "s.yaml"
    scenario.write_text(SCENARIO.format(map="y.tmx"), encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        load_setup(scenario)
    assert any(p.file == str(folder / "y.tmx") for p in caught.value.problems)


def test_a_yaml_map_may_give_zones_as_rectangles(write) -> None:
    path = write("yard.yaml", """
        id: yard
        name: Yard
        zones: {alpha: [[1, 1, 2, 1]], far: [[3, 0, 2, 2]]}
        rows: |
          ....
          ....
    """)
    problems = validate_paths([path])
    [problem] = problems
    assert (problem.line, problem.key) == (3, "zones.far[0]")
    assert problem.message == "zone 'far' [3, 0, 2, 2] reaches [4, 1], outside the 4x2 map"


def test_uncompressed_base64_data_reads_like_csv(folder: Path) -> None:
    import base64
    import struct

    data = tmj(SKETCH, ZONES)
    gids = data["layers"][0]["data"]
    packed = base64.b64encode(struct.pack(f"<{len(gids)}I", *gids)).decode()
    data["layers"][0].update(encoding="base64", compression="", data=packed)
    found, problems = read_tiled(write_json(folder / "b.tmj", data))
    csv, _ = read_tiled(write_json(folder / "c.tmj", tmj(SKETCH, ZONES)))
    assert problems == [] and found is not None and csv is not None
    assert found.spec.rows == csv.spec.rows


def test_entity_expansion_in_xml_is_refused(folder: Path) -> None:
    """A "billion laughs" .tmx: the XML reader's amplification limit refuses it at once."""
    text = '<?xml version="1.0"?>\n<!DOCTYPE map [\n<!ENTITY e0 "' + "a" * 50 + '">\n'
    for level in range(1, 10):
        text += f'<!ENTITY e{level} "' + f"&e{level - 1};" * 10 + '">\n'
    text += (']>\n<map orientation="orthogonal" width="4" height="4" tilewidth="16" '
             'tileheight="16" infinite="0"><properties><property name="name" value="&e9;"/>'
             "</properties></map>\n")
    (folder / "laughs.tmx").write_text(text, encoding="utf-8")
    [problem] = problems_of(folder / "laughs.tmx")
    assert problem.message.startswith("not a Tiled XML map: limit on input amplification")
