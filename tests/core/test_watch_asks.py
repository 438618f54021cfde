"""Overwatch that asks (one unit at a time): the skirmish text's watcher makes "an action of
their choice" with the other half of the AP, "at a point of his choosing". The move halts at
each step into the cone until the watcher's player answers with a Respond."""

from __future__ import annotations

from game.core import components as c
from game.core.commands import EndTurn, GiveOrders, Move, Order, Respond, SetOverwatch
from game.core.dice import Dice
from game.core.events import (Aimed, AttackResolved, Moved, MoveStopped, OverwatchAsked, OverwatchHeld,
                              OverwatchTriggered, Refused)
from game.core.narrate import describe, watch_choice
from game.rulesets import new_battle
from tests.core.builders import setup, unit

OPEN = ["." * 12 for _ in range(6)]
# The cone faces east from (0, 2): (5, 5) and (6, 5) lie outside its 22.5 degrees, (7, 4),
# (8, 3) and (9, 3) inside.
PATH = ((6, 5), (7, 4), (8, 3), (9, 3))


def watching(faces=(), ap=14, **watch):
    watcher = unit("watcher", ap=ap, weapons=("rifle",), abilities={"overwatch": 1})
    dice = Dice(0)
    dice.force(9, 1, *faces)
    battle = new_battle(setup(OPEN, {"a": [(watcher, (0, 2))], "b": [(unit("mover", ap=20), (5, 5))]},
                              ambush="a"), 0, dice=dice)
    assert not isinstance(battle.submit(SetOverwatch("a-1", (6, 2), ask=True, **watch)), Refused)
    assert battle.session.active == "b-1"
    return battle


def of(events, kind):
    assert not isinstance(events, Refused), events
    return [e for e in events if isinstance(e, kind)]


def test_the_move_halts_at_the_first_step_into_the_cone_until_the_watcher_answers():
    with watching() as b:
        events = b.submit(Move("b-1", PATH))
        asked = of(events, OverwatchAsked)
        assert [m.end for m in of(events, Moved)] == [(6, 5), (7, 4)]
        assert len(asked) == 1 and (asked[0].unit, asked[0].mover, asked[0].at) == ("a-1", "b-1", (7, 4))
        assert asked[0].choices[-2:] == ("wait", "pass") and "single" in asked[0].choices
        assert b.watch_question == ("a-1", "b-1", (7, 4), asked[0].choices)
        assert b.session.position("b-1") == (7, 4)
        # nothing else is taken meanwhile, and the refusal says what the battle waits for
        refused = b.submit(EndTurn("b-1"))
        assert isinstance(refused, Refused) and "Watcher's player to choose the overwatch" in refused.reason
        assert isinstance(b.submit(Respond("b-1", "single")), Refused)
        assert "not one of the choices" in b.submit(Respond("a-1", "rocket")).reason


def test_wait_asks_again_at_the_next_step_and_the_shot_comes_where_the_player_chose():
    with watching([1] * 30, ap=24) as b:                # 12 AP held: an aimed single shot
        walked = of(b.submit(Move("b-1", PATH)), Moved)
        events = b.submit(Respond("a-1", "wait"))
        walked += of(events, Moved)
        assert of(events, OverwatchHeld)[0].until == "next step"
        assert [m.end for m in of(events, Moved)] == [(8, 3)]
        assert of(events, OverwatchAsked)[0].at == (8, 3)
        assert "single+6" in of(events, OverwatchAsked)[0].choices
        events = b.submit(Respond("a-1", "single+6"))
        shot = of(events, AttackResolved)[0]
        assert shot.reaction and shot.mode == "single" and of(events, Aimed)[0].level == 6
        assert of(events, OverwatchTriggered)[0].at == (8, 3)
        assert not b.session.has("a-1", c.Overwatch)
        assert [m.end for m in of(events, Moved)] == [(9, 3)]     # then the rest of the move
        walked += of(events, Moved)
        assert b.watch_question is None and b.session.active == "b-1"
        assert [m.end for m in walked] == list(PATH)
        assert b.session.get("b-1", c.ActionPoints).current == 20 - sum(m.ap_cost for m in walked)


def test_pass_lets_this_move_go_by_and_the_next_move_is_watched_again():
    with watching([1] * 30) as b:
        b.submit(Move("b-1", PATH[:3]))
        events = b.submit(Respond("a-1", "pass"))
        assert of(events, OverwatchHeld)[0].until == "move over"
        assert [m.end for m in of(events, Moved)] == [(8, 3)]      # no question at (8, 3)
        assert b.watch_question is None and b.session.has("a-1", c.Overwatch)
        events = b.submit(Move("b-1", ((9, 3),)))
        assert of(events, OverwatchAsked)[0].at == (9, 3)


def test_the_choices_are_each_mode_unaimed_and_aimed_as_far_as_the_held_ap_pay():
    from game.core.systems.attack import price
    for ap in (14, 20, 24):
        with watching(ap=ap) as b:
            asked = of(b.submit(Move("b-1", PATH)), OverwatchAsked)[0]
            s = b.session
            held = s.get("a-1", c.Overwatch).held_ap

            def cost(mode: str, aim: int, s=s) -> int:
                _, fire, _, aim_ap = price(s, "a-1", mode, aim)
                return fire.ap + aim_ap

            expected = []
            for mode in ("burst", "single"):               # the widest first
                if cost(mode, 0) <= held:
                    expected.append(mode)
                    best = max((a for a in range(1, 7) if cost(mode, a) <= held), default=0)
                    expected += [f"{mode}+{best}"] if best else []
            assert asked.choices == (*expected, "wait", "pass"), ap
    text = describe(asked, lambda uid: {"a-1": "Watcher", "b-1": "Mover"}.get(uid, uid))
    assert text == "Mover steps into Watcher's overwatch at (7, 4): fire, or hold?"
    assert watch_choice("single+6") == "fire single aimed +6"
    assert watch_choice("pass") == "let this move pass"


def test_a_watch_that_asks_only_under_one_unit_at_a_time_and_without_a_shot_chosen():
    watcher = unit("watcher", ap=14, weapons=("rifle",), abilities={"overwatch": 1})
    placements = {"a": [(watcher, (0, 2))], "b": [(unit("mover"), (5, 5))]}
    with new_battle(setup(OPEN, placements, ambush="a"), 0) as b:
        refused = b.submit(SetOverwatch("a-1", (6, 2), mode="single", ask=True))
        assert "chooses its shot when an enemy comes" in refused.reason
    with new_battle(setup(OPEN, placements, ambush="a", turns="simultaneous"), 0) as b:
        order = Order(SetOverwatch("a-1", (6, 2), ask=True))
        refused = b.submit(GiveOrders(side="a", orders=(("a-1", (order,)),)))
        assert isinstance(refused, Refused) and "chosen with the order" in refused.reason


def test_a_shot_that_downs_the_mover_ends_its_move_there():
    with watching([10, 1] + [8] * 10) as b:
        b.submit(Move("b-1", PATH))
        b.session.get("b-1", c.Health).hp = 1
        events = b.submit(Respond("a-1", "single"))
        assert of(events, AttackResolved)[0].hits == 1 and not b.session.is_up("b-1")
        assert of(events, MoveStopped)[0].reason == "went down" and not of(events, Moved)
        assert b.watch_question is None


def test_the_texts_soldier_fires_at_the_point_of_his_choosing():
    """Seed 004: "he gets to use the other half of his turn at a point of his choosing" -
    Maire sprints for the crate; the Soldier lets her first step go and fires at the second,
    with the text's numbers (16 to hit, 28 damage, 13 through her light armor)."""
    from game.core.commands import Throw
    from tests.rules.test_skirmish_bundled import battle as bundled_battle
    from tests.rules.test_skirmish_bundled import bundled, library

    setup = bundled({"scout": [("maire", (0, 5))],
                     "olea": [("support", (9, 1)), ("soldier", (13, 4))]}, ambush="olea")
    with bundled_battle(setup, 1, 10, 7, 6, 8, 16, 3, 15, 12, 12,
                        8, 2, 6, 5, 2, 7, 8) as b:
        assert b.submit(EndTurn("olea-1"))
        assert b.submit(SetOverwatch("olea-2", (2, 5), ask=True))
        assert b.submit(Throw("scout-1", (10, 5), "he_grenade"))
        asked = of(b.submit(Move("scout-1", ((1, 5), (1, 4)))), OverwatchAsked)[0]
        assert asked.at == (1, 5) and "burst" in asked.choices
        events = b.submit(Respond("olea-2", "wait"))
        assert of(events, OverwatchAsked)[0].at == (1, 4)
        events = b.submit(Respond("olea-2", "burst"))
        shot = of(events, AttackResolved)[0]
        assert shot.reaction and (shot.attack.total, shot.hits) == (16, 1)
        assert b.session.get("scout-1", c.Health).hp == library().units["maire"].hp - 13


def test_the_odds_offered_are_the_overwatch_shots_own():
    """The watcher crossed rough ground on its turn: its overwatch shot, made out of its turn,
    takes no rough-ground penalty. The reaction preview says so, and the shot rolls with the
    very modifiers the preview listed."""
    from game.core.queries import preview_attack
    rows = ["." * 12, "." * 12, ".," + "." * 10, "." * 12, "." * 12, "." * 12]
    watcher = unit("watcher", ap=24, weapons=("rifle",), abilities={"overwatch": 1})
    dice = Dice(0)
    dice.force(9, 1, *([5] * 30))
    placements = {"a": [(watcher, (0, 2))], "b": [(unit("mover", ap=20), (5, 5))]}
    with new_battle(setup(rows, placements, ambush="a"), 0, dice=dice) as b:
        assert of(b.submit(Move("a-1", ((1, 2),))), Moved)[0].rough
        assert not isinstance(b.submit(SetOverwatch("a-1", (6, 2), ask=True)), Refused)
        b.submit(Move("b-1", PATH))
        as_reaction = preview_attack(b, "a-1", "b-1", "single", reaction=True)
        as_threat = preview_attack(b, "a-1", "b-1", "single", threat=True)
        assert any(name == "rough ground" for name, _ in as_threat.attack_modifiers)
        assert all(name != "rough ground" for name, _ in as_reaction.attack_modifiers)
        shot = of(b.submit(Respond("a-1", "single")), AttackResolved)[0]
        assert sorted(shot.attack.modifiers) == sorted(as_reaction.attack_modifiers)


def test_the_question_is_the_watchers_sides_alone_and_the_last_step_has_no_wait():
    with watching([1] * 30) as b:
        asked = of(b.submit(Move("b-1", PATH[:2])), OverwatchAsked)[0]     # (7, 4) ends the move
        assert asked.seen_by == ("a",)
        assert asked.choices[-1] == "pass" and "wait" not in asked.choices
        assert isinstance(b.submit(Respond("a-1", "wait")), Refused)
        held = of(b.submit(Respond("a-1", "pass")), OverwatchHeld)[0]
        assert held.seen_by == ("a",) and b.session.active == "b-1"
        asked = of(b.submit(Move("b-1", ((8, 3),))), OverwatchAsked)[0]
        events = b.submit(Respond("a-1", asked.choices[0]))
        assert of(events, OverwatchTriggered)[0].seen_by == ("b",)      # the mover learns of it
        assert of(events, AttackResolved)[0].reaction
