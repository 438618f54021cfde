"""The computer player under OpenD6: a round of aim for a long shot when little can hurt it
meanwhile, the shot from where it aimed the round after, a Character Point on an even shot;
and no refused order in battles with aiming and points about."""

from __future__ import annotations

import pytest

from game.ai import make_player
from game.ai.levels import EASY, HARD
from game.ai.tabletop import TabletopPlayer
from game.content.loader import load_setup
from game.core import components as c
from game.core.commands import Aim, Attack, EndTurn, SpendPoints
from game.core.events import Refused
from game.sim import play
from tests.rules.test_opend6_grid import battle as opend6_battle
from tests.rules.test_opend6_grid import cian

ROWS = ["." * 16, "." * 16, "." * 14 + "=.", "." * 16, "." * 16]   # the goblin behind a crate


def far_shot(fight) -> None:
    """A goblin far off with a sling that cannot reach: Cian's crossbow at long range."""
    fight.session.use()
    fight.session.get("blue-1", c.Loadout).drawn = False


def test_a_long_safe_shot_is_aimed_first_then_taken_from_where_it_aimed():
    with opend6_battle(c_at=(0, 2), g_at=(15, 2), rows=ROWS) as fight:
        far_shot(fight)
        player = TabletopPlayer("red", 1, HARD)
        first = player.next_command(fight)
        assert isinstance(first, Aim) and first.target == "blue-1"
        assert not isinstance(fight.submit(first), Refused)
        fight.session.dice.force(5, 2)
        fight.submit(EndTurn("blue-1"))
        assert fight.session.active == "red-1"
        orders = []
        for _ in range(4):
            order = player.next_command(fight)
            orders.append(order)
            if isinstance(order, (Aim, Attack, EndTurn)):
                break
            assert not isinstance(fight.submit(order), Refused)
        assert not any(o.__class__.__name__ == "Move" for o in orders)      # moving loses the aim
        assert isinstance(orders[-1], (Aim, Attack))


def test_easy_does_not_aim():
    with opend6_battle(c_at=(0, 2), g_at=(15, 2), rows=ROWS) as fight:
        far_shot(fight)
        assert not isinstance(TabletopPlayer("red", 1, EASY).next_command(fight), Aim)


def test_a_character_point_goes_on_an_even_shot():
    """Behind a crate at short range (difficulty 16) Cian's shot is about even: a point on it;
    in the open (difficulty 10) it is near sure: none."""
    from game.core.queries import preview_attack
    spec = cian()
    spec = spec.model_copy(update={"rules": {"opend6": {**spec.rules["opend6"], "character_points": 2}}})
    crate = ["." * 16, "." * 16, "....." + "=" + "." * 10, "." * 16, "." * 16]
    for rows, spends in ((crate, True), (["." * 16] * 5, False)):
        with opend6_battle(c_at=(2, 2), g_at=(6, 2), rows=rows, cian_spec=spec) as fight:
            player = TabletopPlayer("red", 1, HARD)
            seen = []
            for _ in range(6):
                order = player.next_command(fight)
                seen.append(type(order))
                if isinstance(order, (Attack, EndTurn)):
                    break
                assert not isinstance(fight.submit(order), Refused)
            assert (SpendPoints in seen) is spends, (seen, preview_attack(fight, "red-1", "blue-1").hit_chance)
            if spends:
                assert seen.index(SpendPoints) < seen.index(Attack)


@pytest.mark.slow
@pytest.mark.parametrize("level", ["normal", "hard"])
def test_no_refused_order_under_opend6_with_wounds_and_points(level, tmp_path):
    text = """\
id: alley_wounds
name: Alley
ruleset: opend6
map: alley
sides:
  - {id: smugglers, name: Crew, zone: alpha, members: [{unit: hollis}, {unit: scout}]}
  - {id: olea, name: Patrol, zone: bravo, members: [{unit: olea_trooper, count: 2}]}
options:
  opend6: {damage_system: wounds}
"""
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    setup = load_setup(path)
    for seed in range(1, 11):
        players = {side.id: make_player(level, side.id, seed) for side in setup.scenario.sides}
        result = play(setup, seed, players)
        assert result.refused == [], result.refused[:3]
    bundled = load_setup("opend6_alley")
    for seed in range(1, 11):
        players = {side.id: make_player(level, side.id, seed) for side in bundled.scenario.sides}
        assert play(bundled, seed, players).refused == []
