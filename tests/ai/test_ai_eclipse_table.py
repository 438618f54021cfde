"""The computer player under Eclipse Phase uses the table's modifiers where they help: a called
shot against armor its plain shots cannot get through, not against an unarmored target; high
ground over its enemy; and it issues no refused order on a field of high ground, dim light and
smoke."""

from __future__ import annotations

import pytest

from game.ai import make_player
from game.ai.levels import EASY, HARD
from game.ai.tabletop import TabletopPlayer
from game.content.schema import ArmorSpec
from game.core.commands import Attack, EndTurn
from game.core.events import Refused
from game.core.events import AttackResolved
from game.sim import play
from tests.rules import test_eclipse_table as table

PLATE = ArmorSpec(id="hide", name="Plate", rules={"eclipse2": {"kinetic": 18, "energy": 18}})
BARE = ArmorSpec(id="hide", name="Nothing", rules={"eclipse2": {"kinetic": 0, "energy": 0}})


def _battle_with(armor: ArmorSpec, **kw):
    original = table.HIDE
    table.HIDE = armor
    try:
        return table.battle(**kw)
    finally:
        table.HIDE = original


def test_hard_calls_its_shot_through_armor_its_plain_shots_cannot_pierce():
    """Armor 18 against 2d10: a plain hit gets 1.2 through on average; a called shot that lands
    (a superior success, 33+) ignores it."""
    with _battle_with(PLATE) as fight:
        command = TabletopPlayer("red", 1, HARD).next_command(fight)
        assert isinstance(command, Attack) and command.location == "called_shot"
    with _battle_with(PLATE) as fight:
        command = TabletopPlayer("red", 1, EASY).next_command(fight)
        assert not isinstance(command, Attack) or command.location == "torso"


def test_against_no_armor_the_minus_ten_is_not_worth_it():
    with _battle_with(BARE) as fight:
        command = TabletopPlayer("red", 1, HARD).next_command(fight)
        assert isinstance(command, Attack) and command.location == "torso"


def test_hard_climbs_to_the_high_ground_over_its_enemy():
    """A ridge two squares off: from it Jinx shoots at +20 and dodges at +20. Its turn (a shot,
    movement around it) ends on the ridge; on level ground it would not stay there."""
    for glyph, stays in (("^", True), (".", False)):
        rows = table.row({4: glyph}, y=3)
        with table.battle(j_at=(2, 3), x_at=(12, 3), rows=rows) as fight:
            player = TabletopPlayer("red", 1, HARD)
            for _ in range(10):
                command = player.next_command(fight)
                assert not isinstance(fight.submit(command), Refused), command
                if isinstance(command, EndTurn) or fight.session.active != "red-1":
                    break
            fight.session.use()
            assert (fight.session.position("red-1") == (4, 3)) == stays, glyph


FIELD = ["................",
         "..^^....&&....^.",
         "..^^....&&....^.",
         "......::::......",
         "......::::......",
         ".^......&&...^^.",
         ".^......&&...^^.",
         "................"]


@pytest.mark.slow
@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_no_refused_order_on_high_ground_dim_light_and_smoke(level):
    for seed in (1, 2, 3):
        setup = table.battle(j_at=(0, 0), x_at=(15, 7), rows=FIELD).session.setup
        players = {side.id: make_player(level, side.id, seed) for side in setup.scenario.sides}
        result = play(setup, seed, players)
        assert result.refused == [], result.refused[:3]
        attacks = [e for e in result.events if isinstance(e, AttackResolved)]
        assert attacks

