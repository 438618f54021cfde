"""The computer players and d20's Disengage: the tabletop player disengages from an enemy before
walking out of its reach when its attack of opportunity would hurt, and only when an Action is
left for the walk; the simple player never takes a one-enemy Disengage as a guard."""

from __future__ import annotations

from game.ai.levels import HARD
from game.ai.simple import SimplePlayer
from game.ai.tabletop import TabletopPlayer
from game.core.commands import Defend, Draw, Move
from game.core.events import AttackResolved, Refused
from game.core.queries import Sighting, unit_info
from tests.rules.test_d20_grid import battle, devin, thrasher

AWAY = Move("red-1", ((4, 3), (3, 3)))


def test_the_tabletop_player_disengages_before_walking_out_of_a_hurtful_reach():
    with battle([(devin(hp=10), (5, 3))], [(thrasher(), (6, 3))], initiative=(20, 1)) as fight:
        player = TabletopPlayer("red", 1, HARD)
        me = unit_info(fight, "red-1")
        command = player._disengage(fight, me, AWAY)
        assert command == Defend("red-1", "disengage:blue-1")
        assert not isinstance(fight.submit(command), Refused)
        events = fight.submit(AWAY)
        assert not isinstance(events, Refused)
        assert not any(isinstance(e, AttackResolved) for e in events)
        assert fight.session.position("red-1") == (3, 3)


def test_it_walks_on_when_the_attack_would_barely_scratch_or_no_action_would_be_left():
    with battle([(devin(hp=200), (5, 3))], [(thrasher(), (6, 3))], initiative=(20, 1)) as fight:
        player = TabletopPlayer("red", 1, HARD)
        assert player._disengage(fight, unit_info(fight, "red-1"), AWAY) is None
    with battle([(devin(hp=10), (5, 3))], [(thrasher(), (6, 3))], initiative=(20, 1)) as fight:
        assert not isinstance(fight.submit(Draw("red-1", 1)), Refused)
        player = TabletopPlayer("red", 1, HARD)
        assert player._disengage(fight, unit_info(fight, "red-1"), AWAY) is None


def test_the_simple_player_does_not_guard_with_a_one_enemy_disengage():
    with battle([(devin(), (5, 3))], [(thrasher(), (6, 3))], initiative=(20, 1)) as fight:
        assert not isinstance(fight.submit(Draw("red-1", 1)), Refused)     # one Action left
        me = unit_info(fight, "red-1")
        assert me.ap == 1
        enemy = Sighting("blue-1", (6, 3), 30, "ok")
        assert SimplePlayer("red")._guard(fight, me, [enemy]) is None
