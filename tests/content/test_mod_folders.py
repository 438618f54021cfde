"""Content folders (mods): files that refer to each other, played as `validate` checks them.

A mod is a folder of content files. `skirmish --content DIR` loads it with the bundled content;
a scenario file's path brings the files beside it. Whatever `validate` says of the folder,
playing it agrees: each case below is checked both ways.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
import yaml

from game.content.loader import (
    bundled_content_dir,
    ContentError,
    load_library,
    load_setup,
    validate_paths,
    validate_report,
)
from tests.content.tiled_helpers import tileset_json, tmj

MAP = """
id: yard
name: Yard
legend:
  A: {terrain: open, zone: alpha}
  B: {terrain: open, zone: bravo}
rows: |
  ##########
  #AA....BB#
  #AA....BB#
  ##########
"""

UNITS = """
units:
  - id: slinger
    name: Slinger
    ap: 15
    hp: 18
    attributes: {strength: 0, dexterity: 2, agility: 1, constitution: 4, intelligence: 0}
    skills: {aim: 5, melee: 2, unarmed: 2, dodge: 3, willpower: 3, heal: 0, demolitions: 0}
    weapons: [{weapon: sling}]
"""

WEAPONS = """
weapons:
  - {id: sling, name: Sling, kind: firearm, damage: 1d6, range: 12, modes: [{name: single, ap: 3}]}
"""

SCENARIO = """
id: slingers
name: Slingers
map: yard
sides:
  - {id: west, name: West, zone: alpha, members: [{unit: slinger, count: 2}]}
  - {id: east, name: East, zone: bravo, members: [{unit: rifleman, count: 2}]}
"""



def _rifleman() -> str:
    """The bundled rifleman, replaced: same id and stats, a name and hit points of its own."""
    units = yaml.safe_load((bundled_content_dir() / "units" / "troops.yaml").read_text())
    rifleman = next(unit for unit in units["units"] if unit["id"] == "rifleman")
    rifleman.update(name="Militia rifleman", hp=9)
    return yaml.safe_dump({"units": [rifleman]}, sort_keys=False)


RIFLEMAN = _rifleman()

YARD_SKETCH = """
##########
#........#
#........#
##########
"""
YARD_ZONES = [("alpha", 1, 1, 2, 2), ("bravo", 7, 1, 2, 2)]


def tiled_yard(zones=YARD_ZONES) -> str:
    """The yard as a Tiled map, its tileset embedded."""
    return json.dumps(tmj(YARD_SKETCH, zones, tileset=tileset_json(), properties={"id": "yard"}))


CASES: dict[str, tuple[dict[str, str], bool]] = {
    # the layout docs/CONTENT.md shows: map, units, weapons and scenario in files of their own
    "split files": ({"map.yaml": MAP, "units.yaml": UNITS, "weapons.yaml": WEAPONS,
                     "scenario.yaml": SCENARIO}, True),
    "scenario sorted first": ({"a_scenario.yaml": SCENARIO, "m.yaml": MAP, "u.yaml": UNITS,
                               "w.yaml": WEAPONS}, True),
    "a unit missing": ({"map.yaml": MAP, "weapons.yaml": WEAPONS,
                        "scenario.yaml": SCENARIO}, False),
    "a broken file beside": ({"map.yaml": MAP, "units.yaml": UNITS, "weapons.yaml": WEAPONS,
                              "scenario.yaml": SCENARIO, "junk.yaml": "units: [{id: x}]\n"}, False),
    "an id twice in the mod": ({"map.yaml": MAP, "units.yaml": UNITS, "weapons.yaml": WEAPONS,
                                "more.yaml": WEAPONS, "scenario.yaml": SCENARIO}, False),
    "override a bundled unit": ({"map.yaml": MAP, "units.yaml": UNITS, "weapons.yaml": WEAPONS,
                                 "rifleman.yaml": RIFLEMAN, "scenario.yaml": SCENARIO}, True),
    "a map by path": ({"maps/yard.yaml": MAP, "units.yaml": UNITS, "weapons.yaml": WEAPONS,
                       "scenario.yaml": SCENARIO.replace("map: yard", "map: maps/yard.yaml")},
                      True),
    "a Tiled map beside": ({"yard.tmj": tiled_yard(), "units.yaml": UNITS,
                            "weapons.yaml": WEAPONS, "scenario.yaml": SCENARIO}, True),
    "a Tiled map with a zone off it": ({"yard.tmj": tiled_yard(YARD_ZONES + [("x", 9, 3, 2, 2)]),
                                       "units.yaml": UNITS, "weapons.yaml": WEAPONS,
                                       "scenario.yaml": SCENARIO}, False),
}


def make_mod(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return root


def plays_by_path(path: Path) -> bool:
    try:
        load_setup(path)
    except ContentError:
        return False
    return True


def plays_with_content(folder: Path, scenario: str) -> bool:
    try:
        load_setup(scenario, load_library([folder]))
    except ContentError:
        return False
    return True


@pytest.mark.parametrize("case", CASES)
def test_validate_and_play_agree(tmp_path: Path, case: str) -> None:
    files, good = CASES[case]
    mod = make_mod(tmp_path / "mod", files)
    scenario = next(mod / name for name in files if "scenario" in name)
    assert (validate_paths([mod]) == []) is good
    assert (validate_paths([scenario]) == []) is good       # a scenario file brings its folder
    assert plays_by_path(scenario) is good
    assert plays_with_content(mod, "slingers") is good


def test_split_files_play_the_mods_units(tmp_path: Path) -> None:
    """The layout docs/CONTENT.md shows, which used to fail with "unknown unit 'slinger'"."""
    mod = make_mod(tmp_path, CASES["split files"][0])
    setup = load_setup(mod / "scenario.yaml")
    assert [unit.id for unit in setup.units] == ["slinger", "rifleman"]
    assert [weapon.id for weapon in setup.weapons][0] == "sling"
    assert setup.map.id == "yard"


def test_a_missing_unit_is_named_with_its_file(tmp_path: Path) -> None:
    mod = make_mod(tmp_path, CASES["a unit missing"][0])
    with pytest.raises(ContentError) as caught:
        load_setup(mod / "scenario.yaml")
    assert any("unknown unit 'slinger'" in p.message and p.file.endswith("scenario.yaml")
               for p in caught.value.problems)


def test_a_mod_overrides_a_bundled_unit_and_says_so(tmp_path: Path) -> None:
    mod = make_mod(tmp_path, CASES["override a bundled unit"][0])
    notices: list = []
    setup = load_setup(mod / "scenario.yaml", notices=notices)
    rifleman = next(unit for unit in setup.units if unit.id == "rifleman")
    assert (rifleman.name, rifleman.hp) == ("Militia rifleman", 9)
    [notice] = notices
    assert notice.file == str(mod / "rifleman.yaml") and notice.line == 2
    assert "using the mod's unit 'rifleman' over the bundled one" in notice.message
    assert "troops.yaml:5" in notice.message
    problems, told = validate_report([mod])
    assert problems == [] and [str(n) for n in told] == [str(notice)]
    library = load_library([mod])
    assert library.units["rifleman"].hp == 9 and len(library.notices) == 1


def test_a_mod_extends_the_bundled_content(tmp_path: Path) -> None:
    """New items beside the bundled ones, using them: a squad of a bundled and a mod unit."""
    squad = "squads:\n  - {id: mixed, name: Mixed, members: [{unit: slinger}, {unit: medic}]}\n"
    scenario = SCENARIO.replace("members: [{unit: slinger, count: 2}]", "squad: mixed")
    mod = make_mod(tmp_path, {"map.yaml": MAP, "units.yaml": UNITS, "weapons.yaml": WEAPONS,
                              "squads.yaml": squad, "scenario.yaml": scenario})
    notices: list = []
    library = load_library([mod])
    assert {"slingers", "alley", "depot"} <= set(library.scenarios)
    setup = load_setup("slingers", library, notices=notices)
    assert [unit.id for unit in setup.units] == ["slinger", "medic", "rifleman"]
    assert notices == []


def test_the_same_id_twice_in_a_mod_is_still_an_error(tmp_path: Path) -> None:
    mod = make_mod(tmp_path, CASES["an id twice in the mod"][0])
    [problem] = validate_paths([mod])
    assert "weapon id 'sling' is already defined at" in problem.message


def test_a_scenario_path_with_subfolders_reads_only_its_own_folder(tmp_path: Path) -> None:
    """Mods in subfolders are played with --content; a path brings only the files beside it."""
    mod = make_mod(tmp_path, {"maps/yard.yaml": MAP, "units/units.yaml": UNITS,
                              "units/weapons.yaml": WEAPONS, "scenarios/s.yaml": SCENARIO})
    assert validate_paths([mod]) == []
    assert plays_with_content(mod, "slingers")
    assert not plays_by_path(mod / "scenarios" / "s.yaml")
    assert validate_paths([mod / "scenarios"]) != []      # ... as validate of that folder says


def test_the_command_line_reads_a_mod_with_content(tmp_path: Path, capsys, monkeypatch) -> None:
    from game.cli import main

    mod = make_mod(tmp_path / "mod", CASES["override a bundled unit"][0])
    assert main(["validate", str(mod)]) == 0
    out = capsys.readouterr().out
    assert "note: " in out and "using the mod's unit 'rifleman' over the bundled one" in out
    assert main(["--content", str(mod), "sim", "slingers", "--seed", "3"]) == 0
    done = capsys.readouterr()
    assert "Winner:" in done.out and "Militia rifleman" in done.out
    assert "note: " in done.err and "unit 'rifleman'" in done.err
    assert main(["sim", "slingers", "--seed", "3"]) == 2          # not without the mod
    assert "no scenario with this id" in capsys.readouterr().err
    import game.ui.app
    opened: list = []
    monkeypatch.setattr(game.ui.app, "run_app", lambda **kw: opened.append(kw))
    assert main(["--content", str(mod)]) == 0
    assert "slingers" in opened[0]["library"].scenarios
    broken = make_mod(tmp_path / "broken", CASES["a unit missing"][0])
    assert main(["--content", str(broken)]) == 2                   # told here; no app opens
    assert "unknown unit 'slinger'" in capsys.readouterr().err and len(opened) == 1


def test_a_mod_replaces_the_bundled_tiled_map(tmp_path: Path) -> None:
    """Bundled items from Tiled files are replaceable too: a YAML map `quarry` over quarry.tmj."""
    rows = "\n".join(["#" * 24] + ["#" + "." * 22 + "#"] * 13 + ["#" * 24])
    text = "id: quarry\nname: Flat quarry\nzones: {alpha: [[1, 10, 2, 4]], bravo: [[16, 2, 3, 3]], " \
           "extract: [[11, 5, 4, 2]]}\nrows: |\n" + "".join(f"  {row}\n" for row in rows.split())
    mod = make_mod(tmp_path, {"quarry.yaml": text})
    problems, notices = validate_report([mod])
    assert problems == []
    [notice] = notices
    assert "using the mod's map 'quarry' over the bundled one" in notice.message
    assert "quarry.tmj" in notice.message
    assert load_setup("quarry", load_library([mod])).map.name == "Flat quarry"
