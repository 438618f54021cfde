"""The tactical computer player: it weighs every option by the ruleset's exact odds.

    player = TacticalPlayer("olea", seed=7, level=HARD)
    command = player.next_command(battle)        # for the active unit, on the player's side

It sees what its side sees (`game.ai.intel`), prices shots, cover, exposure, overwatch cones,
grenades, suppression and first aid (`game.ai.planner`), and sends one command at a time
through the same `Battle.submit` a person uses. Its level (`game.ai.levels`) changes how well
it thinks: the noise in its judgement and how far it looks ahead; never its dice or its sight.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from game.ai import memory as m
from game.ai.assess import Assessor
from game.ai.intel import Intel, Picture
from game.ai.levels import HARD, Level
from game.ai.orders import plan
from game.ai.planner import Option, choose
from game.ai.tabletop import TabletopPlayer
from game.core.commands import Attack, Command, EndTurn, Move, Proceed, Reload, Revive, Suppress, Throw
from game.core.engine import Battle
from game.core.queries import action_costs

MAX_MOVES = 3             # moves in one turn: to a firing position, then back to cover


class TacticalPlayer:
    def __init__(self, side: str, seed: int = 0, level: Level = HARD) -> None:
        self.side = side
        self.level = level
        self.seed = seed
        self.rng = random.Random(seed)      # the player's own: never the battle's dice
        self.intel = Intel(side)
        self.last: Option | None = None     # the option chosen last (for logs and tests)
        self._session: object | None = None
        self._assessor: Assessor | None = None
        self._turn: tuple[int, str] | None = None
        self._moves = 0
        self._acted = False
        self._seen_at_move: frozenset[str] = frozenset()
        self._fallback: TabletopPlayer | None = None

    def _meet(self, battle: Battle) -> None:
        """A new battle: nothing known of it yet."""
        s = battle.session
        self._session, self.intel = s, Intel(self.side)
        skirmish = "opposed_checks" in s.rules.supports
        self._assessor = Assessor(battle, self.level.called_shots) if skirmish else None
        self._fallback = None if skirmish else TabletopPlayer(self.side, self.seed, self.level)

    @contextmanager
    def _planning(self, rehearsal: Battle) -> Iterator[None]:
        """Choose on a unit's rehearsal as in its turn, and come back as before (but for the
        dice of its judgement, which it has used)."""
        saved = (self._session, self.intel, self._turn, self._moves, self._acted,
                 self._seen_at_move, self.last)
        assessor = self._assessor
        held = (assessor.battle, assessor.session) if assessor is not None else None
        self._session, self.intel = rehearsal.session, copy.deepcopy(self.intel)
        if assessor is not None:
            assessor.battle, assessor.session = rehearsal, rehearsal.session
        try:
            yield
        finally:
            (self._session, self.intel, self._turn, self._moves, self._acted,
             self._seen_at_move, self.last) = saved
            if assessor is not None and held is not None:
                assessor.battle, assessor.session = held

    def memory(self) -> dict[str, Any]:
        """What it carries between commands, as JSON data (see game.ai.memory)."""
        return {"kind": "tactical", "level": self.level.name, "met": self._session is not None,
                "rng": m.rng_to(self.rng), "intel": m.intel_to(self.intel),
                "turn": m.turn_to(self._turn), "moves": self._moves, "acted": self._acted,
                "seen_at_move": sorted(self._seen_at_move),
                "fallback": self._fallback.memory() if self._fallback is not None else None}

    def restore(self, memory: Any, battle: Battle) -> None:
        """Take back what `memory()` gave, for `battle` (the same battle, loaded again);
        ValueError (and nothing changed) if it does not fit."""
        data = m.as_dict(memory, "memory")
        m.need(data.get("kind") == "tactical" and data.get("level") == self.level.name, "kind")
        if not m.as_bool(data.get("met"), "met"):
            return                       # it had not played yet: it starts as new
        rng = m.rng_from(data.get("rng"))
        intel = m.intel_from(data.get("intel"), self.side, battle)
        turn = m.turn_from(data.get("turn"))
        moves = m.as_int(data.get("moves"), "moves")
        acted = m.as_bool(data.get("acted"), "acted")
        seen = frozenset(m.as_str(uid, "seen") for uid in m.as_list(data.get("seen_at_move"), "seen"))
        skirmish = "opposed_checks" in battle.session.rules.supports
        fallback = None
        if not skirmish:
            fallback = TabletopPlayer(self.side, self.seed, self.level)
            fallback.restore(data.get("fallback"), battle)
        self._meet(battle)
        self.rng, self.intel, self._turn, self._moves, self._acted = rng, intel, turn, moves, acted
        self._seen_at_move, self._fallback = seen, fallback

    def next_command(self, battle: Battle) -> Command:
        s = battle.session
        if s.planning or (s.rules.simultaneous and not s.rehearsing):
            if self._session is not s and not s.rehearsing:
                self._meet(battle)
            self.intel.observe(battle)          # what the side sees now, remembered
            if s.planning:
                return plan(battle, self.side, self.next_command, self._planning)
            return Proceed(s.active or "")     # the orders given while planning go on
        uid = s.active
        if uid is None or s.side_of(uid) != self.side or not s.is_up(uid):
            return EndTurn(uid or "")
        if self._session is not s:
            self._meet(battle)
        if self._fallback is not None or self._assessor is None:      # a tabletop ruleset's odds
            return self._fallback.next_command(battle)                 # come from the engine

        picture = self.intel.update(battle)
        if self._turn != (s.round, uid):
            self._turn, self._moves, self._acted = (s.round, uid), 0, False
        seen = frozenset(f.uid for f in picture.foes if f.visible)
        may_move = self._moves == 0 or (self._moves < MAX_MOVES
                                        and (self._acted or not seen <= self._seen_at_move))
        self.last = choose(battle, self._assessor, picture, self.level, self.rng, may_move)
        command = self.last.command
        if s.rehearsing and isinstance(command, EndTurn) and self.level.lookahead >= 3:
            command = self._fire_on_sight(battle, picture) or command
        if isinstance(command, Move):
            self._moves += 1
            self._acted = False
            self._seen_at_move = seen
        elif isinstance(command, (Attack, Throw, Revive, Reload, Suppress)):
            self._acted = True
        return command

    @staticmethod
    def _fire_on_sight(battle: Battle, picture: Picture) -> Attack | None:
        """Planning a round, a unit that would hold with AP left for a shot is ordered to fire
        instead at the nearest enemy in sight when its turn comes (an attack at no one in
        particular): the cheapest fire mode, aimed as far as the AP left pay for. The enemy
        moves before it acts, and the AP of a round are not kept; with no one in sight then,
        the order is lost and nothing spent."""
        me = picture.me
        if me.weapon is None or me.weapon.kind != "firearm" or me.info.ammo <= 0:
            return None
        costs = action_costs(battle, me.uid)
        if not costs.modes:
            return None
        mode, ap = min(costs.modes.items(), key=lambda item: item[1])
        aims = [level for level, aim_ap in enumerate(costs.aim) if ap + aim_ap <= me.info.ap]
        return Attack(me.uid, "", mode, aim=max(aims)) if aims else None
