"""The readable log: a walk is one line, everything else one line per event."""

from __future__ import annotations

from game.core import events as ev
from game.core.narrate import describe, tell

NAMES = {"a-1": "Ann", "b-1": "Bo"}.get


def step(unit: str, start, end, cost: int, left: int, rough: bool = False) -> ev.Moved:
    return ev.Moved(unit=unit, start=start, end=end, ap_cost=cost, ap_left=left, rough=rough)


def lines(events) -> list[str]:
    return tell(events, lambda e: describe(e, NAMES), NAMES)


def test_steps_in_a_row_are_one_line_with_the_whole_cost():
    walk = [step("a-1", (0, 0), (1, 0), 4, 12), step("a-1", (1, 0), (2, 1), 6, 6, rough=True),
            step("a-1", (2, 1), (3, 1), 4, 2)]
    assert lines(walk) == ["Ann moves 3 squares to (3, 1) (14 AP, 1 of them rough ground; 2 left)."]


def test_a_single_step_reads_as_before():
    one = step("a-1", (0, 0), (1, 0), 4, 12)
    assert lines([one]) == [describe(one, NAMES)]


def test_what_happens_on_the_way_splits_the_walk():
    first, second = step("a-1", (0, 0), (1, 0), 4, 12), step("a-1", (1, 0), (2, 0), 4, 8)
    seen = ev.OverwatchTriggered(unit="b-1", mover="a-1", at=(1, 0))
    out = lines([first, seen, second, step("b-1", (5, 5), (5, 6), 4, 10)])
    assert out == [describe(first, NAMES), describe(seen, NAMES), describe(second, NAMES),
                   "Bo moves to (5, 6) (4 AP; 10 left)."]


def test_a_reaction_fires_a_gun_or_strikes_with_a_blade():
    names = {"a-1": "Ann", "b-1": "Bo", "rifle": "Rifle", "baton": "Baton"}.get
    roll = ev.Check("attack", (11,), (("STR", 3),), 14)
    guard = ev.Check("defense", (), (), 15)

    def reaction(weapon: str, ammo: int) -> str:
        return describe(ev.AttackResolved("a-1", "b-1", weapon, "basic", "torso", roll, guard,
                                          False, 0, 0, ammo, reaction=True), names)
    assert reaction("rifle", 1).startswith("Ann reacts and fires at Bo with Rifle (basic)")
    assert reaction("baton", 0).startswith("Ann reacts and strikes at Bo with Baton (basic)")


def test_damage_is_told_in_what_the_ruleset_calls_health():
    hit = ev.Damaged("b-1", "a-1", (8, 9), 17, "kinetic", 7, 10, 40, 30)
    dead = ev.HealthChanged("b-1", "dead", -3, "a-1")
    assert describe(hit, NAMES).endswith("armor stops 7: 10 to HP (40 -> 30).")
    assert describe(dead, NAMES) == "Bo is dead (HP -3)."
    assert describe(hit, NAMES, "Durability left").endswith(
        "armor stops 7: 10 through, Durability left 40 -> 30.")
    assert describe(dead, NAMES, "Body Points") == "Bo is dead (Body Points -3)."


def test_damage_beyond_its_dice_says_the_dice_sum_and_a_fire_mode_reads_as_words():
    head = ev.Damaged("b-1", "a-1", (8, 5, 1, 7, 3), 36, "ballistic", 0, 36, 40, 4)
    assert describe(head, NAMES).startswith(
        "Bo takes 36 ballistic damage (8+5+1+7+3 = 24, 36 after bonuses and multipliers): 36 to HP")
    names = {"a-1": "Ann", "b-1": "Bo", "smg": "SMG"}.get
    roll, guard = ev.Check("attack", (11,), (), 11), ev.Check("defense", (), (), 5)
    burst = ev.AttackResolved("a-1", "b-1", "smg", "full_auto", "torso", roll, guard, True, 1, 2, 5)
    assert "with SMG (full auto):" in describe(burst, names)
