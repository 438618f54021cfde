"""One battle: its esper world, its seeded dice, its grid, its ruleset and whose turn it is.

The session owns the only `esper.switch_world` calls, under a name no other battle uses, and
deletes its world when closed, so many battles and tests can share one process.
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import esper
import numpy as np
from pydantic import BaseModel

from game.content.schema import ArmorSpec, BattleSetup, UnitSpec, WeaponSpec
from game.core import components as c
from game.core.clone import clone
from game.core.dice import Dice
from game.core.events import Event
from game.core.grid import Grid
from game.core.ruleset import Combatant, Ruleset

if TYPE_CHECKING:
    from game.core.objectives import Mission
    from game.core.systems.attack import AttackPlan

_world_ids = itertools.count(1)
_grid_cache: dict[tuple, Grid] = {}

Square = tuple[int, int]
T = TypeVar("T")
E = TypeVar("E", bound=Event)


@dataclass(slots=True)
class MoralePool:
    start: float
    current: float


@dataclass(slots=True)
class SideRecord:
    """What a side did, for the end-of-battle summary.

    A shot is one attack, however many rounds it fires: a single shot, a burst or volley, a
    blow, a throw, a suppressive volley. A hit is a shot that struck at least one enemy, so
    hits never exceed shots. Damage dealt counts what enemies lost; what the side did to its
    own units (a grenade too close, a friend in the circle) is friendly damage.
    """

    shots: int = 0
    hits: int = 0
    damage_dealt: int = 0
    friendly_damage: int = 0
    casualties: int = 0


@dataclass(slots=True)
class SideSight:
    """How many of a side's units see each square, and which squares it has ever seen."""

    count: np.ndarray
    explored: np.ndarray
    views: dict[str, Any] = field(default_factory=dict)   # uid -> View counted in `count`


def grid_for(setup: BattleSetup) -> Grid:
    """The grid of a setup's map, shared between battles on the same terrain."""
    from game.content.maps import parse_map   # the loader's map reader, shared with validation

    terrain = {t.id: t for t in setup.terrain}
    key = (setup.map.id, tuple(setup.map.rows), repr(sorted(setup.map.legend.items())),
           repr(sorted(setup.map.zones.items())),
           tuple(t.model_dump_json() for t in setup.terrain))
    grid = _grid_cache.get(key)
    if grid is None:
        if len(_grid_cache) > 32:
            _grid_cache.clear()
        parsed = parse_map(setup.map, terrain)
        grid = _grid_cache[key] = Grid(parsed.terrain_ids, terrain, parsed.zones)
    return grid



def morale_percent(start: float, now: float) -> float:
    """A morale pool's share of its start, in percent (an empty start counts as whole)."""
    return 100.0 if start <= 0 else 100.0 * now / start

class Session:
    """State of one battle. Systems change it; `game.core.engine.Battle` drives it."""

    def __init__(self, setup: BattleSetup, seed: int, rules: Ruleset, dice: Dice | None = None) -> None:
        self.setup = setup
        self.seed = seed
        self.dice = dice if dice is not None else Dice(seed)
        self.rules = rules
        self.grid = grid_for(setup)
        # The systems see each weapon as the ruleset prices it (in its own AP).
        self.weapons: dict[str, WeaponSpec] = {w.id: self.rules.weapon_view(w) for w in setup.weapons}
        self.armors: dict[str, ArmorSpec] = {a.id: a for a in setup.armor}
        self.templates: dict[str, UnitSpec] = {u.id: u for u in setup.units}
        self.sides: list[str] = [s.id for s in setup.scenario.sides]
        self.side_names = {s.id: s.name for s in setup.scenario.sides}
        self.world: str | None = f"battle-{next(_world_ids)}"
        self.entities: dict[str, int] = {}
        self._parts: dict[str, dict[type, Any]] = {}
        self._sides: dict[str, str] = {}
        self.order: list[str] = []
        self.round = 0
        self.turn_index = -1
        self.winner: str | None = None
        self.over = False
        self.end_reason = ""
        self.morale: dict[str, MoralePool] = {}
        self.records = {side: SideRecord() for side in self.sides}
        shape = (self.grid.height, self.grid.width)
        self.sight = {side: SideSight(np.zeros(shape, np.int16), np.zeros(shape, bool))
                      for side in self.sides}
        self.events: list[Event] = []     # events of the command being carried out
        # an attack waiting for its defender's choice, and the choices put to them
        self.pending: tuple[AttackPlan, tuple[str, ...]] | None = None
        # a move halted while a watcher's player chooses (overwatch that asks), and the
        # watchers letting the move under way pass
        self.watch_question: c.WatchQuestion | None = None
        self.watch_passed: set[str] = set()
        self.closed = False
        self.mission: Mission | None = None   # objectives, triggers, reinforcements (objectives.py)
        # Simultaneous orders (game.core.orders): the sides still to give the round's orders,
        # each unit's orders not yet carried out, and whether this is a rehearsal of them.
        self.planning: list[str] = []
        self.orders: dict[str, list[Any]] = {}
        # the units already down when the round's orders were given (an order may finish one off)
        self.down_when_ordered: frozenset[str] = frozenset()
        # an ambushing side's own order of action, kept secret until every side has given its orders
        self.sequences: dict[str, tuple[str, ...]] = {}
        self.rehearsing = False
        esper.switch_world(self.world)

    # --- world access -------------------------------------------------------------------------

    def use(self) -> None:
        if self.world is not None:
            esper.switch_world(self.world)

    def close(self) -> None:
        if self.world is None:              # a detached copy: no world to delete
            self.closed = True
            return
        if not self.closed:
            if esper.current_world == self.world:
                esper.switch_world("default")
            esper.delete_world(self.world)
            self.closed = True

    def spawn(self, uid: str, name: str, spec: UnitSpec, side: str, square: Square) -> int:
        loadout = c.Loadout(
            weapons=[c.WeaponState(w.weapon, self.weapons[w.weapon].magazine, w.spare_magazines)
                     for w in spec.weapons],
            grenades={g: n for g, n in spec.grenades.items() if n > 0})
        resist: dict[str, int] = dict(self.armors[spec.armor].resist.items()) if spec.armor else {}
        attributes, skills, hp, ap = self.rules.unit_body(spec)
        extra = self.rules.unit_components()
        parts = [c.Unit(uid, name, spec.id, side), c.Position(*square),
                 c.ActionPoints(0, ap), c.Posture(),
                 c.Health(hp, hp, attributes.get("constitution", 0)),
                 c.Stats(attributes, skills, dict(spec.abilities), spec.sight, spec.morale),
                 loadout, c.Armor(spec.armor, resist), c.TurnState(), *extra]
        entity = esper.create_entity(*parts)
        self.entities[uid] = entity
        self._parts[uid] = {type(part): part for part in parts}
        self._sides[uid] = side
        return entity

    # A unit's components are looked up by id many thousand times a battle: `_parts` mirrors
    # the world's (every add and remove goes through here), a plain dict instead of esper's calls.

    def get(self, uid: str, component: type[T]) -> T:
        return self._parts[uid][component]

    def has(self, uid: str, component: type) -> bool:
        return component in self._parts[uid]

    def add(self, uid: str, component: Any) -> None:
        if self.world is not None:
            esper.add_component(self.entities[uid], component)
        self._parts[uid][type(component)] = component

    def remove(self, uid: str, component: type) -> None:
        if component in self._parts[uid]:
            if self.world is not None:
                esper.remove_component(self.entities[uid], component)
            del self._parts[uid][component]

    def what_if(self, uid: str, *, square: Square | None = None, full_move: bool | None = None,
                actions: int | None = None) -> Session:
        """A copy of this battle's state in which `uid` stands on `square`, has made a full move
        (`full_move`) or has declared `actions` (its AP then being that many): the other units
        and everything else are shared with this session, to be read, never changed. Queries
        asked of it answer "what if" and leave the battle as it is."""
        other = copy.copy(self)
        other._parts = dict(self._parts)
        parts = other._parts[uid] = dict(self._parts[uid])
        if square is not None:
            parts[c.Position] = c.Position(*square)
        tempo = parts.get(c.Tempo)
        if isinstance(tempo, c.Tempo) and full_move is not None:
            parts[c.Tempo] = tempo = dataclasses.replace(tempo, full_move=full_move)
        if isinstance(tempo, c.Tempo) and actions is not None:
            parts[c.Tempo] = dataclasses.replace(tempo, actions=actions)
            ap = parts[c.ActionPoints]
            assert isinstance(ap, c.ActionPoints), "every unit has AP"
            parts[c.ActionPoints] = dataclasses.replace(ap, current=actions)
        return other

    def copy(self, *, detached: bool = False) -> Session:
        """An independent copy of this battle's state in a world of its own (a replay's
        checkpoint): playing on in either leaves the other as it was. The content and grid,
        which no command changes, are shared; the ruleset is copied, since a ruleset may keep
        the battle's state between commands (d20: initiative, reactions used, who is unaware).

        `detached`: a copy with no esper world at all (a rehearsal of orders, a computer
        player's "what if"): its units' components live only in `_parts`, and making or using
        it never switches the process's esper world, so a worker thread may make one while the
        app reads the battle. Its digest is not asked."""
        memo: dict[int, Any] = {id(shared): shared for shared in
                                (self.setup, self.grid, self.weapons, self.armors, self.templates)}
        # the ruleset's own content (its file and params) is never changed either
        memo |= {id(part): part for part in vars(self.rules).values() if isinstance(part, BaseModel)}
        # At the table the dice ask the battle whose die is typed in: a deep copy would follow
        # that call into the battle and its state. The copy's battle points it at itself.
        if self.dice.at_table is not None:
            memo[id(self.dice.at_table)] = None
        if not detached:
            self.use()
        other = copy.copy(self)
        for name, value in vars(self).items():
            if id(value) not in memo and name not in ("world", "entities", "_parts", "mission"):
                setattr(other, name, copy.deepcopy(value, memo))
        other._parts = clone(self._parts)         # plain data, and most of the state
        other.mission = self.mission.snapshot() if self.mission is not None else None
        if detached:
            other.world = None
            other.entities = dict(self.entities)
            return other
        other.world = f"battle-{next(_world_ids)}"
        esper.switch_world(other.world)
        other.entities = {}
        for uid, entity in sorted(self.entities.items(), key=lambda item: item[1]):
            made = esper.create_entity(*other._parts[uid].values())
            if made != entity:
                other.close()
                raise RuntimeError("the copy's entities are numbered unlike the battle's")
            other.entities[uid] = made
        self.use()
        return other

    def units(self) -> Iterator[tuple[str, c.Unit]]:
        for uid, parts in self._parts.items():
            yield uid, parts[c.Unit]

    def side_of(self, uid: str) -> str:
        return self._sides[uid]

    def is_up(self, uid: str) -> bool:
        return self._parts[uid][c.Health].state == "ok"

    def position(self, uid: str) -> Square | None:
        pos = self._parts[uid].get(c.Position)
        return None if pos is None else (pos.x, pos.y)

    def terrain_name(self, at: Square) -> str:
        """The display name of the terrain on a square (its id if the content names none)."""
        ident = self.grid.terrain_at(*at)
        return next((t.name for t in self.setup.terrain if t.id == ident), ident)

    def where(self, uid: str) -> tuple[Square, ...]:
        """The unit's square, as `emit`'s squares: none when it is off the map."""
        pos = self.position(uid)
        return () if pos is None else (pos,)

    def occupant(self, square: Square) -> str | None:
        for uid, parts in self._parts.items():
            pos = parts.get(c.Position)
            if pos is not None and pos.x == square[0] and pos.y == square[1]:
                return uid
        return None

    def suppressed_by(self, suppressor: str) -> list[str]:
        """Units pinned by `suppressor`'s fire."""
        return [uid for uid, parts in self._parts.items()
                if c.Suppressed in parts and parts[c.Suppressed].by == suppressor]

    def enemies_on(self, side: str) -> list[tuple[str, Square]]:
        """(uid, square) of every unit of the other sides that stands on the map."""
        out = []
        for uid, parts in self._parts.items():
            if self._sides[uid] != side:
                pos = parts.get(c.Position)
                if pos is not None:
                    out.append((uid, (pos.x, pos.y)))
        return out

    def up_squares(self, side: str) -> list[tuple[str, Square]]:
        """(uid, square) of the side's units that are up."""
        out = []
        for uid, parts in self._parts.items():
            if self._sides[uid] == side and parts[c.Health].state == "ok":
                pos = parts.get(c.Position)
                if pos is not None:
                    out.append((uid, (pos.x, pos.y)))
        return out

    def watchers(self) -> set[str]:
        """Units on overwatch."""
        return {uid for uid, parts in self._parts.items() if c.Overwatch in parts}

    def occupied(self) -> dict[Square, str]:
        out = {}
        for uid, parts in self._parts.items():
            pos = parts.get(c.Position)
            if pos is not None:
                out[(pos.x, pos.y)] = uid
        return out

    def up_sides(self) -> set[str]:
        """Sides with at least one unit still up."""
        return {self._sides[uid] for uid, parts in self._parts.items() if parts[c.Health].state == "ok"}

    @property
    def acting_side(self) -> str | None:
        """The side whose player the battle waits for: the first still to give orders while
        planning, else the active unit's (None once the battle is over)."""
        if self.over:
            return None
        if self.planning:
            return self.planning[0]
        return None if self.active is None else self.side_of(self.active)

    @property
    def active(self) -> str | None:
        if self.over or not (0 <= self.turn_index < len(self.order)):
            return None
        return self.order[self.turn_index]

    # --- morale -------------------------------------------------------------------------------

    def morale_percent(self, side: str) -> float:
        pool = self.morale[side]
        return morale_percent(pool.start, pool.current)

    def morale_modifier(self, side: str) -> int:
        return self.rules.morale_modifier(self.morale_percent(side))

    def combatant(self, uid: str) -> Combatant:
        stats = self.get(uid, c.Stats)
        return Combatant(stats.attributes, stats.skills, stats.abilities,
                         self.morale_modifier(self.side_of(uid)))

    # --- sight and events ---------------------------------------------------------------------

    def sees(self, side: str, square: Square) -> bool:
        return bool(self.sight[side].count[square[1], square[0]])

    def emit(self, event: E, *squares: Square | None, to: tuple[str, ...] = ()) -> E:
        """Record an event, noting which sides saw it: the sides in `to`, and those that see one
        of `squares` (None, the position of a unit off the map, is none); with neither, everyone
        did."""
        placed = tuple(square for square in squares if square is not None)
        if placed:
            seen = tuple(side for side in self.sides
                         if side in to or any(self.sight[side].count[y, x] for x, y in placed))
        elif to:
            seen = tuple(side for side in self.sides if side in to)
        else:
            seen = tuple(self.sides)
        object.__setattr__(event, "seen_by", seen)
        self.events.append(event)
        return event
