"""The tactical player knows only what its side sees, and never touches the battle's dice."""

from __future__ import annotations

from game.ai import PLAYERS, make_player
from game.ai.intel import Intel
from game.ai.levels import LEVELS
from game.ai.tactical import TacticalPlayer
from game.core.commands import EndTurn, Move
from game.core.engine import Battle
from game.rulesets import new_battle
from tests.ai.ai_helpers import end_turns_until
from tests.core.builders import setup, unit

ROWS = ["..........",
        "....#.....",
        "....#.....",
        "....#.....",
        ".........."]


def battle() -> Battle:
    scout = unit("scout", weapons=("pistol",))
    hidden = unit("hidden", weapons=("rifle",), ap=30)
    return new_battle(setup(ROWS, {"us": [(scout, (2, 2))], "them": [(hidden, (6, 2))]}, ambush="us"), 7)


def test_an_enemy_behind_a_wall_is_unknown():
    with battle() as b:
        picture = Intel("us").update(b)
        assert picture.foes == []


def test_an_enemy_out_of_sight_is_remembered_where_it_was_last_seen():
    scout = unit("scout", weapons=("pistol",), sight=3, ap=30)
    hidden = unit("hidden", weapons=("rifle",), ap=30)
    with new_battle(setup(ROWS, {"us": [(scout, (2, 2))], "them": [(hidden, (6, 2))]}, ambush="us"), 7) as b:
        intel = Intel("us")
        end_turns_until(b, "them-1")
        assert b.submit(Move("them-1", ((5, 1), (5, 0), (4, 0))))     # steps into view
        intel.observe(b)
        assert [f.square for f in intel.memory.values()] == [(4, 0)]
        end_turns_until(b, "us-1")
        assert b.submit(Move("us-1", ((1, 3), (0, 4))))               # we look away
        end_turns_until(b, "them-1")
        assert b.submit(Move("them-1", ((5, 0), (6, 1), (7, 2))))     # it slips off
        intel.observe(b)
        assert [(f.square, f.visible) for f in intel.memory.values()] == [((4, 0), False)]


def test_an_enemy_seen_to_leave_is_forgotten():
    with battle() as b:
        intel = Intel("us")
        end_turns_until(b, "them-1")
        assert b.submit(Move("them-1", ((5, 1), (5, 0), (4, 0))))
        intel.observe(b)
        assert b.submit(Move("them-1", ((5, 0), (6, 1), (7, 2))))     # we see (4, 0) empty
        intel.observe(b)
        assert intel.memory == {}


def test_choosing_a_command_rolls_no_dice_and_repeats_with_the_same_seed():
    chosen = []
    for _ in range(2):
        with battle() as b:
            end_turns_until(b, "us-1")
            before = b.session.dice.fingerprint()
            player = TacticalPlayer("us", 11, LEVELS["easy"])
            commands = [player.next_command(b) for _ in range(3)]
            assert b.session.dice.fingerprint() == before
            chosen.append(commands)
    assert chosen[0] == chosen[1]


def test_the_levels_are_registered():
    for name in ("easy", "normal", "hard"):
        assert name in PLAYERS
        player = make_player(name, "us", 3)
        assert isinstance(player, TacticalPlayer) and player.level.name == name
    with battle() as b:
        end_turns_until(b, "us-1")
        assert make_player("hard", "us").next_command(b) is not None
        assert isinstance(make_player("hard", "them").next_command(b), EndTurn)   # not its turn
