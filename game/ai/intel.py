"""What a side knows: its own units, the enemies it sees now, and where it last saw the others.

Only `queries.sightings` (the enemies the side sees now, as `units_known_to` lists them) and the
side's own sight (`session.sees`) tell the player where enemies are; `queries.unit_info` then
reads the card of each enemy in sight. An enemy that slips out of sight is remembered at its
last square until the side sees that square empty. Unit statistics (skills, armor, weapons)
are public, as on a unit card.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from game.content.schema import WeaponSpec
from game.core import components as c
from game.core.engine import Battle
from game.core.grid import NEIGHBOURS, Grid
from game.core.queries import UnitInfo, enemy_cones, sightings, unit_info
from game.rules.skirmish import Combatant

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
    made with no enemy in sight, never do).
    """

    __slots__ = ("me", "foes", "cones", "round", "_battle", "_own")

    def __init__(self, me: Known, foes: list[Known], cones: dict[str, list[Square]], round_: int,
                 battle: Battle | None = None) -> None:
        self.me = me
        self.foes = foes                 # enemies up: visible now or remembered
        self.cones = cones               # known enemy overwatch cones
        self.round = round_
        self._battle = battle
        self._own: list[Known] | None = None

    @property
    def friends(self) -> list[Known]:
        """Own units that are up, `me` excluded."""
        return [k for k in self._own_units() if k.info.state == "ok"]

    @property
    def downed_friends(self) -> list[Known]:
        """Own units unconscious or dying."""
        return [k for k in self._own_units() if k.info.state in ("unconscious", "dying")]

    def downed_next_to(self, square: Square) -> list[Known]:
        """Downed own units on the squares around `square`."""
        if self._battle is None or self._own is not None:
            return [k for k in self.downed_friends if _next_to(k.square, square)]
        s = self._battle.session
        side = self.me.info.side
        around = {(square[0] + dx, square[1] + dy) for dx, dy in NEIGHBOURS}
        near = [uid for spot, uid in s.occupied().items() if spot in around
                and uid != self.me.uid and s.side_of(uid) == side and not s.is_up(uid)]
        if len(near) > 1:
            order = list(s.entities)
            near.sort(key=order.index)
        infos = [unit_info(self._battle, uid) for uid in near]
        return [Intel._known(self._battle, u, self.round, True) for u in infos
                if u.state in ("unconscious", "dying")]

    def own_squares(self) -> list[Square]:
        """Where the side's other units lie, up or down."""
        if self._battle is None or self._own is not None:
            return [k.square for k in self._own_units()]
        s = self._battle.session
        squares = (s.position(uid) for uid in _own_uids(self._battle, self.me.info.side)
                   if uid != self.me.uid)
        return [sq for sq in squares if sq is not None]

    def friends_seen_from(self, spots: list[tuple[Square, int]]) -> list[Known]:
        """The `friends` standing where someone at one of `spots` (square, sight) would see them."""
        if self._battle is None or self._own is not None:
            candidates = self.friends
            grid = self._battle.session.grid if self._battle is not None else None
            return [k for k in candidates
                    if grid is None or any(grid.sees(at, k.square, r) for at, r in spots)]
        s = self._battle.session
        near = [uid for uid in _own_uids(self._battle, self.me.info.side) if uid != self.me.uid
                and _seen(s.grid, s.position(uid), spots)]
        known = [Intel._known(self._battle, unit_info(self._battle, uid), self.round, True) for uid in near]
        return [k for k in known if k.info.state == "ok"]

    def _own_units(self) -> list[Known]:
        if self._own is None:
            self._own = []
            if self._battle is not None:
                infos = [unit_info(self._battle, uid)
                         for uid in _own_uids(self._battle, self.me.info.side) if uid != self.me.uid]
                self._own = [Intel._known(self._battle, u, self.round, True) for u in infos
                             if u.square is not None]
        return self._own


def _own_uids(battle: Battle, side: str) -> list[str]:
    return [uid for uid, unit in battle.session.units() if unit.side == side]


def _seen(grid: Grid, square: Square | None, spots: list[tuple[Square, int]]) -> bool:
    return square is not None and any(grid.sees(at, square, r) for at, r in spots)


def _next_to(one: Square | None, other: Square) -> bool:
    return one is not None and max(abs(one[0] - other[0]), abs(one[1] - other[1])) == 1


@dataclass
class Intel:
    side: str
    memory: dict[str, Known] = field(default_factory=dict)

    def update(self, battle: Battle) -> Picture:
        """Look, remember, and describe the situation of the active unit (one of ours)."""
        s = battle.session
        self.observe(battle)
        me = self._known(battle, unit_info(battle, s.active), s.round, True)
        watching = any(f.visible and "overwatch" in f.info.statuses for f in self.memory.values())
        cones = enemy_cones(battle, self.side) if watching else {}
        return Picture(me, list(self.memory.values()), cones, s.round, battle)

    def observe(self, battle: Battle) -> None:
        """Update what the side remembers of the enemy (the enemies it sees now, the squares it
        sees empty)."""
        s = battle.session
        seen = {}
        for sighting in sightings(battle, self.side):
            seen[sighting.uid] = sighting
            if sighting.state == "ok" and sighting.square is not None:
                old = self.memory.get(sighting.uid)
                known = self._known(battle, unit_info(battle, sighting.uid), s.round, True)
                known.moved_round = old.moved_round if old and old.square == known.square else s.round
                self.memory[sighting.uid] = known
            else:
                self.memory.pop(sighting.uid, None)
        for uid, old in list(self.memory.items()):
            if uid in seen:
                continue
            if s.sees(self.side, old.square):      # we look there and it is gone
                del self.memory[uid]
            else:
                old.visible = False

    @staticmethod
    def _known(battle: Battle, unit: UnitInfo, round_: int, visible: bool) -> Known:
        s = battle.session
        weapon = s.weapons.get(unit.weapon) if unit.weapon else None
        return Known(unit, unit.square, round_, visible, s.combatant(unit.uid), weapon,
                     dict(s.get(unit.uid, c.Armor).resist))
