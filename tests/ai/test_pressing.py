"""The computer opponent under simultaneous orders, in small tactical situations: it throws at
bunched enemies, plans its way into cover under fire, hunts down a lone enemy out of sight and
does not sit in blind overwatch round after round when nothing comes."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from game.ai import goals, shooting
from game.ai.levels import HARD
from game.ai.tactical import TacticalPlayer
from game.core.commands import Command, GiveOrders, Move, Proceed, SetOverwatch, Throw
from game.core.engine import Battle
from game.core.events import Refused
from game.rulesets import new_battle
from tests.core.builders import setup, unit

GRENADIER = dict(ap=14, weapons=("smg",), grenades={"he_grenade": 2}, demolitions=8, dexterity=2)


def idle(battle: Battle) -> Command:
    """A side that gives no orders and carries out none."""
    s = battle.session
    return GiveOrders(side=s.planning[0]) if s.planning else Proceed(s.active or "")


def orders_of(battle: Battle, side: str) -> GiveOrders:
    """`side`'s orders for the round being planned, from the hard player."""
    command = TacticalPlayer(side, 0, HARD).next_command(battle)
    assert isinstance(command, GiveOrders), command
    return command


def planned(orders: GiveOrders, uid: str) -> list[Command]:
    return [o.command for unit_id, queue in orders.orders if unit_id == uid for o in queue]


def play_rounds(battle: Battle, players: dict[str, Callable[[Battle], Command]], rounds: int,
                after: Callable[[Battle], None] = lambda b: None) -> None:
    s = battle.session
    while not s.over and s.round <= rounds:
        result = battle.submit(players[s.acting_side or ""](battle))
        assert not isinstance(result, Refused), result
        after(battle)


def test_bunched_enemies_get_a_grenade_in_the_rounds_orders():
    rows = ["......................"] * 9
    foes = [unit(f"foe{i}", weapons=("rifle",), hp=25) for i in range(3)]
    them = [(foes[0], (13, 3)), (foes[1], (14, 4)), (foes[2], (13, 5))]
    placements = {"us": [(unit("grenadier", **GRENADIER), (3, 4))], "them": them}
    with new_battle(setup(rows, placements, ambush="us", turns="simultaneous"), 3) as b:
        throws = [c for c in planned(orders_of(b, "us"), "us-1") if isinstance(c, Throw)]
        assert throws and max(abs(throws[0].at[0] - 13), abs(throws[0].at[1] - 4)) <= 1, throws


def test_a_unit_in_the_open_under_fire_plans_its_round_into_cover():
    """Standing in the open in the gunman's sight, with a crate two squares off, its orders
    for the round end behind the crate."""
    rows = ["................",
            "................",
            "...=............",
            "................"]
    placements = {"us": [(unit("pistolero", ap=14, weapons=("pistol",)), (2, 0))],
                  "them": [(unit("gunman", weapons=("pistol",), armor="heavy"), (13, 1))]}
    with new_battle(setup(rows, placements, ambush="us", turns="simultaneous"), 1) as b:
        grid = b.session.grid
        assert grid.cover_against((2, 0), (13, 1)) == "none"
        moves = [c for c in planned(orders_of(b, "us"), "us-1") if isinstance(c, Move)]
        assert moves and grid.cover_against(moves[-1].path[-1], (13, 1)) != "none", moves


ROOM = ["##################",
        "#................#",
        "#..........#####.#",
        "#..........#...#.#",
        "#..............#.#",
        "#..........#...#.#",
        "#..........#####.#",
        "#................#",
        "##################"]


def test_a_lone_enemy_behind_a_door_is_found():
    """The enemy waits in a room, out of every sight line; the side that has not seen it goes
    and looks, through the doorway, within eight rounds."""
    placements = {"us": [(unit("hunter", ap=14, weapons=("rifle",)), (2, 4))],
                  "them": [(unit("hider", weapons=("pistol",)), (14, 3))]}
    with new_battle(setup(ROOM, placements, turns="simultaneous"), 5) as b:
        assert not b.session.sees("us", (14, 3))
        found: list[int] = []
        hunter = TacticalPlayer("us", 5, HARD)

        def look(battle: Battle) -> None:
            if not found and battle.session.sees("us", (14, 3)):
                found.append(battle.session.round)

        play_rounds(b, {"us": hunter.next_command, "them": idle}, 8, look)
        assert found, "the hider was never found"


def blind_watch_rounds(seed: int) -> int:
    """Rounds, of the first eight, in which a unit that has never seen its enemy (far off
    behind walls) is ordered to keep blind watch (creeping a square or standing)."""
    rows = ["##############################",
            "#............#...............#",
            "#............#...............#",
            "#............#...............#",
            "#............................#",
            "##############################"]
    placements = {"us": [(unit("watcher", ap=14, weapons=("rifle",), abilities={"overwatch": 1}),
                          (1, 2))],
                  "them": [(unit("far", weapons=("rifle",)), (28, 2))]}
    with new_battle(setup(rows, placements, turns="simultaneous"), seed) as b:
        s, player, rounds = b.session, TacticalPlayer("us", seed, HARD), []

        def us(battle: Battle) -> Command:
            command = player.next_command(battle)
            if isinstance(command, GiveOrders):
                if any(isinstance(c, SetOverwatch) for c in planned(command, "us-1")):
                    rounds.append(s.round)
            return command

        play_rounds(b, {"us": us, "them": idle}, 8)
        return len(rounds)


def test_a_side_that_sees_nothing_come_stops_watching_and_goes_looking():
    assert blind_watch_rounds(2) <= 1


def test_without_the_fading_watch_and_the_restless_search_it_waits(monkeypatch: pytest.MonkeyPatch):
    """What the test above guards: with blind overwatch worth as much in every round and no
    growing pull to search, the unit creeps a square a round under blind watch from round 5."""
    monkeypatch.setattr(shooting, "WATCH_FADE", 1.0)
    monkeypatch.setattr(goals, "RESTLESS", 0.0)
    assert blind_watch_rounds(2) >= 3
