"""A `reach` objective that no unit of the side that needs it can walk to is refused."""

from __future__ import annotations

from tests.content.content_helpers import Write, only, problems_in

SCENARIO = """
id: walled
name: Walled
map:
  id: walled_map
  name: Walled map
  legend:
    A: {{terrain: open, zone: alpha}}
    B: {{terrain: open, zone: bravo}}
    X: {{terrain: open, zone: exit}}
  rows: |
    ##########
    #AA..#.XX#
    #AA..{gap}.XX#
    #....#.BB#
    ##########
sides:
  - {{id: a, name: A, zone: alpha, members: [{{unit: olea_trooper, count: 2}}]}}
  - {{id: b, name: B, zone: bravo, members: [{{unit: olea_trooper}}]}}
victory: {{type: reach, side: a, zone: exit}}
"""


def test_a_walled_off_objective_is_refused(write: Write) -> None:
    path = write("s.yaml", SCENARIO.format(gap="#"))
    problem = only(problems_in(path), "victory.zone")
    assert problem.message.startswith("no unit of side 'a' can walk to zone 'exit'")
    assert problem.line == 19


def test_one_open_square_is_enough(write: Write) -> None:
    assert problems_in(write("s.yaml", SCENARIO.format(gap="."))) == []



def test_a_diagonal_step_between_two_walls_does_not_count(write: Write) -> None:
    """The only way is (5,1) -> (6,2), past the corners of the walls at (6,1) and (5,2):
    skirmish (like every bundled ruleset) allows no diagonal step past a wall's corner, so
    the zone cannot be reached in play, and the message says what would open it."""
    text = SCENARIO.format(gap="#").replace("#AA..#.XX#", "#AA...#XX#", 1)
    problem = only(problems_in(write("s.yaml", text)), "victory.zone")
    assert problem.message == (
        "no unit of side 'a' can walk to zone 'exit': the only way there steps diagonally past a "
        "wall's corner, which these rules do not allow (open the square beside it), so the side "
        "can never win")


def test_a_diagonal_step_beside_an_open_square_counts(write: Write) -> None:
    text = SCENARIO.format(gap="#").replace("#AA..#.XX#", "#AA....XX#", 1)   # (6,1) open
    assert problems_in(write("s.yaml", text)) == []
