"""Under the tabletop rulesets the computer players pursue the objectives with enemies in sight:
they run for the exit when they can get there, and at `hard` shoot the unit an objective names."""

from __future__ import annotations

import pytest

from game.ai import make_player
from game.content.loader import load_setup
from game.content.schema import BattleSetup
from game.core import components as c
from game.core.commands import Attack, EndTurn, Move
from game.core.events import Refused
from game.core.queries import sightings
from game.rulesets import new_battle

TABLETOP = ["eclipse2", "eclipse1", "opend6", "d20"]


def placed(scenario: str, ruleset: str, at: dict[str, list[tuple[str, tuple[int, int]]]],
           objectives: list[dict] | None = None) -> BattleSetup:
    """The bundled `scenario` under `ruleset` with only the units `at` names, each side's
    `(unit id, square)`, and (if given) other objectives."""
    setup = load_setup(scenario, ruleset=ruleset)
    data = setup.scenario.model_dump()
    for side in data["sides"]:
        side.update(squad=None, ambush=False,
                    members=[{"unit": unit, "at": square} for unit, square in at[side["id"]]])
    if objectives is not None:
        data["objectives"] = objectives
    return setup.model_copy(update={"scenario": type(setup.scenario).model_validate(data)})


@pytest.mark.parametrize("ruleset", TABLETOP)
@pytest.mark.parametrize("level", ["easy", "hard"])
def test_a_unit_that_can_reach_the_boats_runs_for_them_under_fire(ruleset, level):
    """Breakout 3: three squares from the boats, an Olea soldier in sight. Standing in the zone
    at the end of its turn takes Maire out and wins; a shot does not."""
    setup = placed("breakout_causeway", ruleset,
                   {"jensen": [("maire", (14, 4))], "olea": [("soldier", (11, 3))]})
    with new_battle(setup, 1) as battle:
        s = battle.session
        while s.side_of(s.active) != "jensen":
            assert not isinstance(battle.submit(EndTurn(s.active)), Refused)
        assert sightings(battle, "jensen"), "the test wants an enemy in sight"
        player = make_player(level, "jensen", 1)
        command = player.next_command(battle)
        assert isinstance(command, Move), command
        assert command.path[-1] in s.grid.zones["extract"]
        assert not isinstance(battle.submit(command), Refused)
        while s.active == "jensen-1":       # whatever else it does, it stays in the zone
            assert not isinstance(battle.submit(player.next_command(battle)), Refused)
        assert s.winner == "jensen" and s.has("jensen-1", c.Left)


@pytest.mark.parametrize("ruleset", TABLETOP)
def test_hard_shoots_the_unit_a_kill_objective_names(ruleset):
    """Hangar alley: an Olea soldier sees Hollis close by and Maire further off. Without the
    objectives it shoots Hollis; told to take Maire down, it shoots her."""
    at = {"jensen": [("hollis", (9, 6)), ("maire", (6, 7))], "olea": [("soldier", (12, 5))]}
    kill = [{"side": "olea", "type": "kill", "unit": "Maire Jensen"}]

    def target(objectives):
        setup = placed("alley", ruleset, at, objectives)
        with new_battle(setup, 1) as battle:
            s = battle.session
            while s.side_of(s.active) != "olea":
                assert not isinstance(battle.submit(EndTurn(s.active)), Refused)
            player = make_player("hard", "olea", 1)
            for _ in range(6):
                command = player.next_command(battle)
                if isinstance(command, Attack):
                    return command.target
                assert not isinstance(battle.submit(command), Refused)
        return None

    assert target([]) == "jensen-1"
    assert target(kill) == "jensen-2"
