"""Hollis's lean in the Skirmishes chapter, with the bundled Hollis and Olea trooper: "Hollis,
with 10 AP, walks the last meter (-3 AP) up the alley to the front corner of the warehouse ...
leans out (-2 AP) and sees an Olea trooper ... He leans back (-2 AP)"."""

from __future__ import annotations

from game.content.schema import MapSpec, ScenarioSpec, SideSpec, SquadMember, VictorySpec, BattleSetup
from game.core import components as c
from game.core.commands import Lean, Move
from game.core.dice import Dice
from game.core.queries import visible_enemies
from game.rulesets import new_battle
from tests.core.builders import TERRAIN
from tests.rules.test_skirmish_bundled import library
from tests.sequential import sequential_rules

ROWS = ["............",
        "...H........",      # the warehouse corner: a container-high block of cover
        "............"]


def test_hollis_walks_to_the_corner_leans_out_sees_the_trooper_and_leans_back():
    lib = library()
    sides = [SideSpec(id="spacer", name="Spacer", zone="field", ambush=True,
                      members=[SquadMember(unit="hollis", name="Hollis", at=(1, 1))]),
             SideSpec(id="olea", name="Olea", zone="field",
                      members=[SquadMember(unit="olea_trooper", name="Olea trooper", at=(10, 1))])]
    setup = BattleSetup(
        scenario=ScenarioSpec(id="alley", name="Alley", map="alley", sides=sides,
                              victory=VictorySpec(max_rounds=5)),
        map=MapSpec(id="alley", name="Alley", rows=ROWS, legend={".": {"terrain": "open", "zone": "field"}}),
        ruleset=sequential_rules(lib.rulesets["skirmish"]), terrain=TERRAIN, weapons=list(lib.weapons.values()),
        armor=list(lib.armor.values()), units=[lib.units["hollis"], lib.units["olea_trooper"]])
    dice = Dice(0)
    dice.force(5, 5)
    with new_battle(setup, 0, dice=dice) as b:
        s = b.session
        ap = s.get("spacer-1", c.ActionPoints)
        assert ap.current == 10
        b.submit(Move("spacer-1", ((2, 1),)))                    # the last meter: 3 AP
        assert ap.current == 7 and visible_enemies(s, "spacer") == []
        b.submit(Lean("spacer-1"))                               # leans out: 2 AP
        assert ap.current == 5 and visible_enemies(s, "spacer") == ["olea-1"]
        b.submit(Lean("spacer-1", out=False))                    # leans back: 2 AP
        assert ap.current == 3 and visible_enemies(s, "spacer") == []
        assert visible_enemies(s, "olea") == []
