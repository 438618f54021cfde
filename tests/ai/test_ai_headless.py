"""Many headless battles between computer players, under every ruleset: the engine never
refuses them."""

from __future__ import annotations

import random

import pytest

from game.ai import make_player
from game.content.loader import load_library
from game.content.schema import BattleSetup
from game.sim import play
from tests.core.builders import setup, unit

MAPS = [
    ["............",
     "..=....H....",
     "....#.......",
     "..,,..=..\"\".",
     "......#.....",
     "............"],
    ["##########",
     "#........#",
     "#.==.#.=.#",
     "#....#...#",
     "#.H......#",
     "##########"],
]

KINDS = [
    dict(weapons=("rifle", "knife"), abilities={"overwatch": 1}, grenades={"he_grenade": 1}),
    dict(weapons=("lmg",), abilities={"suppressive_fire": 2}, ap=16, armor="heavy"),
    dict(weapons=("smg",), heal=16, intelligence=3, armor="light"),
    dict(weapons=("knife", "pistol"), ap=18),
    dict(weapons=("pistol",), grenades={"he_grenade": 2}, demolitions=7, hp=12),
]
LEVELS = ("easy", "normal", "hard")


def _map_and_pools(rng: random.Random) -> tuple[list[str], list[tuple[int, int]], list[tuple[int, int]]]:
    """One of MAPS, and six open squares at each end (west, east) to deploy on."""
    rows = rng.choice(MAPS)
    open_squares = [(x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch in ".,\""]
    rng.shuffle(open_squares)
    west = sorted(open_squares, key=lambda sq: sq[0])[:6]
    east = sorted(open_squares, key=lambda sq: -sq[0])[:6]
    return rows, west, east


def _no_refusals(setups, rng: random.Random) -> None:
    """Play each (setup, seed) between computer players of random levels: thousands of
    commands, none refused."""
    refused: list[str] = []
    commands = 0
    for battle_setup, seed in setups:
        players = {side.id: make_player(rng.choice(LEVELS), side.id, seed)
                   for side in battle_setup.scenario.sides}
        result = play(battle_setup, seed, players, keep_events=False)
        refused += result.refused
        commands += result.commands
    assert commands > 5000
    assert refused == []


def small_battle(rng: random.Random):
    rows, west, east = _map_and_pools(rng)
    sides = {}
    for side, pool in (("blue", west), ("red", east)):
        count = rng.randint(1, 2)
        members = []
        for i, square in enumerate(rng.sample(pool, count)):
            kind = rng.randrange(len(KINDS))
            members.append((unit(f"{side}{i}k{kind}", **KINDS[kind]), square))
        sides[side] = members
    return setup(rows, sides, max_rounds=rng.randint(3, 5), ambush=rng.choice([None, "blue", "red"]))


@pytest.mark.slow
def test_a_thousand_battles_without_a_refused_command():
    rng = random.Random(2024)
    _no_refusals(((small_battle(rng), n) for n in range(1000)), rng)


TABLETOP = ("eclipse2", "eclipse1", "opend6", "d20")


def small_tabletop_battle(rng: random.Random, library, ruleset: str) -> BattleSetup:
    """A small random battle of the bundled units, with the bundled content, under `ruleset`."""
    rows, west, east = _map_and_pools(rng)
    ambush = rng.choice([None, "blue", "red"])
    units = sorted(library.units)
    sides = [{"id": side, "name": side.title(), "zone": "field", "ambush": side == ambush,
              "members": [{"unit": rng.choice(units), "name": f"{side} {i}", "at": square}
                          for i, square in enumerate(rng.sample(pool, rng.randint(1, 2)))]}
             for side, pool in (("blue", west), ("red", east))]
    return BattleSetup.model_validate({
        "scenario": {"id": "test", "name": "Test", "map": "test", "ruleset": ruleset,
                     "sides": sides, "victory": {"max_rounds": rng.randint(3, 5)}},
        "map": {"id": "test", "name": "Test", "rows": rows,
                "legend": {".": {"terrain": "open", "zone": "field"}}},
        "ruleset": library.rulesets[ruleset].model_dump(),
        "terrain": [t.model_dump() for t in library.terrain.values()],
        "weapons": [w.model_dump() for w in library.weapons.values()],
        "armor": [a.model_dump() for a in library.armor.values()],
        "units": [u.model_dump() for u in library.units.values()]})


@pytest.mark.slow
def test_battles_under_the_tabletop_rulesets_without_a_refused_command():
    """The bundled units (every one has stats for every ruleset), 100 battles a ruleset (a
    tabletop battle costs about five times a skirmish one; 1,000 were played once, all clean)."""
    library = load_library()
    rng = random.Random(2025)
    _no_refusals(((small_tabletop_battle(rng, library, TABLETOP[n % len(TABLETOP)]), n)
                  for n in range(400)), rng)
