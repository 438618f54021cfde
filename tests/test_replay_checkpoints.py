"""Going back in a replay starts from the nearest copy of the battle kept on the way (every
CHECKPOINT_EVERY steps), and gives exactly the battle replaying from the start would."""

from __future__ import annotations

import pytest

from game.replay import CHECKPOINT_EVERY, Replay
from tests.replay_helpers import played


@pytest.mark.parametrize("ruleset", [None, "d20", "opend6", "eclipse2"])
def test_going_back_from_a_checkpoint_is_the_battle_from_the_start(ruleset):
    state = played("depot", 4, ruleset=ruleset, commands=130)[0]
    with Replay.from_state(state) as fresh:
        digests = [fresh.battle.digest()]
        while fresh.forward() is not None:
            digests.append(fresh.battle.digest())
    with Replay.from_state(state) as replay:
        replay.seek(replay.total)
        assert sorted(replay.checkpoints) == list(range(CHECKPOINT_EVERY, replay.total + 1,
                                                        CHECKPOINT_EVERY))
        for number in (replay.total - 1, 101, 100, 99, 60, 51, 50, 49, 3, 0):
            replay.seek(number)
            assert replay.battle.digest() == digests[number], number
        replay.seek(replay.total)                     # and forward again from there
        assert replay.battle.digest() == digests[-1]
        kept = replay.checkpoints[CHECKPOINT_EVERY]
        assert kept.digest() == digests[CHECKPOINT_EVERY]      # a checkpoint is never played on
        replay.battle.session.use()
