"""Map parsing and deployment, as the engine will call them, and scenarios from any path."""

from __future__ import annotations

import pytest

from game.content.loader import (
    ContentError,
    Deployment,
    deploy,
    load_library,
    load_setup,
    parse_map,
)
from game.content.schema import MapSpec
from tests.content.content_helpers import Write, only, problems_in

TERRAIN = load_library().terrain


def test_parse_map_coordinates_legend_and_zones() -> None:
    spec = MapSpec(
        id="tiny", name="Tiny",
        legend={"A": {"terrain": "open", "zone": "alpha"}, "=": {"terrain": "rough"}},
        rows=["#A.", ",=~", "AA\""],
    )
    parsed = parse_map(spec, TERRAIN)
    assert (parsed.width, parsed.height) == (3, 3)
    assert parsed.terrain_ids == [
        ["wall", "open", "open"],
        ["rough", "rough", "water"],   # the legend overrides '=' (low cover by default)
        ["open", "open", "brush"],
    ]
    assert parsed.terrain_at(2, 1) == "water"  # x is the column, y the row
    assert parsed.zones == {"alpha": [(1, 0), (0, 2), (1, 2)]}
    assert parsed.inside(2, 2) and not parsed.inside(3, 0) and not parsed.inside(0, -1)


def test_parse_map_accepts_a_block_of_rows() -> None:
    spec = MapSpec(id="block", name="Block", rows="..#\n.,.\n")
    assert parse_map(spec, TERRAIN).terrain_ids[0] == ["open", "open", "wall"]


def test_parse_map_raises_content_error_with_every_issue() -> None:
    legend = {"C": {"terrain": "crate"}}
    spec = MapSpec(id="bad", name="Bad", legend=legend, rows=["...", "..", ".X."])
    with pytest.raises(ContentError) as caught:
        parse_map(spec, TERRAIN)
    keys = [problem.key for problem in caught.value.problems]
    assert keys == ["legend.C.terrain", "rows[1]", "rows[2]"]


SCENARIO = """
id: drill
name: Drill
map:
  id: yard
  name: Yard
  legend:
    A: {terrain: open, zone: alpha}
    B: {terrain: open, zone: bravo}
  rows: |
    #######
    #AAA..#
    #AAA.B#
    #AAA.B#
    #######
sides:
  - id: blue
    name: Blue
    zone: alpha
    members:
      - {unit: rifleman, count: 3}
      - {unit: medic, at: [2, 2]}
      - {unit: rifleman}
  - id: red
    name: Red
    zone: bravo
    members:
      - {unit: rifleman, name: Ivo}
      - {unit: rifleman, name: Ivo}
"""


def test_deploy_is_explicit_first_then_nearest_the_zone_centre(write: Write) -> None:
    setup = load_setup(write("drill.yaml", SCENARIO))
    assert deploy(setup) == [
        Deployment("blue", "rifleman", "Rifleman", 2, 1),
        Deployment("blue", "rifleman", "Rifleman 2", 1, 2),
        Deployment("blue", "rifleman", "Rifleman 3", 3, 2),
        Deployment("blue", "medic", "Medic", 2, 2),
        Deployment("blue", "rifleman", "Rifleman 4", 2, 3),
        Deployment("red", "rifleman", "Ivo", 5, 2),
        Deployment("red", "rifleman", "Ivo 2", 5, 3),
    ]
    assert deploy(setup) == deploy(setup)


def test_deploy_refuses_a_setup_that_does_not_fit(write: Write) -> None:
    setup = load_setup(write("drill.yaml", SCENARIO))
    rows = ["#######", "#AAA..#", "#AAA.B#", "#AAA..#", "#######"]
    cramped = setup.map.model_copy(update={"rows": rows})
    with pytest.raises(ContentError) as caught:
        deploy(setup.model_copy(update={"map": cramped}))
    expected = "zone 'bravo' has 1 free walkable squares for the 2 units of side 'red'"
    assert expected in str(caught.value)


def test_scenario_file_with_map_path_and_inline_units(write: Write) -> None:
    write("maps/arena.yaml", """
        id: arena
        name: Arena
        legend:
          A: {terrain: open, zone: west}
          B: {terrain: open, zone: east}
        rows: |
          ######
          #A..B#
          #A..B#
          ######
    """)
    path = write("scenarios/duel.yaml", """
        id: duel
        name: Duel
        map: ../maps/arena.yaml
        weapons:
          - {id: sling, name: Sling, kind: firearm, damage: 1d6, modes: [{name: single, ap: 3}]}
        units:
          - id: slinger
            name: Slinger
            ap: 15
            hp: 18
            attributes: {strength: 0, dexterity: 2, agility: 1, constitution: 4, intelligence: 0}
            skills: {aim: 5, melee: 2, unarmed: 2, dodge: 3, willpower: 3, heal: 0, demolitions: 0}
            weapons: [{weapon: sling}]
            armor: combat_vest
        squads:
          - id: slingers
            name: Slingers
            members: [{unit: slinger, count: 2}]
        sides:
          - {id: west, name: West, squad: slingers, zone: west}
          - {id: east, name: East, zone: east, members: [{unit: rifleman, count: 2}]}
    """)
    setup = load_setup(path)
    assert setup.map.id == "arena" and setup.scenario.map == "arena"
    assert [unit.id for unit in setup.units] == ["slinger", "rifleman"]
    assert "sling" in {weapon.id for weapon in setup.weapons}
    assert [squad.id for squad in setup.squads] == ["slingers"]
    assert {(d.name, d.x) for d in deploy(setup)} == {
        ("Slinger", 1), ("Slinger 2", 1), ("Rifleman", 4), ("Rifleman 2", 4)}
    assert "slinger" not in load_library().units  # inline units stay with their scenario


def test_missing_map_file_is_reported_at_the_map_key(write: Write) -> None:
    path = write("lost.yaml", """
        id: lost
        name: Lost
        map: maps/nowhere.yaml
        sides:
          - {id: a, name: A, zone: alpha, squad: alpha_team}
          - {id: b, name: B, zone: bravo, squad: olea_section}
    """)
    problem = only(problems_in(path), "map")
    assert (problem.line, problem.column) == (3, 6)
    assert problem.message.startswith("no map file 'maps/nowhere.yaml' next to this scenario")
    with pytest.raises(ContentError):
        load_setup(path)


def test_problems_in_a_map_named_by_path_point_into_the_map_file(write: Write) -> None:
    map_path = write("broken_map.yaml", "id: broken\nname: Broken\nrows: |\n  ....\n  ..Q.\n")
    write("s.yaml", """
        id: s
        name: S
        map: broken_map.yaml
        sides:
          - {id: a, name: A, zone: alpha, squad: alpha_team}
          - {id: b, name: B, zone: bravo, squad: olea_section}
    """)
    problem = only(problems_in(map_path), "rows[1]")
    assert (problem.line, problem.column) == (5, 5)


def test_a_copied_bundled_scenario_loads_from_its_path(write: Write) -> None:
    text = (load_library().origins[("scenario", "depot")].file)
    with open(text, encoding="utf-8") as source:
        path = write("my_depot.yaml", source.read().replace("max_rounds: 30", "max_rounds: 12"))
    setup = load_setup(path)
    assert setup.scenario.id == "depot" and setup.scenario.victory.max_rounds == 12
    assert load_setup("depot").scenario.victory.max_rounds == 30
