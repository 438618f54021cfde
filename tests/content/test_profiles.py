"""Per-ruleset stat blocks (`rules: {engine: ...}`) on units, weapons and armor: their shapes,
the checks a scenario's ruleset makes on them, and loading a scenario under another ruleset."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from game.content.loader import (
    ContentError,
    load_library,
    load_setup,
    playable_rulesets,
    validate_paths,
)
from game.rulesets import profile_model
from tests.content.content_helpers import Write, only, problems_in

ENGINES = ("eclipse2", "eclipse1", "opend6", "d20")
SKIRMISH_STATS = """
    attributes: {strength: 0, dexterity: 0, agility: 0, constitution: 4, intelligence: 0}
    skills: {aim: 5, melee: 2, unarmed: 2, dodge: 3, willpower: 3, heal: 0, demolitions: 0}
"""
D20_BLOCK = """
      d20:
        hp: 20
        attributes: {str: 1, dex: 2, per: 0, wil: 0, mag: 0, vit: 1, armor_rating: 13}
        skills: {awareness: 2, stealth: 1}
        reactions: [dodge]
"""
LIBRARY = load_library()


def _indented(text: str, spaces: int) -> str:
    body = textwrap.dedent(text).strip("\n")
    return "".join(" " * spaces + line + "\n" for line in body.splitlines())


def unit(ident: str, *, rules: str = "", weapons: str = "[]", stats: str = SKIRMISH_STATS) -> str:
    """A unit item of a `units:` file, with skirmish stats and the given rules blocks."""
    text = f"  - id: {ident}\n    name: {ident.title()}\n    ap: 14\n    hp: 20\n"
    text += _indented(stats, 4) + f"    weapons: {weapons}\n"
    if rules:
        text += "    rules:\n" + _indented(rules, 6)
    return text


def scenario(ident: str, ruleset: str, *units: str) -> str:
    """A scenario on the bundled alley map: the units against two bundled riflemen."""
    members = ", ".join(f"{{unit: {name}}}" for name in units)
    return (f"id: {ident}\nname: {ident.title()}\nruleset: {ruleset}\nmap: alley\nsides:\n"
            f"  - {{id: a, name: A, zone: alpha, members: [{members}]}}\n"
            "  - {id: b, name: B, zone: bravo, members: [{unit: rifleman, count: 2}]}\n")


def read_block(engine: str, kind: str, block: dict) -> Any:
    """A `rules[engine]` block read through the model of the ruleset that plays `engine`."""
    model = profile_model(engine, kind)
    assert model is not None
    return model.model_validate(block)


def line_of(path: Path, text: str) -> int:
    """The 1-based line of the first line of `path` that contains `text`."""
    lines = path.read_text().splitlines()
    return next(number for number, line in enumerate(lines, 1) if text in line)


# --- shapes ----------------------------------------------------------------------------------

def test_die_codes_are_stored_as_pips(write: Write) -> None:
    path = write("u.yaml", "units:\n" + unit("brawler", rules="""
      opend6:
        hp: 30
        attributes: {agility: 3D+1, physique: 4D, perception: 2D+2, coordination: 2d-1}
        skills: {marksmanship: 12, dodge: " 5D + 2 "}
    """))
    assert problems_in(path) == []
    block = load_library([path]).units["brawler"].rules["opend6"]
    profile = read_block("opend6", "unit", block)
    assert profile.attributes == {"agility": 10, "physique": 12, "perception": 8,
                                  "coordination": 5}
    assert profile.skills == {"marksmanship": 12, "dodge": 17}
    size, death_rating = read_block("d20", "unit", block).size, read_block(
        "eclipse2", "unit", block).death_rating     # the defaults of the rulesets that read them
    assert (profile.hp, size, death_rating) == (30, "medium", 0)


def test_a_bad_die_code_names_file_line_and_key(write: Write) -> None:
    path = write("u.yaml", "units:\n" + unit("brawler", rules="""
      opend6:
        hp: 30
        attributes: {agility: 3X, physique: +1D}
    """))
    problems = problems_in(path)
    bad = only(problems, "units[0].rules.opend6.attributes.agility")
    assert (bad.file, bad.line) == (str(path), line_of(path, "agility: 3X"))
    assert "'3X' is neither a number nor a die code like 3D+1" in bad.message
    assert f"{path}:{bad.line}:" in str(bad)
    plus = only(problems, "units[0].rules.opend6.attributes.physique")
    assert "'+1D'" in plus.message  # "+" adds Strength Damage to a weapon; no stat has it


def test_weapon_and_armor_codes_are_checked(write: Write) -> None:
    weapons = write("w.yaml", """
        weapons:
          - id: zapper
            name: Zapper
            kind: firearm
            damage: 2d6
            modes: [{name: single, ap: 2}]
            rules:
              eclipse2: {skill: guns, damage: 2d10+4, burst: 3D}
              opend6: {skill: marksmanship, damage: +1D+2, ranges: [50, 25, 100]}
              d20: {damage: 2x10, crit_range: 1}
              eclipse1: {damage: 1d10, armor_penetration: 2}
    """)
    problems = problems_in(weapons)
    assert "neither dice like 2d10" in only(problems, "weapons[0].rules.d20.damage").message
    assert only(problems, "weapons[0].rules.d20.crit_range").line == line_of(weapons, "2x10")
    assert "not a dice code" in only(problems, "weapons[0].rules.eclipse2.burst").message
    assert "ranges are [short, medium, long]" in only(
        problems, "weapons[0].rules.opend6.ranges").message
    assert len(problems) == 4
    armor = write("a.yaml", """
        armor:
          - id: tin
            name: Tin
            rules:
              opend6: {armor: 1D+1}
              d20: {armor_rating: 2, resistances: [fire]}
          - id: foil
            name: Foil
            rules:
              opend6: {armor: 1Q}
              eclipse2: {kinetic: -1}
    """)
    problems = problems_in(armor)
    assert [p.key for p in problems] == ["armor[1].rules.opend6.armor",
                                         "armor[1].rules.eclipse2.kinetic"]
    assert problems[0].line == line_of(armor, "armor: 1Q")
    armor.write_text(armor.read_text().split("  - id: foil")[0])
    tin = load_library([armor]).armor["tin"]
    assert read_block("opend6", "armor", tin.rules["opend6"]).armor == "1D+1"  # kept as written


def test_a_key_its_ruleset_never_reads_is_reported(write: Write) -> None:
    path = write("w.yaml", """
        weapons:
          - id: sabre
            name: Sabre
            kind: melee
            damage: 1d8
            modes: [{name: strike, ap: 2}]
            rules:
              d20: {damage: 1d8, crit_rang: 19}
              eclipse1: {skill: melee, damage: 1d10, burst: 1d10}
    """)
    problems = problems_in(path)
    typo = only(problems, "weapons[0].rules.d20.crit_rang")
    assert typo.message == "unknown key 'crit_rang' (did you mean 'crit_range'?)"
    line = line_of(path, "crit_rang")
    column = path.read_text().splitlines()[line - 1].index("crit_rang") + 1
    assert (typo.line, typo.column) == (line, column)
    burst = only(problems, "weapons[0].rules.eclipse1.burst")  # eclipse2 reads it, eclipse1 not
    assert burst.message == "unknown key 'burst'"
    assert len(problems) == 2


def test_rules_are_keyed_by_a_known_engine(write: Write) -> None:
    path = write("u.yaml", "units:\n" + unit("odd", rules="""
      eclipse3: {hp: 30}
      skirmish: {hp: 30}
    """))
    problems = problems_in(path)
    unknown = only(problems, "units[0].rules.eclipse3")
    assert "no ruleset has engine 'eclipse3' (did you mean 'eclipse2'?)" in unknown.message
    assert unknown.line == line_of(path, "eclipse3")
    skirmish = only(problems, "units[0].rules.skirmish")
    assert "skirmish stats are the item's own keys" in skirmish.message


# --- what a scenario's ruleset asks of its units ---------------------------------------------

def test_a_missing_stat_is_named_with_its_file_and_line(write: Write) -> None:
    units = write("u.yaml", "units:\n" + unit("rookie", rules="""
      d20:
        hp: 20
        attributes: {str: 1, dex: 2, per: 0, wil: 0, mag: 0, armor_rating: 13}
        skills: {awareness: 2}
    """))
    write("s.yaml", scenario("probe", "d20", "rookie"))
    problems = [p for p in validate_paths([units.parent]) if p.file == str(units)]
    attribute = only(problems, "units[0].rules.d20.attributes")
    assert attribute.line == line_of(units, "armor_rating: 13")
    assert attribute.message == "missing attribute 'vit', which ruleset 'd20' needs"
    skill = only(problems, "units[0].rules.d20.skills")
    assert skill.line == line_of(units, "awareness: 2")
    assert skill.message == "missing skill 'stealth', which ruleset 'd20' needs"
    assert str(skill).startswith(f"{units}:{skill.line}:")


def test_a_unit_without_a_block_for_the_ruleset_is_reported(write: Write) -> None:
    units = write("u.yaml", "units:\n" + unit("rookie") + unit("veteran", rules=D20_BLOCK))
    write("s.yaml", scenario("probe", "d20", "rookie", "veteran"))
    problems = [p for p in validate_paths([units.parent]) if p.file == str(units)]
    missing = only(problems, "units[0].rules.d20")
    assert missing.message == (
        "no stats for ruleset 'd20' (engine d20): add rules: {d20: {...}}")
    assert missing.line == line_of(units, "id: rookie")
    assert len(problems) == 1  # the veteran has its block; the riflemen are bundled


def test_skirmish_stats_are_not_asked_of_other_rulesets(write: Write) -> None:
    units = write("u.yaml", "units:\n" + unit("rookie", rules=D20_BLOCK, stats="skills: {}"))
    write("s.yaml", scenario("probe", "d20", "rookie"))
    assert validate_paths([units.parent]) == []
    write("s.yaml", scenario("probe", "skirmish", "rookie"))
    problems = validate_paths([units.parent])
    assert "missing attribute 'strength', which ruleset 'skirmish' needs" in {
        p.message for p in problems}


def test_a_carried_weapon_without_a_block_is_reported_on_the_weapon(write: Write) -> None:
    weapons = write("w.yaml", """
        weapons:
          - id: old_pistol
            name: Old pistol
            kind: firearm
            damage: 2d6
            modes: [{name: single, ap: 2}]
          - id: new_pistol
            name: New pistol
            kind: firearm
            damage: 2d6
            modes: [{name: single, ap: 2}]
            rules:
              d20: {damage: 1d8, handgun: true, attack_types: [basic, burts]}
    """)
    carried = "[{weapon: old_pistol}, {weapon: new_pistol}, {weapon: combat_knife}]"
    write("u.yaml", "units:\n" + unit("rookie", rules=D20_BLOCK, weapons=carried)
          + unit("cadet", rules=D20_BLOCK, weapons="[{weapon: old_pistol}]")
          + "    grenades: {he_grenade: 2}\n    armor: tin\n")
    write("a.yaml", "armor:\n  - {id: tin, name: Tin}\n")  # no d20 block: no armor under d20
    write("s.yaml", scenario("probe", "d20", "rookie", "cadet"))
    problems = validate_paths([weapons.parent])
    assert {p.file for p in problems} == {str(weapons)}
    missing = only(problems, "weapons[0].rules.d20")
    assert missing.line == line_of(weapons, "id: old_pistol")
    assert missing.message == ("no stats for ruleset 'd20' (engine d20), carried by units "
                               "'rookie', 'cadet': add rules: {d20: {...}}")
    typo = only(problems, "weapons[1].rules.d20.attack_types[1]")
    assert "unknown attack type 'burts' in ruleset 'd20' (did you mean 'burst'?)" in typo.message
    assert len(problems) == 2  # the knife (bundled) has a block; grenades and armor need none


def test_unknown_reaction_and_size_names(write: Write) -> None:
    block = D20_BLOCK.replace("[dodge]", "[dodge, dodgy]") + "        size: enormous\n"
    units = write("u.yaml", "units:\n" + unit("rookie", rules=block))
    write("s.yaml", scenario("probe", "d20", "rookie"))
    problems = validate_paths([units.parent])
    reaction = only(problems, "units[0].rules.d20.reactions[1]")
    assert reaction.message.startswith("unknown reaction 'dodgy' in ruleset 'd20'")
    assert "unknown size 'enormous'" in only(problems, "units[0].rules.d20.size").message


# --- loading under another ruleset -----------------------------------------------------------

def test_load_setup_under_another_ruleset() -> None:
    setup = load_setup("depot", LIBRARY, ruleset="d20")
    assert setup.ruleset.id == "d20" and setup.ruleset.engine == "d20"
    assert setup.scenario.ruleset == "d20"
    assert setup.scenario.id == "depot" and setup.scenario.map == "depot"
    assert all("d20" in unit.rules for unit in setup.units)
    assert LIBRARY.scenarios["depot"].ruleset == "skirmish"  # the library is untouched
    back = load_setup("eclipse2_alley", LIBRARY, ruleset="skirmish")
    assert (back.ruleset.id, back.scenario.ruleset) == ("skirmish", "skirmish")


def test_load_setup_refuses_a_ruleset_the_units_lack(write: Write) -> None:
    write("u.yaml", "units:\n" + unit("rookie") + unit("veteran", rules=D20_BLOCK.replace(
        "d20:", "eclipse2:").replace("reactions: [dodge]", "")))
    path = write("s.yaml", scenario("probe", "skirmish", "rookie", "veteran"))
    library = load_library([path.parent])
    assert load_setup("probe", library).ruleset.id == "skirmish"
    with pytest.raises(ContentError) as caught:
        load_setup("probe", library, ruleset="d20")
    text = str(caught.value)
    lead = "scenario 'probe' cannot be played under 'd20': "
    assert lead + "unit 'rookie' has no stats for it" in text
    assert "unit 'veteran' has no stats for it" in text
    with pytest.raises(ContentError) as caught:
        load_setup(path, library, ruleset="eclipse2")
    messages = [p.message for p in caught.value.problems]
    assert any("unit 'veteran' is missing attribute 'cog'" in m for m in messages)
    assert any("unit 'rookie' has no stats for it" in m for m in messages)
    with pytest.raises(ContentError) as caught:
        load_setup("depot", LIBRARY, ruleset="eclipse3")
    assert ("scenario 'depot' cannot be played under 'eclipse3': unknown ruleset 'eclipse3' "
            "(did you mean 'eclipse2'?)") in str(caught.value)


def test_playable_rulesets(write: Write) -> None:
    assert set(playable_rulesets(LIBRARY, "depot")) == {
        "skirmish", "eclipse2", "eclipse1", "opend6", "d20"}
    assert playable_rulesets(LIBRARY, "d20_depot")[0] == "d20"  # its own ruleset first
    eclipse = D20_BLOCK.replace("d20:", "eclipse2:").replace(
        "{str: 1, dex: 2, per: 0, wil: 0, mag: 0, vit: 1, armor_rating: 13}",
        "{cog: 10, int: 10, ref: 15, sav: 10, som: 15, wil: 10, wound_threshold: 7}").replace(
        "{awareness: 2, stealth: 1}", "{fray: 40, guns: 45, melee: 40, athletics: 40}").replace(
        "reactions: [dodge]", "")
    write("u.yaml", "units:\n" + unit("rookie", rules=eclipse))
    path = write("s.yaml", scenario("probe", "skirmish", "rookie"))
    library = load_library([path.parent])
    # the riflemen of side b have every block; the rookie only eclipse2's and skirmish stats
    assert playable_rulesets(library, "probe") == ["skirmish", "eclipse2"]
    assert playable_rulesets(library, path) == ["skirmish", "eclipse2"]
    # a scenario file bringing its own unit, read by path
    units = "units:\n" + unit("rookie", rules=eclipse)
    alone = write("alone/s.yaml", scenario("alone", "eclipse2", "rookie") + units)
    assert playable_rulesets(LIBRARY, alone) == ["eclipse2", "skirmish"]
    assert "alone" not in LIBRARY.scenarios
    assert playable_rulesets(LIBRARY, "no_such_scenario") == []
    assert playable_rulesets(library, path.parent / "u.yaml") == []  # not a scenario


# --- the bundled content ---------------------------------------------------------------------

def test_every_bundled_unit_weapon_and_armor_has_every_block() -> None:
    for item in LIBRARY.units.values():
        assert set(item.rules) == set(ENGINES), item.id
    for item in LIBRARY.weapons.values():
        assert set(item.rules) == (set() if item.kind == "grenade" else set(ENGINES)), item.id
    for item in LIBRARY.armor.values():
        assert set(item.rules) == set(ENGINES), item.id


def test_elite_characters_outclass_troopers() -> None:
    maire, trooper = ({engine: read_block(engine, "unit", block)
                       for engine, block in LIBRARY.units[ident].rules.items()}
                      for ident in ("maire", "olea_trooper"))
    assert maire["eclipse2"].skills["guns"] > trooper["eclipse2"].skills["guns"]
    assert maire["eclipse1"].skills["fray"] > trooper["eclipse1"].skills["fray"]
    assert maire["opend6"].skills["marksmanship"] > trooper["opend6"].skills["marksmanship"]
    assert maire["d20"].attributes["dex"] > trooper["d20"].attributes["dex"]


@pytest.mark.parametrize(("ident", "ruleset", "map_id"), [
    ("eclipse2_alley", "eclipse2", "outskirts"),
    ("eclipse1_depot", "eclipse1", "depot"),
    ("opend6_alley", "opend6", "alley"),
    ("d20_depot", "d20", "depot"),
])
def test_a_bundled_scenario_per_ruleset(ident: str, ruleset: str, map_id: str) -> None:
    setup = load_setup(ident, LIBRARY)
    assert (setup.ruleset.id, setup.scenario.ruleset, setup.map.id) == (ruleset, ruleset, map_id)
    assert all(ruleset in unit.rules for unit in setup.units)
