"""Malformed content: each problem names its file, line, column and key, and all come at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.content.loader import ContentError, load_library, load_setup, validate_paths
from tests.content.content_helpers import Write, only, problems_in


def test_unknown_key_points_at_the_key(write: Write) -> None:
    path = write("u.yaml", """
        units:
          - id: grunt
            name: Grunt
            ap: 14
            hp: 20
            armour: combat_vest
    """)
    problem = only(problems_in(path), "units[0].armour")
    assert (problem.line, problem.column) == (6, 5)
    assert problem.message == "unknown key 'armour' (did you mean 'armor'?)"


def test_wrong_type_points_at_the_value(write: Write) -> None:
    path = write("u.yaml", """
        units:
          - id: a
            name: A
            ap: 14
            hp: 20
          - id: b
            name: B
            ap: 14
            hp: 20
          - id: grunt
            name: Grunt
            ap: 14
            hp: 20
            skills: {aim: high}
    """)
    problem = only(problems_in(path), "units[2].skills.aim")
    assert str(problem) == (
        f"{path}:14:19: units[2].skills.aim: "
        "Input should be a valid integer, unable to parse string as an integer (got 'high')"
    )
    assert "http" not in str(problem)


def test_out_of_range_value(write: Write) -> None:
    path = write("w.yaml", """
        weapons:
          - id: pea_shooter
            name: Pea shooter
            kind: firearm
            damage: 1d4
            accuracy: 40
            modes: [{name: single, ap: 2}]
    """)
    problem = only(problems_in(path), "weapons[0].accuracy")
    assert (problem.line, problem.column) == (6, 15)
    assert problem.message == "Input should be less than or equal to 10"


def test_missing_key_points_at_its_mapping(write: Write) -> None:
    path = write("a.yaml", """
        armor:
          - id: tin
            resist: {ballistic: 1}
    """)
    problem = only(problems_in(path), "armor[0].name")
    assert (problem.line, problem.message) == (2, "missing required key 'name'")


def test_missing_references_from_a_unit(write: Write) -> None:
    path = write("u.yaml", """
        units:
          - id: grunt
            name: Grunt
            ap: 14
            hp: 20
            weapons:
              - {weapon: olea_rfle}
              - {weapon: he_grenade}
            armor: tin_can
            grenades: {olea_rifle: 1}
    """)
    problems = problems_in(path)
    missing = only(problems, "units[0].weapons[0].weapon")
    assert (missing.line, missing.column) == (7, 18)
    assert missing.message == "unknown weapon 'olea_rfle' (did you mean 'olea_rifle'?)"
    assert "is a grenade" in only(problems, "units[0].weapons[1].weapon").message
    assert only(problems, "units[0].armor").message == "unknown armor 'tin_can'"
    not_grenade = only(problems, "units[0].grenades.olea_rifle")
    assert (not_grenade.line, not_grenade.column) == (10, 16)
    assert "not a grenade" in not_grenade.message


def test_squad_names_a_missing_unit(write: Write) -> None:
    path = write("s.yaml", """
        squads:
          - id: odd
            name: Odd squad
            members:
              - {unit: rifleman}
              - {unit: ghost, count: 2}
    """)
    problem = only(problems_in(path), "squads[0].members[1].unit")
    assert (problem.line, problem.message) == (6, "unknown unit 'ghost'")


def test_weapon_modes_fit_their_kind(write: Write) -> None:
    path = write("w.yaml", """
        weapons:
          - id: stick
            name: Stick
            kind: melee
            damage: 1d4
            modes: [{name: poke, ap: 2}]
          - id: dud
            name: Dud
            kind: firearm
            damage: 1d4
    """)
    problems = problems_in(path)
    needs_strike = only(problems, "weapons[0].modes").message
    assert needs_strike == "a melee weapon needs a mode named 'strike'"
    assert "at least one mode" in only(problems, "weapons[1].modes").message


def test_duplicate_ids_name_both_places(write: Write) -> None:
    first = write("one.yaml", "armor:\n  - {id: tin, name: Tin}\n")
    second = write("two.yaml", "armor:\n  - {id: tin, name: Tin again}\n")
    problems = validate_paths([first.parent])
    problem = only(problems, "armor[0].id")
    assert problem.file == str(second)
    assert problem.message == f"armor id 'tin' is already defined at {first}:2"


def test_a_bundled_id_defined_again_replaces_it_and_must_serve_its_users(write: Write) -> None:
    """A mod may replace a bundled item (with a notice, see test_mod_folders.py); the bundled
    scenarios that use it then check the replacement, here a knife without the other rulesets'
    stats."""
    path = write("w.yaml", """
        weapons:
          - id: combat_knife
            name: Knife
            kind: melee
            damage: 1d4
            modes: [{name: strike, ap: 3}]
    """)
    problems = problems_in(path)
    assert not any("already defined at" in problem.message for problem in problems)
    d20 = [p for p in problems if p.key == "weapons[0].rules.d20"]
    assert d20 and all("no stats for ruleset 'd20'" in p.message for p in d20)   # one a scenario


def map_text(rows: str, legend: str = "") -> str:
    legend_lines = "\n".join(f"  {line}" for line in legend.strip().splitlines())
    body = "\n".join(f"  {row}" for row in rows.strip().splitlines())
    return f"id: probe_map\nname: Probe map\nlegend:\n{legend_lines or '  {}'}\nrows: |\n{body}\n"


ZONES = "A: {terrain: open, zone: alpha}\nB: {terrain: open, zone: bravo}"


def test_ragged_rows_name_the_row(write: Write) -> None:
    path = write("m.yaml", map_text("#####\n#A.B#\n#...\n#####", ZONES))
    problem = only(problems_in(path), "rows[2]")
    assert (problem.line, problem.column) == (9, 3)
    assert problem.message == "row 3 (y=2) has 4 squares; the first row has 5"


def test_unknown_glyph_named_with_row_and_column(write: Write) -> None:
    path = write("m.yaml", map_text("#####\n#A.B#\n#.X.#\n#####", ZONES))
    problem = only(problems_in(path), "rows[2]")
    assert (problem.line, problem.column) == (9, 5)
    assert problem.message.startswith("unknown glyph 'X' at [2, 2] (row 3, column 3)")


def test_unknown_glyph_in_quoted_list_rows(write: Write) -> None:
    path = write("m.yaml", """
        id: listed
        name: Listed
        rows:
          - "....."
          - ".?..?"
    """)
    problem = only(problems_in(path), "rows[1]")
    assert (problem.line, problem.column) == (5, 7)
    assert "unknown glyph '?' at [1, 1] (row 2, column 2) (and 1 more square)" in problem.message


def test_legend_terrain_must_exist(write: Write) -> None:
    path = write("m.yaml", map_text("...\n...", "C: {terrain: crate}"))
    problem = only(problems_in(path), "legend.C.terrain")
    assert (problem.line, problem.column) == (4, 16)
    assert problem.message == "unknown terrain 'crate'"


def scenario_text(sides: str, victory: str = "", map_ref: str = "probe_map") -> str:
    return f"id: probe\nname: Probe\nmap: {map_ref}\nsides:\n{sides.strip(chr(10))}\n{victory}"


TWO_SIDES = """
  - {id: a, name: A, zone: alpha, members: [{unit: rifleman}]}
  - {id: b, name: B, zone: bravo, members: [{unit: rifleman}]}
"""


def test_unit_deployed_on_a_wall(write: Write) -> None:
    write("m.yaml", map_text("#####\n#A.B#\n#####", ZONES))
    path = write("s.yaml", scenario_text("""
  - id: a
    name: A
    zone: alpha
    members:
      - {unit: rifleman, name: Vance, at: [0, 1]}
  - {id: b, name: B, zone: bravo, members: [{unit: rifleman}]}
"""))
    problem = only(problems_in(path), "sides[0].members[0].at")
    assert (problem.line, problem.column) == (9, 43)
    assert problem.message == (
        "Vance is deployed at [0, 1], on a wall square where no unit can stand")


def test_explicit_squares_inside_the_map_and_not_shared(write: Write) -> None:
    write("m.yaml", map_text("#####\n#A.B#\n#####", ZONES))
    path = write("s.yaml", scenario_text("""
  - id: a
    name: A
    zone: alpha
    members:
      - {unit: rifleman, at: [9, 9]}
      - {unit: medic, at: [2, 1]}
  - id: b
    name: B
    zone: bravo
    members:
      - {unit: gunner, at: [2, 1]}
"""))
    problems = problems_in(path)
    assert "outside map 'probe_map' (5x3" in only(problems, "sides[0].members[0].at").message
    assert only(problems, "sides[1].members[0].at").message == (
        "Gunner is deployed at [2, 1], already taken by Medic")


def test_zones_must_exist_and_be_big_enough(write: Write) -> None:
    write("m.yaml", map_text("#####\n#A.B#\n#####", ZONES))
    path = write("s.yaml", scenario_text("""
  - {id: a, name: A, zone: alpha, members: [{unit: rifleman, count: 2}]}
  - {id: b, name: B, zone: charlie, members: [{unit: rifleman}]}
"""))
    problems = problems_in(path)
    assert only(problems, "sides[0].zone").message == (
        "zone 'alpha' has 1 free walkable squares for the 2 units of side 'a'")
    assert only(problems, "sides[1].zone").message == (
        "zone 'charlie' is not marked on map 'probe_map' (its zones: alpha, bravo)")


def test_sides_and_victory_are_checked(write: Write) -> None:
    write("m.yaml", map_text("#####\n#A.B#\n#####", ZONES))
    path = write("s.yaml", scenario_text("""
  - {id: a, name: A, zone: alpha, members: [{unit: rifleman}]}
  - {id: a, name: B, zone: bravo, squad: alpha_tem}
""", "victory: {type: reach, side: c, zone: exit, on_timeout: nobody}\nruleset: chess\n"))
    problems = problems_in(path)
    assert only(problems, "sides[1].id").message == "side id 'a' is used twice"
    assert only(problems, "sides[1].squad").message == (
        "unknown squad 'alpha_tem' (did you mean 'alpha_team'?)")
    assert only(problems, "victory.side").message == "unknown side 'c' (sides: a, a)"
    assert "zone 'exit' is not marked" in only(problems, "victory.zone").message
    assert "on_timeout must be 'draw' or a side id" in only(problems, "victory.on_timeout").message
    assert only(problems, "ruleset").message == "unknown ruleset 'chess'"


def test_missing_ruleset_stat_is_named(write: Write) -> None:
    write("m.yaml", map_text("#####\n#A.B#\n#####", ZONES))
    write("u.yaml", """
        units:
          - id: rookie
            name: Rookie
            ap: 14
            hp: 20
            attributes: {strength: 0, dexterity: 0, agility: 0, intelligence: 0}
            skills: {aim: 5, melee: 2, unarmed: 2, dodge: 3, willpower: 3, demolitions: 0}
    """)
    sides = TWO_SIDES.replace("{unit: rifleman}", "{unit: rookie}", 1)
    path = write("s.yaml", scenario_text(sides))
    problems = validate_paths([path.parent])
    units_file = str(path.parent / "u.yaml")
    attribute = only(problems, "units[0].attributes")
    assert (attribute.file, attribute.line) == (units_file, 6)
    assert attribute.message == "missing attribute 'constitution', which ruleset 'skirmish' needs"
    skill = only(problems, "units[0].skills")
    assert skill.line == 7
    assert skill.message == "missing skill 'heal', which ruleset 'skirmish' needs"


def test_several_problems_in_one_file_all_reported(write: Write) -> None:
    path = write("u.yaml", """
        units:
          - id: Grunt
            name: Grunt
            ap: 0
            hp: 20
            colour: red
          - id: ok_one
            name: Ok
            ap: 14
            hp: 20
            weapons: [{weapon: nothing_here}]
          - id: third
            name: Third
            ap: 14
            hp: many
    """)
    problems = problems_in(path)
    assert [(p.line, p.key) for p in problems] == [
        (2, "units[0].id"), (4, "units[0].ap"), (6, "units[0].colour"),
        (11, "units[1].weapons[0].weapon"), (15, "units[2].hp"),
    ]
    with pytest.raises(ContentError) as caught:
        load_library([path])
    assert len(caught.value.problems) == 5
    text = str(caught.value)
    assert text.splitlines()[0] == "5 problems in content:"
    assert all(str(problem) in text for problem in problems)


def test_bad_content_never_raises_anything_but_content_error(write: Write, tmp_path: Path) -> None:
    bad = [
        write("alias.yaml", "units: &a [*a]\n"),
        write("syntax.yaml", "units: [\n"),
        write("scalar.yaml", "just text\n"),
        write("units_map.yaml", "units: {id: a}\n"),
        write("null_item.yaml", "weapons:\n  - \n"),
        write("rows_number.yaml", "id: m\nname: M\nrows: 12\n"),
        write("scenario_list_map.yaml", "id: s\nname: S\nmap: [1]\nsides: 3\n"),
    ]
    for path in bad:
        assert problems_in(path), path
        with pytest.raises(ContentError):
            load_library([path])
    with pytest.raises(ContentError):
        load_setup(tmp_path / "nowhere.yaml")
    with pytest.raises(ContentError) as caught:
        load_setup("no_such_scenario")
    assert "(scenarios: alley, " in str(caught.value)
    assert ", courier, d20_depot, d20_ditch, depot" in str(caught.value)


def test_a_broken_floor_item_names_the_file_and_the_key(write: Write) -> None:
    path = write("s.yaml", """
        id: ditch_items
        name: Ditch items
        ruleset: d20
        map: ditch
        sides:
          - {id: a, name: A, zone: alpha, members: [{unit: hollis}]}
          - {id: b, name: B, zone: bravo, members: [{unit: gunner}]}
        items:
          - {item: medkit, at: [4, 6]}
          - {item: grenade, at: [4, 6]}
          - {item: medkit, at: [40, 6]}
          - {item: medkit, at: [9, 3]}
    """)
    found = problems_in(path)
    assert only(found, "items[1].item").message.startswith(
        "unknown item 'grenade' for the d20 Waygates rules (their `params.items`: magazine, medkit)")
    assert only(found, "items[2].at").message == "[40, 6] is off the map (20 x 12 squares)"
    assert only(found, "items[3].at").message == "[9, 3] is ditch: an item lies where a unit can stand"
    assert not [p for p in found if p.key.startswith("items[0]")]
