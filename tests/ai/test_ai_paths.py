"""Walking past known enemy overwatch: a safe way round is taken when there is one."""

from __future__ import annotations

from game.ai.board import destinations
from game.ai.levels import HARD
from game.ai.tactical import TacticalPlayer
from game.content.schema import MapSpec, VictorySpec
from game.core.commands import Move, SetOverwatch
from game.core.engine import Battle
from game.rulesets import new_battle
from game.core.queries import enemy_cones
from tests.ai.ai_helpers import end_turns_until, take_turn
from tests.core.builders import setup, unit

ROWS = ["................",
        "................",
        "................",
        "................",
        "................",
        "................",
        "...............X",
        "................"]


def watched_battle(runner_ap: int, goal: bool = False) -> Battle:
    """A rifleman at (14, 4) watches west; the runner starts at (6, 0), outside the cone."""
    runner = unit("runner", ap=runner_ap, weapons=("pistol",))
    watcher = unit("watcher", weapons=("rifle",), abilities={"overwatch": 1}, aim=7, armor="heavy")
    rows = ROWS if goal else [row.replace("X", ".") for row in ROWS]
    battle_setup = setup(rows, {"them": [(watcher, (14, 4))], "us": [(runner, (6, 0))]}, ambush="them")
    if goal:
        legend = {".": {"terrain": "open", "zone": "field"}, "X": {"terrain": "open", "zone": "goal"}}
        battle_setup = battle_setup.model_copy(update={
            "map": MapSpec(id="test", name="Test", rows=rows, legend=legend),
            "scenario": battle_setup.scenario.model_copy(update={
                "victory": VictorySpec(type="reach", side="us", zone="goal", max_rounds=10)})})
    battle = new_battle(battle_setup, 5)
    end_turns_until(battle, "them-1")
    assert battle.submit(SetOverwatch("them-1", (0, 4)))
    return battle


def test_paths_go_round_a_known_cone_when_they_can():
    with watched_battle(runner_ap=80) as b:
        cones = enemy_cones(b, "us")
        watched = set(cones["them-1"])
        assert (8, 2) in watched and (6, 0) not in watched
        dest = destinations(b, "us-1", 80, cones, lambda watcher, square: 10.0)
        squares = [tuple(sq) for sq in dest.squares.tolist()]
        target = squares.index((14, 6))       # straight there runs through the cone
        path = dest.path(target)
        assert path[-1] == (14, 6)
        assert not watched & set(path)
        assert dest.risk[target] == 0.0
        inside = squares.index((8, 2))        # a square in the cone itself is priced
        assert dest.risk[inside] > 0.0


def test_the_player_does_not_walk_through_a_known_cone():
    # The runner must reach X at (15, 6); the short way crosses the watched ground.
    with watched_battle(runner_ap=16, goal=True) as b:
        watched = set(enemy_cones(b, "us")["them-1"])
        moves = [c for c in take_turn(b, TacticalPlayer("us", 0, HARD)) if isinstance(c, Move)]
        assert moves
        assert not any(watched & set(move.path) for move in moves)
