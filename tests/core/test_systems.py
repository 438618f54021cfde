"""Each system on its own, with forced dice on small handmade maps."""

from __future__ import annotations

from game.core import components as c
from game.core.commands import (Attack, ChangeStance, Draw, EndTurn, Move, Reload, Revive,
                                SetOverwatch, Throw)
from game.core.dice import Dice
from game.rulesets import new_battle
from game.core.events import (AttackResolved, HealAttempted, HealthChanged, MoveStopped, Moved,
                              OverwatchEnded, OverwatchTriggered, Refused, TurnEnded,
                              TurnStarted, TurnUnseen)
from game.core.narrate import describe
from tests.core.builders import setup, unit

OPEN = ["." * 12 for _ in range(6)]


def battle(placements, faces=(), rows=OPEN, **kw):
    dice = Dice(0)
    dice.force(*faces)
    return new_battle(setup(rows, placements, **kw), 0, dice=dice)


def of(events, kind):
    return [e for e in events if isinstance(e, kind)]


# --- movement and stance ---------------------------------------------------------------------

def test_steps_cost_three_four_and_one_more_on_rough_ground():
    rows = ["....", ".,..", "...."]
    with battle({"a": [(unit("runner", ap=20), (0, 0))], "b": [(unit("far"), (0, 2))]},
                [5, 5], rows=rows, ambush="a") as b:
        events = b.submit(Move("a-1", ((1, 1), (2, 1), (3, 2))))
        assert [m.ap_cost for m in of(events, Moved)] == [5, 3, 4]   # rough diagonal, straight, diagonal
        assert b.session.get("a-1", c.ActionPoints).current == 20 - 12


def test_an_illegal_path_is_refused_whole_with_a_reason():
    rows = ["..#.", "...."]
    with battle({"a": [(unit("walker"), (1, 0))], "b": [(unit("far"), (3, 0))]}, [5, 5],
                rows=rows, ambush="a") as b:
        before = b.digest()
        assert "cannot be walked on" in b.submit(Move("a-1", ((2, 0),))).reason
        assert "cuts the corner" in b.submit(Move("a-1", ((1, 1), (2, 1), (3, 0)))).reason
        assert "one square at a time" in b.submit(Move("a-1", ((3, 1),))).reason
        assert "costs 15 AP" in b.submit(Move("a-1", ((0, 0), (0, 1), (1, 1), (2, 1), (3, 1)))).reason
        assert "off the map" in b.submit(Move("a-1", ((1, -1),))).reason
        assert b.digest() == before


def test_stance_costs_and_prone_units_must_get_up_to_move():
    with battle({"a": [(unit("soldier", ap=20), (0, 0))], "b": [(unit("far"), (9, 5))]},
                [5, 5], ambush="a") as b:
        assert b.submit(ChangeStance("a-1", "crouch"))[0].ap_cost == 2
        assert b.submit(ChangeStance("a-1", "prone"))[0].ap_cost == 2
        assert "crouch or stand" in b.submit(Move("a-1", ((1, 0),))).reason
        assert b.submit(ChangeStance("a-1", "stand"))[0].ap_cost == 4
        assert b.session.get("a-1", c.ActionPoints).current == 12


def test_dropping_flat_is_quick_but_spoils_aim():
    rifle = dict(weapons=("rifle",), aim=5)
    with battle({"a": [(unit("diver", **rifle), (0, 0))], "b": [(unit("target"), (6, 0))]},
                [5, 5, 5, 5], ambush="a") as b:
        assert b.submit(ChangeStance("a-1", "prone", drop=True))[0].ap_cost == 1
        shot = of(b.submit(Attack("a-1", "b-1")), AttackResolved)[0]
        mods = dict(shot.attack.modifiers)
        assert mods["dropped flat"] == -3 and mods["prone"] == 2


def test_running_gives_minus_three():
    with battle({"a": [(unit("sprinter", ap=14), (0, 0))], "b": [(unit("target"), (9, 0))]},
                [5, 5, 5, 5], ambush="a") as b:
        b.submit(Move("a-1", ((1, 0), (2, 0), (3, 0))))       # 9 AP of 14: a run
        shot = of(b.submit(Attack("a-1", "b-1")), AttackResolved)[0]
        assert dict(shot.attack.modifiers)["running"] == -3


# --- attacks ---------------------------------------------------------------------------------

def test_no_line_of_sight_no_shot_and_nothing_changes():
    rows = ["......", "..##..", "......"]
    with battle({"a": [(unit("left"), (0, 1))], "b": [(unit("right"), (5, 1))]}, [5, 5],
                rows=rows, ambush="a") as b:
        before = b.digest()
        refused = b.submit(Attack("a-1", "b-1"))
        assert "line of sight" in refused.reason and b.digest() == before


def test_cover_and_concealment_enter_the_rolls():
    rows = ["......", '...=".', "......"]
    with battle({"a": [(unit("shooter"), (0, 1))], "b": [(unit("hider"), (4, 1))]},
                [5, 5, 5, 5], rows=rows, ambush="a") as b:
        shot = of(b.submit(Attack("a-1", "b-1")), AttackResolved)[0]
        assert dict(shot.defense.modifiers)["cover"] == 2
        assert dict(shot.attack.modifiers)["concealment"] == -2


def test_beyond_range_is_minus_five():
    wide = ["." * 20, "." * 20]
    with battle({"a": [(unit("pistoleer"), (0, 0))], "b": [(unit("far"), (17, 0))]}, [5, 5, 5, 5],
                rows=wide, ambush="a") as b:
        shot = of(b.submit(Attack("a-1", "b-1")), AttackResolved)[0]
        assert dict(shot.attack.modifiers)["beyond range"] == -5


def test_aim_is_bought_once_per_turn_and_lost_on_moving():
    with battle({"a": [(unit("aimer", ap=30), (0, 0))], "b": [(unit("target", hp=200), (6, 0))]},
                [5, 5] + [1] * 20, ambush="a") as b:
        first = of(b.submit(Attack("a-1", "b-1", aim=4)), AttackResolved)[0]
        assert first.ap_cost == 2 + 6
        second = of(b.submit(Attack("a-1", "b-1", aim=4)), AttackResolved)[0]
        assert second.ap_cost == 2 and dict(second.attack.modifiers)["aim bonus"] == 4
        b.submit(Move("a-1", ((0, 1),)))
        third = of(b.submit(Attack("a-1", "b-1")), AttackResolved)[0]
        assert "aim bonus" not in dict(third.attack.modifiers)


def test_an_action_longer_than_the_turn_is_paid_from_the_next():
    sniper = unit("sniper", ap=10, weapons=("rifle",))
    with battle({"a": [(sniper, (0, 0))], "b": [(unit("target", hp=200), (8, 0))]},
                [9, 1] + [1] * 10, ambush="a") as b:
        shot = of(b.submit(Attack("a-1", "b-1", aim=6)), AttackResolved)[0]   # 3 + 6 aim... 
        assert shot.ap_cost == 3 + 6
        b2 = b.session.get("a-1", c.ActionPoints)
        assert b2.debt == 0
    long_rifle = unit("sniper", ap=8, weapons=("rifle",))
    with battle({"a": [(long_rifle, (0, 0))], "b": [(unit("target", hp=200), (8, 0))]},
                [9, 1] + [1] * 10, ambush="a") as b:
        b.submit(Attack("a-1", "b-1", aim=6))                  # 9 AP from a pool of 8
        assert b.session.get("a-1", c.ActionPoints).debt == 1
        assert b.session.active == "b-1"                        # the turn ended
        b.submit(EndTurn("b-1"))
        ap = b.session.get("a-1", c.ActionPoints)
        assert (ap.current, ap.debt) == (7, 0)


def test_a_long_action_needs_a_full_pool():
    with battle({"a": [(unit("sniper", ap=8, weapons=("rifle",)), (0, 0))],
                 "b": [(unit("target"), (8, 0))]}, [9, 1], ambush="a") as b:
        b.submit(Move("a-1", ((0, 1),)))
        assert "AP left" in b.submit(Attack("a-1", "b-1", aim=6)).reason


def test_reload_and_draw():
    with battle({"a": [(unit("gunner", weapons=("pistol", "knife"), ap=30), (0, 0))],
                 "b": [(unit("target", hp=500), (3, 0))]}, [9, 1] + [1] * 40, ambush="a") as b:
        assert "already full" in b.submit(Reload("a-1")).reason
        for _ in range(8):
            b.submit(Attack("a-1", "b-1"))
        assert "empty" in b.submit(Attack("a-1", "b-1")).reason
        assert b.submit(Reload("a-1"))
        assert b.session.get("a-1", c.Loadout).current.ammo == 8
        assert b.submit(Draw("a-1", 1))
        assert "out of reach" in b.submit(Attack("a-1", "b-1")).reason


# --- health and revival ----------------------------------------------------------------------

def wounded_pair(faces):
    medic = unit("medic", ap=30, heal=15, intelligence=3)
    return battle({"a": [(medic, (0, 0)), (unit("patient", hp=4, constitution=5), (1, 0))],
                   "b": [(unit("shooter", aim=10, weapons=("rifle",)), (8, 0))]},
                  faces, ambush="b")


def test_knocked_to_negative_hp_a_unit_is_dying_and_bleeds_each_round():
    # shooter 10 + 10 vs patient 1 + 4: one hit of 3d8 = 6 -> 4 - 6 = -2: dying.
    with wounded_pair([5, 5, 9, 10, 1, 2, 2, 2]) as b:
        events = b.submit(Attack("b-1", "a-2"))
        assert ("a-2", "dying") in [(h.unit, h.state) for h in of(events, HealthChanged)]
        assert b.session.get("a-2", c.Health).hp == -2
        while b.session.round == 1:
            b.submit(EndTurn(b.session.active))
        assert b.session.get("a-2", c.Health).hp == -3         # bled 1 at the start of round 2
        while b.session.round < 5:
            b.submit(EndTurn(b.session.active))
        health = b.session.get("a-2", c.Health)
        assert (health.hp, health.state) == (-5, "dead")         # -CON 5: dead


def test_revive_stabilises_then_brings_back_at_one_hp_and_failures_raise_the_ds():
    # medic Heal 15 + 3 Int - 1 morale (the side lost half its pool): d10 1 -> 18 < 20 fails
    # and the DS becomes 25; 8 -> 25 stabilises; then revive DS 25: 8 -> 25 succeeds.
    with wounded_pair([5, 5, 9, 10, 1, 2, 2, 2, 1, 8, 8]) as b:
        b.submit(Attack("b-1", "a-2"))
        b.submit(EndTurn("b-1")) if b.session.active == "b-1" else None
        assert b.session.active == "a-1"
        first = of(b.submit(Revive("a-1", "a-2")), HealAttempted)[0]
        assert (first.stage, first.check.total, first.difficulty, first.success) == ("stabilize", 18, 20, False)
        second = of(b.submit(Revive("a-1", "a-2")), HealAttempted)[0]
        assert (second.difficulty, second.success) == (25, True)
        assert b.session.get("a-2", c.Health).stabilized
        third = b.submit(Revive("a-1", "a-2"))
        assert of(third, HealAttempted)[0].stage == "revive"
        health = b.session.get("a-2", c.Health)
        assert (health.state, health.hp) == ("ok", 1)
        assert "not down" in b.submit(Revive("a-1", "a-2")).reason


def test_killing_removes_the_body_from_the_map_and_moves_morale():
    with battle({"a": [(unit("killer", aim=20, weapons=("rifle",)), (0, 0))],
                 "b": [(unit("victim", hp=3, constitution=1, morale=10), (4, 0)),
                       (unit("friend", morale=10), (9, 5))]},
                [9, 1, 1, 10, 1, 8, 8, 8], ambush="a") as b:
        assert ("b-1", "dead") in [(h.unit, h.state) for h in of(b.submit(Attack("a-1", "b-1")), HealthChanged)]
        assert b.session.position("b-1") is None
        assert b.session.morale["b"].current == 10 and b.session.morale["a"].current == 8 + 5


# --- overwatch, sight and the end ------------------------------------------------------------

def test_overwatch_fires_once_when_an_enemy_steps_into_the_cone():
    watcher = unit("watcher", ap=14, weapons=("rifle",), abilities={"overwatch": 1})
    # The cone faces east from (0, 2): (5, 5) and (6, 5) are outside its 22.5 degrees, (7, 4)
    # is inside.
    with battle({"a": [(watcher, (0, 2))], "b": [(unit("mover", ap=20), (5, 5))]},
                [9, 1] + [1] * 30, ambush="a") as b:
        assert b.submit(SetOverwatch("a-1", (6, 2)))
        assert b.session.active == "b-1"
        events = b.submit(Move("b-1", ((6, 5), (7, 4), (8, 3))))
        triggered = of(events, OverwatchTriggered)
        assert len(triggered) == 1 and triggered[0].at == (7, 4)
        assert of(events, AttackResolved)[0].reaction
        assert not b.session.has("a-1", c.Overwatch)


def test_overwatch_needs_the_ability():
    with battle({"a": [(unit("plain"), (0, 0))], "b": [(unit("far"), (9, 5))]}, [9, 1], ambush="a") as b:
        assert "Overwatch ability" in b.submit(SetOverwatch("a-1", (5, 0))).reason


def test_events_out_of_a_sides_sight_are_not_seen_by_it():
    rows = ["......#......", "......#......", "......#......"]
    with battle({"a": [(unit("here"), (0, 1))], "b": [(unit("there"), (12, 1))]}, [9, 1],
                rows=rows, ambush="a") as b:
        b.submit(EndTurn("a-1"))
        moved = of(b.submit(Move("b-1", ((11, 1),))), Moved)[0]
        assert moved.seen_by == ("b",)


def test_a_hidden_units_own_news_stays_with_its_side():
    """Behind the wall, b's watcher sets overwatch, and its new turn ends the watch: the other
    side learns neither that it watched nor when its turn ended."""
    rows = ["......#......", "......#......", "......#......"]
    watcher = unit("watcher", weapons=("rifle",), abilities={"overwatch": 1})
    with battle({"a": [(unit("here"), (0, 1))], "b": [(watcher, (12, 1))]}, [9, 1],
                rows=rows, ambush="a") as b:
        b.submit(EndTurn("a-1"))
        watching = b.submit(SetOverwatch("b-1", (8, 1)))           # it ends the turn, too
        ended = of(watching, TurnEnded) + of(b.submit(EndTurn("a-1")), OverwatchEnded)
        assert len(ended) == 2 and all(event.seen_by == ("b",) for event in ended)


def test_a_hidden_units_turn_tells_the_other_side_only_that_it_acts():
    """Its own side (and whoever sees it) learns its AP; the side that cannot see it, only that
    it acts out of sight."""
    rows = ["......#......", "......#......", "......#......"]
    with battle({"a": [(unit("here"), (0, 1))], "b": [(unit("there"), (12, 1))]}, [9, 1],
                rows=rows, ambush="a") as b:
        events = b.submit(EndTurn("a-1"))
        started, unseen = of(events, TurnStarted), of(events, TurnUnseen)
        assert [(e.unit, e.seen_by) for e in started] == [("b-1", ("b",))]
        assert [(e.unit, e.seen_by) for e in unseen] == [("b-1", ("a",))]
        assert describe(unseen[0], b.names().get) == "There acts, out of sight."
    with battle({"a": [(unit("here"), (4, 1))], "b": [(unit("there"), (8, 1))]}, [9, 1],
                ambush="a") as b:          # in the open, each sees the other
        events = b.submit(EndTurn("a-1"))
        assert of(events, TurnStarted)[0].seen_by == ("a", "b") and not of(events, TurnUnseen)


def test_an_unseen_unit_in_the_way_stops_the_move():
    rows = [".....", "..#..", "....."]
    with battle({"a": [(unit("walker", ap=30, sight=1), (0, 0))],
                 "b": [(unit("lurker"), (2, 0))]}, [9, 1], rows=rows, ambush="a") as b:
        b.session.sight["a"].count[:] = 0          # make sure the lurker is unseen
        events = b.submit(Move("a-1", ((1, 0), (2, 0), (3, 0))))
        assert of(events, MoveStopped)[0].at == (1, 0)


def test_time_runs_out_into_a_draw():
    with battle({"a": [(unit("one"), (0, 0))], "b": [(unit("two"), (11, 5))]}, [9, 1],
                max_rounds=2) as b:
        for _ in range(4):
            if b.session.over:
                break
            b.submit(EndTurn(b.session.active))
        assert b.session.over and b.session.winner is None
        assert isinstance(b.submit(EndTurn("a-1")), Refused)


def test_a_grenade_out_of_range_or_sight_is_refused():
    with battle({"a": [(unit("thrower", grenades={"he_grenade": 1}), (0, 0))],
                 "b": [(unit("far"), (29, 1))]}, [9, 1], rows=["." * 30, "." * 30], ambush="a") as b:
        assert "15 at most" in b.submit(Throw("a-1", (17, 0), "he_grenade")).reason
        assert "cannot see" in b.submit(Throw("a-1", (25, 0), "he_grenade")).reason
        assert "no rock" in b.submit(Throw("a-1", (3, 0), "rock")).reason


def test_it_is_not_your_turn():
    with battle({"a": [(unit("one"), (0, 0))], "b": [(unit("two"), (11, 5))]}, [9, 1], ambush="a") as b:
        assert "turn" in b.submit(EndTurn("b-1")).reason


def test_an_ambushing_side_acts_first_whatever_it_rolls():
    # the ambushers roll 1s, the ambushed 10s: the ambushers still lead the order
    with battle({"hunters": [(unit("h1"), (0, 0)), (unit("h2"), (1, 0))],
                 "prey": [(unit("p1"), (11, 5)), (unit("p2"), (10, 5))]},
                [1, 2, 10, 10], ambush="hunters") as b:
        assert b.session.order[:2] == ["hunters-2", "hunters-1"]
        assert set(b.session.order[2:]) == {"prey-1", "prey-2"}


def test_reaching_the_objective_wins():
    from game.content.schema import VictorySpec
    s = setup(["AAAA....EE", "AAAA....EE"], {"a": [(unit("runner", ap=40), (5, 0))],
                                              "b": [(unit("guard"), (0, 1))]}, ambush="a")
    legend = {**s.map.legend, "E": {"terrain": "open", "zone": "exit"}, "A": {"terrain": "open", "zone": "field"}}
    s = s.model_copy(update={
        "map": s.map.model_copy(update={"legend": {k: type(s.map.legend["."])(**v) if isinstance(v, dict) else v
                                                   for k, v in legend.items()}}),
        "scenario": s.scenario.model_copy(update={"victory": VictorySpec(type="reach", side="a", zone="exit")})})
    dice = Dice(0)
    dice.force(5, 5)
    with new_battle(s, 0, dice=dice) as b:
        b.submit(Move("a-1", ((6, 0), (7, 0), (8, 0))))
        assert b.session.over and b.session.winner == "a"
        assert "objective" in b.session.end_reason


def test_a_pinned_or_prone_unit_has_nowhere_to_go():
    from game.core.queries import can_move, reach
    with battle({"a": [(unit("lying", ap=20), (0, 0))], "b": [(unit("far"), (11, 5))]},
                [9, 1], ambush="a") as b:
        assert can_move(b, "a-1") and reach(b, "a-1").squares()
        b.submit(ChangeStance("a-1", "prone"))
        assert not can_move(b, "a-1") and reach(b, "a-1").squares() == {}


def test_a_square_out_of_reach_is_explained_from_what_the_side_knows():
    from game.core.queries import out_of_reach
    rows = ["..#.........", "............", "......===...", "......=.=...", "......===...",
            "..........#."]
    with battle({"a": [(unit("walker", ap=6), (0, 0)), (unit("friend"), (1, 1))],
                 "b": [(unit("far"), (11, 4))]}, [9, 5, 1], rows=rows, ambush="a") as b:
        assert out_of_reach(b, "a-1", (2, 0)) == "(2, 0) is wall: it cannot be walked on."
        assert out_of_reach(b, "a-1", (1, 1)) == "(1, 1) is occupied by Friend."
        assert out_of_reach(b, "a-1", (9, 0)) == ("(9, 0) is too far this turn. That path costs "
                                                  "33 AP; Walker has 6.")  # round Friend
        assert out_of_reach(b, "a-1", (7, 3)) == ("No way to (7, 3) is known: walls, water or "
                                                  "units close every way there.")   # crates round it
        assert out_of_reach(b, "a-1", (11, 5)) == ("(11, 5) is unexplored: walk toward it to see "
                                                   "what is there.")          # behind the wall
        assert out_of_reach(b, "a-1", (12, 0)) == "(12, 0) is off the map."
        b.submit(ChangeStance("a-1", "prone"))
        assert out_of_reach(b, "a-1", (0, 1)) == "Walker is prone: crouch or stand up before moving."


def test_action_costs_are_what_the_engine_charges():
    from game.core.queries import action_costs
    shooter = unit("shooter", ap=16, weapons=("pistol", "knife"),
                   abilities={"overwatch": 1, "suppressive_fire": 1}, grenades={"he_grenade": 1})
    with battle({"a": [(shooter, (0, 0))], "b": [(unit("target", hp=300), (6, 0))]},
                [9, 1] + [1] * 20, ambush="a") as b:
        costs = action_costs(b, "a-1")
        assert costs.stance[("crouch", False)] == 2 and costs.stance[("prone", True)] == 1
        assert costs.modes == {"single": 2} and costs.aim == (0, 2, 3, 5, 6)
        assert (costs.overwatch, costs.suppress, costs.reload, costs.throw) == (8, 16, 4, 4)
        assert costs.draw == {0: 3, 1: 1} and costs.revive == 6
        plain = action_costs(b, "b-1")                 # without the abilities: not priced
        assert (plain.overwatch, plain.suppress) == (None, None)
        shot = of(b.submit(Attack("a-1", "b-1", aim=2)), AttackResolved)[0]
        assert shot.ap_cost == costs.modes["single"] + costs.aim[2]
        assert action_costs(b, "a-1").aim == (0, 0, 0, 2, 3)       # +2 is already bought
        crouch = b.submit(ChangeStance("a-1", "crouch"))[0]
        assert crouch.ap_cost == costs.stance[("crouch", False)]
