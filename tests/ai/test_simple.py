"""The simple baseline player sends only commands the engine accepts."""

from __future__ import annotations

from pathlib import Path

from game.ai import make_player
from game.core import components as c
from game.core.commands import ChangeStance, EndTurn, Move
from game.core.dice import Dice
from game.rulesets import new_battle
from game.core.events import Refused
from tests.core.builders import setup, unit


def test_a_prone_unit_gets_up_before_moving():
    dice = Dice(0)
    dice.force(9, 1)
    rows = ["......#....." for _ in range(5)] + ["............"]     # a wall hides the enemy
    with new_battle(setup(rows, {"a": [(unit("sleeper", ap=14), (0, 0))],
                             "b": [(unit("far"), (11, 5))]}, ambush="a"), 0, dice=dice) as b:
        b.session.get("a-1", c.Posture).stance = "prone"
        player = make_player("simple", "a", 0)
        player.last_seen["b-1"] = (11, 5)        # it saw the enemy there before
        first = player.next_command(b)
        assert isinstance(first, ChangeStance) and first.stance == "stand"
        assert b.submit(first)
        second = player.next_command(b)
        assert isinstance(second, Move) and not isinstance(b.submit(second), Refused)


def test_simple_players_are_never_refused_over_many_battles():
    from game.content.loader import load_setup
    from game.sim import play

    example = Path(__file__).resolve().parents[2] / "docs" / "examples" / "maires_stand.yaml"
    for scenario in ("alley", example, "depot"):
        setup_ = load_setup(scenario)
        for seed in range(12):
            players = {s.id: make_player("simple", s.id, seed) for s in setup_.scenario.sides}
            result = play(setup_, seed, players, keep_events=False)
            assert result.refused == [], (scenario, seed, result.refused[:3])


def test_a_blade_is_never_reloaded():
    """A knife listed without `spare_magazines: 0` still has the default count of magazines;
    the simple player reloads firearms only (the engine refuses the rest)."""
    from game.core.commands import Reload
    from tests.rules import test_eclipse_grid as e

    knife_only = e.jinx(weapons=[{"weapon": "knife"}])
    with e.battle(j=knife_only, j_at=(2, 2), x_at=(12, 2)) as fight:
        while fight.session.active != "red-1":
            fight.submit(EndTurn(fight.session.active))
        player = make_player("simple", "red", 1)
        for _ in range(6):
            if fight.session.active != "red-1":
                break
            command = player.next_command(fight)
            assert not isinstance(command, Reload)
            assert not isinstance(fight.submit(command), Refused)
