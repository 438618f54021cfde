"""Simultaneous orders (the skirmish text's "Taking turns"): planned at once, carried out in
initiative order, with fallbacks, chosen overwatch reactions, long actions and ambushers."""

from __future__ import annotations

from game.core import components as c
from game.core.commands import (Attack, ChangeStance, EndTurn, GiveOrders, Move, Order, Proceed,
                                Reload, SetOverwatch)
from game.core.dice import Dice
from game.core.events import (AttackResolved, InitiativeOrder, MoveStopped, Moved, OrderLost,
                              OrderUntriggered, OverwatchTriggered, PlanningStarted, Refused, TurnSkipped,
                              TurnStarted)
from game.core.narrate import describe
from game.core.orders import rehearse
from game.rulesets import load_battle, new_battle
from tests.core.builders import setup, unit

OPEN = ["." * 14 for _ in range(7)]


def battle(placements, faces=(), rows=OPEN, seed=0, **kw):
    made = setup(rows, placements, turns="simultaneous", **kw)
    dice = Dice(seed)
    dice.force(*faces)
    return new_battle(made, seed, dice=dice)


def of(events, kind):
    return [e for e in events if isinstance(e, kind)]


def give(b, side, **queues):
    """A side's orders: unit id (with "_" for "-") -> list of orders or commands."""
    orders = tuple((uid.replace("_", "-"), tuple(o if isinstance(o, Order) else Order(o) for o in queue))
                   for uid, queue in queues.items())
    return b.submit(GiveOrders(side=side, orders=orders))


def run_round(b):
    """Proceed until the next planning (or the end); every event on the way."""
    events = []
    while not b.session.planning and not b.session.over:
        result = b.submit(Proceed(b.session.active))
        assert not isinstance(result, Refused), result
        events.extend(result)
    return events


def sure_shot(name, **kw):
    return unit(name, weapons=("rifle",), aim=30, **kw)


# --- planning --------------------------------------------------------------------------------

def test_a_round_opens_with_planning_and_only_orders_are_taken():
    with battle({"a": [(unit("one"), (1, 1))], "b": [(unit("two"), (12, 5))]}, [9, 1]) as b:
        assert b.session.planning == ["a", "b"] and b.session.active is None
        assert of(b.opening, PlanningStarted)[0].sides == ("a", "b")
        refused = b.submit(Move("a-1", ((2, 1),)))
        assert isinstance(refused, Refused) and "orders are being chosen" in refused.reason
        assert not isinstance(give(b, "a", a_1=[Move("a-1", ((2, 1),))]), Refused)
        again = give(b, "a", a_1=[])
        assert isinstance(again, Refused) and "already given its orders" in again.reason
        give(b, "b", b_1=[])
        assert b.session.active == "a-1"
        refused = b.submit(Move("a-1", ((3, 1),)))
        assert isinstance(refused, Refused) and "carries out the orders" in refused.reason


def test_orders_beyond_the_unit_ap_are_refused_whole_and_nothing_changes():
    with battle({"a": [(unit("walker", ap=10), (1, 1))], "b": [(unit("two"), (12, 5))]}, [9, 1]) as b:
        before = b.digest()
        path = ((2, 1), (3, 1), (4, 1), (5, 1))               # 4 steps of 3 AP: 12 > 10
        refused = give(b, "a", a_1=[Move("a-1", path)])
        assert isinstance(refused, Refused)
        assert "Walker's order 1" in refused.reason and "costs 12 AP" in refused.reason
        refused = give(b, "a", a_1=[Move("a-1", path[:2]), ChangeStance("a-1", "prone"),
                                    ChangeStance("a-1", "crouch")])
        assert isinstance(refused, Refused) and "order 3" in refused.reason   # 6 + 4 + 2 > 10
        assert b.digest() == before and b.session.planning == ["a", "b"]


def test_rehearsal_prices_each_order_from_the_round_start_and_changes_nothing():
    with battle({"a": [(unit("walker", ap=20, weapons=("rifle",)), (1, 1))],
                 "b": [(unit("two"), (12, 5))]}, [9, 1]) as b:
        before = b.digest()
        steps = rehearse(b.session, "a-1", [Order(Move("a-1", ((2, 1), (3, 2)))),
                                           Order(Attack("a-1", "b-1", "single", aim=2))])
        assert [(s.ap_cost, s.ap_left, s.square) for s in steps] == [(7, 13, (3, 2)), (5, 8, (3, 2))]
        assert b.digest() == before


def test_a_path_through_an_unseen_enemy_is_not_refused_while_planning():
    rows = ["......#.......", ".............."]
    # b-1 hides behind the wall's end; a-1 cannot see it until it walks round.
    with battle({"a": [(unit("walker", ap=30, sight=20), (0, 0))],
                 "b": [(unit("hidden"), (8, 0))]}, [9, 1], rows=rows) as b:
        assert not b.session.sees("a", (8, 0))
        path = ((1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (7, 1), (8, 0))
        assert not isinstance(give(b, "a", a_1=[Move("a-1", path)]), Refused)   # says nothing
        give(b, "b", b_1=[])
        events = run_round(b)
        assert of(events, MoveStopped) and b.session.position("a-1") != (8, 0)


# --- carrying out ----------------------------------------------------------------------------

def four(faces=(9, 8, 2, 1), hp_frail=1, **kw):
    """a-1 and a-2 (sure shots) act first; b-1 falls to one hit, b-2 stands further away."""
    return battle({"a": [(sure_shot("first"), (1, 1)), (sure_shot("second"), (1, 3))],
                   "b": [(unit("frail", hp=hp_frail, dodge=0), (6, 2)), (unit("other", hp=60), (10, 5))]},
                  faces, **kw)


def test_an_order_at_a_target_already_down_fires_at_the_nearest_as_planned():
    with four() as b:
        give(b, "a", a_1=[Attack("a-1", "b-1", "single")],
             a_2=[Order(Attack("a-2", "b-1", "single"), "nearest")])
        give(b, "b", b_1=[], b_2=[])
        events = run_round(b)
        shots = of(events, AttackResolved)
        assert [(s.attacker, s.target) for s in shots][:2] == [("a-1", "b-1"), ("a-2", "b-2")]
        lost = of(events, OrderLost)[0]
        assert (lost.unit, lost.target, lost.then, lost.instead) == ("a-2", "b-1", "nearest", "b-2")
        assert lost.seen_by == ("a",)                     # the other side never reads it
        assert "already" in lost.reason


def test_an_order_at_a_target_already_down_is_lost_or_holds_as_planned():
    with four() as b:
        give(b, "a", a_1=[Attack("a-1", "b-1", "single")],
             a_2=[Attack("a-2", "b-1", "single"), Move("a-2", ((2, 3),))])
        give(b, "b", b_1=[], b_2=[])
        events = run_round(b)
        assert [s.attacker for s in of(events, AttackResolved)] == ["a-1"]
        assert of(events, OrderLost)[0].then == "skip"
        assert [m.unit for m in of(events, Moved)] == ["a-2"]      # skipped: the next order goes on
    with four() as b:
        give(b, "a", a_1=[Attack("a-1", "b-1", "single")],
             a_2=[Order(Attack("a-2", "b-1", "single"), "hold"), Move("a-2", ((2, 3),))])
        give(b, "b", b_1=[], b_2=[])
        events = run_round(b)
        assert of(events, OrderLost)[0].then == "hold" and not of(events, Moved)
        assert b.session.position("a-2") == (1, 3)


def test_shots_at_an_enemy_out_of_sight_are_lost_in_one_line_and_the_move_after_goes_on():
    """Two shots at b-1, who stands behind the wall: both are lost, told once, and the step
    ordered after them is taken."""
    with battle({"a": [(unit("one"), (1, 1))], "b": [(unit("two"), (1, 4))]}, [9, 1],
                rows=WALLED) as b:
        give(b, "a", a_1=[Attack("a-1", "b-1", "single"), Attack("a-1", "b-1", "single"),
                          Move("a-1", ((2, 1),))])
        give(b, "b", b_1=[])
        events = run_round(b)
        lost = of(events, OrderLost)
        assert [(e.unit, e.target, e.orders) for e in lost] == [("a-1", "b-1", 2)]
        assert "(and the next) cannot be carried out" in describe(lost[0], b.names().get)
        assert b.session.position("a-1") == (2, 1)


def test_fire_until_down_at_an_enemy_already_down_with_none_else_in_sight_is_untriggered():
    """a-1 puts the only enemy down first; a-2's two shots at it, falling back on the nearest,
    have no one to fire at: their aim is met, nothing is spent and the reload after them is
    not needed either (its magazine is full)."""
    rows = ["." * 14] * 4 + ["#" * 14] + ["." * 14] * 2        # b-2 behind the wall
    with battle({"a": [(sure_shot("first"), (1, 1)), (sure_shot("second"), (1, 3))],
                 "b": [(unit("frail", hp=1, dodge=0), (6, 2)), (unit("hidden"), (10, 6))]},
                (9, 8, 2, 1), rows=rows) as b:
        give(b, "a", a_1=[Attack("a-1", "b-1", "single")],
             a_2=[Order(Attack("a-2", "b-1", "single"), "nearest"),
                  Order(Attack("a-2", "b-1", "single"), "nearest"), Reload("a-2")])
        give(b, "b", b_1=[], b_2=[])
        events = run_round(b)
        assert [s.attacker for s in of(events, AttackResolved)] == ["a-1"]
        assert not of(events, OrderLost)
        held = [(e.unit, e.order, e.orders) for e in of(events, OrderUntriggered)]
        assert held == [("a-2", "attack", 2), ("a-2", "reload", 1)]
        assert "Frail is already" in of(events, OrderUntriggered)[0].reason


def test_a_target_put_down_but_alive_earlier_in_the_round_is_left_for_the_fallback():
    """Down is eliminated for the round's orders: the later attack fires at the nearest
    instead of finishing off a dying enemy."""
    with four(hp_frail=10) as b:
        give(b, "a", a_1=[Attack("a-1", "b-1", "single")],
             a_2=[Order(Attack("a-2", "b-1", "single"), "nearest")])
        give(b, "b", b_1=[], b_2=[])
        events = run_round(b)
        assert [(s.attacker, s.target) for s in of(events, AttackResolved)] == [("a-1", "b-1"), ("a-2", "b-2")]
        lost = of(events, OrderLost)[0]
        assert (lost.target, lost.instead, lost.reason) == ("b-1", "b-2", "Frail is already dying.")


def test_an_enemy_already_down_when_the_orders_are_given_can_be_finished_off():
    with four(faces=(9, 8, 2, 1) * 2, hp_frail=10) as b:
        give(b, "a", a_1=[Attack("a-1", "b-1", "single")], a_2=[])
        give(b, "b", b_1=[], b_2=[])
        run_round(b)
        assert not b.session.is_up("b-1")
        give(b, "a", a_1=[], a_2=[Order(Attack("a-2", "b-1", "single"), "nearest")])
        give(b, "b", b_2=[])
        events = run_round(b)
        assert [(s.attacker, s.target) for s in of(events, AttackResolved)] == [("a-2", "b-1")]
        assert not of(events, OrderLost)


def test_an_attack_at_nobody_in_particular_takes_the_nearest_enemy_in_sight():
    with four() as b:
        give(b, "a", a_1=[Attack("a-1", "", "single")], a_2=[])
        give(b, "b", b_1=[], b_2=[])
        events = run_round(b)
        assert [(s.attacker, s.target) for s in of(events, AttackResolved)] == [("a-1", "b-1")]
        assert not of(events, OrderLost)


WALLED = ["." * 14, "." * 14, "#" * 14, "." * 14, "." * 14]


def test_fire_on_sight_with_no_enemy_in_sight_does_not_trigger_and_is_not_lost():
    """Two shots at nobody in particular, then a step: with the enemy behind the wall the shots
    wait on a condition that has not come (one event for both, nothing spent) and the step is
    still taken."""
    with battle({"a": [(unit("one"), (1, 1))], "b": [(unit("two"), (1, 4))]}, [9, 1],
                rows=WALLED) as b:
        give(b, "a", a_1=[Attack("a-1", "", "single"), Attack("a-1", "", "single"),
                          Move("a-1", ((2, 1),))])
        give(b, "b", b_1=[])
        events = run_round(b)
        held = of(events, OrderUntriggered)
        assert [(e.unit, e.order, e.orders) for e in held] == [("a-1", "attack", 2)]
        assert not of(events, OrderLost) and not of(events, AttackResolved)
        assert b.session.position("a-1") == (2, 1)
        assert describe(held[0], b.names().get) == ("One holds fire: no enemy in sight when its "
                                                    "turn came (none of its 2 orders to fire went off).")


def test_units_act_in_initiative_order_each_its_whole_queue():
    with four(faces=(1, 9, 8, 2), ambush="a") as b:    # second (9) before first (1); b after
        assert b.session.order[:2] == ["a-2", "a-1"]
        give(b, "a", a_1=[Move("a-1", ((2, 1),)), Move("a-1", ((3, 1),))],
             a_2=[Move("a-2", ((2, 3),)), Move("a-2", ((3, 3),))])
        give(b, "b", b_1=[], b_2=[])
        events = run_round(b)
        assert [m.unit for m in of(events, Moved)] == ["a-2", "a-2", "a-1", "a-1"]
        assert of(events, PlanningStarted)[0].round == 2


def test_same_seed_and_orders_give_the_same_events():
    def play():
        with four(faces=(), seed=5) as b:
            give(b, "a", a_1=[Attack("a-1", "b-2", "burst")], a_2=[Order(Attack("a-2", "b-1", "single"))])
            give(b, "b", b_1=[Move("b-1", ((6, 3),))], b_2=[Attack("b-2", "a-1", "single", aim=2)])
            return [e.to_dict() for e in run_round(b)]
    assert play() == play()


def test_a_battle_saved_mid_round_goes_on_exactly_as_it_would_have():
    with four(faces=(), seed=3) as b:
        give(b, "a", a_1=[Attack("a-1", "b-2", "burst"), Move("a-1", ((2, 1),))],
             a_2=[Order(Attack("a-2", "b-1", "single"), "nearest")])
        give(b, "b", b_1=[Move("b-1", ((6, 3),))], b_2=[Attack("b-2", "a-1", "single")])
        b.submit(Proceed(b.session.active))
        state = b.state()
        rest = [e.to_dict() for e in run_round(b)]
        with load_battle(state) as again:
            assert again.session.orders == {uid: q for uid, q in again.session.orders.items()}
            assert [e.to_dict() for e in run_round(again)] == rest
            assert again.digest() == b.digest()


def test_end_turn_gives_up_the_rest_of_the_orders():
    with four() as b:
        give(b, "a", a_1=[Move("a-1", ((2, 1),)), Move("a-1", ((3, 1),))], a_2=[])
        give(b, "b", b_1=[], b_2=[])
        b.submit(Proceed("a-1"))
        b.submit(EndTurn("a-1"))
        assert b.session.position("a-1") == (2, 1) and "a-1" not in b.session.orders


# --- overwatch, long actions, ambush ---------------------------------------------------------

def test_overwatch_fires_the_chosen_mode_and_aim_at_the_chosen_enemy():
    rows = ["." * 14 for _ in range(5)]
    with battle({"w": [(sure_shot("watcher", ap=20, abilities={"overwatch": 1}), (12, 2))],
                 "m": [(unit("scout", hp=60), (1, 1)), (unit("gunner", hp=60), (1, 3))]},
                [9, 2, 1], rows=rows, ambush="w") as b:
        watch = SetOverwatch("w-1", (1, 2), mode="single", aim=2, targets=("m-2",))
        give(b, "w", w_1=[watch])
        give(b, "m", m_1=[Move("m-1", ((2, 1), (3, 1)))], m_2=[Move("m-2", ((2, 3), (3, 3)))])
        events = run_round(b)
        fired = of(events, OverwatchTriggered)
        assert [(t.unit, t.mover) for t in fired] == [("w-1", "m-2")]   # the scout walks by
        shot = of(events, AttackResolved)[0]
        assert (shot.mode, shot.reaction) == ("single", True)
        assert ("aim bonus", 2) in shot.attack.modifiers and shot.ap_cost == 3 + 2


def test_overwatch_within_a_distance_waits_for_the_mover_to_come_close():
    rows = ["." * 14 for _ in range(3)]
    with battle({"w": [(sure_shot("watcher", ap=20, abilities={"overwatch": 1}), (12, 1))], "m": [(unit("scout", hp=60, ap=40), (1, 1))]},
                [9, 1], rows=rows, ambush="w") as b:
        give(b, "w", w_1=[SetOverwatch("w-1", (1, 1), within=5)])
        give(b, "m", m_1=[Move("m-1", tuple((x, 1) for x in range(2, 9)))])
        events = run_round(b)
        trigger = of(events, OverwatchTriggered)[0]
        assert trigger.at == (7, 1)          # 5 squares from the watcher, not before


def test_an_overwatch_reaction_the_held_ap_cannot_pay_is_refused():
    with battle({"w": [(sure_shot("watcher", ap=12, abilities={"overwatch": 1}), (12, 2))], "m": [(unit("scout"), (1, 1))]},
                [9, 1], ambush="w") as b:
        refused = give(b, "w", w_1=[SetOverwatch("w-1", (1, 2), mode="burst", aim=6)])
        assert isinstance(refused, Refused)                 # 6 to watch, 5 + 6 for the shot: 17
        assert "must hold 11 more for the burst shot aimed +6; Watcher has 12" in refused.reason


def test_an_action_longer_than_a_turn_is_started_now_and_its_ap_pass_in_later_rounds():
    heavy = unit("gunner", ap=4, weapons=("lmg",), aim=30)
    with battle({"a": [(heavy, (1, 1))], "b": [(unit("target", hp=200), (8, 1))]}, [9, 1]) as b:
        give(b, "a", a_1=[Attack("a-1", "b-1", "burst", aim=4)])      # 6 + 8 AP: 14 of 4
        give(b, "b", b_1=[])
        events = run_round(b)
        assert of(events, AttackResolved) and b.session.get("a-1", c.ActionPoints).debt == 10
        busy = give(b, "a", a_1=[ChangeStance("a-1", "crouch")])
        assert isinstance(busy, Refused) and "still busy with a long action" in busy.reason
        give(b, "a", a_1=[])
        assert of(give(b, "b", b_1=[]), TurnSkipped)         # round 2: 6 owed after it
        run_round(b)
        give(b, "a", a_1=[])
        assert of(give(b, "b", b_1=[]), TurnSkipped)         # round 3: 2 owed after it
        run_round(b)
        steps = rehearse(b.session, "a-1", [Order(ChangeStance("a-1", "crouch"))])
        assert steps[0].ap_left == 0 and not steps[0].problem    # round 4: 4 - 2 owed = 2 AP
        give(b, "a", a_1=[ChangeStance("a-1", "crouch")])
        opened = give(b, "b", b_1=[]) + run_round(b)
        started = [e for e in opened if isinstance(e, TurnStarted) and e.unit == "a-1"]
        assert started[0].ap == 2


def test_an_ambushing_side_sets_its_own_order():
    with battle({"a": [(unit("one"), (1, 1)), (unit("two"), (1, 3))], "b": [(unit("far"), (12, 5))]},
                [9, 1, 5], ambush="a") as b:
        assert b.session.order[:2] == ["a-1", "a-2"]
        refused = b.submit(GiveOrders(side="b", orders=(("b-1", ()),), sequence=("b-1",)))
        assert isinstance(refused, Refused) and "Only an ambushing side" in refused.reason
        result = b.submit(GiveOrders(side="a", orders=(("a-1", ()), ("a-2", ())), sequence=("a-2", "a-1")))
        # kept from the side still planning: it could read the order in the initiative order
        assert not of(result, InitiativeOrder) and b.session.order[:2] == ["a-1", "a-2"]
        result = give(b, "b", b_1=[])
        told = of(result, InitiativeOrder)[0]
        assert told.order[:2] == ("a-2", "a-1") and set(told.seen_by) == {"a", "b"}
        assert b.session.active == "a-2"


def test_any_action_longer_than_a_turn_is_taken_with_a_full_pool_not_only_attacks():
    from game.core.commands import Reload
    from game.core.events import Reloaded
    slow = unit("loader", ap=3, weapons=("lmg",))
    with battle({"a": [(slow, (1, 1))], "b": [(unit("far"), (12, 5))]}, [9, 1]) as b:
        b.session.get("a-1", c.Loadout).current.ammo = 0
        events = give(b, "a", a_1=[Reload("a-1")]) + give(b, "b", b_1=[]) + run_round(b)
        assert of(events, Reloaded) and b.session.get("a-1", c.ActionPoints).debt == 8 - 3
        refused = give(b, "a", a_1=[Move("a-1", ((2, 1),))])
        assert isinstance(refused, Refused) and "still busy" in refused.reason


def test_units_joining_mid_round_join_at_its_end_and_are_given_orders_from_the_next():
    from game.content.schema import LegendEntry, ScenarioSpec
    from game.core.events import Reinforced
    rows = ["......XX", "........", "YY......", "YY......"]
    legend = {".": LegendEntry(terrain="open", zone="field"), "X": LegendEntry(terrain="open", zone="exit"),
              "Y": LegendEntry(terrain="open", zone="yard")}
    base = setup(rows, {"a": [(unit("sneak", sight=3), (7, 0))], "b": [(unit("far", sight=4), (0, 0))]},
                 ambush="a", turns="simultaneous")
    data = base.scenario.model_dump()
    data.update(reinforcements=[{"side": "b", "zone": "yard", "when": {"seen": "a"},
                                 "members": [{"unit": "far"}]}])
    made = base.model_copy(update={"scenario": ScenarioSpec.model_validate(data),
                                   "map": base.map.model_copy(update={"legend": legend})})
    dice = Dice(0)
    dice.force(9, 1)
    with new_battle(made, 0, dice=dice) as b:
        give(b, "a", a_1=[])
        give(b, "b", b_1=[Move("b-1", ((1, 0), (2, 0), (3, 0), (4, 0)))])
        b.submit(Proceed(b.session.active))                  # a-1 holds
        events = b.submit(Proceed(b.session.active))         # b-1 walks into sight; round ends
        kinds = [e.kind for e in events]
        assert kinds.index("reinforced") > kinds.index("round_started") > kinds.index("moved")
        assert of(events, Reinforced)[0].units == ("b-2",) and b.session.planning == ["a", "b"]
        here = b.session.position("b-2")
        step = (here[0] + 1, here[1])
        assert not isinstance(give(b, "b", b_1=[], b_2=[Move("b-2", (step,))]), Refused)


def test_a_rehearsal_never_switches_the_esper_world():
    """A computer player plans in a worker thread while the app reads the battle: rehearsals
    are detached copies that leave the process's esper world alone."""
    import esper
    with four() as b:
        esper.switch_world("default")
        steps = rehearse(b.session, "a-1", [Order(Move("a-1", ((2, 1),))),
                                           Order(SetOverwatch("a-1", (9, 1)))])
        assert steps and esper.current_world == "default"
        b.session.use()
        assert b.session.world == esper.current_world


def test_a_walk_back_to_where_a_lost_move_left_the_unit_is_already_done():
    """The enemy, acting first, steps onto the square a-1 was to walk to and back from."""
    with battle({"a": [(unit("one"), (1, 1)), (unit("two"), (3, 1))], "b": [(unit("near"), (2, 3))]},
                [1, 9, 5]) as b:
        assert b.session.order == ["a-2", "b-1", "a-1"]
        give(b, "a", a_1=[Move("a-1", ((2, 1),)), Move("a-1", ((1, 1),))], a_2=[])
        events = give(b, "b", b_1=[Move("b-1", ((2, 2), (2, 1)))]) + run_round(b)
        lost = of(events, OrderLost)
        assert [(e.unit, e.order) for e in lost] == [("a-1", "move")]     # the first, not the walk back
        assert b.session.position("a-1") == (1, 1) and b.session.position("b-1") == (2, 1)


def test_a_unit_plans_through_the_square_a_friend_leaves_before_it():
    """a-2 acts first and leaves the doorway (2, 1); a-1, after it, is ordered through it. The
    other way round, a-1 would act first and find its friend in the way: refused with why."""
    with battle({"a": [(unit("one"), (1, 1)), (unit("two"), (2, 1))], "b": [(unit("far"), (12, 5))]},
                [1, 9, 5]) as b:
        assert b.session.order == ["a-2", "b-1", "a-1"]
        events = give(b, "a", a_2=[Move("a-2", ((3, 1),))], a_1=[Move("a-1", ((2, 1),))])
        events += give(b, "b", b_1=[]) + run_round(b)
        assert of(events, OrderLost) == []
        assert b.session.position("a-1") == (2, 1) and b.session.position("a-2") == (3, 1)
    with battle({"a": [(unit("one"), (1, 1)), (unit("two"), (2, 1))], "b": [(unit("far"), (12, 5))]},
                [9, 1, 5]) as b:
        assert b.session.order == ["a-1", "b-1", "a-2"]
        refused = give(b, "a", a_2=[Move("a-2", ((3, 1),))], a_1=[Move("a-1", ((2, 1),))])
        assert isinstance(refused, Refused) and refused.reason.startswith("One's order 1:"), refused
