"""What a side knows: its own units, the enemies it sees now, and where it last saw the others.

Only `queries.sightings` (the enemies the side sees now, as `units_known_to` lists them) and the
side's own sight (`session.sees`) tell the player where enemies are; `queries.unit_info` then
reads the card of each enemy in sight. An enemy that slips out of sight is remembered at its
last square until the side sees that square empty. Unit statistics (skills, armor, weapons)
are public, as on a unit card.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from game.content.schema import WeaponSpec
from game.core import components as c
from game.core.engine import Battle
from game.core.queries import UnitInfo, enemy_cones, revivable, sightings, unit_info
from game.core.ruleset import Combatant

Square = tuple[int, int]


@dataclass(slots=True)
class Known:
    """One unit as the side knows it: seen now, or remembered."""

    info: UnitInfo
    square: Square
    seen_round: int
    visible: bool
    who: Combatant
    weapon: WeaponSpec | None
    armor: dict[str, int]
    moved_round: int = 0             # when it was last seen somewhere new

    @property
    def uid(self) -> str:
        return self.info.uid

    @property
    def hp(self) -> int:
        return self.info.hp


class Picture:
    """Everything the player may use to choose one command.

    The side's other units are looked up only when a question needs them (most decisions,
    made with no enemy in sight, never do), and then once for the decision.
    """

    __slots__ = ("me", "foes", "cones", "round", "bodies", "looked", "contact", "_battle", "_units",
                 "_own", "_patients")

    def __init__(self, battle: Battle, me: Known, foes: list[Known], cones: dict[str, list[Square]],
                 round_: int, bodies: tuple[Square, ...] = (), looked: np.ndarray | None = None,
                 contact: int = 0) -> None:
        self.me = me
        self.foes = foes                 # enemies up: visible now or remembered
        self.cones = cones               # known enemy overwatch cones
        self.round = round_
        self.bodies = bodies             # where enemies lie downed, as last seen
        self.looked = looked             # [y, x]: the round the side last saw each square (-1: never)
        self.contact = contact           # the round the side last saw an enemy up (0: never)
        self._battle = battle
        self._units: list[tuple[str, Square, bool, bool]] | None = None
        self._own: list[Known] | None = None
        self._patients: list[Known] | None = None

    @property
    def quiet(self) -> int:
        """Rounds since the side last saw an enemy up, or since the first round if it never has."""
        return self.round - max(1, self.contact)

    def blocked(self) -> list[Square]:
        """Squares of the units the side knows of (its own, and enemies in sight), `me` excepted:
        a path cannot go through them."""
        s = self._battle.session
        side = self.me.info.side
        return [sq for _, sq, own, _ in self._roster() if own or s.sees(side, sq)]

    def obstacles(self) -> tuple[Square, ...]:
        """Squares no one walks through for a while: downed units, the enemy's and the side's."""
        own = [sq for _, sq, mine, up in self._roster() if mine and not up]
        return tuple(sorted({*self.bodies, *own}))

    def own_squares(self) -> list[Square]:
        """Where the side's other units lie, up or down."""
        return [sq for _, sq, own, _ in self._roster() if own]

    def patients(self) -> list[Known]:
        """The fallen allies `me` could give first aid to from where it stands (the engine's
        answer: game.core.queries.revivable)."""
        if self._patients is None:
            self._patients = self._cards(revivable(self._battle, self.me.uid))
        return self._patients

    def friends_seen_from(self, spots: list[tuple[Square, int]]) -> list[Known]:
        """Own units that are up, standing where someone at one of `spots` (square, sight) would
        see them."""
        grid = self._battle.session.grid
        near = [uid for uid, sq, own, up in self._roster()
                if own and up and any(grid.sees(at, sq, r) for at, r in spots)]
        return [k for k in self._cards(near) if k.info.state == "ok"]

    @property
    def friends(self) -> list[Known]:
        """Own units that are up, `me` excluded."""
        return [k for k in self._own_units() if k.info.state == "ok"]

    def _roster(self) -> list[tuple[str, Square, bool, bool]]:
        """(uid, square, of the side, up) of every unit on the map but `me`, in the battle's order."""
        if self._units is None:
            s = self._battle.session
            where = {uid: square for square, uid in s.occupied().items()}
            side, me = self.me.info.side, self.me.uid
            self._units = [(uid, where[uid], s.side_of(uid) == side, s.is_up(uid))
                           for uid in s.entities if uid in where and uid != me]
        return self._units

    def _own_units(self) -> list[Known]:
        if self._own is None:
            self._own = self._cards([uid for uid, _, own, _ in self._roster() if own])
        return self._own

    def _cards(self, uids: list[str]) -> list[Known]:
        return [known_unit(self._battle, unit_info(self._battle, uid), self.round, True) for uid in uids]


@dataclass
class Intel:
    side: str
    memory: dict[str, Known] = field(default_factory=dict)
    bodies: dict[str, Square] = field(default_factory=dict)     # enemies seen lying downed
    looked: np.ndarray | None = None     # [y, x]: the round the side last saw each square
    contact: int = 0                     # the round the side last saw an enemy up (0: never)

    def update(self, battle: Battle) -> Picture:
        """Look, remember, and describe the situation of the active unit (one of ours)."""
        s = battle.session
        self.observe(battle)
        me = known_unit(battle, unit_info(battle, s.active), s.round, True)
        watching = any(f.visible and "overwatch" in f.info.statuses for f in self.memory.values())
        cones = enemy_cones(battle, self.side) if watching else {}
        return Picture(battle, me, list(self.memory.values()), cones, s.round,
                       tuple(self.bodies.values()), self.looked, self.contact)

    def observe(self, battle: Battle) -> None:
        """Update what the side remembers of the enemy (the enemies it sees now, the squares it
        sees empty)."""
        s = battle.session
        in_sight = s.sight[self.side].count > 0
        if self.looked is None:
            self.looked = np.full(in_sight.shape, -1, dtype=np.int32)
        self.looked[in_sight] = s.round
        seen = {}
        for sighting in sightings(battle, self.side):
            seen[sighting.uid] = sighting
            if sighting.state == "ok" and sighting.square is not None:
                self.contact = s.round
                old = self.memory.get(sighting.uid)
                known = known_unit(battle, unit_info(battle, sighting.uid), s.round, True)
                known.moved_round = old.moved_round if old and old.square == known.square else s.round
                self.memory[sighting.uid] = known
                self.bodies.pop(sighting.uid, None)
            else:
                self.memory.pop(sighting.uid, None)
                if sighting.square is not None:
                    self.bodies[sighting.uid] = sighting.square
        for uid, old in list(self.memory.items()):
            if uid in seen:
                continue
            if s.sees(self.side, old.square):      # we look there and it is gone
                del self.memory[uid]
            else:
                old.visible = False
        for uid, square in list(self.bodies.items()):
            if uid not in seen and s.sees(self.side, square):
                del self.bodies[uid]


def known_unit(battle: Battle, unit: UnitInfo, round_: int, visible: bool) -> Known:
    """A unit's card as the side holds it."""
    s = battle.session
    weapon = s.weapons.get(unit.weapon) if unit.weapon else None
    return Known(unit, unit.square, round_, visible, s.combatant(unit.uid), weapon,
                 dict(s.get(unit.uid, c.Armor).resist))
