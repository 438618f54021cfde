"""Objectives, reinforcements and scripted messages, on small handmade battles with forced dice."""

from __future__ import annotations

from game.content.schema import LegendEntry, ScenarioSpec
from game.core import components as c
from game.core import queries
from game.core.commands import Attack, EndTurn, Move
from game.core.dice import Dice
from game.core.events import Announced, ObjectiveChanged, Reinforced, UnitLeft
from game.rulesets import new_battle
from tests.core.builders import setup, unit

# x: 0 1 2 3 4 5 6 7 8 9 ...; X is zone `exit`, Y zone `yard`, every other square `field`.
ROWS = ["......XX", "........", "YY......", "YY......"]
LEGEND = {".": LegendEntry(terrain="open", zone="field"),
          "X": LegendEntry(terrain="open", zone="exit"),
          "Y": LegendEntry(terrain="open", zone="yard")}
KILL_ROWS = [row + "...." for row in ["........", "........", "........", "........",
                                      "........", "........"]]
KILL_FACES = [9, 1, 1, 10, 1, 8, 8, 8]     # a-1 acts first, then its rifle puts b-1 down


def battle(placements, *, objectives=(), reinforcements=(), events=(), rows=ROWS,
           faces=(9, 1), max_rounds=40, on_timeout="draw", ambush="a", seed=0):
    base = setup(rows, placements, ambush=ambush, max_rounds=max_rounds)
    data = base.scenario.model_dump()
    data.update(objectives=list(objectives), reinforcements=list(reinforcements),
                events=list(events), victory={"max_rounds": max_rounds, "on_timeout": on_timeout})
    legend = LEGEND if rows is ROWS else base.map.legend
    game = base.model_copy(update={"scenario": ScenarioSpec.model_validate(data),
                                   "map": base.map.model_copy(update={"legend": legend})})
    dice = Dice(seed)
    dice.force(*faces)
    return new_battle(game, seed, dice=dice)


def of(events, kind):
    return [e for e in events if isinstance(e, kind)]


def state(b, ident):
    return next(o for o in queries.objectives(b) if o.id == ident)


def pass_round(b):
    """Every unit whose turn comes ends it, until a new round begins (or the battle ends)."""
    s, start = b.session, b.session.round
    while not s.over and s.round == start:
        b.submit(EndTurn(s.active))


def killer_and_victim(**kw):
    return battle({"a": [(unit("killer", aim=20, weapons=("rifle",)), (0, 0))],
                   "b": [(unit("victim", hp=3, constitution=1, morale=10), (4, 0)),
                         (unit("friend", morale=10), (9, 5))]},
                  rows=KILL_ROWS, faces=KILL_FACES, **kw)


# --- the old victory block ------------------------------------------------------------------

def test_an_old_victory_block_becomes_objectives():
    with battle({"a": [(unit("runner"), (0, 0))], "b": [(unit("far"), (7, 3))]}) as b:
        found = queries.objectives(b)
        assert [(o.id, o.kind, o.side, o.state) for o in found] == [
            ("eliminate_a", "eliminate", "a", "open"), ("eliminate_b", "eliminate", "b", "open")]


# --- reach and extract ----------------------------------------------------------------------

def test_reach_with_a_count_wins_only_when_enough_stand_in_the_zone():
    objective = {"side": "a", "type": "reach", "zone": "exit", "count": 2}
    with battle({"a": [(unit("one"), (5, 0)), (unit("two"), (5, 1))],
                 "b": [(unit("far"), (0, 3))]}, objectives=[objective], faces=(9, 8, 1)) as b:
        b.submit(Move("a-1", ((6, 0),)))
        assert not b.session.over and state(b, "reach_a").progress == "1/2"
        b.submit(EndTurn("a-1"))
        b.submit(Move("a-2", ((6, 1), (7, 0))))
        assert b.session.winner == "a"
        assert b.session.end_reason == "A got 2 units to exit"


def test_extract_units_leave_by_the_zone_and_win_when_enough_are_out():
    objective = {"side": "a", "type": "extract", "zone": "exit", "count": 2}
    with battle({"a": [(unit("one"), (5, 0)), (unit("two"), (5, 1))],
                 "b": [(unit("far"), (0, 3))]}, objectives=[objective], faces=(9, 8, 1)) as b:
        b.submit(Move("a-1", ((6, 0),)))
        events = b.submit(EndTurn("a-1"))
        assert of(events, UnitLeft)[0].unit == "a-1"
        assert b.session.position("a-1") is None and b.session.has("a-1", c.Left)
        assert state(b, "extract_a").progress == "1/2" and not b.session.over
        b.submit(Move("a-2", ((6, 1), (7, 0))))
        assert not b.session.over                      # it leaves at the end of its turn
        b.submit(EndTurn("a-2"))
        assert b.session.winner == "a" and b.session.end_reason == "A got 2 out by exit"


def test_extract_fails_and_defeats_its_side_when_too_few_are_left_to_get_out():
    objective = {"side": "b", "type": "extract", "zone": "exit", "count": 2}
    with killer_and_victim(objectives=[objective],
                           reinforcements=()) as b:
        b.submit(Attack("a-1", "b-1"))
        assert b.session.winner == "a"
        assert b.session.end_reason == "B can no longer get 2 out by exit (0 out)"


# --- hold and survive -----------------------------------------------------------------------

def test_hold_counts_rounds_held_alone_and_wins_after_enough():
    objective = {"side": "b", "type": "hold", "zone": "yard", "rounds": 2}
    with battle({"a": [(unit("far"), (7, 0))], "b": [(unit("holder"), (0, 2))]},
                objectives=[objective]) as b:
        pass_round(b)
        assert state(b, "hold_b").progress == "1/2" and not b.session.over
        pass_round(b)
        assert b.session.winner == "b" and b.session.end_reason == "B held yard for 2 rounds"


def test_an_enemy_in_the_zone_breaks_the_hold():
    objective = {"side": "b", "type": "hold", "zone": "yard", "rounds": 2}
    with battle({"a": [(unit("raider"), (2, 1))], "b": [(unit("holder"), (0, 2))]},
                objectives=[objective]) as b:
        pass_round(b)
        assert state(b, "hold_b").done == 1
        b.submit(Move("a-1", ((1, 2),)))
        b.submit(EndTurn("a-1"))
        events = []
        while b.session.round == 2:
            events += b.submit(EndTurn(b.session.active))
        assert state(b, "hold_b").done == 0 and not b.session.over
        assert [e.state for e in of(events, ObjectiveChanged)] == ["broken"]


def test_survive_wins_when_the_rounds_are_over_before_the_round_limit():
    objective = {"side": "b", "type": "survive", "rounds": 2}
    with battle({"a": [(unit("hunter"), (7, 0))], "b": [(unit("hider"), (0, 3))]},
                objectives=[objective], max_rounds=2, on_timeout="a") as b:
        pass_round(b)
        assert state(b, "survive_b").progress == "1/2"
        pass_round(b)
        assert b.session.winner == "b" and b.session.end_reason == "B held out for 2 rounds"


def test_the_round_limit_gives_its_outcome():
    with battle({"a": [(unit("hunter"), (7, 0))], "b": [(unit("hider"), (0, 3))]},
                max_rounds=1, on_timeout="b") as b:
        pass_round(b)
        assert (b.session.winner, b.session.end_reason) == ("b", "time ran out")


# --- protect, escort and kill ---------------------------------------------------------------

def test_kill_the_named_target_wins_though_others_stand():
    objective = {"side": "a", "type": "kill", "unit": "Victim"}
    with killer_and_victim(objectives=[objective]) as b:
        assert state(b, "kill_a").unit == "b-1"
        b.submit(Attack("a-1", "b-1"))
        assert b.session.winner == "a" and b.session.end_reason == "Victim is down"


def test_a_protected_unit_down_defeats_its_side():
    objective = {"side": "b", "type": "protect", "unit": "Victim"}
    with killer_and_victim(objectives=[objective]) as b:
        assert state(b, "protect_b").state == "open"
        b.submit(Attack("a-1", "b-1"))
        assert b.session.winner == "a" and b.session.end_reason == "Victim is down"
        assert state(b, "protect_b").state == "failed"


def test_without_objectives_the_same_kill_does_not_end_the_battle():
    with killer_and_victim() as b:
        b.submit(Attack("a-1", "b-1"))
        assert not b.session.over


def test_escort_wins_when_the_vip_gets_out_and_only_the_vip_leaves():
    objective = {"side": "a", "type": "escort", "unit": "Vip", "zone": "exit"}
    with battle({"a": [(unit("guard"), (6, 1)), (unit("vip"), (5, 0))],
                 "b": [(unit("far"), (0, 3))]}, objectives=[objective], faces=(9, 8, 1)) as b:
        b.submit(Move("a-1", ((7, 0),)))
        b.submit(EndTurn("a-1"))
        assert b.session.position("a-1") == (7, 0)     # the guard stays
        b.submit(Move("a-2", ((6, 0),)))
        b.submit(EndTurn("a-2"))
        assert b.session.winner == "a" and b.session.end_reason == "Vip got out by exit"


def test_a_kill_target_that_escapes_fails_the_kill():
    kill = {"side": "a", "type": "kill", "unit": "Vip"}
    escort = {"side": "b", "type": "escort", "unit": "Vip", "zone": "exit", "decides": False}
    with battle({"a": [(unit("far"), (0, 3))], "b": [(unit("vip"), (6, 0)), (unit("guard"), (0, 0))]},
                objectives=[kill, escort], faces=(1, 9, 8), ambush="b") as b:
        b.submit(EndTurn("b-1"))
        assert state(b, "kill_a").state == "failed" and state(b, "escort_b").state == "met"
        assert not b.session.over                       # the escort does not decide here


# --- reinforcements and messages ------------------------------------------------------------

def test_reinforcements_on_a_round_join_at_its_start_in_their_zone():
    arrive = {"side": "b", "zone": "yard", "when": {"round": 2},
              "members": [{"unit": "far", "count": 2}], "message": "The garrison turns out."}
    with battle({"a": [(unit("runner"), (7, 0))], "b": [(unit("far"), (7, 3))]},
                reinforcements=[arrive]) as b:
        assert len(b.session.entities) == 2
        s = b.session
        events = []
        while s.round == 1:
            events += b.submit(EndTurn(s.active))
        assert [e.message for e in of(events, Announced)] == ["The garrison turns out."]
        assert of(events, Reinforced)[0].units == ("b-2", "b-3")
        assert {s.position("b-2"), s.position("b-3")} <= {(0, 2), (1, 2), (0, 3), (1, 3)}
        assert s.order[-2:] == ["b-2", "b-3"] and s.get("b-3", c.Unit).name == "Far 3"
        pass_round(b)                                   # they take turns like the others
        assert not b.session.over


def test_a_unit_seen_raises_the_alarm_and_help_comes_at_the_end_of_the_round():
    arrive = {"side": "b", "zone": "yard", "when": {"seen": "a"}, "members": [{"unit": "far"}]}
    alarm = {"when": {"seen": "a"}, "message": "Alarm!"}
    with battle({"a": [(unit("sneak", sight=3), (7, 0))], "b": [(unit("far", sight=4), (0, 0))]},
                reinforcements=[arrive], events=[alarm]) as b:
        quiet = b.submit(EndTurn("a-1"))
        assert not of(quiet, Announced)
        events = b.submit(Move("b-1", ((1, 0), (2, 0), (3, 0), (4, 0))))
        assert [e.message for e in of(events, Announced)] == ["Alarm!"]
        assert "b-2" not in b.session.entities          # not before the round is over
        events = b.submit(EndTurn("b-1"))
        assert of(events, Reinforced) and "b-2" in b.session.entities


def test_an_objective_met_and_a_zone_entered_fire_their_triggers_once():
    stage = {"id": "gate", "side": "a", "type": "reach", "zone": "exit", "decides": False}
    told = [{"when": {"objective": "gate"}, "message": "The gate is ours."},
            {"when": {"entered": "exit", "by": "a"}, "message": "Someone at the gate."}]
    with battle({"a": [(unit("runner"), (5, 0))], "b": [(unit("far"), (0, 3))]},
                objectives=[stage], events=told) as b:
        events = b.submit(Move("a-1", ((6, 0),)))
        assert [e.message for e in of(events, Announced)] == ["The gate is ours.",
                                                              "Someone at the gate."]
        assert [e.state for e in of(events, ObjectiveChanged)] == ["met"]
        assert not of(b.submit(Move("a-1", ((7, 0),))), Announced)
        assert not b.session.over


def test_the_outcome_is_plain_data_with_each_objective():
    objective = {"side": "a", "type": "kill", "unit": "Victim"}
    with killer_and_victim(objectives=[objective]) as b:
        b.submit(Attack("a-1", "b-1"))
        outcome = queries.battle_outcome(b)
        assert outcome["winner"] == "a" and outcome["reason"] == "Victim is down"
        assert outcome["objectives"][0] == {"id": "kill_a", "side": "a", "type": "kill",
                                            "state": "met", "done": 1, "needed": 1}


def test_a_unit_that_left_takes_no_more_turns():
    from game.core.events import TurnStarted
    objective = {"side": "a", "type": "extract", "zone": "exit", "count": 2}
    with battle({"a": [(unit("one"), (5, 0)), (unit("two"), (0, 1))],
                 "b": [(unit("far"), (0, 3))]}, objectives=[objective], faces=(9, 8, 1)) as b:
        b.submit(Move("a-1", ((6, 0),)))
        b.submit(EndTurn("a-1"))
        events = []
        for _ in range(6):
            events += b.submit(EndTurn(b.session.active))
        started = [e.unit for e in of(events, TurnStarted)]
        assert "a-1" not in started and started.count("a-2") >= 2 and not b.session.over


def test_a_saved_battle_with_reinforcements_and_an_exit_replays_to_the_same_state():
    import json

    from game.rulesets import load_battle
    objective = {"side": "a", "type": "extract", "zone": "exit", "count": 2}
    arrive = {"side": "b", "zone": "yard", "when": {"round": 2}, "members": [{"unit": "far"}]}
    with battle({"a": [(unit("one"), (6, 0)), (unit("two"), (0, 1))],
                 "b": [(unit("far"), (7, 3))]}, objectives=[objective],
                reinforcements=[arrive], faces=(), seed=4) as b:    # dice from the seed alone
        pass_round(b)                          # a-1 starts in the exit: it leaves at its turn's end
        assert "b-2" in b.session.entities and b.session.has("a-1", c.Left)
        with load_battle(json.loads(json.dumps(b.state()))) as again:
            assert again.digest() == b.digest()
            assert [o.progress for o in queries.objectives(again)] == ["1/2"]


def test_reach_fails_and_loses_when_too_few_are_left_to_get_there():
    objective = {"side": "b", "type": "reach", "zone": "exit", "count": 2}   # off this map
    with killer_and_victim(objectives=[objective]) as b:
        assert state(b, "reach_b").state == "open"
        b.submit(Attack("a-1", "b-1"))
        assert b.session.winner == "a"
        assert b.session.end_reason == "B can no longer get 2 to exit"


def test_escort_fails_and_loses_when_the_vip_goes_down():
    objective = {"side": "b", "type": "escort", "unit": "Victim", "zone": "field"}
    with killer_and_victim(objectives=[objective]) as b:
        b.submit(Attack("a-1", "b-1"))
        assert (b.session.winner, b.session.end_reason) == ("a", "Victim is down")
        assert state(b, "escort_b").state == "failed"


def test_a_side_with_a_protect_objective_still_wins_by_the_last_side_standing():
    objective = {"side": "a", "type": "protect", "unit": "Killer"}
    with battle({"a": [(unit("killer", aim=20, weapons=("rifle",)), (0, 0))],
                 "b": [(unit("victim", hp=3, constitution=1, morale=10), (4, 0))]},
                rows=KILL_ROWS, faces=[9, 1, 10, 1, 8, 8, 8], objectives=[objective]) as b:
        b.submit(Attack("a-1", "b-1"))
        assert (b.session.winner, b.session.end_reason) == ("a", "last side standing")
        assert state(b, "protect_a").state == "met"      # kept alive to the end: shown met


def test_undoing_a_move_that_called_reinforcements_silently_calls_them_off():
    arrive = {"side": "b", "zone": "yard", "when": {"entered": "exit", "by": "a"},
              "members": [{"unit": "far"}]}                  # no message: nothing to see
    with battle({"a": [(unit("runner"), (5, 0))], "b": [(unit("far"), (7, 3))]},
                reinforcements=[arrive]) as b:
        b.submit(Move("a-1", ((6, 0),)))
        assert b.session.mission.waiting == [0]
        assert b.undo_refusal() is None
        b.undo()
        assert b.session.mission.waiting == [] and not b.session.mission.fired
        pass_round(b)
        assert "b-2" not in b.session.entities
