"""Bounds on work: unit numbering in linear time, and a cap on a battle's units."""

from __future__ import annotations

import time

from tests.content.content_helpers import Write, only, problems_in

from game.content.deploy import MAX_UNITS, _numbered

ROWS = "\n".join(["A" * 10 + "." + "B" * 10] * 10)
SCENARIO = """
id: crowd
name: Crowd
map:
  id: field
  name: Field
  legend: {{A: {{terrain: open, zone: alpha}}, B: {{terrain: open, zone: bravo}}}}
  rows: |
{rows}
sides:
  - id: a
    name: A
    zone: alpha
    members: [{{unit: olea_trooper, count: 50}}, {{unit: olea_trooper, count: {second}}}]
  - {{id: b, name: B, zone: bravo, members: [{{unit: olea_trooper}}]}}
"""


def scenario(second: int) -> str:
    return SCENARIO.format(rows="\n".join("    " + row for row in ROWS.splitlines()),
                           second=second)


def test_numbering_many_units_of_one_name_is_linear() -> None:
    start = time.perf_counter()
    names = _numbered(["Rifleman"] * 10_000 + ["Rifleman 3"] + ["Rifleman"] * 2)
    assert time.perf_counter() - start < 2            # quadratic: 8 s
    assert names[:3] == ["Rifleman", "Rifleman 2", "Rifleman 3"]
    assert names[-3:] == ["Rifleman 3 2", "Rifleman 10001", "Rifleman 10002"]
    assert len(set(names)) == len(names)


def test_a_battle_holds_at_most_max_units(write: Write) -> None:
    assert MAX_UNITS == 100
    fine = write("fine/s.yaml", scenario(second=49))       # 50 + 49 + 1
    assert problems_in(fine) == []
    crowded = write("crowded/s.yaml", scenario(second=50))
    problem = only(problems_in(crowded), "sides")
    assert problem.message == "the sides have 101 units; a battle holds at most 100"
    assert problem.line == 19


def test_a_million_units_are_refused_without_being_built(write: Write) -> None:
    members = "\n".join(["    members:"] + ["      - {unit: olea_trooper, count: 50}"] * 20_000)
    text = scenario(second=1).replace(
        "    members: [{unit: olea_trooper, count: 50}, {unit: olea_trooper, count: 1}]", members)
    path = write("s.yaml", text)
    start = time.perf_counter()
    problem = only(problems_in(path), "sides")
    assert time.perf_counter() - start < 20        # building them: minutes
    assert problem.message == "the sides have 1000001 units; a battle holds at most 100"
