"""The end-of-battle record: a shot is one attack, a hit one that struck an enemy, and damage
to the side's own units is kept apart from damage dealt."""

from __future__ import annotations

from game.core.commands import Attack, Suppress, Throw
from game.core.dice import Dice
from game.core.events import Damaged, SuppressionDodged
from game.rulesets import new_battle
from tests.core.builders import setup, unit

OPEN = ["." * 12 for _ in range(6)]


def battle(placements, faces):
    dice = Dice(0)
    dice.force(*faces)
    return new_battle(setup(OPEN, placements, ambush="a"), 0, dice=dice)


def test_a_grenade_catching_two_enemies_and_a_friend_is_one_shot_one_hit():
    thrower = unit("thrower", grenades={"he_grenade": 1}, demolitions=9)
    with battle({"a": [(thrower, (0, 0)), (unit("friend"), (5, 2))],
                 "b": [(unit("foe"), (5, 0)), (unit("foe2"), (6, 0))]},
                [9, 1, 1, 9,            # initiative
                 9, 10, 10, 10, 10, 10]) as b:   # the throw lands true; the blast
        events = b.submit(Throw("a-1", (5, 1), "he_grenade"))
        hurt = {e.unit: e.taken for e in events if isinstance(e, Damaged)}
        assert set(hurt) == {"a-2", "b-1", "b-2"}
        record = b.session.records["a"]
        assert (record.shots, record.hits) == (1, 1)
        assert record.damage_dealt == hurt["b-1"] + hurt["b-2"]
        assert record.friendly_damage == hurt["a-2"] > 0


def test_suppression_hitting_two_enemies_is_one_shot_one_hit():
    support = unit("support", aim=7, weapons=("lmg",), abilities={"suppressive_fire": 1})
    with battle({"a": [(support, (0, 2))],
                 "b": [(unit("foe", dodge=0), (8, 2)), (unit("foe2", dodge=0), (8, 3))]},
                [9, 1, 1,               # initiative
                 10,                    # the suppression roll
                 1, 10, 10, 10, 10,     # the first foe's dodge fails; 4d10 damage
                 1, 10, 10, 10, 10]) as b:
        events = b.submit(Suppress("a-1", (8, 2)))
        dodged = [e for e in events if isinstance(e, SuppressionDodged)]
        assert [d.hit for d in dodged] == [True, True]
        record = b.session.records["a"]
        assert (record.shots, record.hits) == (1, 1)
        assert record.friendly_damage == 0
        assert record.damage_dealt == sum(e.taken for e in events if isinstance(e, Damaged)) > 0


def test_a_burst_is_one_shot_whatever_its_hits():
    gunner = unit("gunner", aim=9, weapons=("smg",))
    with battle({"a": [(gunner, (0, 2))], "b": [(unit("foe", hp=200, dodge=0), (4, 2))]},
                [9, 1, 10, 1, *[5] * 12]) as b:
        events = b.submit(Attack("a-1", "b-1", mode="burst"))
        assert sum(1 for e in events if isinstance(e, Damaged)) >= 2
        record = b.session.records["a"]
        assert (record.shots, record.hits) == (1, 1)
