"""The simple computer player: advance, take cover, shoot the best target.

It knows only what its side sees: enemies in sight now, and where it last saw the others.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

import numpy as np
import tcod.path

from game.ai import memory as m
from game.ai.aims import NOTHING, TARGET_WORTH, aims_for
from game.ai.orders import plan
from game.core.commands import (Attack, ChangeStance, Command, Defend, Draw, EndTurn, Move, Proceed,
                                Reload)
from game.core.engine import Battle
from game.core.events import Refused
from game.core.grid import Grid
from game.core.queries import (Sighting, UnitInfo, action_costs, explored_squares, preview_attack,
                                reach, sightings, unit_info, visible_squares)

Square = tuple[int, int]
COVER = ("none", "half", "full")
MIN_VALUE = 0.1      # expected damage per AP below which a shot is not worth taking


@lru_cache(maxsize=256)
def _walking_distances(grid: Grid, goal: Square) -> np.ndarray:
    dist = np.full((grid.height, grid.width), np.iinfo(np.int32).max, dtype=np.int32)
    dist[goal[1], goal[0]] = 0
    cost = grid.walkable.astype(np.int32)
    cost[goal[1], goal[0]] = 1
    tcod.path.dijkstra2d(dist, cost, 3, 4, out=dist)
    return dist


def walking_distances(grid: Grid, goal: Square) -> np.ndarray:
    """Walking distance (AP-like units) from every square to `goal`, around walls."""
    return _walking_distances(grid, goal)


class SimplePlayer:
    def __init__(self, side: str, seed: int = 0) -> None:
        self.side = side
        self.last_seen: dict[str, Square] = {}
        self._moved: tuple[int, str] | None = None
        self._moves = 0             # moves made in the current turn
        self._search: dict[str, Square] = {}    # uid -> where it goes looking for the enemy
        self._rng = random.Random(seed)
        self._aims = NOTHING          # what the objectives ask, read afresh each command

    def memory(self) -> dict[str, Any]:
        """What it carries between commands, as JSON data (see game.ai.memory)."""
        return {"kind": "simple", "last_seen": m.squares_to(self.last_seen),
                "moved": m.turn_to(self._moved), "moves": self._moves,
                "search": m.squares_to(self._search), "rng": m.rng_to(self._rng)}

    def restore(self, memory: Any, battle: Battle | None = None) -> None:
        """Take back what `memory()` gave; ValueError (and nothing changed) if it does not fit."""
        data = m.as_dict(memory, "memory")
        m.need(data.get("kind") == "simple", "kind")
        last_seen = m.squares_from(data.get("last_seen"), "last_seen")
        moved = m.turn_from(data.get("moved"))
        moves = m.as_int(data.get("moves"), "moves")
        search = m.squares_from(data.get("search"), "search")
        rng = m.rng_from(data.get("rng"))
        self.last_seen, self._moved, self._moves, self._search, self._rng = (
            last_seen, moved, moves, search, rng)

    @contextmanager
    def _planning(self, rehearsal: Battle) -> Iterator[None]:
        """Choose on a unit's rehearsal as in its turn, and come back as before (but for its
        dice, which it has used)."""
        saved = (dict(self.last_seen), self._moved, self._moves, dict(self._search))
        try:
            yield
        finally:
            self.last_seen, self._moved, self._moves, self._search = saved

    def _zone(self, battle: Battle) -> frozenset[Square]:
        """The zone its objectives send it to (or that it must get into to break a hold)."""
        name = self._aims.go or self._aims.contest
        return battle.session.grid.zone_set(name) if name else frozenset()

    def next_command(self, battle: Battle) -> Command:
        s = battle.session
        if s.planning:
            return plan(battle, self.side, self.next_command, self._planning)
        if s.rules.simultaneous and not s.rehearsing:
            return Proceed(s.active or "")     # the orders given while planning go on
        uid = battle.session.active
        self._aims = aims_for(battle, self.side)
        me = unit_info(battle, uid)
        enemies = self._enemies(battle)
        shot = self._best_shot(battle, me, enemies) if enemies else None
        if shot is not None:
            return shot
        weapon = battle.session.weapons.get(me.weapon) if me.weapon else None
        if (weapon is not None and weapon.kind == "firearm" and me.ammo == 0 and me.spare > 0
                and me.ap >= weapon.reload_ap):
            return Reload(uid)
        blade = self._blade(battle, me)
        if blade is not None:
            return blade
        if "pinned" in me.statuses:
            return EndTurn(uid)
        stand = battle.session.rules.stance_cost(me.stance, "stand", False)
        if me.stance == "prone" and me.ap >= stand:
            return ChangeStance(uid, "stand")       # get up before moving on
        turn = (battle.session.round, uid)
        if self._moved != turn:
            self._moved, self._moves = turn, 0
        # Where a turn buys whole move actions, a unit with nothing in sight may spend a second
        # (d20: "You can use both of your actions to move"); skirmish moves once, then shoots.
        move_actions = "move_actions" in battle.session.rules.supports
        allowed = 2 if move_actions and not enemies else 1
        zone = self._zone(battle)
        if zone and me.square in zone and (self._aims.go or self._aims.contest):
            allowed = 0                  # on the objective: stay (extract leaves at the end)
        if self._moves < allowed and me.stance != "prone":
            self._moves += 1
            move = self._advance(battle, me, enemies)
            if move is None and not enemies:
                move = self._detour(battle, me)
            if move is not None:
                return move
        guard = self._guard(battle, me, enemies)
        return guard if guard is not None else EndTurn(uid)

    @staticmethod
    def _guard(battle: Battle, me: UnitInfo, enemies: list[Sighting]) -> Command | None:
        """With enemies in sight and nothing better to do, defend (rulesets that offer it)."""
        if not enemies or any(s.startswith("defending") for s in me.statuses):
            return None
        kinds = action_costs(battle, me.uid).defend      # in the ruleset's order of preference
        # a defense against one enemy (d20's `disengage:<id>`) is for walking away, not guarding
        kind = next((kind for kind, cost in kinds.items() if 0 < cost <= me.ap and ":" not in kind),
                    None)
        return Defend(me.uid, kind) if kind else None

    def _detour(self, battle: Battle, me: UnitInfo) -> Command | None:
        """No step brings it nearer its goal (a body in a doorway, say): forget the goal and go
        searching somewhere its side cannot see, by whatever way is open."""
        goal = self._goal(battle, me, [])
        for uid, square in list(self.last_seen.items()):
            if square == goal:
                del self.last_seen[uid]
        visible = visible_squares(battle, self.side)
        ys, xs = np.nonzero(battle.session.grid.walkable & ~visible)
        if not len(xs):
            return None
        i = self._rng.randrange(len(xs))
        self._search[me.uid] = (int(xs[i]), int(ys[i]))
        return self._advance(battle, me, [])

    @staticmethod
    def _dry(battle: Battle, me: UnitInfo) -> bool:
        """A firearm in hand with no rounds and no magazine left."""
        weapon = battle.session.weapons.get(me.weapon) if me.weapon else None
        return weapon is not None and weapon.kind == "firearm" and me.ammo == 0 and me.spare == 0

    def _blade(self, battle: Battle, me: UnitInfo) -> Command | None:
        """A dry gun: draw a melee weapon if the unit carries one (else it fights bare-handed)."""
        if not self._dry(battle, me):
            return None
        costs = action_costs(battle, me.uid)
        for index, weapon_id in enumerate(me.weapons):
            if battle.session.weapons[weapon_id].kind == "melee" and costs.draw[index] <= me.ap:
                return Draw(me.uid, index)
        return None

    def _enemies(self, battle: Battle) -> list[Sighting]:
        seen = sightings(battle, self.side)
        for u in seen:
            if u.state == "ok":
                self.last_seen[u.uid] = u.square
            else:
                self.last_seen.pop(u.uid, None)
        here = {u.uid for u in seen}
        gone = [uid for uid in self.last_seen if uid not in here]
        if gone:
            visible = visible_squares(battle, self.side)
            for uid in gone:
                x, y = self.last_seen[uid]
                if visible[y, x]:
                    del self.last_seen[uid]   # we see the place, and it is gone from there
        return [u for u in seen if u.state == "ok"]

    def _best_shot(self, battle: Battle, me: UnitInfo, enemies: list[Sighting]) -> Command | None:
        """The attack with the most expected damage per AP, aimed as far as the AP allow."""
        best, best_value = None, MIN_VALUE
        weapon = battle.session.weapons.get(me.weapon) if me.weapon else None
        if self._dry(battle, me):
            weapon = None                   # bare hands, then
        modes = weapon.modes if weapon else [None]
        quick = dict(me.abilities).get("quick_aim", 0) > 0
        sight = battle.session.grid.view(me.square[0], me.square[1], me.sight)
        adjacent = [e for e in enemies if max(abs(e.square[0] - me.square[0]),
                                              abs(e.square[1] - me.square[1])) == 1]
        if weapon is None or weapon.kind == "melee":
            reach_one = adjacent                # bare hands and blades reach the next square only
        else:
            reach_one = [e for e in enemies if e.square in sight or e in adjacent]
        for mode in modes:
            if mode is not None and mode.ap > me.ap:
                continue                        # the engine would refuse it: no AP for it
            aim = 0
            if weapon and weapon.aim_max:
                spare = me.ap - mode.ap
                aim = max((lvl for lvl in range(weapon.aim_max + 1)
                           if battle.session.rules.aim_cost(weapon, lvl, quick) <= spare), default=0)
            name = mode.name if mode else ("unarmed" if me.weapon else None)
            for enemy in reach_one:
                preview = preview_attack(battle, me.uid, enemy.uid, name, "torso", aim)
                if isinstance(preview, Refused) or preview.ap_cost > me.ap:
                    continue
                value = min(preview.expected_damage, enemy.hp + 1) / preview.ap_cost
                if enemy.uid in self._aims.targets:
                    value *= TARGET_WORTH        # the enemy an objective names first
                if value > best_value:
                    best, best_value = Attack(me.uid, enemy.uid, name, "torso", aim), value
        return best

    def _advance(self, battle: Battle, me: UnitInfo, enemies: list[Sighting]) -> Command | None:
        goal = self._goal(battle, me, enemies)
        if goal is None:
            return None
        grid = battle.session.grid
        weapon = battle.session.weapons.get(me.weapon) if me.weapon else None
        keep = min((m.ap for m in weapon.modes), default=0) if weapon else 0
        move_actions = "move_actions" in battle.session.rules.supports
        if not enemies and move_actions:
            keep = 0            # nothing in sight: a unit may spend every move action walking
        # AP priced by the step: search only as far as the AP it may spend walking.
        area = reach(battle, me.uid) if move_actions else reach(battle, me.uid, me.ap - keep)
        walk = walking_distances(grid, goal)
        all_xs, all_ys, costs = area.arrays()
        affordable = costs <= me.ap - keep
        xs, ys = all_xs[affordable], all_ys[affordable]
        if move_actions and keep:
            here = walk[me.square[1], me.square[0]]
            if not len(xs) or walk[ys, xs].min() >= here:
                xs, ys = all_xs, all_ys       # blocked nearby: spend the shot's actions walking
        if not len(xs):
            return None
        scores = walk[ys, xs].astype(float)
        nearest = min(enemies, key=lambda e: math.dist(e.square, me.square)) if enemies else None
        if nearest is not None:
            for i in np.nonzero(grid.near_cover[ys, xs])[0].tolist():
                cover = grid.cover_against((int(xs[i]), int(ys[i])), nearest.square)
                scores[i] -= 2 * COVER.index(cover)
        i = int(np.argmin(scores))
        best = (int(xs[i]), int(ys[i]))
        if walk[best[1], best[0]] >= walk[me.square[1], me.square[0]] + 1:
            return None
        return Move(me.uid, tuple(area.path_to(best)))

    def _goal(self, battle: Battle, me: UnitInfo, enemies: list[Sighting]) -> Square | None:
        zone = self._zone(battle)
        if zone:
            friends = {sq for uid, sq in battle.session.up_squares(self.side) if uid != me.uid}
            free = [sq for sq in zone if sq not in friends]
            if free:
                return min(free, key=lambda sq: (math.dist(sq, me.square), sq))
        wanted = [e for e in enemies if e.uid in self._aims.targets]
        if wanted:
            enemies = wanted
            return min((e.square for e in enemies), key=lambda sq: math.dist(sq, me.square))
        if self.last_seen:
            return min(self.last_seen.values(), key=lambda sq: math.dist(sq, me.square))
        grid = battle.session.grid
        zones = grid.zones
        own = next(s.zone for s in battle.session.setup.scenario.sides if s.id == self.side)
        visible = visible_squares(battle, self.side)
        searching = self._search.get(me.uid)
        if searching is not None and not visible[searching[1], searching[0]]:
            return searching            # a search (or a detour) goes on until its place is seen
        others = [sq for name, squares in zones.items() if name != own for sq in squares
                  if not visible[sq[1], sq[0]]]
        if others:
            return min(others, key=lambda sq: math.dist(sq, me.square))
        # Their side of the map is in sight and empty: search what the side cannot see, one
        # place at a time (kept until it is in sight), the nearest never seen first.
        hidden = grid.walkable & ~visible
        unexplored = hidden & ~explored_squares(battle, self.side)
        ys, xs = np.nonzero(unexplored if unexplored.any() else hidden)
        if not len(xs):
            return None
        if unexplored.any():
            i = int(np.argmin(np.maximum(abs(xs - me.square[0]), abs(ys - me.square[1]))))
        else:
            i = self._rng.randrange(len(xs))
        goal = self._search[me.uid] = (int(xs[i]), int(ys[i]))
        return goal
