"""An encounter set up by hand, kept for next time: units added from unit files, and the whole
battle setup written as a scenario file that `skirmish validate` passes and the new-battle
screen loads.

The scenario written names what the bundled library already has (its map, units, weapons,
armor) and writes out the rest (a map read from a file, units added from their own files), so
the file stands on its own beside the bundled content. Every unit is a member of its own with
its `at:` square (game.content.deploy.pinned), so it deploys exactly as it was set up.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path
from typing import Any

import yaml

from game.content.library import Library, add_file
from game.content.loader import load_setup
from game.content.problems import ContentError, Problem
from game.content.schema import BattleSetup, UnitSpec


class EncounterError(ValueError):
    """A unit file or a scenario file that cannot be used, with the reason."""


class _Dumper(yaml.SafeDumper):
    """Short lists of numbers (a square) on one line: `at: [3, 4]`."""


def _list(dumper: yaml.SafeDumper, items: list) -> yaml.Node:
    flow = all(isinstance(item, (int, float)) for item in items)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", items, flow_style=flow)


_Dumper.add_representer(list, _list)


def ident_for(path: str | Path, library: Library) -> str:
    """A scenario id from a file's name, not one the library already has."""
    stem = re.sub(r"[^a-z0-9_]+", "_", Path(path).stem.lower()).strip("_")
    base = (stem if stem[:1].isalpha() else f"encounter_{stem}".rstrip("_"))[:40]
    ident, number = base, 2
    while ident in library.scenarios:
        ident, number = f"{base}_{number}", number + 1
    return ident


def _inline(have: dict[str, Any], items: list[Any]) -> list[dict[str, Any]]:
    """The items the library does not hold as they are, written out."""
    return [item.model_dump(mode="json", exclude_defaults=True) for item in items
            if have.get(item.id) != item]


def scenario_document(setup: BattleSetup, library: Library, ident: str, name: str) -> dict[str, Any]:
    """The setup as a scenario file's contents (`setup` already pinned: every unit `at:`),
    under a scenario id and name of its own."""
    scenario = setup.scenario.model_copy(update={"id": ident, "name": name})
    data = scenario.model_dump(mode="json", exclude_defaults=True,
                               exclude={"map", "weapons", "armor", "units", "squads"})
    data["ruleset"] = setup.ruleset.id
    data["map"] = (setup.map.id if library.maps.get(setup.map.id) == setup.map
                   else setup.map.model_dump(mode="json", exclude_defaults=True))
    for key, have, items in (("weapons", library.weapons, setup.weapons),
                             ("armor", library.armor, setup.armor),
                             ("units", library.units, setup.units)):
        written = _inline(have, items)
        if written:
            data[key] = written
    ordered = {key: data[key] for key in ("id", "name", "description", "ruleset", "map", "sides")
               if key in data}
    return {**ordered, **{k: v for k, v in data.items() if k not in ordered}}


def write_scenario(setup: BattleSetup, library: Library, path: str | Path) -> BattleSetup:
    """Write the encounter to `path` and read it back as the new-battle screen would; the setup
    it loads. Its id comes from the file's name, its name is the scenario's, "set up".
    EncounterError (nothing written) when it would not load."""
    target = Path(path).expanduser()
    if target.suffix.lower() not in (".yaml", ".yml"):
        raise EncounterError(f"{target.name}: a scenario file's name ends in .yaml")
    if not target.parent.is_dir():
        raise EncounterError(f"there is no folder {str(target.parent)!r}")
    name = setup.scenario.name
    name = name if name.endswith("(set up)") else f"{name[:40]} (set up)"
    document = scenario_document(setup, library, ident_for(target, library), name)
    text = ("# An encounter set up on the grid: every unit at its square.\n"
            + yaml.dump(document, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100))
    handle, temporary = tempfile.mkstemp(suffix=".yaml", dir=target.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        try:
            loaded = load_setup(temporary, library)
        except ContentError as error:
            text = str(error).replace(temporary, str(target))
            raise EncounterError(f"the scenario would not load:\n{text}") from None
        os.replace(temporary, target)
    except OSError as error:
        raise EncounterError(f"cannot write {target}: {error.strerror or error}") from None
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    return loaded


def units_in_file(path: str | Path, library: Library) -> tuple[list[UnitSpec], Library]:
    """The units a unit file defines, and the library with the file read into it (for the
    weapons and armor it may define too). EncounterError with the file's problems."""
    source = Path(path).expanduser()
    if not source.is_file():
        raise EncounterError(f"there is no file {str(source)!r}")
    scope = library.copy()
    problems: list[Problem] = []
    added = add_file(scope, source, problems)
    if problems:
        raise EncounterError(str(ContentError(problems)))
    units = [scope.units[ident] for kind, ident in added if kind == "unit"]
    if not units:
        raise EncounterError(f"{source.name} defines no units (a unit file has a top-level "
                             "`units:` list)")
    return units, scope


def with_unit(setup: BattleSetup, scope: Library, unit: UnitSpec) -> BattleSetup:
    """`setup` able to field `unit` (read into `scope`): the unit, and the weapons and armor it
    carries. EncounterError when something it needs is missing or its id is taken."""
    own = {u.id: u for u in setup.units}
    if unit.id in own and own[unit.id] != unit:
        raise EncounterError(f"this battle already has another unit with the id {unit.id!r}")
    weapons = {w.id: w for w in setup.weapons}
    armor = {a.id: a for a in setup.armor}
    for ident in [carried.weapon for carried in unit.weapons] + list(unit.grenades):
        if ident not in weapons:
            if ident not in scope.weapons:
                raise EncounterError(f"{unit.name} carries {ident!r}, a weapon no file defines")
            weapons[ident] = scope.weapons[ident]
    if unit.armor is not None and unit.armor not in armor:
        if unit.armor not in scope.armor:
            raise EncounterError(f"{unit.name} wears {unit.armor!r}, armor no file defines")
        armor[unit.armor] = scope.armor[unit.armor]
    own[unit.id] = unit
    return setup.model_copy(update={"units": list(own.values()), "weapons": list(weapons.values()),
                                    "armor": list(armor.values())})
