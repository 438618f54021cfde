"""Where each unit of a scenario starts.

Deterministic: members placed with `at: [x, y]` go there first; every other unit takes the
free walkable squares of its side's zone, nearest the zone's centroid first, ties broken
row-major (top row first, then left to right). Display names are unique in a battle: a name
used again gets " 2", " 3" ... in deployment order. A battle holds at most MAX_UNITS units.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from game.content.maps import ParsedMap, Square, parse_map
from game.content.problems import ContentError, Loc, Problem, format_key
from game.content.schema import (
    BattleSetup,
    ScenarioSpec,
    SquadMember,
    SquadSpec,
    TerrainSpec,
    UnitSpec,
)


MAX_UNITS = 100
"""Units in one battle, all sides together: the computer players and the fog of war are measured
up to this (docs/PERFORMANCE.md)."""


@dataclass(frozen=True)
class Deployment:
    side: str
    unit: str
    name: str
    x: int
    y: int


@dataclass(frozen=True)
class Source:
    """Where a member was written: in the scenario (`owner` 'scenario') or in a squad."""

    owner: str
    owner_id: str
    loc: Loc


@dataclass(frozen=True)
class Slot:
    """One unit waiting for a square."""

    side_index: int
    side: str
    unit: str
    name: str
    at: tuple[int, int] | None
    source: Source


@dataclass(frozen=True)
class DeployIssue:
    source: Source
    message: str


def _members(
    scenario: ScenarioSpec, index: int, squads: Mapping[str, SquadSpec]
) -> list[tuple[SquadMember, Source]]:
    side = scenario.sides[index]
    found: list[tuple[SquadMember, Source]] = []
    if side.squad is not None and side.squad in squads:
        for number, member in enumerate(squads[side.squad].members):
            found.append((member, Source("squad", side.squad, ("members", number))))
    for number, member in enumerate(side.members):
        found.append((member, Source("scenario", scenario.id, ("sides", index, "members", number))))
    return found


def _numbered(bases: list[str]) -> list[str]:
    """Each base name, with the lowest number that makes it unique so far.

    The lowest free number of a base never goes down as names are taken, so each base keeps
    where its search stopped: linear in the number of names, not quadratic.
    """
    used: set[str] = set()
    next_number: dict[str, int] = {}
    names = []
    for base in bases:
        number = next_number.get(base, 1)
        name = base if number == 1 else f"{base} {number}"
        while name in used:
            number += 1
            name = f"{base} {number}"
        next_number[base] = number
        used.add(name)
        names.append(name)
    return names


def display_names(bases: list[str]) -> list[str]:
    """Unique display names for units named `bases`, in order, as deployment numbers them."""
    return _numbered(bases)


def unit_count(scenario: ScenarioSpec, squads: Mapping[str, SquadSpec]) -> int:
    """How many units the scenario deploys, counted without building them."""
    return sum(member.count for index in range(len(scenario.sides))
               for member, _ in _members(scenario, index, squads))


def slots_of(
    scenario: ScenarioSpec, squads: Mapping[str, SquadSpec], units: Mapping[str, UnitSpec]
) -> list[Slot]:
    """Every unit of every side, in side order then member order, with its display name."""
    raw = []
    for index, side in enumerate(scenario.sides):
        for member, source in _members(scenario, index, squads):
            template = units.get(member.unit)
            base = member.name or (template.name if template else member.unit)
            raw += [(index, side.id, member, base, source)] * member.count
    names = _numbered([base for _, _, _, base, _ in raw])
    return [
        Slot(index, side, member.unit, name, member.at, source)
        for (index, side, member, _, source), name in zip(raw, names, strict=True)
    ]


def _by_centre(squares: list[Square]) -> list[Square]:
    count = len(squares)
    sum_x = sum(x for x, _ in squares)
    sum_y = sum(y for _, y in squares)

    def key(square: Square) -> tuple[int, int, int]:
        x, y = square  # distances scaled by `count` keep the centroid exact in integers
        return (count * x - sum_x) ** 2 + (count * y - sum_y) ** 2, y, x

    return sorted(squares, key=key)


def free_squares(squares: list[Square], walkable: Callable[[Square], bool]) -> list[Square]:
    """A zone's walkable squares, nearest its centroid first (as units deploy)."""
    return [square for square in _by_centre(list(squares)) if walkable(square)]


class _Placer:
    def __init__(self, parsed: ParsedMap, terrain: Mapping[str, TerrainSpec]) -> None:
        self.parsed = parsed
        self.terrain = terrain
        self.taken: dict[Square, str] = {}
        self.issues: list[DeployIssue] = []

    def walkable(self, square: Square) -> bool:
        return self.terrain[self.parsed.terrain_at(*square)].walkable

    def place_at(self, slot: Slot) -> Square | None:
        assert slot.at is not None
        x, y = slot.at
        parsed, where = self.parsed, f"[{x}, {y}]"
        source = Source(slot.source.owner, slot.source.owner_id, slot.source.loc + ("at",))
        if not parsed.inside(x, y):
            width, height = parsed.width, parsed.height
            size = f"{width}x{height}: x 0-{width - 1}, y 0-{height - 1}"
            message = f"{slot.name} is deployed at {where}, outside map {parsed.id!r} ({size})"
        elif not self.walkable((x, y)):
            ground = self.terrain[parsed.terrain_at(x, y)].name.lower()
            message = (
                f"{slot.name} is deployed at {where}, on a {ground} square where no unit can stand"
            )
        elif (x, y) in self.taken:
            message = f"{slot.name} is deployed at {where}, already taken by {self.taken[(x, y)]}"
        else:
            self.taken[(x, y)] = slot.name
            return (x, y)
        self.issues.append(DeployIssue(source, message))
        return None

    def zone_squares(self, zone: str) -> list[Square]:
        squares = _by_centre(self.parsed.zones[zone])
        return [s for s in squares if self.walkable(s) and s not in self.taken]


def plan(
    scenario: ScenarioSpec,
    parsed: ParsedMap,
    terrain: Mapping[str, TerrainSpec],
    squads: Mapping[str, SquadSpec],
    units: Mapping[str, UnitSpec],
) -> tuple[list[Deployment], list[DeployIssue]]:
    """Deployments for `scenario` on `parsed`, or the issues that prevent them."""
    total = unit_count(scenario, squads)
    if total > MAX_UNITS:
        source = Source("scenario", scenario.id, ("sides",))
        message = f"the sides have {total} units; a battle holds at most {MAX_UNITS}"
        return [], [DeployIssue(source, message)]
    slots = slots_of(scenario, squads, units)
    placer = _Placer(parsed, terrain)
    squares: list[Square | None] = [placer.place_at(s) if s.at else None for s in slots]
    square: Square | None
    for index, side in enumerate(scenario.sides):
        source = Source("scenario", scenario.id, ("sides", index, "zone"))
        if side.zone not in parsed.zones:
            known = ", ".join(sorted(parsed.zones)) or "none"
            message = f"zone {side.zone!r} is not marked on map {parsed.id!r} (its zones: {known})"
            placer.issues.append(DeployIssue(source, message))
            continue
        waiting = [n for n, s in enumerate(slots) if s.side_index == index and s.at is None]
        free = placer.zone_squares(side.zone)
        if len(waiting) > len(free):
            message = (
                f"zone {side.zone!r} has {len(free)} free walkable squares "
                f"for the {len(waiting)} units of side {side.id!r}"
            )
            placer.issues.append(DeployIssue(source, message))
            continue
        for number, square in zip(waiting, free, strict=False):
            squares[number] = square
            placer.taken[square] = slots[number].name
    if placer.issues:
        return [], placer.issues
    deployments = []
    for slot, square in zip(slots, squares, strict=True):
        assert square is not None
        deployments.append(Deployment(slot.side, slot.unit, slot.name, square[0], square[1]))
    return deployments, []


def deploy(setup: BattleSetup) -> list[Deployment]:
    """Every unit's starting square, in side order then member order. Pure and deterministic."""
    terrain = {item.id: item for item in setup.terrain}
    parsed = parse_map(setup.map, terrain)
    squads = {squad.id: squad for squad in setup.squads}
    units = {unit.id: unit for unit in setup.units}
    deployments, issues = plan(setup.scenario, parsed, terrain, squads, units)
    if issues:
        raise ContentError(
            Problem(f"{issue.source.owner} {issue.source.owner_id}", None, None,
                    format_key(issue.source.loc), issue.message)
            for issue in issues
        )
    return deployments


# --- an encounter set up by hand ------------------------------------------------------------
# The game master places each unit before the battle (game/ui/screens/setup.py). The seam is
# the scenario itself: every unit is written out as a member of its own with an explicit
# `at:` square, so the battle, a save and the scenario written to a file for next time all
# deploy alike, and a replay is exact.


def square_problem(setup: BattleSetup, name: str, square: Square,
                   taken: Mapping[Square, str]) -> str | None:
    """Why the unit `name` cannot be put on `square` (`taken`: squares -> the units on them),
    or None if it can: the same words deployment uses for a bad `at:`."""
    terrain = {item.id: item for item in setup.terrain}
    placer = _Placer(parse_map(setup.map, terrain), terrain)
    placer.taken = {sq: who for sq, who in taken.items() if who != name}
    slot = Slot(0, "", "", name, square, Source("scenario", setup.scenario.id, ()))
    placer.place_at(slot)
    if not placer.issues:
        return None
    return placer.issues[0].message.replace(" is deployed at ", " cannot stand at ")


def pinned(setup: BattleSetup, squares: list[Square],
           extra: Sequence[tuple[int, str]] = ()) -> BattleSetup:
    """`setup` with each of its units (deployment order, then `extra`: (side index, unit id) of
    units added to a side) written out as its own member at its square in `squares`.

    The display names stay the ones deployment gave; squads are written out, so the scenario
    names none."""
    squads = {squad.id: squad for squad in setup.squads}
    units = {unit.id: unit for unit in setup.units}
    slots = slots_of(setup.scenario, squads, units)
    listed = [(slot.side_index, slot.unit, slot.name) for slot in slots]
    listed += [(index, unit, units[unit].name) for index, unit in extra]
    if len(listed) != len(squares):
        raise ValueError(f"{len(squares)} squares for {len(listed)} units")
    names = _numbered([name for _, _, name in listed])
    sides = []
    for index, side in enumerate(setup.scenario.sides):
        members = [SquadMember(unit=unit, name=name, at=square)
                   for (at_side, unit, _), name, square in zip(listed, names, squares, strict=True)
                   if at_side == index]
        sides.append(side.model_copy(update={"squad": None, "members": members}))
    scenario = setup.scenario.model_copy(update={"sides": sides, "squads": []})
    return setup.model_copy(update={"scenario": scenario, "squads": []})
