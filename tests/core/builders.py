"""Small handmade battles for tests: a map drawn in ASCII, units placed by hand."""

from __future__ import annotations

from pathlib import Path

import yaml

from game.content.schema import (ArmorSpec, BattleSetup, MapSpec, RulesetSpec, ScenarioSpec,
                                 SideSpec, SquadMember, TerrainSpec, UnitSpec, VictorySpec,
                                 WeaponSpec)

ROOT = Path(__file__).resolve().parents[2]

TERRAIN = [
    TerrainSpec(id="open", name="Open ground", glyph="."),
    TerrainSpec(id="rough", name="Rough ground", glyph=",", rough=True),
    TerrainSpec(id="wall", name="Wall", glyph="#", walkable=False, blocks_sight=True),
    TerrainSpec(id="low_cover", name="Crate", glyph="=", walkable=False, cover="half"),
    TerrainSpec(id="high_cover", name="Container", glyph="H", walkable=False, cover="full"),
    TerrainSpec(id="brush", name="Brush", glyph='"', concealment=True),
]

PISTOL = WeaponSpec(id="pistol", name="E&S '63 Custom", kind="firearm", damage="2d6",
                    accuracy=-2, aim_max=4, aim_ap=6, range=15, spread=4, magazine=8,
                    reload_ap=4, draw_ap=3, modes=[{"name": "single", "ap": 2}])
RIFLE = WeaponSpec(id="rifle", name="Olea rifle", kind="firearm", damage="3d8", accuracy=0,
                   aim_max=6, aim_ap=6, range=40, spread=4, magazine=30, reload_ap=4, draw_ap=4,
                   modes=[{"name": "single", "ap": 3}, {"name": "burst", "ap": 5, "rof": 8}])
SMG = WeaponSpec(id="smg", name="Thensi SMG", kind="firearm", damage="3d12", accuracy=-3,
                 aim_max=2, aim_ap=2, range=20, spread=3, magazine=30, reload_ap=3, draw_ap=3,
                 modes=[{"name": "single", "ap": 2}, {"name": "burst", "ap": 4, "rof": 3}])
LMG = WeaponSpec(id="lmg", name="LMG", kind="firearm", damage="4d10", accuracy=-4, aim_max=4,
                 aim_ap=8, range=40, spread=3, magazine=100, reload_ap=8, draw_ap=6,
                 modes=[{"name": "burst", "ap": 6, "rof": 8}])
GRENADE = WeaponSpec(id="he_grenade", name="HE grenade", kind="grenade", skill="demolitions",
                     damage="5d20", damage_type="shock", range=15, modes=[{"name": "throw", "ap": 4}])
KNIFE = WeaponSpec(id="knife", name="Knife", kind="melee", skill="melee", damage="1d8",
                   damage_type="edged", draw_ap=1, modes=[{"name": "strike", "ap": 3}])

LIGHT = ArmorSpec(id="light", name="Light armor", resist={"ballistic": 3})
MAIRE_ARMOR = ArmorSpec(id="maire_light", name="Light armor", resist={"ballistic": 15})
HEAVY = ArmorSpec(id="heavy", name="Heavy armor", resist={"ballistic": 30, "shock": 30})

ATTRS = ("strength", "dexterity", "agility", "constitution", "intelligence")
SKILLS = ("aim", "melee", "unarmed", "dodge", "willpower", "heal", "demolitions")


def unit(id: str, *, ap: int = 14, hp: int = 20, morale: int = 8, weapons=("pistol",),
         armor: str | None = None, grenades: dict | None = None, abilities: dict | None = None,
         sight: int = 20, **stats: int) -> UnitSpec:
    attributes = {a: stats.pop(a, 5 if a == "constitution" else 0) for a in ATTRS}
    skills = {s: stats.pop(s, 4) for s in SKILLS}
    assert not stats, f"unknown stats {stats}"
    return UnitSpec(id=id, name=id.replace("_", " ").title(), ap=ap, hp=hp, morale=morale,
                    sight=sight, attributes=attributes, skills=skills, abilities=abilities or {},
                    weapons=[{"weapon": w} for w in weapons], armor=armor, grenades=grenades or {})


def ruleset(turns: str = "sequential") -> RulesetSpec:
    """The bundled skirmish ruleset, its units acting one at a time (`turns`) unless a test is
    about simultaneous orders."""
    data = yaml.safe_load((ROOT / "content/rulesets/skirmish.yaml").read_text())
    data["params"]["turns"] = turns
    return RulesetSpec.model_validate(data)


def setup(rows: list[str], placements: dict[str, list[tuple[UnitSpec, tuple[int, int]]]],
          *, ambush: str | None = None, max_rounds: int = 40, turns: str = "sequential") -> BattleSetup:
    """A battle on `rows` with each side's units at the given squares (first side acts first
    when initiative ties), one unit at a time or (`turns="simultaneous"`) by orders."""
    units = {spec.id: spec for members in placements.values() for spec, _ in members}
    sides = [SideSpec(id=side, name=side.title(), zone="field", ambush=(side == ambush),
                      members=[SquadMember(unit=spec.id, name=spec.name, at=at) for spec, at in members])
             for side, members in placements.items()]
    grid_map = MapSpec(id="test", name="Test", rows=rows,
                       legend={".": {"terrain": "open", "zone": "field"}})
    scenario = ScenarioSpec(id="test", name="Test", map="test", sides=sides,
                            victory=VictorySpec(max_rounds=max_rounds))
    return BattleSetup(scenario=scenario, map=grid_map, ruleset=ruleset(turns), terrain=TERRAIN,
                       weapons=[PISTOL, RIFLE, SMG, LMG, GRENADE, KNIFE],
                       armor=[LIGHT, MAIRE_ARMOR, HEAVY], units=list(units.values()))
