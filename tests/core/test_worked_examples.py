"""The worked examples of the Skirmishes chapter (seed 004), reproduced with forced dice."""

from __future__ import annotations

from game.core.commands import Attack, EndTurn, Move, SetOverwatch, Suppress, Throw
from game.core.dice import Dice
from game.rulesets import new_battle
from game.core.events import (AttackResolved, Damaged, Exploded, GrenadeThrown, HealthChanged,
                              MoraleChanged, SuppressionDodged, SuppressionTested)
from tests.core.builders import GRENADE, setup, unit

OPEN = ["." * 16 for _ in range(8)]


def of(events, kind):
    return [e for e in events if isinstance(e, kind)]


def battle(placements, faces, **kw):
    dice = Dice(0)
    dice.force(*faces)
    return new_battle(setup(OPEN, placements, **kw), 0, dice=dice)


def hollis_vs_trooper(*faces):
    hollis = unit("hollis", ap=10, aim=6, dexterity=1, weapons=("pistol",))
    trooper = unit("trooper", dodge=4, agility=0, armor="light")
    return battle({"spacer": [(hollis, (2, 3))], "olea": [(trooper, (8, 3))]},
                  [5, 5, *faces], ambush="spacer")


def test_hollis_hits_for_four():
    # "He rolls a 4 ... total attack of 11. The trooper ... rolling a 5 ... defense roll a 9.
    # Hollis hits." Then 2d6 -> 7 ballistic, light armor soaks 3, 4 to HP.
    with hollis_vs_trooper(4, 5, 3, 4) as b:
        events = b.submit(Attack("spacer-1", "olea-1", aim=2))
        shot = of(events, AttackResolved)[0]
        assert (shot.attack.total, shot.defense.total, shot.hit, shot.hits) == (11, 9, True, 1)
        assert dict(shot.attack.modifiers) == {"aim": 6, "dexterity": 1, "accuracy": -2, "aim bonus": 2}
        assert shot.ap_cost == 5          # +2 aim for 3 AP, the shot for 2: his last 5 AP
        damage = of(events, Damaged)[0]
        assert (damage.rolled, damage.resisted, damage.taken) == (7, 3, 4)
        assert damage.hp_after == damage.hp_before - 4


def test_hollis_head_shot_misses():
    # Aimed at the head: 4 + 7 Aim + 0 weapon (accuracy -2, aim +2) - 3 location = 8 < 9.
    with hollis_vs_trooper(4, 5) as b:
        shot = of(b.submit(Attack("spacer-1", "olea-1", aim=2, location="head")), AttackResolved)[0]
        assert (shot.attack.total, shot.defense.total, shot.hit) == (8, 9, False)


def test_olea_burst_hits_twice():
    # ROF 8, spread 4: attack 14 against Dodge 9 hits "at 14 and at 10".
    olea = unit("olea_soldier", aim=5, dexterity=2, weapons=("rifle",))
    hollis = unit("hollis", dodge=4, agility=0)
    with battle({"olea": [(olea, (2, 3))], "spacer": [(hollis, (8, 3))]},
                [5, 5, 7, 5, 1, 1, 1, 1, 1, 1], ambush="olea") as b:
        shot = of(b.submit(Attack("olea-1", "spacer-1", mode="burst")), AttackResolved)[0]
        assert (shot.attack.total, shot.defense.total, shot.hits) == (14, 9, 2)
        assert len(of(b.session.events or [], Damaged)) == 0  # events were returned, not kept


def maire(**kw):
    return unit("maire", ap=24, hp=20, morale=10, aim=8, dexterity=0, willpower=6,
                intelligence=0, dodge=7, agility=3, demolitions=0, weapons=("smg",),
                armor="maire_light", grenades={"he_grenade": 1}, **kw)


def support():
    return unit("support", hp=18, constitution=6, morale=8, aim=7, dexterity=-1, dodge=3,
                agility=-1, weapons=("lmg",), armor="heavy", abilities={"suppressive_fire": 1})


def test_maire_burst_two_hits_stopped_by_heavy_armor():
    # Sprint (7 AP, not a run for her 24), aim +1 for 1 AP, burst: 6 + 8 + 0 - 3 + 1 = 12
    # against 5 + 3 - 1 = 7; spread 3 gives a second hit. 25 and 22 vs +30 ballistic: nothing.
    with battle({"scout": [(maire(), (2, 3))], "olea": [(support(), (10, 2))]},
                [5, 5, 6, 5, 4, 9, 12, 6, 7, 9], ambush="scout") as b:
        assert b.submit(Move("scout-1", ((3, 3), (4, 2))))
        events = b.submit(Attack("scout-1", "olea-1", mode="burst", aim=1))
        shot = of(events, AttackResolved)[0]
        assert (shot.attack.total, shot.defense.total, shot.hits, shot.ap_cost) == (12, 7, 2, 5)
        damage = of(events, Damaged)
        assert [(d.rolled, d.taken) for d in damage] == [(25, 0), (22, 0)]


def test_support_suppresses_and_maire_breaks_out():
    # The Support's suppression roll: 8 + Aim 7 - 1 Dexterity - 4 LMG = 10. Maire's Dodge
    # (7 + 3) beats it, so she is only pinned. Next turn: Willpower 9 + 6 + 0 = 15 beats 10,
    # and a Dodge roll gets her moving again.
    with battle({"olea": [(support(), (10, 3))], "scout": [(maire(), (3, 3))]},
                [5, 5, 8, 1, 9, 3], ambush="olea") as b:
        events = b.submit(Suppress("olea-1", (3, 3)))
        fired = events[0]
        assert fired.attack.total == 10
        dodged = of(events, SuppressionDodged)[0]
        assert (dodged.dodge.total, dodged.hit) == (11, False)
        assert b.session.get("scout-1", __import__("game.core.components", fromlist=["Posture"]).Posture).stance == "prone"
        tested = of(events, SuppressionTested)[0]      # Maire's turn began within this command
        assert (tested.willpower.total, tested.against, tested.broken) == (15, 10, True)


def test_grenade_morale_and_overwatch():
    # Maire throws at a point 10 m away: Demolitions 6 + half of Dexterity 0 misses by 4, the
    # d10 sends it four meters aside, to the Support's feet. 5d20 = 16+3+15+12+12 = 58, minus
    # 30 shock DR = 28: the Support is dead. The Soldier four rings out takes the last die: 12.
    # The Olea pool falls to 50% (-1), Maire's rises to 140% (+1). Then she steps into the
    # Soldier's overwatch: 8 + Aim 5 + Dexterity 4 - 1 morale = 16; one hit of 28, minus her
    # armor's 15: 13 to her HP.
    soldier = unit("soldier", hp=30, morale=8, aim=5, dexterity=4, weapons=("rifle5",),
                   abilities={"overwatch": 1})
    from tests.core.builders import RIFLE
    rifle5 = RIFLE.model_copy(update={"id": "rifle5", "damage": "5d8"})
    s = setup(OPEN, {"scout": [(maire(), (0, 5))],
                     "olea": [(support(), (9, 1)), (soldier, (13, 4))]}, ambush="olea")
    s = s.model_copy(update={"weapons": [*s.weapons, rifle5]})
    dice = Dice(0)
    dice.force(1, 10, 8,                     # initiative: Support before Soldier
               6, 8, 16, 3, 15, 12, 12,      # throw, scatter direction, blast
               8, 2, 6, 5, 2, 7, 8)          # overwatch shot, Maire's dodge, damage
    with new_battle(s, 0, dice=dice) as b:
        assert b.submit(EndTurn("olea-1"))
        assert b.submit(SetOverwatch("olea-2", (2, 5)))
        assert b.session.active == "scout-1"
        events = b.submit(Throw("scout-1", (10, 5), GRENADE.id))
        thrown = of(events, GrenadeThrown)[0]
        assert (thrown.check.total, thrown.difficulty, thrown.scatter_distance) == (6, 10, 4)
        assert thrown.landed == (9, 1)
        assert sum(of(events, Exploded)[0].rolls) == 58
        hurt = {d.unit: (d.rolled, d.taken) for d in of(events, Damaged)}
        assert hurt["olea-1"] == (58, 28)
        assert hurt["olea-2"] == (12, 12)
        assert ("olea-1", "dead") in [(h.unit, h.state) for h in of(events, HealthChanged)]
        morale = {m.side: m.modifier for m in of(events, MoraleChanged)}
        assert morale == {"olea": -1, "scout": 1}
        events = b.submit(Move("scout-1", ((1, 5),)))
        shot = of(events, AttackResolved)[0]
        assert shot.reaction and shot.attack.total == 16 and shot.hits == 1
        assert ("morale", -1) in shot.attack.modifiers
        damage = of(events, Damaged)[0]
        assert (damage.rolled, damage.resisted, damage.taken) == (28, 15, 13)
