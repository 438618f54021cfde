"""A side that wins when time runs out, with nothing else to do, can wait; its enemy must press."""

from __future__ import annotations

from game.ai.aims import aims_for
from game.ai.goals import HANG_BACK, PRESS, stance_for
from game.ai.intel import Intel
from tests.core.builders import unit
from tests.core.test_objectives import battle

PLACES = {"a": [(unit("raider"), (0, 0))], "b": [(unit("sentry"), (7, 3))]}


def test_the_side_the_clock_favours_holds_out_and_its_enemy_presses():
    with battle(PLACES, on_timeout="b", max_rounds=15) as b:
        assert aims_for(b, "b").hold_out and not aims_for(b, "b").their_clock
        assert aims_for(b, "a").their_clock and not aims_for(b, "a").hold_out


def test_a_draw_at_the_time_limit_asks_nothing():
    with battle(PLACES, on_timeout="draw") as b:
        for side in "ab":
            aims = aims_for(b, side)
            assert not aims.hold_out and not aims.their_clock


def test_a_side_with_a_zone_to_guard_guards_it_rather_than_waits():
    reach = {"side": "a", "type": "reach", "zone": "exit"}
    with battle(PLACES, objectives=[reach], on_timeout="b") as b:
        assert aims_for(b, "b").guard == "exit" and not aims_for(b, "b").hold_out
        assert not aims_for(b, "a").their_clock


def test_only_hard_hangs_back_for_it():
    with battle(PLACES, on_timeout="b", max_rounds=15) as b:
        picture = Intel("b").update(b)
        assert stance_for(b, "b", picture, True).advance == HANG_BACK * PRESS
        assert stance_for(b, "b", picture, False).advance != HANG_BACK * PRESS
