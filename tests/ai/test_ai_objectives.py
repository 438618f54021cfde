"""The computer players go after the objectives: the exit, the zone to hold, the named target."""

from __future__ import annotations

import pytest

from game.ai import make_player
from game.core import components as c
from game.core.commands import Attack, EndTurn
from game.core.events import Refused
from tests.core.builders import unit
from tests.core.test_objectives import battle

OPEN = ["." * 12 for _ in range(6)]


def play_side(b, player, side: str, rounds: int) -> None:
    """`player` plays `side`; every other unit ends its turn at once."""
    s = b.session
    while not s.over and s.round <= rounds:
        if s.side_of(s.active) != side:
            b.submit(EndTurn(s.active))
            continue
        command = player.next_command(b)
        result = b.submit(command)
        assert not isinstance(result, Refused), f"{command!r}: {result.reason}"


@pytest.mark.parametrize("level", ["simple", "easy", "hard"])
def test_a_side_that_must_get_out_runs_for_the_exit(level):
    extract = {"side": "a", "type": "extract", "zone": "exit"}
    with battle({"a": [(unit("runner", sight=2), (0, 0))], "b": [(unit("far", sight=2), (0, 3))]},
                objectives=[extract]) as b:
        play_side(b, make_player(level, "a", 1), "a", rounds=4)
        assert b.session.has("a-1", c.Left) and b.session.winner == "a"


@pytest.mark.parametrize("level", ["simple", "hard"])
def test_a_side_that_must_hold_a_zone_goes_there_and_stays(level):
    hold = {"side": "b", "type": "hold", "zone": "yard", "rounds": 3}
    with battle({"a": [(unit("idle", sight=2), (7, 3))], "b": [(unit("holder", sight=2), (7, 0))]},
                objectives=[hold], ambush="b", faces=(1, 9)) as b:
        play_side(b, make_player(level, "b", 1), "b", rounds=6)
        assert b.session.winner == "b" and b.session.end_reason.startswith("B held yard")


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_a_guard_stands_in_the_gate_the_enemy_must_reach(level):
    # Side a wins as soon as one of its units stands on `exit` (6, 0) or (7, 0); b's guard,
    # beside the gate, steps onto it: a square it holds is one the enemy cannot enter.
    reach = {"side": "a", "type": "reach", "zone": "exit"}
    with battle({"a": [(unit("runner", sight=2), (0, 3))], "b": [(unit("guard", sight=2), (5, 2))]},
                objectives=[reach], ambush="b") as b:
        play_side(b, make_player(level, "b", 1), "b", rounds=1)
        x, y = b.session.get("b-1", c.Position).x, b.session.get("b-1", c.Position).y
        assert (x, y) in ((6, 0), (7, 0))


@pytest.mark.parametrize("level", ["simple", "hard"])
def test_the_unit_an_objective_names_is_shot_first(level):
    def first_attack(objectives):
        with battle({"a": [(unit("shooter", aim=8, weapons=("rifle",)), (0, 2))],
                     "b": [(unit("guard"), (6, 1)), (unit("vip"), (6, 3))]},
                    objectives=objectives, rows=OPEN, faces=(9, 1, 1)) as b:
            player = make_player(level, "a", 1)
            for _ in range(10):
                command = player.next_command(b)
                if isinstance(command, Attack):
                    return command.target
                assert not isinstance(b.submit(command), Refused)
        return None

    assert first_attack([]) == "b-1"
    assert first_attack([{"side": "a", "type": "kill", "unit": "Vip"}]) == "b-2"
    assert first_attack([{"side": "b", "type": "protect", "unit": "Vip"}]) == "b-2"


def test_only_hard_weighs_the_unit_an_objective_names():
    """`easy` and `normal` go where an objective sends them but do not single out its unit."""
    def first_attack(level, objectives):
        with battle({"a": [(unit("shooter", aim=8, weapons=("rifle",)), (0, 2))],
                     "b": [(unit("guard"), (6, 1)), (unit("vip"), (6, 3))]},
                    objectives=objectives, rows=OPEN, faces=(9, 1, 1)) as b:
            player = make_player(level, "a", 1)
            for _ in range(10):
                command = player.next_command(b)
                if isinstance(command, Attack):
                    return command.target
                assert not isinstance(b.submit(command), Refused)
        return None

    kill = [{"side": "a", "type": "kill", "unit": "Vip"}]
    assert first_attack("hard", kill) == "b-2" != first_attack("hard", [])
    assert first_attack("normal", kill) == first_attack("normal", []) is not None

