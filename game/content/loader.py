"""Loading content: the bundled library, a player's extra files, and one battle's setup.

    load_library(extra)    -> Library           every file, cross-checked; ContentError if not
    load_setup(scenario, ruleset=None) -> BattleSetup   a scenario id or a scenario file's path,
                                                 optionally under a ruleset other than its own
    playable_rulesets(library, scenario) -> list[str]   the rulesets its units have stats for
    validate_paths(paths)  -> list[Problem]     for `skirmish validate PATH...`
    parse_map(spec, terrain) -> ParsedMap, deploy(setup) -> list[Deployment]  (for the engine)

Bad content never raises anything but ContentError, which lists every problem found with its
file, line, column and key.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from pathlib import Path

from game.content.deploy import Deployment, deploy, slots_of
from game.content.library import Library, Origin, add_beside, add_file, add_path, map_of
from game.content.maps import ParsedMap, parse_map, scan_map
from game.content.problems import ContentError, Problem, unique
from game.content.schema import BattleSetup, RulesetSpec
from game.content.validate import check_library, check_scenario, with_inline
from game.content.validate import playable_rulesets as _playable_rulesets
from game.content.yaml_marks import MAX_FILE_BYTES

__all__ = [
    "MAX_FILE_BYTES", "ContentError", "Deployment", "Library", "Origin", "ParsedMap", "Problem",
    "bundled_content_dir", "deploy", "load_library", "load_setup", "parse_map", "playable_rulesets",
    "validate_paths", "validate_report",
]


def bundled_content_dir() -> Path:
    """The bundled content: the package data `game._content` of an installed game, else the
    `content/` folder at the top of the project (a source checkout)."""
    game = Path(__file__).resolve().parents[1]
    packaged = game / "_content"            # installed by setup.py next to the game's modules
    return packaged if packaged.is_dir() else game.parent / "content"


def _read(extra: Sequence[Path | str]) -> tuple[Library, list[Problem]]:
    """The bundled content, then each of `extra`: a folder with every content file under it, a
    file alone, except a scenario file, which brings the files beside it (as playing it does).
    An id the extra files define again replaces the bundled item, with a notice."""
    library: Library = Library()
    problems: list[Problem] = []
    add_path(library, bundled_content_dir(), problems)
    library.bundled = set(library.marks) | {origin.file for origin in library.origins.values()}
    for path in extra:
        path = Path(path)
        if path.is_file():
            added = add_file(library, path, problems)
            if any(kind == "scenario" for kind, _ in added):
                add_beside(library, path, problems)
        else:
            add_path(library, path, problems)
    return library, problems


def load_library(extra: Sequence[Path | str] = ()) -> Library:
    """The bundled content plus `extra` files and folders (a mod). Raises ContentError.
    `library.notices` says which bundled items the mod replaced."""
    library, problems = _read(extra)
    problems = unique(problems + check_library(library))
    if problems:
        raise ContentError(problems)
    return library


def validate_paths(paths: Sequence[Path | str]) -> list[Problem]:
    """Every problem in `paths` (files or folders), checked together with the bundled content."""
    return validate_report(paths)[0]


def validate_report(paths: Sequence[Path | str]) -> tuple[list[Problem], list[Problem]]:
    """The problems in `paths`, and the notices (bundled items they replace)."""
    library, problems = _read(paths)
    return unique(problems + check_library(library)), library.notices


def _scenario_in_file(library: Library, path: Path, problems: list[Problem]) -> str | None:
    resolved = path.resolve()
    for (kind, ident), origin in library.origins.items():
        if kind == "scenario" and Path(origin.file).resolve() == resolved:
            return ident
    added = add_file(library, path, problems, replace=True)
    found = [ident for kind, ident in added if kind == "scenario"]
    if found:
        return found[0]
    if not problems:
        message = "not a scenario (a scenario has `sides`)"
        problems.append(Problem(str(path), None, None, "", message))
    return None


def _pick(library: Library, scenario: str | Path, problems: list[Problem]) -> str | None:
    if isinstance(scenario, str) and scenario in library.scenarios:
        return scenario
    path = Path(scenario)
    if path.is_file():
        ident = _scenario_in_file(library, path, problems)
        if ident is not None and not problems:
            before = len(library.files)
            add_beside(library, path, problems)
            if len(library.files) > before:          # new files beside it: check them too
                problems += check_library(library)
        return ident
    known = ", ".join(sorted(library.scenarios)) or "none"
    message = f"no scenario with this id, and no such file (scenarios: {known})"
    problems.append(Problem(str(scenario), None, None, "", message))
    return None


def load_setup(
    scenario: str | Path, library: Library | None = None, *, ruleset: str | None = None,
    notices: list[Problem] | None = None,
) -> BattleSetup:
    """Everything one battle needs, from a scenario id or a scenario file's path.

    A scenario file is read with the content files beside it (the folder is a mod: they may
    define what it uses, or replace bundled items; `notices`, if given, gets what was replaced,
    the library's own notices included). A scenario file may define its own weapons, armor,
    units and squads; they join the library for that scenario only. `ruleset` (a ruleset id) plays the scenario under that ruleset
    instead of its own: its units and their weapons must have the stats it needs, and the
    setup's `scenario.ruleset` becomes that id. Raises ContentError with every problem found.
    """
    scope = (library if library is not None else load_library()).copy()
    problems: list[Problem] = []
    scenario_id = _pick(scope, scenario, problems)
    if scenario_id is not None:
        problems += check_scenario(scope, scenario_id, ruleset)
    if scenario_id is None or problems:
        raise ContentError(unique(problems))
    if notices is not None:
        notices.extend(scope.notices)
    return _build_setup(scope, scenario_id, ruleset)


def playable_rulesets(library: Library, scenario_id: str | Path) -> list[str]:
    """The ruleset ids a scenario (an id, or a scenario file's path) can be played under.

    Those whose stats every unit it uses and every weapon they carry have (see
    game.content.validate.playable_rulesets): the scenario's own ruleset first, then the
    others by id; none for a scenario that cannot be found or has problems of its own. It does
    not ask whether a ruleset's engine is registered for battles (game.rulesets).
    """
    scope = library.copy()
    problems: list[Problem] = []
    ident = _pick(scope, scenario_id, problems)
    if ident is None or problems:
        return []
    return _playable_rulesets(scope, ident)


def with_options(spec: RulesetSpec, options: dict[str, Any]) -> RulesetSpec:
    """The ruleset with a scenario's optional rules switched (checked by `check_scenario`)."""
    if not options:
        return spec
    return spec.model_copy(update={"params": {**spec.params, **options}})


TURNS = ("simultaneous", "sequential")


def with_turns(setup: BattleSetup, turns: str) -> BattleSetup:
    """The setup played with its units taking `turns` ("simultaneous": orders chosen at once,
    "sequential": one unit at a time); ValueError when its ruleset has one way of taking turns."""
    if turns not in TURNS:
        raise ValueError(f"turns are {' or '.join(TURNS)}, not {turns!r}")
    if "turns" not in setup.ruleset.params:
        raise ValueError(f"the {setup.ruleset.name} ruleset has one way of taking turns; "
                         "only skirmish offers the choice")
    return setup.model_copy(update={"ruleset": with_options(setup.ruleset, {"turns": turns})})


def _build_setup(library: Library, scenario_id: str, ruleset_id: str | None = None) -> BattleSetup:
    scenario = library.scenarios[scenario_id]
    scope, _ = with_inline(library, scenario)
    found = map_of(scope, scenario)
    assert found is not None
    map_spec = found[0]
    parsed, _ = scan_map(map_spec, scope.terrain)
    assert parsed is not None
    used_terrain = {ident for row in parsed.terrain_ids for ident in row}
    slots = slots_of(scenario, scope.squads, scope.units)
    arriving = [m.unit for r in scenario.reinforcements for m in r.members]
    units = [scope.units[ident]
             for ident in dict.fromkeys([slot.unit for slot in slots] + arriving)]
    weapon_ids = [c.weapon for unit in units for c in unit.weapons]
    weapon_ids += [name for unit in units for name in unit.grenades]
    armor_ids = [unit.armor for unit in units if unit.armor is not None]
    squad_ids = [side.squad for side in scenario.sides if side.squad is not None]
    ruleset = ruleset_id if ruleset_id is not None else scenario.ruleset
    return BattleSetup(
        scenario=scenario.model_copy(update={"map": map_spec.id, "ruleset": ruleset}),
        map=map_spec,
        ruleset=with_options(scope.rulesets[ruleset], scenario.options.get(ruleset, {})),
        terrain=[item for item in scope.terrain.values() if item.id in used_terrain],
        weapons=[scope.weapons[ident] for ident in dict.fromkeys(weapon_ids)],
        armor=[scope.armor[ident] for ident in dict.fromkeys(armor_ids)],
        units=units,
        squads=[scope.squads[ident] for ident in dict.fromkeys(squad_ids)],
    )
