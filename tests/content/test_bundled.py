"""The bundled content: loads cleanly, deploys every scenario, keeps the rules' numbers."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.color import Color

from game.content.loader import (
    bundled_content_dir,
    deploy,
    load_library,
    load_setup,
    parse_map,
    validate_paths,
)

LIBRARY = load_library()
SCENARIOS = sorted(LIBRARY.scenarios)


def test_bundled_content_has_no_problem() -> None:
    assert validate_paths([]) == []
    assert validate_paths([bundled_content_dir()]) == []  # read twice: no duplicate ids


def test_library_holds_every_kind() -> None:
    terrain = {"open", "rough", "wall", "low_cover", "high_cover", "door", "water", "brush"}
    terrain.add("rubble")
    assert terrain <= set(LIBRARY.terrain)
    assert {"hollis", "olea_trooper", "maire", "support", "soldier"} <= set(LIBRARY.units)
    assert {"rifleman", "medic", "gunner", "marksman", "grenadier"} <= set(LIBRARY.units)
    assert "skirmish" in LIBRARY.rulesets
    assert LIBRARY.source("unit", "maire").endswith("characters.yaml")


@pytest.mark.parametrize(("scenario", "width", "height", "per_side"), [
    ("alley", 16, 12, None),
    ("depot", 32, 32, 6),
    ("outskirts", 64, 64, None),
])
def test_scenario_sizes(scenario: str, width: int, height: int, per_side: int | None) -> None:
    setup = load_setup(scenario)
    assert (len(setup.map.rows[0]), len(setup.map.rows)) == (width, height)
    if per_side is not None:
        deployments = deploy(setup)
        for side in setup.scenario.sides:
            assert sum(d.side == side.id for d in deployments) == per_side


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_scenario_deploys_on_free_walkable_squares_of_its_zones(scenario: str) -> None:
    setup = load_setup(scenario, LIBRARY)
    terrain = {item.id: item for item in setup.terrain}
    parsed = parse_map(setup.map, terrain)
    deployments = deploy(setup)
    assert deployments
    squares = [(d.x, d.y) for d in deployments]
    assert len(set(squares)) == len(squares)
    assert len({d.name for d in deployments}) == len(deployments)
    explicit = {
        (member.at[0], member.at[1])
        for side in setup.scenario.sides for member in side.members if member.at is not None
    }
    zones = {side.id: side.zone for side in setup.scenario.sides}
    for d in deployments:
        assert parsed.inside(d.x, d.y)
        assert terrain[parsed.terrain_at(d.x, d.y)].walkable
        assert (d.x, d.y) in explicit or (d.x, d.y) in parsed.zones[zones[d.side]]
    assert deploy(setup) == deployments


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_setup_holds_only_what_the_battle_needs(scenario: str) -> None:
    setup = load_setup(scenario, LIBRARY)
    used_units = {d.unit for d in deploy(setup)}
    assert {unit.id for unit in setup.units} == used_units
    carried = {c.weapon for u in setup.units for c in u.weapons}
    carried |= {g for u in setup.units for g in u.grenades}
    assert {weapon.id for weapon in setup.weapons} == carried
    assert {armor.id for armor in setup.armor} == {u.armor for u in setup.units if u.armor}
    parsed = parse_map(setup.map, {t.id: t for t in setup.terrain})
    used_terrain = {t for row in parsed.terrain_ids for t in row}
    assert {item.id for item in setup.terrain} == used_terrain
    assert setup.scenario.map == setup.map.id
    assert setup.ruleset.id == setup.scenario.ruleset


def test_scenarios_use_ambush_reach_and_explicit_placement() -> None:
    assert any(side.ambush for s in LIBRARY.scenarios.values() for side in s.sides)
    outskirts = LIBRARY.scenarios["outskirts"]
    extract = outskirts.all_objectives()[0]
    assert (extract.type, extract.side, extract.zone, extract.count) == ("extract", "alpha",
                                                                        "extract", 2)
    assert outskirts.reinforcements[0].when.seen == "alpha"
    kinds = {o.type for s in LIBRARY.scenarios.values() for o in s.objectives}
    assert kinds >= {"extract", "hold", "protect", "escort", "kill", "survive", "eliminate"}
    example = Path(__file__).resolve().parents[2] / "docs" / "examples" / "maires_stand.yaml"
    hangar = load_setup(example, LIBRARY)
    placed = {d.name: (d.x, d.y) for d in deploy(hangar)}
    assert placed == {"Maire Jensen": (2, 9), "Support": (13, 2), "Soldier": (14, 3)}


def test_terrain_colours_are_colour_names() -> None:
    for item in LIBRARY.terrain.values():
        Color.parse(item.color)


def test_terrain_glyphs_and_flags() -> None:
    t = LIBRARY.terrain
    assert (t["wall"].glyph, t["wall"].walkable, t["wall"].blocks_sight) == ("#", False, True)
    low = t["low_cover"]
    assert (low.glyph, low.cover, low.walkable) == ("=", "half", False)
    assert (t["high_cover"].cover, t["high_cover"].blocks_sight) == ("full", False)
    assert (t["door"].walkable, t["door"].blocks_sight) == (True, True)
    assert t["brush"].concealment and t["rough"].rough and t["rubble"].rough
    assert not t["water"].walkable


def test_weapons_match_the_rules_examples() -> None:
    w = LIBRARY.weapons
    pistol = w["es63_custom"]
    assert (pistol.damage, pistol.accuracy, pistol.aim_max) == ("2d6", -2, 4)
    assert (pistol.aim_ap, pistol.draw_ap) == (6, 3)
    assert (pistol.spread, pistol.magazine, pistol.range, pistol.reload_ap) == (4, 8, 15, 4)
    rifle = w["olea_rifle"]
    assert rifle.spread == 4 and max(mode.rof for mode in rifle.modes) == 8
    smg = w["thensi_smg"]
    assert (smg.damage, smg.accuracy, smg.spread, smg.aim_max, smg.aim_ap) == ("3d12", -3, 3, 2, 2)
    assert {(m.name, m.ap, m.rof) for m in smg.modes} == {("single", 2, 1), ("burst", 4, 3)}
    assert w["harrow_lmg"].accuracy == -4
    grenade = w["he_grenade"]
    assert (grenade.kind, grenade.skill, grenade.damage, grenade.damage_type, grenade.range) == (
        "grenade", "demolitions", "5d20", "shock", 15)
    assert [m.name for m in grenade.modes] == ["throw"]
    knife = w["combat_knife"]
    assert (knife.kind, knife.skill, knife.damage_type) == ("melee", "melee", "edged")


def test_sniper_full_aim_and_shot_cost_more_than_a_turn() -> None:
    sniper = LIBRARY.weapons["kestrel_rifle"]
    cost = sniper.aim_ap + min(mode.ap for mode in sniper.modes)
    carriers = [u for u in LIBRARY.units.values() if any(c.weapon == sniper.id for c in u.weapons)]
    assert carriers and all(cost > unit.ap for unit in carriers)


def test_characters_match_the_rules_examples() -> None:
    u, a = LIBRARY.units, LIBRARY.armor
    hollis = u["hollis"]
    assert (hollis.ap, hollis.skills["aim"], hollis.attributes["dexterity"]) == (10, 6, 1)
    trooper = u["olea_trooper"]
    assert (trooper.skills["dodge"], trooper.attributes["agility"]) == (4, 0)
    assert a[trooper.armor].resist["ballistic"] == 3
    maire = u["maire"]
    skills, attributes = maire.skills, maire.attributes
    assert (skills["aim"], skills["willpower"], skills["dodge"], maire.ap) == (8, 6, 7, 24)
    assert (skills["demolitions"], attributes["agility"]) == (0, 3)
    assert (attributes["dexterity"], attributes["intelligence"]) == (0, 0)
    assert maire.weapons[0].weapon == "thensi_smg" and maire.grenades == {"he_grenade": 1}
    assert a[maire.armor].resist["ballistic"] == 15
    support = u["support"]
    assert (support.skills["aim"], support.attributes["dexterity"], support.morale) == (7, -1, 8)
    assert a[support.armor].resist["ballistic"] == 30 and a[support.armor].resist["shock"] == 30
    assert support.hp - 28 <= -support.attributes["constitution"]  # 28 damage kills outright
    assert support.abilities["suppressive_fire"] == 1
    soldier = u["soldier"]
    assert (soldier.skills["aim"], soldier.attributes["dexterity"], soldier.morale) == (5, 4, 8)
    assert "overwatch" in soldier.abilities and soldier.hp > 12
    assert u["medic"].skills["heal"] >= 15 and u["medic"].attributes["intelligence"] == 3
