"""The simple computer player: advance, take cover, shoot the best target.

It knows only what its side sees: enemies in sight now, and where it last saw the others.
"""

from __future__ import annotations

import math

from game.core.commands import Attack, Command, EndTurn, Move, Reload
from game.core.engine import Battle
from game.core.events import Refused
from game.core.queries import UnitInfo, preview_attack, reach, unit_info, units_known_to

Square = tuple[int, int]
COVER = ("none", "half", "full")
MIN_VALUE = 0.1      # expected damage per AP below which a shot is not worth taking


class SimplePlayer:
    def __init__(self, side: str, seed: int = 0) -> None:
        self.side = side
        self.last_seen: dict[str, Square] = {}
        self._moved: tuple[int, str] | None = None

    def next_command(self, battle: Battle) -> Command:
        uid = battle.session.active
        me = unit_info(battle, uid)
        enemies = self._enemies(battle)
        shot = self._best_shot(battle, me, enemies)
        if shot is not None:
            return shot
        if me.weapon and me.ammo == 0 and me.spare > 0 and me.ap >= battle.session.weapons[me.weapon].reload_ap:
            return Reload(uid)
        if self._moved != (battle.session.round, uid):
            self._moved = (battle.session.round, uid)
            move = self._advance(battle, me, enemies)
            if move is not None:
                return move
        return EndTurn(uid)

    def _enemies(self, battle: Battle) -> list[UnitInfo]:
        seen = [u for u in units_known_to(battle, self.side) if u.side != self.side]
        for u in seen:
            if u.state == "ok":
                self.last_seen[u.uid] = u.square
            else:
                self.last_seen.pop(u.uid, None)
        return [u for u in seen if u.state == "ok"]

    def _best_shot(self, battle: Battle, me: UnitInfo, enemies: list[UnitInfo]) -> Command | None:
        """The attack with the most expected damage per AP, aimed as far as the AP allow."""
        best, best_value = None, MIN_VALUE
        weapon = battle.session.weapons.get(me.weapon) if me.weapon else None
        modes = weapon.modes if weapon else [None]
        quick = dict(me.abilities).get("quick_aim", 0) > 0
        for mode in modes:
            aim = 0
            if weapon and weapon.aim_max:
                spare = me.ap - mode.ap
                aim = max((lvl for lvl in range(weapon.aim_max + 1)
                           if battle.session.rules.aim_cost(weapon, lvl, quick) <= spare), default=0)
            name = mode.name if mode else None
            for enemy in enemies:
                preview = preview_attack(battle, me.uid, enemy.uid, name, "torso", aim)
                if isinstance(preview, Refused) or preview.ap_cost > me.ap:
                    continue
                value = min(preview.expected_damage, enemy.hp + 1) / preview.ap_cost
                if value > best_value:
                    best, best_value = Attack(me.uid, enemy.uid, name, "torso", aim), value
        return best

    def _advance(self, battle: Battle, me: UnitInfo, enemies: list[UnitInfo]) -> Command | None:
        goal = self._goal(battle, me, enemies)
        if goal is None:
            return None
        grid = battle.session.grid
        weapon = battle.session.weapons.get(me.weapon) if me.weapon else None
        keep = min((m.ap for m in weapon.modes), default=0) if weapon else 0
        area = reach(battle, me.uid)
        nearest = min(enemies, key=lambda e: math.dist(e.square, me.square)) if enemies else None
        best, best_score = None, math.inf
        for square, cost in area.squares().items():
            if cost > me.ap - keep:
                continue
            score = math.dist(square, goal)
            if nearest is not None:
                score -= 2 * COVER.index(grid.cover_against(square, nearest.square))
            if score < best_score:
                best, best_score = square, score
        if best is None or math.dist(best, goal) >= math.dist(me.square, goal) + 1:
            return None
        return Move(me.uid, tuple(area.path_to(best)))

    def _goal(self, battle: Battle, me: UnitInfo, enemies: list[UnitInfo]) -> Square | None:
        if enemies:
            return min((e.square for e in enemies), key=lambda sq: math.dist(sq, me.square))
        if self.last_seen:
            return min(self.last_seen.values(), key=lambda sq: math.dist(sq, me.square))
        zones = battle.session.grid.zones
        own = next(s.zone for s in battle.session.setup.scenario.sides if s.id == self.side)
        others = [sq for name, squares in zones.items() if name != own for sq in squares]
        if not others:
            return None
        return min(others, key=lambda sq: math.dist(sq, me.square))
