"""Objectives, reinforcements and scripted messages in scenario files: bad ones refused with the
file, line and key."""

from __future__ import annotations

from tests.content.content_helpers import Write, only, problems_in
from tests.content.test_problems import ZONES, map_text

SIDES = """
id: probe
name: Probe
map: probe_map
sides:
  - {id: a, name: A, zone: alpha, members: [{unit: rifleman, name: Boss}]}
  - {id: b, name: B, zone: bravo, members: [{unit: rifleman}]}
"""


def scenario(write: Write, extra: str):
    write("m.yaml", map_text("#######\n#A.X.B#\n#######", ZONES + "\nX: {terrain: open, zone: exit}"))
    return write("s.yaml", SIDES.lstrip("\n") + extra.strip("\n") + "\n")


def test_good_objectives_reinforcements_and_events_pass(write: Write) -> None:
    path = scenario(write, """
objectives:
  - {side: a, type: extract, zone: exit, count: 1}
  - {side: a, type: protect, unit: Boss}
  - {id: boss_hunt, side: b, type: kill, unit: Boss}
  - {side: b, type: survive, rounds: 10}
reinforcements:
  - {side: b, zone: bravo, when: {objective: boss_hunt}, members: [{unit: rifleman}]}
events:
  - {when: {entered: exit, by: a}, message: They are at the gate!}
  - {when: {seen: a}, message: Contact., side: b}
""")
    assert problems_in(path) == []


def test_unknown_unit_zone_side_and_objective_are_refused_with_their_place(write: Write) -> None:
    path = scenario(write, """
objectives:
  - {side: c, type: hold, zone: roof, rounds: 2}
  - {side: a, type: kill, unit: Nobody}
reinforcements:
  - side: b
    zone: cellar
    when: {objective: nothing}
    members: [{unit: riflemen}]
events:
  - {when: {seen: z}, message: Hello}
  - {when: {round: 99}, message: Late}
""")
    problems = problems_in(path)
    assert only(problems, "objectives[0].side").message == "unknown side 'c' (sides: a, b)"
    zone = only(problems, "objectives[0].zone")
    assert zone.message.startswith("zone 'roof' is not marked on map 'probe_map'")
    assert zone.line == 8 and zone.file == str(path)
    assert "no unit named 'Nobody'" in only(problems, "objectives[1].unit").message
    assert "zone 'cellar' is not marked" in only(problems, "reinforcements[0].zone").message
    assert only(problems, "reinforcements[0].members[0].unit").message.startswith(
        "unknown unit 'riflemen'")
    assert only(problems, "reinforcements[0].when.objective").message.startswith(
        "unknown objective 'nothing' (objectives: hold_c, kill_a")
    assert only(problems, "events[0].when.seen").message == "unknown side 'z' (sides: a, b)"
    assert "after the round limit" in only(problems, "events[1].when.round").message


def test_malformed_blocks_are_refused_by_shape(write: Write) -> None:
    path = scenario(write, """
objectives:
  - {side: a, type: hold, zone: exit}
  - {side: a, type: capture}
events:
  - {when: {round: 2, seen: a}, message: Two at once}
  - {when: {alarm: a}, message: Unknown trigger}
""")
    problems = problems_in(path)
    text = "\n".join(str(p) for p in problems)
    assert "a 'hold' objective needs `rounds`" in text
    assert "objectives[1].type" in text
    assert "exactly one of round, objective, seen, entered" in text
    assert "events[1].when.alarm" in text
    assert all(p.file == str(path) and p.line is not None for p in problems)


def test_objectives_and_an_old_reach_victory_do_not_mix(write: Write) -> None:
    path = scenario(write, """
victory: {type: reach, side: a, zone: exit}
objectives:
  - {side: b, type: survive, rounds: 3}
""")
    assert "write the reach as an objective" in only(problems_in(path), "victory.type").message


def test_an_exit_walled_off_from_its_side_is_refused(write: Write) -> None:
    write("m.yaml", map_text("#######\n#A.#XB#\n#######", ZONES + "\nX: {terrain: open, zone: exit}"))
    path = write("s.yaml", SIDES.lstrip("\n") + "objectives:\n"
                 "  - {side: a, type: extract, zone: exit}\n")
    problem = only(problems_in(path), "objectives[0].zone")
    assert "no unit of side 'a' can walk to zone 'exit'" in problem.message


def test_reinforcements_count_toward_the_units_a_battle_holds(write: Write) -> None:
    path = scenario(write, """
reinforcements:
  - {side: b, zone: bravo, when: {round: 2}, members: [{unit: rifleman, count: 50}]}
  - {side: b, zone: bravo, when: {round: 3}, members: [{unit: rifleman, count: 49}]}
""")
    assert "have 101 units; a battle holds at most 100" in only(problems_in(path),
                                                                 "reinforcements").message
