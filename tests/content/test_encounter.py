"""An encounter set up by hand: every unit pinned to its square, units added from unit files,
and the whole written as a scenario file that validates, loads and deploys as it was set up."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.content.deploy import deploy, pinned, square_problem
from game.content.encounter import (EncounterError, ident_for, units_in_file, with_unit,
                                    write_scenario)
from game.content.loader import load_library, load_setup, validate_paths
from game.core.events import Event
from game.rulesets import new_battle

ROOK = Path(__file__).resolve().parents[1] / "ui" / "data" / "rook.yaml"
DUEL = Path(__file__).resolve().parents[1] / "ui" / "data" / "duel.yaml"


@pytest.fixture(scope="module")
def library():
    return load_library()


def squares_of(setup):
    return [(d.x, d.y) for d in deploy(setup)]


def dicts(events: list[Event]) -> list[dict]:
    return [e.to_dict() for e in events]


@pytest.mark.parametrize("scenario", ["alley", "depot", "d20_depot", "opend6_alley"])
def test_a_pinned_scenario_plays_exactly_as_the_original(library, scenario):
    setup = load_setup(scenario, library)
    again = pinned(setup, squares_of(setup))
    assert again.scenario.squads == [] and all(side.squad is None for side in again.scenario.sides)
    assert all(m.at is not None and m.count == 1 for side in again.scenario.sides for m in side.members)
    assert deploy(again) == deploy(setup)
    with new_battle(setup, 9) as one, new_battle(again, 9) as two:
        assert dicts(one.opening) == dicts(two.opening)
        assert one.digest() == two.digest()


def test_a_square_outside_the_zones_is_allowed_and_a_wall_is_not(library):
    setup = load_setup("alley", library)
    placed = deploy(setup)
    taken = {(d.x, d.y): d.name for d in placed}
    assert square_problem(setup, "Hollis", (7, 5), taken) is None      # open ground, no zone
    assert square_problem(setup, "Hollis", (0, 0), taken) == \
        "Hollis cannot stand at [0, 0], on a wall square where no unit can stand"
    other = next(d for d in placed if d.name != "Hollis")
    assert f"already taken by {other.name}" in square_problem(setup, "Hollis", (other.x, other.y), taken)
    assert "outside map 'alley'" in square_problem(setup, "Hollis", (40, 0), taken)
    squares = squares_of(setup)
    squares[0] = (7, 5)
    assert deploy(pinned(setup, squares))[0].x == 7


def test_a_unit_from_a_file_joins_a_side_and_the_written_scenario_validates(library, tmp_path):
    setup = load_setup(str(DUEL), library)
    units, scope = units_in_file(ROOK, library)
    assert [u.id for u in units] == ["rook"]
    bigger = with_unit(setup, scope, units[0])
    squares = squares_of(setup) + [(3, 3)]
    encounter = pinned(bigger, squares, [(0, "rook")])
    path = tmp_path / "yard ambush.yaml"
    loaded = write_scenario(encounter, library, path)
    assert loaded.scenario.id == "yard_ambush" and loaded.scenario.name == "Yard duel (set up)"
    assert validate_paths([path]) == []
    text = path.read_text()
    assert "at: [3, 3]" in text and "id: rook" in text      # the new unit is written out
    assert "rows:" in text                                    # the duel's own map too
    assert {(d.side, d.name, d.x, d.y) for d in deploy(loaded)} == \
        {("blue", "Hollis", 1, 1), ("red", "Trooper", 8, 3), ("blue", "Rook", 3, 3)}
    with new_battle(encounter, 4) as one, new_battle(loaded, 4) as two:
        assert one.digest() == two.digest()


def test_a_bad_file_or_a_scenario_that_would_not_load_is_refused(library, tmp_path):
    with pytest.raises(EncounterError, match="no file"):
        units_in_file(tmp_path / "none.yaml", library)
    squads = tmp_path / "squads.yaml"
    squads.write_text("squads:\n  - {id: few, name: Few, members: [{unit: hollis}]}\n")
    with pytest.raises(EncounterError, match="defines no units"):
        units_in_file(squads, library)
    setup = load_setup("alley", library)
    squares = squares_of(setup)
    squares[1] = squares[0]                                   # two units on one square
    target = tmp_path / "clash.yaml"
    with pytest.raises(EncounterError, match="already taken"):
        write_scenario(pinned(setup, squares), library, target)
    assert not target.exists() and list(tmp_path.glob("*.yaml")) == [squads]
    with pytest.raises(EncounterError, match="ends in .yaml"):
        write_scenario(setup, library, tmp_path / "x.txt")


def test_a_scenario_id_of_its_own(library):
    assert ident_for("/tmp/alley.yaml", library) == "alley_2"
    assert ident_for("/tmp/My Table-Night.yaml", library) == "my_table_night"
    assert ident_for("/tmp/42.yaml", library) == "encounter_42"
