"""The computer player leans out from total cover to shoot (skirmish), and back."""

from __future__ import annotations

from game.ai.levels import HARD
from game.ai.tactical import TacticalPlayer
from game.core.commands import Attack, Lean
from game.core.queries import visible_enemies
from game.rulesets import new_battle
from tests.ai.ai_helpers import end_turns_until, take_turn
from tests.core.builders import setup, unit

# the rifleman at (1, 1) is boxed in behind the container H; its friend at (4, 3) sees the
# wounded gunman at (8, 1), which the rifleman can only see by leaning out.
ROWS = ["#.#.......",
        "#.H.......",
        "###.......",
        ".........."]


def test_a_unit_behind_total_cover_leans_out_to_shoot_an_enemy_its_side_sees():
    me = unit("rifleman", ap=14, weapons=("rifle",), aim=6)
    spotter = unit("spotter", weapons=("knife",))
    gunman = unit("gunman", hp=3, weapons=("pistol",))
    placements = {"us": [(me, (1, 1)), (spotter, (4, 3))], "them": [(gunman, (8, 1))]}
    with new_battle(setup(ROWS, placements, ambush="us"), 1) as b:
        end_turns_until(b, "us-1")
        assert visible_enemies(b.session, "us") == ["them-1"]
        assert "total cover" in b.submit(Attack("us-1", "them-1")).reason
        commands = take_turn(b, TacticalPlayer("us", 0, HARD))
        assert isinstance(commands[0], Lean) and commands[0].out, commands
        assert any(isinstance(c, Attack) and c.target == "them-1" for c in commands), commands


def test_a_unit_leant_out_with_nothing_to_shoot_ducks_back_before_its_turn_ends():
    from game.core import components as c
    from game.rulesets.skirmish.cover import Leaning

    me = unit("rifleman", ap=14, weapons=("rifle",), aim=6)
    gunman = unit("gunman", weapons=("pistol",))
    placements = {"us": [(me, (1, 1))], "them": [(gunman, (8, 1))]}
    boxed = ["###" + ROWS[0][3:], *ROWS[1:]]        # no step to take: only leaning back hides it
    with new_battle(setup(boxed, placements, ambush="us"), 1) as b:
        end_turns_until(b, "us-1")
        b.submit(Lean("us-1"))
        loadout = b.session.get("us-1", c.Loadout)
        loadout.current.ammo = 0                    # an empty rifle and no spare magazine
        loadout.current.spare = 0
        assert visible_enemies(b.session, "us") == ["them-1"]
        take_turn(b, TacticalPlayer("us", 0, HARD))
        assert not b.session.has("us-1", Leaning)
