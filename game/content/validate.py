"""Checks across files: references exist, maps parse, scenarios can deploy.

Each check returns Problems located at the YAML node that holds the faulty value. A reference
to an item that failed its own validation is not reported again.
"""

from __future__ import annotations

from game.content.deploy import DeployIssue, plan
from game.content.library import Library, Origin, map_of, register
from game.content.maps import ParsedMap, scan_map
from pydantic import ValidationError

from game.content.problems import Problem, from_validation, suggest, unique
from game.content.schema import MapSpec, RulesetSpec, ScenarioSpec
from game.rules.registry import RULESETS, params_model

INLINE_KINDS = (("weapons", "weapon"), ("armor", "armor"), ("units", "unit"), ("squads", "squad"))


def _unknown(library: Library, kind: str, name: str) -> str:
    return f"unknown {kind} {name!r}" + suggest(name, library.table(kind))


def check_unit(library: Library, unit_id: str) -> list[Problem]:
    unit = library.units[unit_id]
    origin = library.origins[("unit", unit_id)]
    problems = []
    for index, carried in enumerate(unit.weapons):
        weapon = library.weapons.get(carried.weapon)
        if weapon is None and not library.knows("weapon", carried.weapon):
            message = _unknown(library, "weapon", carried.weapon)
            problems.append(library.problem(origin, ("weapons", index, "weapon"), message))
        elif weapon is not None and weapon.kind == "grenade":
            message = f"{carried.weapon!r} is a grenade: list it under `grenades`"
            problems.append(library.problem(origin, ("weapons", index, "weapon"), message))
    if unit.armor is not None and not library.knows("armor", unit.armor):
        problems.append(library.problem(origin, ("armor",), _unknown(library, "armor", unit.armor)))
    for name in unit.grenades:
        weapon = library.weapons.get(name)
        if weapon is None and not library.knows("weapon", name):
            message = _unknown(library, "weapon", name)
            problems.append(library.problem(origin, ("grenades", name), message, key=True))
        elif weapon is not None and weapon.kind != "grenade":
            message = f"{name!r} is a {weapon.kind} weapon, not a grenade: list it under `weapons`"
            problems.append(library.problem(origin, ("grenades", name), message, key=True))
    return problems


def check_squad(library: Library, squad_id: str) -> list[Problem]:
    squad = library.squads[squad_id]
    origin = library.origins[("squad", squad_id)]
    return [
        library.problem(origin, ("members", index, "unit"), _unknown(library, "unit", member.unit))
        for index, member in enumerate(squad.members)
        if not library.knows("unit", member.unit)
    ]


def _known_terrain(library: Library, spec: MapSpec, glyph: str) -> bool:
    """A legend naming a terrain that failed its own validation is not reported again."""
    return library.knows("terrain", spec.legend[glyph].terrain)


def check_map(library: Library, spec: MapSpec, origin: Origin) -> tuple[ParsedMap | None, list]:
    parsed, issues = scan_map(spec, library.terrain)
    problems = [
        library.problem(origin, issue.loc, issue.message, offset=issue.offset)
        for issue in issues
        if not (issue.loc[0] == "legend" and _known_terrain(library, spec, issue.loc[1]))
    ]
    return parsed, problems


def check_terrain(library: Library) -> list[Problem]:
    seen: dict[str, str] = {}
    problems = []
    for item in library.terrain.values():
        if item.glyph in seen:
            message = f"glyph {item.glyph!r} is already the glyph of terrain {seen[item.glyph]!r}"
            origin = library.origins[("terrain", item.id)]
            problems.append(library.problem(origin, ("glyph",), message))
        seen.setdefault(item.glyph, item.id)
    return problems


def with_inline(library: Library, scenario: ScenarioSpec) -> tuple[Library, list[Problem]]:
    """The library as `scenario` sees it: plus the weapons, armor, units, squads it defines."""
    if not any(getattr(scenario, key) for key, _ in INLINE_KINDS):
        return library, []
    scope, problems = library.copy(), []
    origin = library.origins[("scenario", scenario.id)]
    for key, kind in INLINE_KINDS:
        for index, spec in enumerate(getattr(scenario, key)):
            register(scope, kind, spec, Origin(origin.file, origin.loc + (key, index)), problems)
    for unit in scenario.units:
        if scope.origins[("unit", unit.id)].file == origin.file:
            problems += check_unit(scope, unit.id)
    for squad in scenario.squads:
        if scope.origins[("squad", squad.id)].file == origin.file:
            problems += check_squad(scope, squad.id)
    return scope, problems


def _sides(scope: Library, scenario: ScenarioSpec, origin: Origin) -> list[Problem]:
    problems, seen = [], set()
    for index, side in enumerate(scenario.sides):
        if side.id in seen:
            message = f"side id {side.id!r} is used twice"
            problems.append(scope.problem(origin, ("sides", index, "id"), message))
        seen.add(side.id)
        if side.squad is not None and not scope.knows("squad", side.squad):
            message = _unknown(scope, "squad", side.squad)
            problems.append(scope.problem(origin, ("sides", index, "squad"), message))
        for number, member in enumerate(side.members):
            if not scope.knows("unit", member.unit):
                loc = ("sides", index, "members", number, "unit")
                problems.append(scope.problem(origin, loc, _unknown(scope, "unit", member.unit)))
    return problems


def _used_units(scope: Library, scenario: ScenarioSpec) -> list[str]:
    used = []
    for side in scenario.sides:
        squad = scope.squads.get(side.squad or "")
        members = (squad.members if squad else []) + side.members
        used += [member.unit for member in members if member.unit in scope.units]
    return list(dict.fromkeys(used))


def _stats(scope: Library, scenario: ScenarioSpec, ruleset: RulesetSpec) -> list[Problem]:
    problems = []
    for unit_id in _used_units(scope, scenario):
        unit, origin = scope.units[unit_id], scope.origins[("unit", unit_id)]
        for group, needed, have in (
            ("attributes", ruleset.unit_attributes, unit.attributes),
            ("skills", ruleset.unit_skills, unit.skills),
        ):
            for stat in needed:
                if stat not in have:
                    kind = group.removesuffix("s")
                    message = f"missing {kind} {stat!r}, which ruleset {ruleset.id!r} needs"
                    problems.append(scope.problem(origin, (group,), message))
    return problems


def _victory(
    scope: Library, scenario: ScenarioSpec, origin: Origin, parsed: ParsedMap | None
) -> list[Problem]:
    victory, problems = scenario.victory, []
    side_ids = [side.id for side in scenario.sides]
    listed = ", ".join(side_ids)

    def add(key: str, message: str) -> None:
        problems.append(scope.problem(origin, ("victory", key), message))

    if victory.on_timeout != "draw" and victory.on_timeout not in side_ids:
        add("on_timeout", f"on_timeout must be 'draw' or a side id ({listed})")
    if victory.type != "reach":
        return problems
    if victory.side is None:
        add("side", "a `reach` victory needs `side`: the side that must reach the zone")
    elif victory.side not in side_ids:
        add("side", f"unknown side {victory.side!r} (sides: {listed})")
    if victory.zone is None:
        add("zone", "a `reach` victory needs `zone`: the zone to reach")
    elif parsed is not None and victory.zone not in parsed.zones:
        known = ", ".join(sorted(parsed.zones)) or "none"
        message = f"zone {victory.zone!r} is not marked on map {parsed.id!r} (its zones: {known})"
        add("zone", message)
    return problems


def _deploy_problem(scope: Library, scenario: ScenarioSpec, issue: DeployIssue) -> Problem:
    source = issue.source
    if source.owner == "squad":
        origin = scope.origins[("squad", source.owner_id)]
        message = f"{issue.message} (in scenario {scenario.id!r})"
    else:
        origin, message = scope.origins[("scenario", scenario.id)], issue.message
    return scope.problem(origin, source.loc, message)


def check_scenario(library: Library, scenario_id: str) -> list[Problem]:
    scenario = library.scenarios[scenario_id]
    origin = library.origins[("scenario", scenario_id)]
    scope, problems = with_inline(library, scenario)
    ruleset = scope.rulesets.get(scenario.ruleset)
    if ruleset is None and not scope.knows("ruleset", scenario.ruleset):
        message = _unknown(scope, "ruleset", scenario.ruleset)
        problems.append(scope.problem(origin, ("ruleset",), message))
    elif ruleset is not None and ruleset.engine not in RULESETS:
        message = (f"ruleset {ruleset.id!r} (engine {ruleset.engine!r}) cannot be played in "
                   f"battles yet; playable: {', '.join(sorted(RULESETS))}")
        problems.append(scope.problem(origin, ("ruleset",), message))
    found, parsed = map_of(scope, scenario), None
    if found is not None:
        parsed, map_problems = check_map(scope, *found)
        problems += map_problems
    elif isinstance(scenario.map, str) and not scope.knows("map", scenario.map):
        problems.append(scope.problem(origin, ("map",), _unknown(scope, "map", scenario.map)))
    problems += _sides(scope, scenario, origin)
    if ruleset is not None:
        problems += _stats(scope, scenario, ruleset)
    problems += _victory(scope, scenario, origin, parsed)
    if parsed is not None:
        _, issues = plan(scenario, parsed, scope.terrain, scope.squads, scope.units)
        problems += [_deploy_problem(scope, scenario, issue) for issue in issues]
    return problems


def check_rulesets(library: Library) -> list[Problem]:
    """Each playable ruleset's `params` against its engine's own model."""
    problems: list[Problem] = []
    for ruleset_id, spec in library.rulesets.items():
        model = params_model(spec.engine)
        if model is None:
            continue
        try:
            model.model_validate(spec.params)
        except ValidationError as error:
            origin = library.origins[("ruleset", ruleset_id)]
            marks = library.marks.get(origin.file)
            if marks is None:
                problems.append(Problem(origin.file, None, None, "params", str(error)))
            else:
                problems += from_validation(error, spec.params, origin.file, marks,
                                            origin.loc + ("params",))
    return problems


def check_library(library: Library) -> list[Problem]:
    """Every cross-file problem of a library."""
    problems = check_terrain(library) + check_rulesets(library)
    for unit_id in library.units:
        problems += check_unit(library, unit_id)
    for squad_id in library.squads:
        problems += check_squad(library, squad_id)
    for map_id, spec in library.maps.items():
        problems += check_map(library, spec, library.origins[("map", map_id)])[1]
    for scenario_id in library.scenarios:
        problems += check_scenario(library, scenario_id)
    return unique(problems)
