"""How a side plays, as the scenario says (`play`): a side ordered to hold stays by its post,
one that presses closes in sooner, and a bad posture is refused with where it is."""

from __future__ import annotations

import math

from game.ai import make_player
from game.content.loader import load_setup, validate_paths
from game.content.schema import PlaySpec
from game.rulesets import new_battle

ROUNDS = 10


def with_play(scenario: str, side: str, **play) -> object:
    setup = load_setup(scenario)
    sides = [d.model_copy(update={"play": PlaySpec(**play)}) if d.id == side else d
             for d in setup.scenario.sides]
    return setup.model_copy(update={"scenario": setup.scenario.model_copy(update={"sides": sides})})


def farthest_from_home(setup, side: str, seed: int) -> float:
    """How far (squares) a unit of `side` got from its own zone in the first rounds."""
    with new_battle(setup, seed) as battle:
        s = battle.session
        home = s.grid.zones[next(d.zone for d in setup.scenario.sides if d.id == side)]
        players = {d: make_player("hard", d, seed) for d in s.sides}
        farthest = 0.0
        while not s.over and s.round <= ROUNDS:
            battle.submit(players[s.acting_side].next_command(battle))
            for uid in s.order:
                at = s.position(uid)
                if s.side_of(uid) == side and at is not None and s.is_up(uid):
                    farthest = max(farthest, min(math.dist(at, sq) for sq in home))
        return farthest


def test_a_side_ordered_to_hold_stays_by_its_post():
    """On depot the guard, left to patrol, goes out into the yard (9 and 15 squares from its
    zone in ten rounds); told to hold, it stays within GUARD's 18 AP (6 squares) of it."""
    for seed in (3, 4):
        held = farthest_from_home(with_play("depot", "olea", posture="hold"), "olea", seed)
        roamed = farthest_from_home(with_play("depot", "olea", posture="patrol"), "olea", seed)
        assert held <= 6.0 < roamed, (seed, held, roamed)


def test_a_bad_posture_names_the_file_and_the_key(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("""id: bad
name: Bad
map: depot
sides:
  - {id: a, name: A, squad: alpha_team, zone: alpha, play: {posture: charge}}
  - {id: b, name: B, squad: olea_section, zone: bravo, play: {aggression: 2}}
""")
    problems = [str(p) for p in validate_paths([path])]
    assert any("bad.yaml:5" in p and "posture" in p for p in problems), problems
    assert any("bad.yaml:6" in p and "aggression" in p for p in problems), problems
