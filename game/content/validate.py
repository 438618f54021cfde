"""Checks across files: references exist, maps parse, scenarios can deploy.

Each check returns Problems located at the YAML node that holds the faulty value. A reference
to an item that failed its own validation is not reported again.
"""

from __future__ import annotations

from game.content.campaign import check_campaigns
from game.content.deploy import MAX_UNITS, DeployIssue, plan, slots_of, unit_count
from game.content.library import Library, Origin, map_of, register
from game.content.maps import ParsedMap, scan_map
from game.content.reach import unreachable_objective, unreachable_zones
from pydantic import ValidationError

from game.content.problems import Problem, format_key, from_validation, suggest, unique
from game.content.profiles import block_of, check_rules_keys
from game.content.schema import MapSpec, RulesetSpec, ScenarioSpec, TriggerSpec, UnitSpec
from game.rulesets import RULESETS, file_blocks, needs_profiles

INLINE_KINDS = (("weapons", "weapon"), ("armor", "armor"), ("units", "unit"), ("squads", "squad"))
"""The engine whose unit stats are the unit's own `attributes` and `skills`; every other engine
reads them from the unit's `rules: {engine: {...}}` block."""


def _unknown(library: Library, kind: str, name: str) -> str:
    return f"unknown {kind} {name!r}" + suggest(name, library.table(kind))


def check_unit(library: Library, unit_id: str) -> list[Problem]:
    unit = library.units[unit_id]
    origin = library.origins[("unit", unit_id)]
    problems = check_rules_keys(library, "unit", unit_id)
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
    places = library.tiled.get(origin.file)
    if places is not None:              # a Tiled map: its only late issue is an unknown terrain
        return parsed, [_tiled_problem(library, spec, origin, issue, places) for issue in issues]
    problems = [
        library.problem(origin, issue.loc, issue.message, offset=issue.offset)
        for issue in issues
        if not (issue.loc[0] == "legend" and _known_terrain(library, spec, issue.loc[1]))
    ]
    return parsed, problems


def _tiled_problem(library: Library, spec: MapSpec, origin: Origin, issue, places) -> Problem:
    from game.content.tiled import TERRAIN_LAYER

    if issue.loc[0] == "legend":
        terrain = spec.legend[issue.loc[1]].terrain
        message = (f"unknown terrain {terrain!r} ({places.get(issue.loc[1], 'a tile')})"
                   + suggest(terrain, library.terrain))
        return Problem(origin.file, None, None, f"layer {TERRAIN_LAYER!r}", message)
    return Problem(origin.file, None, None, format_key(issue.loc), issue.message)


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
    scope = library.copy()
    problems: list[Problem] = []
    origin = library.origins[("scenario", scenario.id)]
    for key, kind in INLINE_KINDS:
        for index, spec in enumerate(getattr(scenario, key)):
            register(scope, kind, spec, Origin(origin.file, origin.loc + (key, index)), problems)
    for unit in scenario.units:
        if scope.origins[("unit", unit.id)].file == origin.file:
            problems += check_unit(scope, unit.id)
    for key, kind in (("weapons", "weapon"), ("armor", "armor")):
        for spec in getattr(scenario, key):
            if scope.origins[(kind, spec.id)].file == origin.file:
                problems += check_rules_keys(scope, kind, spec.id)
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
    used += [m.unit for r in scenario.reinforcements for m in r.members if m.unit in scope.units]
    return list(dict.fromkeys(used))


def _stats(
    scope: Library, scenario: ScenarioSpec, ruleset: RulesetSpec, *, override: bool = False
) -> list[Problem]:
    """The stats `ruleset` needs, on every unit the scenario uses and every weapon they carry.

    With `override`, the scenario is being loaded under a ruleset other than its own: each
    message says so, naming the scenario, the ruleset and the unit.
    """
    if not needs_profiles(ruleset.engine):
        return _skirmish_stats(scope, scenario, ruleset, override=override)
    return _profile_stats(scope, scenario, ruleset, override=override)


def _lead(scenario: ScenarioSpec, ruleset: RulesetSpec, override: bool) -> str:
    if not override:
        return ""
    return f"scenario {scenario.id!r} cannot be played under {ruleset.id!r}: "


def _skirmish_stats(
    scope: Library, scenario: ScenarioSpec, ruleset: RulesetSpec, *, override: bool
) -> list[Problem]:
    problems, lead = [], _lead(scenario, ruleset, override)
    for unit_id in _used_units(scope, scenario):
        unit, origin = scope.units[unit_id], scope.origins[("unit", unit_id)]
        problems += _missing_stats(scope, origin, unit_id, ruleset, unit.attributes, unit.skills,
                                   (), lead)
    return problems


def _missing_stats(
    scope: Library, origin: Origin, unit_id: str, ruleset: RulesetSpec, attributes: dict,
    skills: dict, path: tuple, lead: str,
) -> list[Problem]:
    """Each attribute and skill the ruleset needs that the unit's stats lack, by name."""
    problems = []
    for group, needed, have in (("attributes", ruleset.unit_attributes, attributes),
                                ("skills", ruleset.unit_skills, skills)):
        for stat in needed:
            if stat not in have:
                message = f"missing {group.removesuffix('s')} {stat!r}, which ruleset {ruleset.id!r} needs"
                if lead:
                    message = f"{lead}unit {unit_id!r} is {message}"
                problems.append(scope.problem(origin, path + (group,), message))
    return problems


def _table(ruleset: RulesetSpec, name: str) -> dict | None:
    """A table of names in the ruleset's params (d20 `reactions`, `sizes`, `attack_types`)."""
    table = ruleset.params.get(name)
    return table if isinstance(table, dict) else None


def _names(
    scope: Library, origin: Origin, path: tuple, names: list[str], ruleset: RulesetSpec,
    table_name: str, what: str, lead: str,
) -> list[Problem]:
    table = _table(ruleset, table_name)
    if table is None:
        return []
    problems = []
    for index, name in enumerate(names):
        if name not in table:
            message = (f"{lead}unknown {what} {name!r} in ruleset {ruleset.id!r}"
                       + suggest(name, table) + f" (known: {', '.join(table)})")
            problems.append(scope.problem(origin, path + (index,), message))
    return problems


def _unit_profile(
    scope: Library, unit: UnitSpec, ruleset: RulesetSpec, lead: str
) -> list[Problem]:
    engine, origin = ruleset.engine, scope.origins[("unit", unit.id)]
    if engine not in unit.rules:
        if lead:
            message = f"{lead}unit {unit.id!r} has no stats for it"
        else:
            message = f"no stats for ruleset {ruleset.id!r} (engine {engine})"
        message += f": add rules: {{{engine}: {{...}}}}"
        return [scope.problem(origin, ("rules", engine), message)]
    profile, problems = block_of(scope, "unit", unit.id, engine)
    if profile is None:
        return problems
    problems = _missing_stats(scope, origin, unit.id, ruleset, profile.attributes, profile.skills,
                              ("rules", engine), lead)
    problems += _names(scope, origin, ("rules", engine, "reactions"),
                       getattr(profile, "reactions", []), ruleset, "reactions", "reaction", lead)
    problems += _names(scope, origin, ("rules", engine, "abilities"),
                       getattr(profile, "abilities", []), ruleset, "abilities", "ability", lead)
    sizes, size = _table(ruleset, "sizes"), getattr(profile, "size", None)
    if sizes is not None and size is not None and size not in sizes:
        message = (f"{lead}unknown size {size!r} in ruleset {ruleset.id!r}"
                   + suggest(size, sizes) + f" (known: {', '.join(sizes)})")
        problems.append(scope.problem(origin, ("rules", engine, "size"), message))
    return problems


def _profile_stats(
    scope: Library, scenario: ScenarioSpec, ruleset: RulesetSpec, *, override: bool
) -> list[Problem]:
    """Engines other than skirmish: a `rules[engine]` block on each unit and carried weapon."""
    engine, lead = ruleset.engine, _lead(scenario, ruleset, override)
    problems: list[Problem] = []
    carriers: dict[str, list[str]] = {}
    for unit_id in _used_units(scope, scenario):
        unit = scope.units[unit_id]
        problems += _unit_profile(scope, unit, ruleset, lead)
        for carried in unit.weapons:
            weapon = scope.weapons.get(carried.weapon)
            if weapon is not None and weapon.kind != "grenade":
                carriers.setdefault(weapon.id, []).append(unit_id)
    for weapon_id, units in carriers.items():
        weapon, origin = scope.weapons[weapon_id], scope.origins[("weapon", weapon_id)]
        names = ", ".join(repr(name) for name in units)
        if engine not in weapon.rules:
            carried_by = f"carried by unit{'s' if len(units) > 1 else ''} {names}"
            if lead:
                message = f"{lead}weapon {weapon_id!r}, {carried_by}, has no stats for it"
            else:
                message = f"no stats for ruleset {ruleset.id!r} (engine {engine}), {carried_by}"
            message += f": add rules: {{{engine}: {{...}}}}"
            problems.append(scope.problem(origin, ("rules", engine), message))
            continue
        profile, invalid = block_of(scope, "weapon", weapon_id, engine)
        problems += invalid
        attack_types = getattr(profile, "attack_types", None)
        if attack_types is not None:
            problems += _names(scope, origin, ("rules", engine, "attack_types"),
                               attack_types, ruleset, "attack_types", "attack type", lead)
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


def _missions(
    scope: Library, scenario: ScenarioSpec, origin: Origin, parsed: ParsedMap | None,
    names: set[str],
) -> list[Problem]:
    """Objectives, reinforcements and scripted messages: the sides, zones, units and objectives
    they name exist (`names`: the display names of the scenario's units)."""
    problems: list[Problem] = []
    side_ids = [side.id for side in scenario.sides]
    zones = sorted(parsed.zones) if parsed is not None else None

    def add(loc: tuple, message: str) -> None:
        problems.append(scope.problem(origin, loc, message))

    def side(loc: tuple, value: str | None) -> None:
        if value is not None and value not in side_ids:
            add(loc, f"unknown side {value!r} (sides: {', '.join(side_ids)})")

    def zone(loc: tuple, value: str | None) -> None:
        if value is not None and zones is not None and value not in zones:
            assert parsed is not None
            add(loc, f"zone {value!r} is not marked on map {parsed.id!r} "
                     f"(its zones: {', '.join(zones) or 'none'})")

    if scenario.objectives and scenario.victory.type == "reach":
        add(("victory", "type"), "with `objectives:`, write the reach as an objective "
                                 "(type: reach) and leave victory to the round limit")
    arriving = sum(m.count for r in scenario.reinforcements for m in r.members)
    total = unit_count(scenario, scope.squads) + arriving
    if arriving and total > MAX_UNITS:
        add(("reinforcements",), f"with their reinforcements the sides have {total} units; "
                                 f"a battle holds at most {MAX_UNITS}")
    reinforced: set[str] = set()
    for index, unit in enumerate(scenario.reinforcements):
        loc = ("reinforcements", index)
        side(loc + ("side",), unit.side)
        zone(loc + ("zone",), unit.zone)
        for number, member in enumerate(unit.members):
            if not scope.knows("unit", member.unit):
                add(loc + ("members", number, "unit"), _unknown(scope, "unit", member.unit))
            elif member.name:
                reinforced.add(member.name)
    ids: list[str] = []
    for index, objective in enumerate(scenario.objectives):
        loc = ("objectives", index)
        if objective.id is not None and objective.id in ids:
            add(loc + ("id",), f"objective id {objective.id!r} is used twice")
        ids.append(objective.id or "")
        side(loc + ("side",), objective.side)
        zone(loc + ("zone",), objective.zone)
        if objective.unit is not None and objective.unit not in names | reinforced:
            known = ", ".join(sorted(names | reinforced))
            add(loc + ("unit",), f"no unit named {objective.unit!r} in this scenario "
                                 f"(give a member that `name`; units: {known})")
    known_ids = [o.id for o in scenario.all_objectives()]
    triggers: list[tuple[tuple, TriggerSpec]] = [(("reinforcements", i), r.when) for i, r in enumerate(scenario.reinforcements)]
    triggers += [(("events", i), e.when) for i, e in enumerate(scenario.events)]
    for index, event in enumerate(scenario.events):
        side(("events", index, "side"), event.side)
    for where, when in triggers:
        loc = where + ("when",)
        side(loc + ("seen",), when.seen)
        side(loc + ("by",), when.by)
        zone(loc + ("entered",), when.entered)
        if when.objective is not None and when.objective not in known_ids:
            add(loc + ("objective",), f"unknown objective {when.objective!r} "
                                      f"(objectives: {', '.join(i for i in known_ids if i)})")
        if when.round is not None and when.round > scenario.victory.max_rounds:
            add(loc + ("round",), f"round {when.round} comes after the round limit "
                                  f"({scenario.victory.max_rounds})")
    return problems


def _deploy_problem(scope: Library, scenario: ScenarioSpec, issue: DeployIssue) -> Problem:
    source = issue.source
    if source.owner == "squad":
        origin = scope.origins[("squad", source.owner_id)]
        message = f"{issue.message} (in scenario {scenario.id!r})"
    else:
        origin, message = scope.origins[("scenario", scenario.id)], issue.message
    return scope.problem(origin, source.loc, message)


def _ruleset_problems(
    scope: Library, scenario: ScenarioSpec, origin: Origin, ruleset_id: str | None
) -> list[Problem]:
    """The ruleset exists, its engine is playable, and the units have the stats it needs.

    `ruleset_id` plays the scenario under a ruleset other than its own `ruleset:`.
    """
    override = ruleset_id is not None
    wanted = ruleset_id if ruleset_id is not None else scenario.ruleset
    ruleset = scope.rulesets.get(wanted)
    if ruleset is None:
        if not override and scope.knows("ruleset", wanted):
            return []
        message = _unknown(scope, "ruleset", wanted)
        if override:
            known = ", ".join(sorted(scope.rulesets)) or "none"
            message = (f"scenario {scenario.id!r} cannot be played under {wanted!r}: {message} "
                       f"(rulesets: {known})")
            return [Problem(origin.file, None, None, "", message)]
        return [scope.problem(origin, ("ruleset",), message)]
    problems = []
    if ruleset.engine not in RULESETS:
        message = (f"ruleset {ruleset.id!r} (engine {ruleset.engine!r}) cannot be played in "
                   f"battles yet; playable: {', '.join(sorted(RULESETS))}")
        if override:
            message = f"scenario {scenario.id!r} cannot be played under {wanted!r}: {message}"
            problems.append(Problem(origin.file, None, None, "", message))
        else:
            problems.append(scope.problem(origin, ("ruleset",), message))
    return problems + _stats(scope, scenario, ruleset, override=override)


def _layout_problems(scope: Library, scenario: ScenarioSpec, origin: Origin) -> list[Problem]:
    """Everything about a scenario that no ruleset changes: map, sides, victory, deployment."""
    problems = []
    found, parsed = map_of(scope, scenario), None
    if found is not None:
        parsed, map_problems = check_map(scope, *found)
        problems += map_problems
    elif isinstance(scenario.map, str) and not scope.knows("map", scenario.map):
        problems.append(scope.problem(origin, ("map",), _unknown(scope, "map", scenario.map)))
    problems += _sides(scope, scenario, origin)
    problems += _victory(scope, scenario, origin, parsed)
    names = {slot.name for slot in slots_of(scenario, scope.squads, scope.units)}
    problems += _missions(scope, scenario, origin, parsed, names)
    if parsed is not None:
        deployments, issues = plan(scenario, parsed, scope.terrain, scope.squads, scope.units)
        problems += [_deploy_problem(scope, scenario, issue) for issue in issues]
        problems += _objective_reached(scope, scenario, origin, parsed, deployments)
    return problems


def _objective_reached(
    scope: Library, scenario: ScenarioSpec, origin: Origin, parsed: ParsedMap, deployments: list
) -> list[Problem]:
    spec = scope.rulesets.get(scenario.ruleset)      # written for its own ruleset's walking
    movement = spec.params.get("movement") if spec is not None else None
    corners = bool(movement.get("corner_cutting", False)) if isinstance(movement, dict) else False
    message = unreachable_objective(scenario, parsed, scope.terrain, deployments, corner_cutting=corners)
    found = [scope.problem(origin, ("victory", "zone"), message)] if message else []
    return found + [scope.problem(origin, ("objectives", index, "zone"), why) for index, why
                    in unreachable_zones(scenario, parsed, scope.terrain, deployments,
                                         corner_cutting=corners)]


def check_scenario(
    library: Library, scenario_id: str, ruleset_id: str | None = None
) -> list[Problem]:
    """Every problem of a scenario; with `ruleset_id`, as played under that ruleset instead."""
    scenario = library.scenarios[scenario_id]
    origin = library.origins[("scenario", scenario_id)]
    scope, problems = with_inline(library, scenario)
    problems += _ruleset_problems(scope, scenario, origin, ruleset_id)
    problems += _option_problems(scope, scenario, origin)
    problems += _item_problems(scope, scenario, origin)
    return problems + _layout_problems(scope, scenario, origin)


def _item_problems(scope: Library, scenario: ScenarioSpec, origin: Origin) -> list[Problem]:
    """A scenario's `items:` are item kinds its own ruleset has (d20: `params.items`), each on
    a square of the map a unit can stand on."""
    if not scenario.items:
        return []
    problems = []
    spec = scope.rulesets.get(scenario.ruleset)
    kinds = spec.params.get("items") if spec is not None else None
    kinds = kinds if isinstance(kinds, dict) else {}
    found = map_of(scope, scenario)
    parsed = check_map(scope, *found)[0] if found is not None else None
    terrain = scope.terrain
    for index, entry in enumerate(scenario.items):
        if spec is not None and entry.item not in kinds:
            known = ", ".join(sorted(kinds)) if kinds else "none: it has no items on the floor"
            problems.append(scope.problem(origin, ("items", index, "item"), (
                f"unknown item {entry.item!r} for the {spec.name} rules (their `params.items`: "
                f"{known})")))
        if parsed is None:
            continue
        x, y = entry.at
        if not parsed.inside(x, y):
            problems.append(scope.problem(origin, ("items", index, "at"), (
                f"{list(entry.at)} is off the map ({parsed.width} x {parsed.height} squares)")))
        elif (spot := terrain.get(parsed.terrain_at(x, y))) is None or not spot.walkable:
            what = spot.name.lower() if spot is not None else parsed.terrain_at(x, y)
            problems.append(scope.problem(origin, ("items", index, "at"), (
                f"{list(entry.at)} is {what}: an item lies where a unit can stand")))
    return problems


def _option_problems(scope: Library, scenario: ScenarioSpec, origin: Origin) -> list[Problem]:
    """A scenario's `options:` name known rulesets, and only the optional rules each offers."""
    problems = []
    for ruleset_id, options in scenario.options.items():
        spec = scope.rulesets.get(ruleset_id)
        if spec is None:
            problems.append(scope.problem(origin, ("options", ruleset_id), _unknown(scope, "ruleset", ruleset_id)))
            continue
        cls = RULESETS.get(spec.engine)
        if cls is None:
            continue
        for name, message in cls.option_problems(spec, options):
            problems.append(scope.problem(origin, ("options", ruleset_id, *([name] if name in options else [])),
                                          message))
    return problems


def playable_rulesets(library: Library, scenario_id: str) -> list[str]:
    """The ids of the rulesets `scenario_id` can be played under, as far as content goes.

    A ruleset counts when every unit the scenario uses has the stats it needs (skirmish: the
    unit's own attributes and skills; any other engine: a complete `rules[engine]` block) and
    every weapon they carry has a `rules[engine]` block. A scenario with problems of its own
    (map, sides, deployment) has none. Whether an engine is registered for battles is left to
    the caller (game.rulesets.RULESETS). The scenario's own ruleset comes first, then
    the others by id.
    """
    scenario = library.scenarios[scenario_id]
    origin = library.origins[("scenario", scenario_id)]
    scope, problems = with_inline(library, scenario)
    if problems or _layout_problems(scope, scenario, origin):
        return []
    ids = sorted(scope.rulesets, key=lambda ident: (ident != scenario.ruleset, ident))
    return [ident for ident in ids if not _stats(scope, scenario, scope.rulesets[ident])]


def check_rulesets(library: Library) -> list[Problem]:
    """Each playable ruleset's blocks (`params`, and `tactical` for a turn priced in actions)
    against the models its engine's ruleset gives (game.rulesets.file_blocks)."""
    problems: list[Problem] = []
    for ruleset_id, spec in library.rulesets.items():
        origin = library.origins[("ruleset", ruleset_id)]
        blocks = []
        for key, block_model in file_blocks(spec.engine).items():
            data = {"params": spec.params, "tactical": spec.tactical}.get(key, {})
            if key == "tactical" and not data:
                problems.append(library.problem(origin, ("engine",), (
                    "a ruleset played on the grid needs a `tactical:` block: what its turn buys "
                    "(see docs/RULESETS.md)")))
                continue
            blocks.append((key, block_model, data))
        for key, block_model, data in blocks:
            try:
                block_model.model_validate(data)
            except ValidationError as error:
                marks = library.marks.get(origin.file)
                if marks is None:
                    problems.append(Problem(origin.file, None, None, key, str(error)))
                else:
                    problems += from_validation(error, data, origin.file, marks, origin.loc + (key,))
    return problems


def check_library(library: Library) -> list[Problem]:
    """Every cross-file problem of a library."""
    problems = check_terrain(library) + check_rulesets(library)
    for unit_id in library.units:
        problems += check_unit(library, unit_id)
    for kind in ("weapon", "armor"):
        for ident in library.table(kind):
            problems += check_rules_keys(library, kind, ident)
    for squad_id in library.squads:
        problems += check_squad(library, squad_id)
    for map_id, spec in library.maps.items():
        problems += check_map(library, spec, library.origins[("map", map_id)])[1]
    for scenario_id in library.scenarios:
        problems += check_scenario(library, scenario_id)
    problems += check_campaigns(library)
    return unique(problems)
