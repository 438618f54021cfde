"""Every bundled scenario with objectives, played by the computer, ends with a winner."""

from __future__ import annotations

import pytest

from game.ai import make_player
from game.content.loader import load_library, load_setup
from game.sim import play

WITH_OBJECTIVES = sorted(ident for ident, spec in load_library().scenarios.items()
                         if spec.objectives)


def test_the_bundled_scenarios_use_objectives_and_reinforcements():
    assert {"alley", "outskirts", "depot_raid", "courier"} <= set(WITH_OBJECTIVES)


@pytest.mark.parametrize("scenario", WITH_OBJECTIVES)
def test_a_computer_battle_ends_with_a_winner_by_the_objectives(scenario):
    setup = load_setup(scenario)
    players = {side.id: make_player("normal", side.id, 2) for side in setup.scenario.sides}
    result = play(setup, 2, players, keep_events=False)
    assert result.winner is not None and not result.refused
    decided = [o for o in result.outcome["objectives"] if o["state"] != "open"]
    assert result.reason == "last side standing" or decided, result.reason
