"""The content library: every terrain, weapon, armor, unit, squad, map, scenario and ruleset read
from files, by id, with where each was written.

What a file holds is decided by its top-level key (`terrain`, `weapons`, `armor`, `units`,
`squads`) or its shape (a map has `rows`, a scenario has `sides`, a ruleset has `engine`).
Items of list files are validated one by one, so one bad unit does not hide its neighbours.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from game.content.campaign import CAMPAIGN_FIELDS, CampaignSpec
from game.content.problems import Loc, Problem, format_key, from_validation
from game.content.schema import (
    ArmorSpec,
    MapSpec,
    RulesetSpec,
    ScenarioSpec,
    SquadSpec,
    TerrainSpec,
    UnitSpec,
    WeaponSpec,
)
from game.content.yaml_marks import Document, MarkIndex, read_document

# top-level key of a list file -> (kind, item model)
LIST_FILES: dict[str, tuple[str, type[BaseModel]]] = {
    "terrain": ("terrain", TerrainSpec),
    "weapons": ("weapon", WeaponSpec),
    "armor": ("armor", ArmorSpec),
    "units": ("unit", UnitSpec),
    "squads": ("squad", SquadSpec),
}
# a key only that kind of document has -> (kind, model)
SHAPES: dict[str, tuple[str, type[BaseModel]]] = {
    "engine": ("ruleset", RulesetSpec),
    "sides": ("scenario", ScenarioSpec),
    "rows": ("map", MapSpec),
    "steps": ("campaign", CampaignSpec),
}
TABLES = {
    "terrain": "terrain", "weapon": "weapons", "armor": "armor", "unit": "units",
    "squad": "squads", "map": "maps", "scenario": "scenarios", "ruleset": "rulesets",
    "campaign": "campaigns",
}
YAML_SUFFIXES = (".yaml", ".yml")
TILED_SUFFIXES = (".tmj", ".tmx")          # maps made in Tiled: game.content.tiled
CONTENT_SUFFIXES = YAML_SUFFIXES + TILED_SUFFIXES


@dataclass(frozen=True)
class Origin:
    """Where an item was written: its file and its key path in that file."""

    file: str
    loc: Loc


@dataclass
class Library:
    terrain: dict[str, TerrainSpec] = field(default_factory=dict)
    weapons: dict[str, WeaponSpec] = field(default_factory=dict)
    armor: dict[str, ArmorSpec] = field(default_factory=dict)
    units: dict[str, UnitSpec] = field(default_factory=dict)
    squads: dict[str, SquadSpec] = field(default_factory=dict)
    maps: dict[str, MapSpec] = field(default_factory=dict)
    scenarios: dict[str, ScenarioSpec] = field(default_factory=dict)
    rulesets: dict[str, RulesetSpec] = field(default_factory=dict)
    campaigns: dict[str, CampaignSpec] = field(default_factory=dict)
    origins: dict[tuple[str, str], Origin] = field(default_factory=dict)
    """(kind, id) -> where it was written; kinds are the keys of TABLES."""
    scenario_maps: dict[str, tuple[MapSpec, Origin]] = field(default_factory=dict)
    """Maps that scenarios name by path, by scenario id."""
    marks: dict[str, MarkIndex] = field(default_factory=dict)
    broken: set[tuple[str, str]] = field(default_factory=set)
    """Items that failed validation: references to them are not reported a second time."""
    files: set[Path] = field(default_factory=set)
    bundled: set[str] = field(default_factory=set)
    """The files of the bundled content: a mod's item of the same id replaces theirs."""
    notices: list[Problem] = field(default_factory=list)
    """What a mod replaced of the bundled content ("using the mod's unit 'x' over ...")."""
    tiled: dict[str, dict[str, str]] = field(default_factory=dict)
    """Maps read from Tiled files, by file: glyph -> where its terrain was named."""

    def table(self, kind: str) -> dict[str, Any]:
        return getattr(self, TABLES[kind])

    def source(self, kind: str, ident: str) -> str:
        """The file an item came from."""
        return self.origins[(kind, ident)].file

    def knows(self, kind: str, ident: str) -> bool:
        """True if the item exists, or exists but failed validation (already reported)."""
        return ident in self.table(kind) or (kind, ident) in self.broken

    def problem(
        self, origin: Origin, sub: Loc, message: str, *, key: bool = False, offset: int = 0
    ) -> Problem:
        loc = origin.loc + tuple(sub)
        marks = self.marks.get(origin.file)
        line, column = marks.locate(loc, key=key, offset=offset) if marks else (None, None)
        return Problem(origin.file, line, column, format_key(loc), message)

    def copy(self) -> Library:
        """A copy whose tables can take more items without touching this library."""
        return Library(**{name: copy.copy(value) for name, value in vars(self).items()})


def register(
    library: Library, kind: str, spec: Any, origin: Origin, problems: list[Problem],
    *, replace: bool = False,
) -> bool:
    table = library.table(kind)
    if spec.id in table and not replace:
        first = library.origins[(kind, spec.id)]
        marks = library.marks.get(first.file)
        line = marks.locate(first.loc + ("id",))[0] if marks else None
        where = f"{first.file}:{line}" if line else first.file
        if first.file not in library.bundled or origin.file in library.bundled:
            message = f"{kind} id {spec.id!r} is already defined at {where}"
            problems.append(library.problem(origin, ("id",), message))
            return False
        message = f"using the mod's {kind} {spec.id!r} over the bundled one ({where})"
        library.notices.append(library.problem(origin, ("id",), message))
    table[spec.id] = spec
    library.origins[(kind, spec.id)] = origin
    return True


def _mark_broken(library: Library, kind: str, data: Any) -> None:
    if isinstance(data, dict) and isinstance(data.get("id"), str):
        library.broken.add((kind, data["id"]))


def _validate(
    library: Library, model: type[BaseModel], data: Any, doc: Document, loc: Loc,
    problems: list[Problem],
) -> Any | None:
    try:
        return model.model_validate(data)
    except ValidationError as error:
        fields = CAMPAIGN_FIELDS if model is CampaignSpec else None
        problems.extend(from_validation(error, data, doc.file, doc.marks, loc, fields=fields))
        return None


def _add_list(library: Library, doc: Document, key: str, problems: list[Problem]) -> list:
    kind, model = LIST_FILES[key]
    origin = Origin(doc.file, ())
    for other in doc.data:
        if other != key:
            message = f"unknown key {other!r}: a file of {key} holds only the `{key}` list"
            problems.append(library.problem(origin, (other,), message, key=True))
    items = doc.data[key]
    if not isinstance(items, list) or not items:
        message = f"expected a list of {key}, one `- id: ...` each"
        problems.append(library.problem(origin, (key,), message))
        return []
    added = []
    for index, item in enumerate(items):
        spec = _validate(library, model, item, doc, (key, index), problems)
        if spec is None:
            _mark_broken(library, kind, item)
        elif register(library, kind, spec, Origin(doc.file, (key, index)), problems):
            added.append((kind, spec.id))
    return added


def _kind_of(data: dict[str, Any]) -> str | None:
    for key in SHAPES:
        if key in data:
            return key
    return next((key for key in data if key in LIST_FILES), None)


def add_file(
    library: Library, path: Path, problems: list[Problem], *, replace: bool = False
) -> list[tuple[str, str]]:
    """Read one file into the library. Returns the (kind, id) of each item added."""
    resolved = path.resolve()
    if resolved in library.files:
        return []
    library.files.add(resolved)
    if path.suffix in TILED_SUFFIXES:
        return _add_tiled(library, path, problems)
    doc, found = read_document(path)
    problems.extend(found)
    if doc is None:
        return []
    library.marks[doc.file] = doc.marks
    origin = Origin(doc.file, ())
    key = _kind_of(doc.data) if isinstance(doc.data, dict) else None
    if key is None:
        message = (
            "cannot tell what this file holds: expected a top-level `terrain`, `weapons`, "
            "`armor`, `units` or `squads` list, or a map (`rows`), scenario (`sides`), "
            "ruleset (`engine`) or campaign (`steps`)"
        )
        problems.append(library.problem(origin, (), message))
        return []
    if key in LIST_FILES:
        return _add_list(library, doc, key, problems)
    kind, model = SHAPES[key]
    spec = _validate(library, model, doc.data, doc, (), problems)
    if spec is None:
        _mark_broken(library, kind, doc.data)
        return []
    if not register(library, kind, spec, origin, problems, replace=replace and kind == "scenario"):
        return []
    if isinstance(spec, ScenarioSpec) and is_map_path(spec.map):
        _add_map_file(library, spec, doc, problems)
    return [(kind, spec.id)]


def _read_tiled(library: Library, path: Path, problems: list[Problem]) -> MapSpec | None:
    from game.content.tiled import read_tiled

    found, issues = read_tiled(path)
    problems.extend(issues)
    if found is None:
        return None
    library.tiled[str(path)] = found.places
    return found.spec


def _add_tiled(library: Library, path: Path, problems: list[Problem]) -> list[tuple[str, str]]:
    spec = _read_tiled(library, path, problems)
    if spec is None:
        library.broken.add(("map", path.stem))
        return []
    if not register(library, "map", spec, Origin(str(path), ()), problems):
        return []
    return [("map", spec.id)]


def is_map_path(value: object) -> bool:
    return isinstance(value, str) and value.endswith(CONTENT_SUFFIXES)


def _add_map_file(library: Library, scenario: ScenarioSpec, doc: Document, problems: list) -> None:
    assert isinstance(scenario.map, str)
    path = doc.path.parent / scenario.map
    if not path.is_file():
        message = f"no map file {scenario.map!r} next to this scenario (looked for {path})"
        problems.append(library.problem(Origin(doc.file, ()), ("map",), message))
        library.broken.add(("map", scenario.map))
        return
    if path.suffix in TILED_SUFFIXES:
        spec = _read_tiled(library, path, problems)
        if spec is None:
            library.broken.add(("map", scenario.map))
        else:
            library.scenario_maps[scenario.id] = (spec, Origin(str(path), ()))
        return
    map_doc, found = read_document(path)
    problems.extend(found)
    if map_doc is None:
        library.broken.add(("map", scenario.map))
        return
    library.marks[map_doc.file] = map_doc.marks
    if not (isinstance(map_doc.data, dict) and "rows" in map_doc.data):
        message = "this file is not a map (a map has `rows`)"
        problems.append(Problem(map_doc.file, 1, 1, "", message))
        library.broken.add(("map", scenario.map))
        return
    spec = _validate(library, MapSpec, map_doc.data, map_doc, (), problems)
    if spec is None:
        library.broken.add(("map", scenario.map))
        return
    library.scenario_maps[scenario.id] = (spec, Origin(map_doc.file, ()))


def add_path(library: Library, path: Path, problems: list[Problem]) -> None:
    """Read a file, or every content file under a folder (.yaml, .yml, and Tiled maps .tmj,
    .tmx), sorted so the order is stable."""
    if path.is_dir():
        found = sorted(p for p in path.rglob("*") if p.suffix in CONTENT_SUFFIXES and p.is_file())
        for item in found:
            add_file(library, item, problems)
    elif path.is_file():
        add_file(library, path, problems)
    elif path.exists():
        message = "not a file or a folder (a pipe, a device or a socket cannot be read)"
        problems.append(Problem(str(path), None, None, "", message))
    else:
        problems.append(Problem(str(path), None, None, "", "no such file or folder"))


def add_beside(library: Library, path: Path, problems: list[Problem]) -> None:
    """Read the content files in the folder of `path` (not its subfolders): a scenario file is
    played together with the files beside it, as `validate` of its folder checks them."""
    try:
        found = sorted(p for p in path.parent.iterdir()
                       if p.suffix in CONTENT_SUFFIXES and p.is_file())
    except OSError as error:
        problems.append(Problem(str(path.parent), None, None, "", f"cannot list: {error}"))
        return
    for item in found:
        add_file(library, item, problems)


def map_of(library: Library, scenario: ScenarioSpec) -> tuple[MapSpec, Origin] | None:
    """The map a scenario plays on and where it was written, if it can be found."""
    if isinstance(scenario.map, MapSpec):
        origin = library.origins[("scenario", scenario.id)]
        return scenario.map, Origin(origin.file, origin.loc + ("map",))
    if is_map_path(scenario.map):
        return library.scenario_maps.get(scenario.id)
    if scenario.map in library.maps:
        return library.maps[scenario.map], library.origins[("map", scenario.map)]
    return None
