"""The computer players under the four tabletop rulesets: legal orders only, battles that end."""

from __future__ import annotations

import pytest

from game.ai import make_player
from game.ai.simple import SimplePlayer
from game.content.loader import load_setup
from game.core.commands import Defend
from game.core.engine import Battle
from game.core.events import AttackResolved, Defended
from game.core.queries import Sighting, unit_info
from game.sim import play

SCENARIOS = ["eclipse2_alley", "eclipse1_depot", "opend6_alley", "d20_depot"]


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("level", ["simple", "hard"])
def test_computer_players_give_only_legal_orders_and_fight_it_out(scenario, level):
    setup = load_setup(scenario)
    sides = [side.id for side in setup.scenario.sides]
    decided = 0
    for seed in (1, 2):
        players = {side: make_player(level, side, seed) for side in sides}
        result = play(setup, seed, players)
        assert result.refused == [], result.refused[:3]
        assert any(isinstance(e, AttackResolved) for e in result.events)
        decided += result.winner is not None
    assert decided >= 1


def test_the_same_scenario_plays_under_every_ruleset():
    for ruleset in ("skirmish", "eclipse2", "eclipse1", "opend6", "d20"):
        setup = load_setup("alley", ruleset=ruleset)
        assert setup.ruleset.id == ruleset
        players = {side.id: make_player("simple", side.id) for side in setup.scenario.sides}
        result = play(setup, 3, players)
        assert result.refused == [] and result.reason, ruleset
        started = result.events[0]
        assert started.ruleset == ruleset


def test_with_nothing_to_shoot_a_unit_defends_in_the_rulesets_order():
    setup = load_setup("opend6_alley")
    with Battle(setup, 1) as battle:
        player = SimplePlayer(battle.session.side_of(battle.session.active))
        me = unit_info(battle, battle.session.active)
        enemy = Sighting("x", (0, 0), 1, "ok")
        command = player._guard(battle, me, [enemy])
        assert command == Defend(me.uid, "dodge")       # dodge first: block and parry stop no bullets
        events = battle.submit(command)
        assert any(isinstance(e, Defended) for e in events)
