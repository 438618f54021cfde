"""The tactical computer player: it weighs every option by the ruleset's exact odds.

    player = TacticalPlayer("olea", seed=7, level=HARD)
    command = player.next_command(battle)        # for the active unit, on the player's side

It sees what its side sees (`game.ai.intel`), prices shots, cover, exposure, overwatch cones,
grenades, suppression and first aid (`game.ai.planner`), and sends one command at a time
through the same `Battle.submit` a person uses. Its level (`game.ai.levels`) changes how well
it thinks: the noise in its judgement and how far it looks ahead; never its dice or its sight.
"""

from __future__ import annotations

import random

from game.ai.assess import Assessor
from game.ai.intel import Intel
from game.ai.levels import HARD, Level
from game.ai.planner import Option, choose
from game.ai.tabletop import TabletopPlayer
from game.core.commands import Attack, Command, EndTurn, Move, Reload, Revive, Suppress, Throw
from game.core.engine import Battle

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

    def next_command(self, battle: Battle) -> Command:
        s = battle.session
        uid = s.active
        if uid is None or s.side_of(uid) != self.side or not s.is_up(uid):
            return EndTurn(uid or "")
        if self._session is not s:
            self._session, self.intel = s, Intel(self.side)
            skirmish = "opposed_checks" in s.rules.supports
            self._assessor = Assessor(battle, self.level.called_shots) if skirmish else None
            self._fallback = None if skirmish else TabletopPlayer(self.side, self.seed, self.level)
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
        if isinstance(command, Move):
            self._moves += 1
            self._acted = False
            self._seen_at_move = seen
        elif isinstance(command, (Attack, Throw, Revive, Reload, Suppress)):
            self._acted = True
        return command
