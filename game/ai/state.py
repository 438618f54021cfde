"""The working data of one decision: the options and the board they are scored on."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np

from game.ai import scoring
from game.ai.assess import Assessor
from game.ai.board import Destinations
from game.ai.goals import Stance
from game.ai.intel import Known, Picture
from game.ai.levels import Level
from game.core.commands import Command
from game.core.engine import Battle

LATER = 0.6               # weight of next turn's best shot


@dataclass(order=True)
class Option:
    score: float
    label: str = field(compare=False)
    command: Command = field(compare=False)


@dataclass
class Board:
    """One decision's working data."""

    battle: Battle
    a: Assessor
    pic: Picture
    level: Level
    stance: Stance
    dest: Destinations
    sight: scoring.Sight
    safety: np.ndarray        # -caution * expected harm at each destination
    goal: np.ndarray          # progress toward the goal
    rng: random.Random
    later_cache: np.ndarray | None = None
    memo: dict[str, object] = field(default_factory=dict)     # answers shared by several options

    @property
    def me(self) -> Known:
        return self.pic.me


def later(b: Board) -> np.ndarray:
    """Next turn's best shot from each destination (looking that far ahead is for `hard`)."""
    if b.later_cache is None:
        b.later_cache = np.zeros(len(b.dest))
        if b.level.lookahead >= 3 and b.sight.foes:
            b.later_cache = LATER * scoring.potential(b.a, b.me, b.sight, b.pic.round)
    return b.later_cache
