"""A scenario's objectives, reinforcements and scripted messages, as the battle plays them.

Each side has objectives (the scenario's `objectives:`, or its old `victory:` block turned into
them, ScenarioSpec.all_objectives). Their state is a pure function of the battle (`statuses`),
but for what only time tells: the rounds a zone has been held, the rounds gone, the units that
left by an exit zone. Those, the triggers already fired and the reinforcements waiting are kept
in the session's `Mission`, changed only here:

- after every command, `review` fires the triggers whose condition now holds (a scripted
  message is shown at once; reinforcements wait for the end of the round);
- at the end of a unit's turn, `leave_by_exit` takes it off the map if it stands in an exit
  zone of its side (an `extract` zone, or the `escort` zone for the escorted unit);
- at the end of a round, `end_round` counts holds and rounds survived; at the start of the
  next, `arrive` brings in the reinforcements due.

Victory (`decide`): a deciding objective met wins for its side; a `protect`, `escort`,
`extract` or `reach` objective that can no longer be met defeats its side; the last side
standing (not defeated, with a unit up on the map) wins. Being up is the ruleset's health
state (`Session.is_up`), nothing more.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from game.content.schema import ObjectiveSpec, ReinforcementSpec, TriggerSpec
from game.core import components as c
from game.core.events import Announced, ObjectiveChanged, Reinforced, UnitLeft

if TYPE_CHECKING:
    from game.core.session import Session

Square = tuple[int, int]
DEFEATS = ("protect", "escort", "extract", "reach")
"""Objectives whose failure defeats their side: it can no longer do what it came for."""


@dataclass(frozen=True, slots=True)
class ObjectiveStatus:
    """One objective as it stands (queries.objectives)."""

    id: str
    side: str
    kind: str
    text: str                    # what it asks, in words
    done: int
    needed: int
    state: str                   # open | met | failed
    decides: bool
    zone: str | None = None
    unit: str | None = None      # the uid of the unit it names, once in the battle
    detail: str = ""             # why it was met or failed

    @property
    def progress(self) -> str:
        return f"{self.done}/{self.needed}"


@dataclass
class Mission:
    objectives: list[ObjectiveSpec]
    held: dict[str, int] = field(default_factory=dict)        # hold id -> rounds held in a row
    rounds_done: int = 0
    fired: set[tuple[str, int]] = field(default_factory=set)  # ("event" | "unit", index)
    waiting: list[int] = field(default_factory=list)          # reinforcements due, by index
    told: dict[str, str] = field(default_factory=dict)        # objective id -> state told
    defeated: dict[str, str] = field(default_factory=dict)    # side -> why

    def snapshot(self) -> Mission:
        """A copy to put back on undo (the objectives themselves are shared: never changed)."""
        return Mission(self.objectives, dict(self.held), self.rounds_done, set(self.fired),
                       list(self.waiting), dict(self.told), dict(self.defeated))

    def exits(self, session: Session, uid: str) -> str | None:
        """The exit zone `uid` may leave the battle by, if any."""
        side, name = session.side_of(uid), session.get(uid, c.Unit).name
        for o in self.objectives:
            if o.side == side and o.zone and (o.type == "extract"
                                              or (o.type == "escort" and o.unit == name)):
                return o.zone
        return None


def start(session: Session) -> Mission:
    mission = Mission(session.setup.scenario.all_objectives())
    session.mission = mission
    return mission


# --- state ------------------------------------------------------------------------------------

def _zone_name(zone: str) -> str:
    return zone.replace("_", " ")


@dataclass
class Census:
    """Each side's units by state, counted in one pass over the unit table (a victory check
    runs after every command)."""

    fighting: dict[str, int] = field(default_factory=dict)   # units that have not left
    down: dict[str, int] = field(default_factory=dict)
    up: dict[str, list[tuple[str, Square]]] = field(default_factory=dict)   # up, on the map
    left: dict[str, list[str]] = field(default_factory=dict)   # the zone each one left by
    names: dict[str, str] = field(default_factory=dict)        # display name -> uid

    @classmethod
    def of(cls, session: Session) -> Census:
        census = cls({side: 0 for side in session.sides}, {side: 0 for side in session.sides},
                     {side: [] for side in session.sides}, {side: [] for side in session.sides})
        for uid, parts in session._parts.items():
            unit = parts[c.Unit]
            census.names[unit.name] = uid
            gone = parts.get(c.Left)
            if gone is not None:
                census.left[unit.side].append(gone.zone)
                continue
            census.fighting[unit.side] += 1
            if parts[c.Health].state != "ok":
                census.down[unit.side] += 1
                continue
            pos = parts.get(c.Position)
            if pos is not None:
                census.up[unit.side].append((uid, (pos.x, pos.y)))
        return census


def describe(session: Session, o: ObjectiveSpec) -> str:
    """What an objective asks, in words."""
    if o.text:
        return o.text
    zone = _zone_name(o.zone or "")
    count = f"{o.count} units" if o.count > 1 else "a unit"
    return {
        "eliminate": "Put every enemy out of the fight",
        "reach": f"Get {count} to {zone}",
        "extract": f"Get {count} out by {zone}",
        "hold": f"Hold {zone} for {o.rounds} round{'s' if o.rounds != 1 else ''}",
        "protect": f"Keep {o.unit} alive",
        "escort": f"Get {o.unit} out by {zone}",
        "kill": f"Take down {o.unit}",
        "survive": f"Hold out for {o.rounds} round{'s' if o.rounds != 1 else ''}",
    }[o.type]


def status_of(session: Session, o: ObjectiveSpec, census: Census | None = None
              ) -> ObjectiveStatus:
    """The state of one objective now."""
    assert o.id is not None, "all_objectives gives every objective its id"
    n = census if census is not None else Census.of(session)
    side = o.side
    kind, zone = o.type, o.zone
    uid = n.names.get(o.unit) if o.unit else None
    state, done, needed, detail = "open", 0, 1, ""
    name = session.side_names.get(side, side)
    up = n.up[side]
    if kind == "eliminate":
        others = [other for other in session.sides if other != side]
        needed = sum(n.fighting[other] for other in others)
        done = sum(n.down[other] for other in others)
        if up and not any(n.up[other] for other in others):
            state, detail = "met", "last side standing"
    elif kind == "reach":
        squares = session.grid.zone_set(zone or "")
        needed, done = o.count, sum(1 for _, sq in up if sq in squares)
        if done >= needed:
            state = "met"
            detail = (f"{name} reached the objective" if needed == 1
                      else f"{name} got {done} units to {_zone_name(zone or '')}")
        elif len(up) < needed:
            state, detail = "failed", f"{name} can no longer get {needed} to {_zone_name(zone or '')}"
    elif kind == "extract":
        out = n.left[side].count(zone or "")
        needed, done = o.count, out
        if out >= needed:
            state, detail = "met", f"{name} got {out} out by {_zone_name(zone or '')}"
        elif out + len(up) < needed:
            state = "failed"
            detail = f"{name} can no longer get {needed} out by {_zone_name(zone or '')} ({out} out)"
    elif kind == "hold":
        needed = o.rounds or 1
        done = session.mission.held.get(o.id, 0) if session.mission else 0
        if done >= needed:
            state, detail = "met", f"{name} held {_zone_name(zone or '')} for {done} rounds"
    elif kind in ("protect", "escort"):
        if uid is not None and not session.is_up(uid):
            state, detail = "failed", f"{o.unit} is down"
        elif kind == "escort" and uid is not None and session.has(uid, c.Left):
            state, done, detail = "met", 1, f"{o.unit} got out by {_zone_name(zone or '')}"
        elif kind == "protect" and uid is not None:
            done = 1
            if session.over:               # kept alive to the end
                state, detail = "met", f"{o.unit} came through"
    elif kind == "kill":
        if uid is not None and session.has(uid, c.Left):
            state, detail = "failed", f"{o.unit} got away"
        elif uid is not None and not session.is_up(uid):
            state, done, detail = "met", 1, f"{o.unit} is down"
    elif kind == "survive":
        needed = o.rounds or 1
        rounds = session.mission.rounds_done if session.mission else 0
        done = min(rounds, needed)
        if rounds >= needed and (up or n.left[side]):
            state, detail = "met", f"{name} held out for {needed} rounds"
    return ObjectiveStatus(o.id, side, kind, describe(session, o), done, needed, state,
                           o.decides, zone, uid, detail)


def statuses(session: Session) -> list[ObjectiveStatus]:
    mission = session.mission
    if mission is None:
        return []
    census = Census.of(session)
    return [status_of(session, o, census) for o in mission.objectives]


# --- victory ----------------------------------------------------------------------------------

def decide(session: Session, found: list[ObjectiveStatus] | None = None
           ) -> tuple[bool, str | None, str]:
    """(over, winner, reason) by the objectives (`found`: their statuses, if already asked)
    and the sides still standing."""
    mission = session.mission if session.mission is not None else start(session)
    if found is None:
        found = statuses(session)
    for st in found:
        if st.state == "met" and st.decides and st.side not in mission.defeated:
            return True, st.side, st.detail
    for st in found:
        if (st.state == "failed" and st.decides and st.kind in DEFEATS
                and st.side not in mission.defeated):
            mission.defeated[st.side] = st.detail
    census = Census.of(session)
    standing = [side for side in session.sides
                if side not in mission.defeated and census.up[side]]
    if len(standing) > 1:
        return False, None, ""
    if not standing:
        return True, None, "no one left standing"
    winner = standing[0]
    beaten = [side for side in mission.defeated if census.up[side] or census.left[side]]
    return True, winner, mission.defeated[beaten[0]] if beaten else "last side standing"


# --- what time and triggers change ------------------------------------------------------------

def _fires(session: Session, when: TriggerSpec, met: set[str]) -> bool:
    if when.round is not None:
        return False                      # rounds are fired by `arrive`, at the round's start
    if when.objective is not None:
        return when.objective in met
    if when.seen is not None:
        squares = [sq for sq, uid in session.occupied().items()
                   if session.side_of(uid) == when.seen]
        return any(session.sees(other, sq) for other in session.sides if other != when.seen
                   for sq in squares)
    assert when.entered is not None
    zone = session.grid.zone_set(when.entered)
    sides = [when.by] if when.by else session.sides
    return any(sq in zone for side in sides for _, sq in session.up_squares(side))


def review(session: Session, found: list[ObjectiveStatus] | None = None) -> None:
    """Tell objectives newly met or failed, and fire the triggers that now hold (`found`: the
    objectives' statuses, if already asked)."""
    mission = session.mission
    if mission is None:
        return
    scenario = session.setup.scenario
    met = set()
    for st in statuses(session) if found is None else found:
        if st.state == "met":
            met.add(st.id)
        if st.state != "open" and mission.told.get(st.id) != st.state and not st.decides:
            mission.told[st.id] = st.state
            session.emit(ObjectiveChanged(st.id, st.side, st.state, st.detail))
    if not (scenario.events or scenario.reinforcements):
        return
    for index, event in enumerate(scenario.events):
        if ("event", index) not in mission.fired and _fires(session, event.when, met):
            _announce(session, mission, index)
    for index, unit in enumerate(scenario.reinforcements):
        if ("unit", index) not in mission.fired and _fires(session, unit.when, met):
            _call(session, mission, index)


def _announce(session: Session, mission: Mission, index: int) -> None:
    event = session.setup.scenario.events[index]
    mission.fired.add(("event", index))
    to = (event.side,) if event.side else ()
    session.emit(Announced(event.message), to=to)


def _call(session: Session, mission: Mission, index: int) -> None:
    unit = session.setup.scenario.reinforcements[index]
    mission.fired.add(("unit", index))
    mission.waiting.append(index)
    if unit.message:
        session.emit(Announced(unit.message))


def leave_by_exit(session: Session, uid: str) -> None:
    """At the end of its turn, a unit up in one of its side's exit zones leaves the battle."""
    mission = session.mission
    square = session.position(uid)
    if mission is None or square is None or not session.is_up(uid):
        return
    zone = mission.exits(session, uid)
    if zone is None or square not in session.grid.zone_set(zone):
        return
    from game.core.systems.sight import refresh_view   # sight imports the session module

    session.emit(UnitLeft(uid, zone), square, to=(session.side_of(uid),))
    session.remove(uid, c.Position)
    session.add(uid, c.Left(zone, session.round))
    for kind in (c.Overwatch, c.Suppressed):
        session.remove(uid, kind)
    refresh_view(session, uid)


def end_round(session: Session) -> None:
    """Count the rounds each hold objective's zone was held, and the rounds gone."""
    mission = session.mission
    if mission is None:
        return
    mission.rounds_done = session.round
    for o in mission.objectives:
        if o.type != "hold" or o.id is None:
            continue
        zone = session.grid.zone_set(o.zone or "")
        mine = any(sq in zone for _, sq in session.up_squares(o.side))
        theirs = any(sq in zone for side in session.sides if side != o.side
                     for _, sq in session.up_squares(side))
        was = mission.held.get(o.id, 0)
        mission.held[o.id] = was + 1 if mine and not theirs else 0
        if was and not mission.held[o.id]:
            session.emit(ObjectiveChanged(o.id, o.side, "broken",
                                          f"the hold of {_zone_name(o.zone or '')} is broken"))


def arrive(session: Session) -> list[str]:
    """At the start of a round: fire its round triggers, then bring in every reinforcement
    due that finds room in its zone (the rest wait for the next round). The new units' ids."""
    mission = session.mission
    if mission is None:
        return []
    scenario = session.setup.scenario
    for index, event in enumerate(scenario.events):
        if event.when.round == session.round and ("event", index) not in mission.fired:
            _announce(session, mission, index)
    for index, unit in enumerate(scenario.reinforcements):
        if unit.when.round == session.round and ("unit", index) not in mission.fired:
            _call(session, mission, index)
    new: list[str] = []
    for index in list(mission.waiting):
        placed = _place(session, scenario.reinforcements[index])
        if placed is not None:
            mission.waiting.remove(index)
            new += placed
    return new


def _place(session: Session, spec: ReinforcementSpec) -> list[str] | None:
    from game.content.deploy import free_squares   # content imports nothing of the engine

    members = [(m.unit, m.name) for m in spec.members for _ in range(m.count)]
    occupied = session.occupied()
    free = [sq for sq in free_squares(session.grid.zones.get(spec.zone, []),
                                      lambda sq: bool(session.grid.walkable[sq[1], sq[0]]))
            if sq not in occupied]
    if len(free) < len(members):
        return None
    names = {unit.name for _, unit in session.units()}
    count = sum(1 for uid, _ in session.units() if session.side_of(uid) == spec.side)
    uids = []
    for (template, given), square in zip(members, free, strict=False):
        base = given or session.templates[template].name
        name, number = base, 2
        while name in names:
            name, number = f"{base} {number}", number + 1
        names.add(name)
        count += 1
        uid = f"{spec.side}-{count}"
        while uid in session.entities:
            count += 1
            uid = f"{spec.side}-{count}"
        session.spawn(uid, name, session.templates[template], spec.side, square)
        uids.append(uid)
    session.emit(Reinforced(spec.side, spec.zone, tuple(uids)), *free[:len(uids)],
                 to=(spec.side,))
    return uids
