"""Looking for an enemy out of sight: round a body lying in a doorway, and back to ground the
side has not looked at for longest once every square has been seen."""

from __future__ import annotations

from dataclasses import replace

from game.ai import geometry as geo
from game.ai.board import destinations
from game.ai.goals import Stance, progress
from game.ai.intel import Intel
from game.ai.levels import HARD
from game.ai.tactical import TacticalPlayer
from game.core.engine import Battle
from game.rulesets import new_battle
from game.core.systems.health import set_state
from tests.ai.ai_helpers import end_turns_until, take_turn
from tests.core.builders import setup, unit

# Two rooms joined by two doorways, at (4, 2) and (4, 6).
ROOMS = ["#########",
         "#...#...#",
         "#.......#",
         "#...#...#",
         "#...#...#",
         "#...#...#",
         "#.......#",
         "#########"]


def rooms_battle(seeker_at: tuple[int, int], hidden_at: tuple[int, int], lying_at: tuple[int, int]) -> Battle:
    seeker = unit("seeker", ap=14, weapons=("rifle",))
    hidden = unit("hidden", weapons=("pistol",))
    lying = unit("lying", weapons=("pistol",))
    placements = {"us": [(seeker, seeker_at)], "them": [(hidden, hidden_at), (lying, lying_at)]}
    return new_battle(setup(ROOMS, placements, ambush="us"), 3)


def test_a_closed_square_lengthens_the_walk_round_it():
    with rooms_battle((1, 2), (7, 5), (7, 1)) as b:
        grid, costs = b.session.grid, b.session.rules.move_costs
        open_way = geo.walk_field(grid, costs, ((6, 2),))
        round_way = geo.walk_field(grid, costs, ((6, 2),), ((4, 2),))
        assert open_way[2, 1] < round_way[2, 1] < 10**6      # through (4, 6) instead


def test_an_enemy_seen_lying_down_is_remembered_as_an_obstacle():
    with rooms_battle((1, 2), (7, 6), (4, 2)) as b:
        set_state(b.session, "them-2", "unconscious", cause="test")
        end_turns_until(b, "us-1")
        picture = Intel("us").update(b)
        assert (4, 2) in picture.obstacles()
        assert [f.uid for f in picture.foes] == []


def test_the_walk_does_not_cut_a_walls_corner_where_the_engine_does_not():
    # The only way east is a diagonal step past two walls' corners, (2, 2) to (3, 1): the
    # engine refuses it (skirmish forbids cutting a corner), so the goal is out of reach, and
    # every square the engine can reach costs the same walk in both.
    rows = ["..#...",
            "..#...",
            "...#..",
            "...#.."]
    seeker = unit("seeker", ap=14, weapons=("rifle",))
    hidden = unit("hidden", weapons=("pistol",))
    with new_battle(setup(rows, {"us": [(seeker, (0, 0))], "them": [(hidden, (5, 3))]}, ambush="us"), 4) as b:
        grid, costs = b.session.grid, b.session.rules.move_costs
        assert not costs.corner_cutting
        field = geo.walk_field(grid, costs, ((5, 0),))
        assert field[3, 0] > 10 ** 6                     # the west side: cut off
        reach = grid.reach((5, 0), 60, costs)
        for (x, y), cost in reach.squares().items():
            assert field[y, x] == cost
        assert reach.cost((0, 3)) is None
        cutting = geo.walk_field(grid, replace(costs, corner_cutting=True), ((5, 0),))
        assert cutting[3, 0] < 100                       # where the rules let a unit cut it


def test_the_way_to_the_goal_goes_round_a_body_in_the_doorway():
    # The short way east runs through (4, 2), where an enemy lies unconscious; the way round
    # is the south doorway, so a step south is progress and a step north is not.
    with rooms_battle((2, 3), (7, 5), (4, 2)) as b:
        set_state(b.session, "them-2", "unconscious", cause="test")
        end_turns_until(b, "us-1")
        picture = Intel("us").update(b)
        dest = destinations(b, "us-1", 14, {}, lambda watcher, square: 0.0)
        squares = [tuple(sq) for sq in dest.squares.tolist()]
        east = Stance(advance=1.0, caution=1.0, targets=((6, 2),), guard=False)
        straight = progress(b, east, dest)
        round_it = progress(b, east, dest, picture.obstacles())
        north, south = squares.index((3, 2)), squares.index((3, 4))
        assert straight[north] > straight[south]
        assert round_it[south] > round_it[north]


def test_with_everything_explored_it_goes_to_look_where_it_has_not_looked_for_longest():
    rows = ["..........",
            "..........",
            "#######.##",
            ".........."]
    seeker = unit("seeker", ap=14, weapons=("rifle",), sight=6)
    hidden = unit("hidden", weapons=("pistol",))
    with new_battle(setup(rows, {"us": [(seeker, (1, 0))], "them": [(hidden, (1, 3))]}, ambush="us"), 4) as b:
        end_turns_until(b, "us-1")
        b.session.sight["us"].explored[:] = True
        start = geo.walk_field(b.session.grid, b.session.rules.move_costs, ((1, 3),))
        take_turn(b, TacticalPlayer("us", 0, HARD))
        x, y = b.session.position("us-1")
        assert start[y, x] < start[0, 1]                         # on its way to the south side
