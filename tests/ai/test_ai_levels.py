"""The levels think differently: `normal` weighs the enemies it knows of, `hard` also the ones it
has not seen yet (cover against them, ground its side cannot see). See docs/AI.md, Levels."""

from __future__ import annotations

import dataclasses
import random

import numpy as np

from game.ai import planner
from game.ai.assess import Assessor
from game.ai.intel import Intel
from game.ai.levels import HARD, NORMAL, Level
from game.content.loader import load_setup
from game.rulesets import new_battle
from tests.sequential import sequential


def safety(level: Level) -> tuple[np.ndarray, np.ndarray]:
    """The first unit's destinations on depot and how safe each is, before any enemy is seen
    (every square it can reach, so that levels are compared on the same squares)."""
    level = dataclasses.replace(level, squares=0, noise=0.0)
    with new_battle(sequential(load_setup("depot")), 1) as battle:
        uid = battle.session.active
        picture = Intel(battle.session.side_of(uid)).update(battle)
        assert not picture.foes, "no enemy is known at the start"
        board = planner._board(battle, Assessor(battle, level.called_shots), picture, level,
                               random.Random(0), True)
        return board.dest.squares.copy(), board.safety.copy()


def test_normal_leaves_the_unseen_enemy_to_hard():
    squares, blind = safety(dataclasses.replace(NORMAL, lookahead=1))
    normal_squares, normal = safety(NORMAL)
    hard_squares, hard = safety(HARD)
    assert np.array_equal(squares, normal_squares) and np.array_equal(squares, hard_squares)
    assert len(squares) > 10
    np.testing.assert_array_equal(normal, blind)      # nothing for enemies it has not seen
    assert not np.allclose(hard, blind)                 # hard prices cover and unseen ground
