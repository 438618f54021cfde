"""The tactical player's choices on small handmade maps."""

from __future__ import annotations

from game.ai.levels import HARD
from game.ai.tactical import TacticalPlayer
from game.core.commands import Attack, Move, SetOverwatch, Throw
from game.core.engine import Battle
from game.rulesets import new_battle
from tests.ai.ai_helpers import end_turns_until, take_turn
from tests.core.builders import setup, unit


def hard(side: str, seed: int = 0) -> TacticalPlayer:
    return TacticalPlayer(side, seed, HARD)


def test_an_exposed_unit_moves_into_cover():
    # Pistols cannot hurt the armored gunman across the yard; the crate at (3, 2) can stop
    # his. Standing in the open at (2, 0), the unit steps behind the crate.
    rows = ["................",
            "................",
            "...=............",
            "................"]
    me = unit("pistolero", ap=14, weapons=("pistol",))
    rifleman = unit("gunman", weapons=("pistol",), armor="heavy")
    with new_battle(setup(rows, {"us": [(me, (2, 0))], "them": [(rifleman, (13, 1))]}, ambush="us"), 1) as b:
        end_turns_until(b, "us-1")
        grid = b.session.grid
        assert grid.cover_against((2, 0), (13, 1)) == "none"
        commands = take_turn(b, hard("us"))
        moves = [c for c in commands if isinstance(c, Move)]
        assert moves, commands
        assert grid.cover_against(b.session.position("us-1"), (13, 1)) != "none"


def test_it_shoots_the_target_it_can_kill():
    # Two riflemen in the open, equally easy to hit: one is down to 3 HP.
    rows = ["................"] * 5
    me = unit("shooter", ap=14, weapons=("rifle",), aim=6)
    healthy = unit("healthy", weapons=("rifle",), hp=30)
    wounded = unit("wounded", weapons=("rifle",), hp=3)
    placements = {"us": [(me, (2, 2))], "them": [(healthy, (10, 1)), (wounded, (10, 3))]}
    with new_battle(setup(rows, placements, ambush="us"), 2) as b:
        end_turns_until(b, "us-1")
        commands = take_turn(b, hard("us"))
        attacks = [c for c in commands if isinstance(c, Attack)]
        assert attacks and attacks[0].target == "them-2", commands


GRENADIER = dict(ap=14, weapons=("smg",), grenades={"he_grenade": 2}, demolitions=8, dexterity=2)


def grenade_battle(friend_at: tuple[int, int]) -> Battle:
    rows = ["......................"] * 9
    me = unit("grenadier", **GRENADIER)
    friend = unit("friend", weapons=("knife",))
    foes = [unit(f"foe{i}", weapons=("rifle",), hp=25) for i in range(3)]
    them = [(foes[0], (13, 3)), (foes[1], (14, 4)), (foes[2], (13, 5))]
    return new_battle(setup(rows, {"us": [(me, (3, 4)), (friend, friend_at)], "them": them},
                        ambush="us"), 3)


def throws(battle: Battle) -> list[Throw]:
    end_turns_until(battle, "us-1")
    return [c for c in take_turn(battle, hard("us")) if isinstance(c, Throw)]


def test_it_throws_a_grenade_at_a_cluster_of_enemies():
    with grenade_battle(friend_at=(1, 8)) as b:
        thrown = throws(b)
        assert thrown and max(abs(thrown[0].at[0] - 13), abs(thrown[0].at[1] - 4)) <= 1


def test_it_does_not_throw_a_grenade_that_would_hit_its_own_units():
    # The same cluster, but a friend stands right next to it.
    with grenade_battle(friend_at=(12, 4)) as b:
        assert throws(b) == []


def test_it_keeps_watch_when_no_good_shot_is_in_reach():
    # The enemy is far beyond the carbine's range, behind a crate: overwatch toward it.
    rows = ["..........................................."] * 3
    me = unit("watcher", ap=14, weapons=("pistol",), abilities={"overwatch": 1})
    far = unit("far", weapons=("rifle",), armor="heavy")
    with new_battle(setup(rows, {"us": [(me, (1, 1))], "them": [(far, (41, 1))]}, ambush="us"), 4) as b:
        end_turns_until(b, "us-1")
        commands = take_turn(b, hard("us"))
        assert any(isinstance(c, SetOverwatch) for c in commands), commands
