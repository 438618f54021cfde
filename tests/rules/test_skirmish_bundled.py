"""The worked examples of the Skirmishes chapter (seed 004), played on the grid with the units,
weapons and armor bundled in content/ (not units built for the test): the bundled characters
must reproduce the text's numbers. tests/core/test_worked_examples.py plays the same examples
with handmade units."""

from __future__ import annotations

from functools import cache

from game.content.loader import load_library
from game.content.schema import (BattleSetup, MapSpec, ScenarioSpec, SideSpec, SquadMember,
                                 VictorySpec)
from game.core import components as c
from game.core.commands import (Attack, ChangeStance, EndTurn, Move, SetOverwatch, Suppress,
                                Throw)
from game.core.dice import Dice
from game.core.events import (AttackResolved, Damaged, Exploded, GrenadeThrown, HealthChanged,
                              MoraleChanged, SuppressionDodged, SuppressionTested)
from game.rulesets import new_battle
from tests.core.builders import TERRAIN
from tests.sequential import sequential_rules

OPEN = ["." * 16 for _ in range(8)]


@cache
def library():
    return load_library()


def bundled(placements: dict[str, list[tuple[str, tuple[int, int]]]], *,
            ambush: str | None = None) -> BattleSetup:
    """An open field with the bundled units (by id) placed for each side; everything else
    (weapons, armor, the skirmish ruleset) as bundled."""
    lib = library()
    sides = [SideSpec(id=side, name=side.title(), zone="field", ambush=(side == ambush),
                      members=[SquadMember(unit=unit, name=lib.units[unit].name, at=at)
                               for unit, at in members])
             for side, members in placements.items()]
    grid_map = MapSpec(id="field", name="Field", rows=OPEN,
                       legend={".": {"terrain": "open", "zone": "field"}})
    scenario = ScenarioSpec(id="example", name="Example", map="field", sides=sides,
                            victory=VictorySpec(max_rounds=40))
    used = {unit for members in placements.values() for unit, _ in members}
    return BattleSetup(scenario=scenario, map=grid_map, ruleset=sequential_rules(lib.rulesets["skirmish"]),
                       terrain=TERRAIN, weapons=list(lib.weapons.values()),
                       armor=list(lib.armor.values()), units=[lib.units[u] for u in sorted(used)])


def battle(setup: BattleSetup, *faces: int):
    dice = Dice(0)
    dice.force(*faces)
    return new_battle(setup, 0, dice=dice)


def of(events, kind):
    return [e for e in events if isinstance(e, kind)]


def test_hollis_hits_the_trooper_for_four():
    """"He rolls a 4 on his d10 ... his Aim score of 7 (6, with a Dexterity modifier of +1)
    leaves him with a total attack of 11. The trooper dodges, rolling a 5, but his middling
    Dodge and Agility modifiers (4 and +0) ... a 9. Hollis hits." "He rolls for 7 ballistic
    damage. The trooper's light armor soaks up 3 points ... takes the other 4.\""""
    setup = bundled({"spacer": [("hollis", (2, 3))], "olea": [("olea_trooper", (8, 3))]},
                    ambush="spacer")
    with battle(setup, 5, 5, 4, 5, 3, 4) as b:
        events = b.submit(Attack("spacer-1", "olea-1", aim=2))
        shot = of(events, AttackResolved)[0]
        assert (shot.attack.total, shot.defense.total, shot.hit, shot.hits) == (11, 9, True, 1)
        assert shot.ap_cost == 5                  # "with 5 points of AP left, aims ... and fires"
        damage = of(events, Damaged)[0]
        assert (damage.rolled, damage.resisted, damage.taken) == (7, 3, 4)


def test_the_olea_trooper_burst_hits_hollis_twice():
    """"the Olea soldier opens up a tear of automatic fire with his rifle (ROF 8, spread 4). He
    rolls Aim 7, adds +7 skill/circumstantial modifiers and comes up with a total of 14. Hollis
    ... only manages to come up with 9 Dodge, and is hit twice (at 14 and at 10)." The bundled
    trooper's +7: Aim 5, Dexterity +1, crouching +1 (the rifle's accuracy is 0); Hollis's 9:
    a 4, Dodge 4, Agility +1."""
    setup = bundled({"olea": [("olea_trooper", (2, 3))], "spacer": [("hollis", (8, 3))]},
                    ambush="olea")
    with battle(setup, 5, 5, 7, 4, 1, 1, 1, 1, 1, 1) as b:
        assert b.submit(ChangeStance("olea-1", "crouch"))
        shot = of(b.submit(Attack("olea-1", "spacer-1", mode="burst")), AttackResolved)[0]
        assert (shot.attack.total, shot.defense.total, shot.hits) == (14, 9, 2)
        assert shot.weapon == "olea_rifle"


def test_maires_burst_hits_twice_and_the_heavy_armor_stops_both():
    """"She sprints behind a nearby shipping crate (-7 AP), ... aims for a moment (-1 AP, +1
    Aim modifier), and carefully squeezes of a burst (-4 AP). She rolls a 6, adds her Aim +8
    and Dexterity mod. of +0 and subtracts the -3 accuracy penalty for a total attack roll of
    12." The Support: "rolls a 5, adds Dodge 3 and subtracts a -1 Agility mod. for a total of
    7" -- spread 3, another hit. 3d12: 25 and 22 against +30 Ballistic."""
    setup = bundled({"scout": [("maire", (2, 3))], "olea": [("support", (10, 2))]}, ambush="scout")
    with battle(setup, 5, 5, 6, 5, 4, 9, 12, 6, 7, 9) as b:
        assert b.submit(Move("scout-1", ((3, 3), (4, 2))))
        events = b.submit(Attack("scout-1", "olea-1", mode="burst", aim=1))
        shot = of(events, AttackResolved)[0]
        assert (shot.attack.total, shot.defense.total, shot.hits, shot.ap_cost) == (12, 7, 2, 5)
        assert [(d.rolled, d.taken) for d in of(events, Damaged)] == [(25, 0), (22, 0)]


def test_the_support_suppresses_and_maire_weathers_it():
    """"He rolls 10 (8 + Aim 7 + Dexterity mod. -1 + -4 LMG base aim penalty). Maire musters
    the willpower ... rolling a 15 (9 + 6 Willpower + Intelligence mod. 0). With such a high
    Dodge score, (Dodge 7 + Agility mod. 3) she is able to avoid the burst.\""""
    setup = bundled({"olea": [("support", (10, 3))], "scout": [("maire", (3, 3))]}, ambush="olea")
    with battle(setup, 5, 5, 8, 1, 9, 3) as b:
        events = b.submit(Suppress("olea-1", (3, 3)))
        assert events[0].attack.total == 10
        dodged = of(events, SuppressionDodged)[0]
        assert (dodged.dodge.total, dodged.hit) == (11, False)
        tested = of(events, SuppressionTested)[0]
        assert (tested.willpower.total, tested.against, tested.broken) == (15, 10, True)


def test_the_grenade_the_morale_swing_and_the_soldiers_overwatch_shot():
    """"16 +3 + 15 +12 + 12 = 58 - 30 Shock DR = 28 ... 12 damage on the enemy Soldier."
    "The eight points of morale contributed by the Support ... leaving the Soldier demoralized
    and suffering a -1 penalty ... Maire ... receives a +1 morale bonus." "He rolls a 16 (8 +
    Aim 5 + Dexterity mod. 4 - morale 1), and Maire fails to dodge the initial shot, but he
    misses with the rest of his burst. He rolls 6 + 5 + 2 + 7+ 8 = 28. Maire's light armor
    absorbs 15 points of the damage, but she takes 13 points of damage to her HP.\""""
    setup = bundled({"scout": [("maire", (0, 5))],
                     "olea": [("support", (9, 1)), ("soldier", (13, 4))]}, ambush="olea")
    lib = library()
    # Maire's pool after the Support falls: her own morale + half the Support's 8, within
    # 125-150% of her own: +1 (the table's 125% - 150% row).
    share = (lib.units["maire"].morale + lib.units["support"].morale / 2) / lib.units["maire"].morale
    assert 1.25 <= share < 1.5
    with battle(setup, 1, 10, 7,                  # initiative: Support 9 before Soldier 8
                6, 8, 16, 3, 15, 12, 12,          # throw, scatter direction, blast
                8, 2, 6, 5, 2, 7, 8) as b:        # overwatch shot, Maire's dodge, damage
        assert b.submit(EndTurn("olea-1"))
        assert b.submit(SetOverwatch("olea-2", (2, 5)))
        assert b.session.active == "scout-1"
        events = b.submit(Throw("scout-1", (10, 5), "he_grenade"))
        thrown = of(events, GrenadeThrown)[0]
        assert (thrown.check.total, thrown.difficulty, thrown.scatter_distance) == (6, 10, 4)
        assert thrown.landed == (9, 1)
        assert sum(of(events, Exploded)[0].rolls) == 58
        hurt = {d.unit: (d.rolled, d.taken) for d in of(events, Damaged)}
        assert hurt["olea-1"] == (58, 28)
        assert hurt["olea-2"][0] == 12              # the soldier's vest takes some of it
        assert ("olea-1", "dead") in [(h.unit, h.state) for h in of(events, HealthChanged)]
        assert {m.side: m.modifier for m in of(events, MoraleChanged)} == {"olea": -1, "scout": 1}
        events = b.submit(Move("scout-1", ((1, 5),)))
        shot = of(events, AttackResolved)[0]
        assert shot.reaction and shot.weapon == "vanter_battle_rifle"
        assert (shot.attack.total, shot.defense.total, shot.hits) == (16, 13, 1)
        assert sorted(shot.attack.modifiers) == sorted((("aim", 5), ("dexterity", 4), ("morale", -1)))
        damage = of(events, Damaged)[0]
        assert (damage.rolled, damage.resisted, damage.taken) == (28, 15, 13)
        assert b.session.get("scout-1", c.Health).hp == lib.units["maire"].hp - 13


def test_the_calculator_agrees_with_the_grid_on_the_overwatch_shot():
    """docs/resolve/soldier_overwatch.yaml: the same shot through `skirmish resolve`, with the
    same bundled units and rifle, gives the grid's numbers (16 against 13, one hit, 28 - 15)."""
    import json
    from pathlib import Path

    from game.resolve.main import main_resolve
    path = Path(__file__).resolve().parents[2] / "docs" / "resolve" / "soldier_overwatch.yaml"
    code, text = main_resolve(str(path), as_json=True, odds=False)
    assert code == 0, text
    result = json.loads(text)
    assert (result["attack"]["total"], result["defense"]["total"], result["hits"]) == (16, 13, 1)
    assert (result["damage_rolled"], result["damage_applied"]) == (28, 13)
