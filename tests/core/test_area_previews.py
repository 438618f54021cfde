"""Grenade and suppressive-fire previews equal what the engine rolls; walls shield; own square
and wall targets are refused; a preview changes nothing."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from game.core import components as c
from game.core.commands import Suppress, Throw
from game.core.dice import Dice
from game.core.events import Damaged, GrenadeThrown, Refused, SuppressionDodged
from game.core.queries import preview_suppress, preview_throw, throw_outcomes
from game.core.ruleset import SuppressOdds, ThrowOdds
from game.rulesets import new_battle
from tests.core.builders import setup, unit

ROOM = ["..........",
        "......####",
        "......#..#",
        "......####"]
OPEN = ["." * 12 for _ in range(6)]


def battle(placements, faces=(), rows=OPEN, **kw):
    dice = Dice(0)
    dice.force(*faces)
    return new_battle(setup(rows, placements, **kw), 0, dice=dice)


def thrower(**kw):
    return unit("thrower", grenades={"he_grenade": 2}, **kw)


def test_a_wall_square_is_refused_before_anything_is_spent():
    with battle({"a": [(thrower(demolitions=9), (2, 2))], "b": [(unit("inside", hp=200), (7, 2))]},
                [9, 1], rows=ROOM, ambush="a") as b:
        ap = b.session.get("a-1", c.ActionPoints).current
        answer = b.submit(Throw("a-1", (6, 2), "he_grenade"))
        assert isinstance(answer, Refused) and "solid" in answer.reason
        assert isinstance(preview_throw(b, "a-1", "he_grenade", (6, 2)), Refused)
        assert b.session.get("a-1", c.ActionPoints).current == ap
        assert b.session.get("a-1", c.Loadout).grenades["he_grenade"] == 2


def test_walls_shield_a_closed_room_from_a_blast_next_to_them():
    # lands on target (demolitions 9 + d10 beats 4 m), 5d20 all 20s: the room is untouched
    with battle({"a": [(thrower(demolitions=9), (0, 0))], "b": [(unit("inside", hp=200), (7, 2))]},
                [9, 1, 10, 20, 20, 20, 20, 20], rows=ROOM, ambush="a") as b:
        odds = preview_throw(b, "a-1", "he_grenade", (5, 2))
        assert isinstance(odds, ThrowOdds) and (7, 2) not in odds.rings
        assert all(h.uid != "b-1" for h in odds.harms)
        events = b.submit(Throw("a-1", (5, 2), "he_grenade"))
        assert [e.unit for e in events if isinstance(e, Damaged)] == []
        assert b.session.get("b-1", c.Health).hp == 200


def test_a_sure_throw_prices_each_ring_exactly():
    # demolitions 9: d10 + 9 always meets 6 m. A foe 4 rings out takes the last d20 (hp 5:
    # down on 5 or more, 16 faces of 20); one on the landing takes all five; the thrower is 6 out.
    with battle({"a": [(thrower(demolitions=9), (0, 0))],
                 "b": [(unit("near", hp=300), (6, 0)), (unit("far", hp=5, constitution=3), (10, 0))]},
                [9, 1, 1], ambush="a") as b:
        odds = preview_throw(b, "a-1", "he_grenade", (6, 0))
        assert isinstance(odds, ThrowOdds)
        assert [sq for sq, _ in odds.landings] == [(6, 0)]
        assert odds.landings[0][1] == pytest.approx(1.0) and odds.radius == 4 and odds.ap_cost == 4
        harms = {h.uid: h for h in odds.harms}
        assert set(harms) == {"b-1", "b-2"}
        assert harms["b-1"].caught == pytest.approx(1.0) and harms["b-1"].expected_damage == pytest.approx(52.5)
        assert harms["b-1"].down == 0.0
        assert harms["b-2"].expected_damage == pytest.approx(10.5)
        assert harms["b-2"].down == pytest.approx(16 / 20)
        assert odds.rings[(6, 0)] == 0 and odds.rings[(10, 0)] == 4 and (11, 0) not in odds.rings


def test_a_throw_lands_where_the_preview_says_with_its_chances():
    """Every Demolitions face and scatter face, forced: the landings counted equal the preview."""
    def placements():
        return {"a": [(thrower(), (0, 2))], "b": [(unit("foe", hp=400), (11, 2))]}
    with battle(placements(), [9, 1], ambush="a") as b:
        odds = preview_throw(b, "a-1", "he_grenade", (9, 3))
        assert isinstance(odds, ThrowOdds)
        assert sum(p for _, p in odds.landings) == pytest.approx(1.0)
        outcomes = throw_outcomes(b, "a-1", "he_grenade", (9, 3), [(11, 2)])
    seen: Counter = Counter()
    caught = 0
    for face in range(1, 11):
        for scatter in range(1, 11):
            with battle(placements(), [9, 1, face, scatter] + [1] * 5, ambush="a") as b:
                events = b.submit(Throw("a-1", (9, 3), "he_grenade"))
                landed = next(e for e in events if isinstance(e, GrenadeThrown)).landed
                seen[tuple(landed)] += 1
                caught += any(isinstance(e, Damaged) and e.unit == "b-1" for e in events)
    assert {sq: n / 100 for sq, n in seen.items()} == pytest.approx(dict(odds.landings))
    harm = next(h for h in odds.harms if h.uid == "b-1")
    assert harm.caught == pytest.approx(caught / 100)
    assert harm.caught == pytest.approx(sum(p for p, hit in outcomes if (11, 2) in hit))


def test_suppression_hit_chance_equals_every_forced_roll():
    gunner = unit("gunner", weapons=("lmg",), abilities={"suppressive_fire": 1}, aim=3)

    def placements():
        return {"a": [(gunner, (0, 2))], "b": [(unit("foe", hp=400, dodge=2), (8, 2))]}
    with battle(placements(), [9, 1], ambush="a") as b:
        odds = preview_suppress(b, "a-1", (8, 2))
        assert isinstance(odds, SuppressOdds)
        (harm,) = odds.harms
    hits = 0
    for attack in range(1, 11):
        for dodge in range(1, 11):
            with battle(placements(), [9, 1, attack, dodge] + [1] * 4, ambush="a") as b:
                events = b.submit(Suppress("a-1", (8, 2)))
                hits += next(e for e in events if isinstance(e, SuppressionDodged)).hit
    assert harm.hit == pytest.approx(hits / 100)
    assert harm.pinned == 1.0 and harm.down == 0.0
    assert harm.expected_damage == pytest.approx(harm.hit * 22.0)        # 4d10 through no armor


def test_suppressing_ones_own_square_is_refused():
    gunner = unit("gunner", weapons=("lmg",), abilities={"suppressive_fire": 1})
    with battle({"a": [(gunner, (0, 2))], "b": [(unit("foe"), (8, 2))]}, [9, 1], ambush="a") as b:
        answer = b.submit(Suppress("a-1", (0, 2)))
        assert isinstance(answer, Refused) and "stands on" in answer.reason
        assert isinstance(preview_suppress(b, "a-1", (0, 2)), Refused)
        assert b.session.get("a-1", c.ActionPoints).current == 14


def test_previews_change_nothing():
    gunner = unit("gunner", weapons=("lmg",), abilities={"suppressive_fire": 1},
                  grenades={"he_grenade": 1})
    with battle({"a": [(gunner, (0, 2)), (unit("friend"), (7, 3))], "b": [(unit("foe"), (8, 2))]},
                [9, 1, 1], ambush="a") as b:
        before = json.dumps(b.state(), sort_keys=True, default=str)
        fingerprint = b.session.dice.fingerprint()
        throw = preview_throw(b, "a-1", "he_grenade", (8, 2))
        fire = preview_suppress(b, "a-1", (8, 2))
        assert isinstance(throw, ThrowOdds) and isinstance(fire, SuppressOdds)
        assert {h.uid for h in fire.harms} == {"a-2", "b-1"}     # a friend is in the circle
        assert json.dumps(b.state(), sort_keys=True, default=str) == before
        assert b.session.dice.fingerprint() == fingerprint


def test_a_grenade_the_unit_lacks_is_refused_in_the_preview():
    with battle({"a": [(thrower(), (0, 2))], "b": [(unit("foe"), (8, 2))]}, [9, 1], ambush="a") as b:
        answer = preview_throw(b, "a-1", "no_such", (3, 2))
        assert isinstance(answer, Refused) and "no no_such" in answer.reason
