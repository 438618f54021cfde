"""Undo: a move or a change of stance that revealed nothing and rolled no dice is taken back
exactly; anything else is refused, with the reason."""

from __future__ import annotations

import json

import pytest

from game.content.loader import load_setup
from game.core import components as c
from game.core.commands import Attack, ChangeStance, EndTurn, Draw, Move, SetOverwatch
from game.core.dice import Dice
from game.core.engine import Battle
from game.core.events import Refused
from game.rulesets import load_battle, new_battle
from tests.core.builders import setup, unit

OPEN = ["." * 12 for _ in range(6)]
# Three rooms: a unit in the west one sees into the middle one only through the gap (6, 3),
# and into the east one only from the middle.
WALLED = ["......#.....#...",
          "......#.....#...",
          "......#.....#...",
          "................",
          "......#.....#...",
          "......#.....#..."]


def battle(placements, faces=(), rows=OPEN, **kw) -> Battle:
    dice = Dice(0)
    dice.force(*faces)
    return new_battle(setup(rows, placements, **kw), 0, dice=dice)


def snapshot(b: Battle) -> tuple:
    """Everything a later command could read: the saved state (its digest covers every unit's
    components, turn, morale and the dice), the dice's generator and queue, each side's sight."""
    s = b.session
    sight = {side: (x.count.tolist(), x.explored.tolist(), sorted(x.views))
             for side, x in s.sight.items()}
    return (json.dumps(b.state(), sort_keys=True), s.dice._rng.getstate(), list(s.dice._forced),
            sight, [(uid, sorted(type(p).__name__ for p in parts.values()))
                    for uid, parts in s._parts.items()])


def two_in_the_open(faces=(9, 1, 5, 5, 5)) -> Battle:
    walker = unit("walker", ap=20, weapons=("pistol", "knife"))
    return battle({"a": [(walker, (1, 1))], "b": [(unit("other"), (10, 4))]}, faces, ambush="a")


def test_undo_of_a_move_restores_the_exact_state():
    with two_in_the_open() as b:
        before = snapshot(b)
        moved = b.submit(Move("a-1", ((2, 1), (3, 1))))
        assert not isinstance(moved, Refused)
        assert snapshot(b) != before
        assert b.undo_refusal() is None
        assert b.undo() == moved                 # the undone command's events
        assert snapshot(b) == before
        assert b.commands == []


def test_undo_of_a_stance_change_restores_the_exact_state():
    with two_in_the_open() as b:
        before = snapshot(b)
        assert not isinstance(b.submit(ChangeStance("a-1", "prone", drop=True)), Refused)
        assert b.session.get("a-1", c.Posture).stance == "prone"
        assert not isinstance(b.undo(), Refused)
        assert snapshot(b) == before


def test_undo_goes_back_through_the_turn_and_no_further():
    with two_in_the_open() as b:
        first = snapshot(b)
        b.submit(Move("a-1", ((2, 1),)))
        second = snapshot(b)
        b.submit(ChangeStance("a-1", "crouch"))
        b.submit(Move("a-1", ((3, 1),)))
        b.undo()
        b.undo()
        assert snapshot(b) == second
        b.undo()
        assert snapshot(b) == first
        refused = b.undo()
        assert isinstance(refused, Refused)
        assert refused.reason == "Cannot undo: there is nothing to undo this turn."
        assert snapshot(b) == first


def test_after_undo_the_battle_plays_on_as_if_the_command_never_was():
    """The undone command leaves the command log: the saved battle replays to the same place,
    and the same dice fall after it."""
    with two_in_the_open(()) as b, two_in_the_open(()) as never:     # dice a replay rolls alike
        b.submit(Move("a-1", ((2, 1), (3, 1))))
        b.undo()
        rest = [Move("a-1", ((1, 2),)), Attack("a-1", "b-1", "single"), EndTurn("a-1")]
        for command in rest:
            assert [e.to_dict() for e in b.submit(command)] == \
                [e.to_dict() for e in never.submit(command)]
        assert b.commands == never.commands
        state = b.state()
        assert state["commands"] == [command.to_dict() for command in rest]
        with load_battle(json.loads(json.dumps(state))) as again:
            assert again.digest() == b.digest() == never.digest()


def test_a_move_that_reveals_an_enemy_cannot_be_undone():
    with battle({"a": [(unit("scout", ap=20), (3, 0))], "b": [(unit("hider"), (9, 0))]},
                [9, 1], rows=WALLED, ambush="a") as b:
        assert b.session.sight["a"].count[0, 9] == 0            # behind the wall
        assert not isinstance(b.submit(Move("a-1", ((4, 1), (5, 2), (5, 3), (6, 3)))), Refused)
        before = snapshot(b)
        refused = b.undo()
        assert isinstance(refused, Refused)
        assert refused.reason == "Cannot undo: the move revealed Hider."
        assert b.undo_refusal() == "the move revealed Hider"
        assert snapshot(b) == before


def test_a_move_that_shows_new_ground_cannot_be_undone():
    with battle({"a": [(unit("scout", ap=30), (3, 0))], "b": [(unit("hider"), (15, 0))]},
                [9, 1], rows=WALLED, ambush="a") as b:
        assert not isinstance(b.submit(Move("a-1", ((4, 1), (5, 2), (5, 3), (6, 3)))), Refused)
        assert b.session.sight["a"].count[0, 15] == 0           # the hider is still unseen
        assert b.undo_refusal() == "the move showed ground not seen before"
        before = snapshot(b)
        assert b.undo().reason == "Cannot undo: the move showed ground not seen before."
        assert snapshot(b) == before


def test_a_move_that_draws_overwatch_fire_cannot_be_undone():
    watcher = unit("watcher", ap=14, weapons=("rifle",), abilities={"overwatch": 1})
    with battle({"a": [(watcher, (0, 2))], "b": [(unit("mover", ap=20), (5, 5))]},
                [9, 1] + [1] * 30, ambush="a") as b:
        b.submit(SetOverwatch("a-1", (6, 2)))
        b.submit(Move("b-1", ((6, 5), (7, 4), (8, 3))))
        before = snapshot(b)
        assert b.undo().reason == "Cannot undo: dice were rolled."
        assert snapshot(b) == before


@pytest.mark.parametrize("command,reason", [
    (Attack("a-1", "b-1", "single"), "dice were rolled"),
    (Draw("a-1", 1), "only a move or a change of stance can be undone"),
])
def test_other_commands_cannot_be_undone(command, reason):
    with two_in_the_open() as b:
        b.submit(Move("a-1", ((2, 1),)))
        assert not isinstance(b.submit(command), Refused)
        assert b.undo_refusal() == reason


def test_a_move_that_ends_the_turn_cannot_be_undone():
    with battle({"a": [(unit("walker", ap=3), (1, 1))], "b": [(unit("other"), (10, 4))]},
                [9, 1, 5, 5, 5], ambush="a") as b:
        b.submit(Move("a-1", ((2, 1),)))                 # all its AP: b's turn now
        assert b.session.active == "b-1"
        assert b.undo_refusal() == "there is nothing to undo this turn"


@pytest.mark.parametrize(("scenario", "ruleset"), [("eclipse2_alley", "eclipse2"),
                                                    ("d20_depot", "d20"),
                                                    ("opend6_alley", "opend6")])
def test_undo_under_the_tabletop_rulesets(scenario, ruleset):
    with new_battle(load_setup(scenario, ruleset=ruleset), 4) as b:
        uid = b.session.active
        start = b.session.position(uid)
        before = snapshot(b)
        assert not isinstance(b.submit(ChangeStance(uid, "crouch")), Refused)
        assert b.undo_refusal() is None
        b.undo()
        assert snapshot(b) == before
        x, y = start
        steps = [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
        assert any(not isinstance(b.submit(Move(uid, (step,))), Refused) for step in steps)
        after_one = snapshot(b)
        assert not isinstance(b.submit(Move(uid, (start,))), Refused)   # back: nothing new
        assert b.undo_refusal() is None
        b.undo()
        assert snapshot(b) == after_one
