"""What a side knows: its own units, the enemies it sees now, and where it last saw the others.

Only `units_known_to` and the side's own sight (`session.sees`) tell the player where enemies
are. An enemy that slips out of sight is remembered at its last square until the side sees that
square empty. Unit statistics (skills, armor, weapons) are public, as on a unit card.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from game.content.schema import WeaponSpec
from game.core import components as c
from game.core.engine import Battle
from game.core.queries import UnitInfo, enemy_cones, units_known_to
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


@dataclass(slots=True)
class Picture:
    """Everything the player may use to choose one command."""

    me: Known
    friends: list[Known]             # own units that are up, `me` excluded
    downed_friends: list[Known]      # own units unconscious or dying
    foes: list[Known]                # enemies up: visible now or remembered
    cones: dict[str, list[Square]]   # known enemy overwatch cones
    round: int


@dataclass
class Intel:
    side: str
    memory: dict[str, Known] = field(default_factory=dict)

    def update(self, battle: Battle) -> Picture:
        """Look, remember, and describe the situation of the active unit (one of ours)."""
        s = battle.session
        mine = self.observe(battle)
        own = {u.uid: self._known(battle, u, s.round, True) for u in mine if u.square is not None}
        me = own[s.active]
        return Picture(
            me=me,
            friends=[k for uid, k in own.items() if uid != me.uid and k.info.state == "ok"],
            downed_friends=[k for k in own.values() if k.info.state in ("unconscious", "dying")],
            foes=list(self.memory.values()),
            cones=enemy_cones(battle, self.side),
            round=s.round)

    def observe(self, battle: Battle) -> list[UnitInfo]:
        """Update what the side remembers of the enemy; return the side's own units."""
        s = battle.session
        known = units_known_to(battle, self.side)
        mine = [u for u in known if u.side == self.side]
        seen = {u.uid: u for u in known if u.side != self.side}
        for uid, unit in seen.items():
            if unit.state == "ok" and unit.square is not None:
                old = self.memory.get(uid)
                known = self.memory[uid] = self._known(battle, unit, s.round, True)
                known.moved_round = old.moved_round if old and old.square == unit.square else s.round
            else:
                self.memory.pop(uid, None)
        for uid, old in list(self.memory.items()):
            if uid in seen:
                continue
            if s.sees(self.side, old.square):      # we look there and it is gone
                del self.memory[uid]
            else:
                old.visible = False
        return mine

    @staticmethod
    def _known(battle: Battle, unit: UnitInfo, round_: int, visible: bool) -> Known:
        s = battle.session
        weapon = s.weapons.get(unit.weapon) if unit.weapon else None
        return Known(unit, unit.square, round_, visible, s.combatant(unit.uid), weapon,
                     dict(s.get(unit.uid, c.Armor).resist))
