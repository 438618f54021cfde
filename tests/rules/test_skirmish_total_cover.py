"""Total cover and leaning out under skirmish, played on the grid: a unit behind a container
is hidden from the enemies it faces and cannot see them, until it leans out (2 AP, as Hollis
and Maire do in the text) and until it leans back (2 AP) or moves."""

from __future__ import annotations

from game.core import components as c
from game.core.commands import Attack, EndTurn, Lean, Move, SetOverwatch
from game.core.dice import Dice
from game.core.events import AttackResolved, Leaned, OverwatchTriggered, Refused
from game.core.narrate import describe
from game.core.queries import lean_option, visible_enemies
from game.rulesets import new_battle
from game.rulesets.skirmish.cover import Leaning
from tests.core.builders import setup, unit

# the hider at (1, 1) has the container H at (2, 1) between it and the shooter at (7, 1)
ROWS = ["..........",
        "..H.......",
        "..........",
        ".........."]


def battle(faces=(), ambush="a", hider_ap=14, watcher=False, **kw):
    dice = Dice(0)
    dice.force(*faces)
    abilities = {"overwatch": 1} if watcher else None
    placements = {"a": [(unit("shooter", aim=6, abilities=abilities), (7, 1))],
                  "b": [(unit("hider", ap=hider_ap, **kw), (1, 1))]}
    return new_battle(setup(ROWS, placements, ambush=ambush), 0, dice=dice)


def of(events, kind):
    return [e for e in events if isinstance(e, kind)]


def test_total_cover_hides_both_ways_until_the_unit_leans_out() -> None:
    # shooter first: it cannot see the hider; the hider, leaning out for 2 AP, sees and shoots:
    # 6 + Aim 4 - 2 accuracy = 8 against the shooter's 1 + Dodge 4 = 5: a hit, 2d6 = 3 + 4.
    with battle([9, 1, 6, 1, 3, 4]) as b:
        s = b.session
        assert s.active == "a-1"
        assert visible_enemies(s, "a") == [] and visible_enemies(s, "b") == []
        refused = b.submit(Attack("a-1", "b-1"))
        assert isinstance(refused, Refused) and "total cover" in refused.reason
        b.submit(EndTurn("a-1"))
        assert "total cover" in b.submit(Attack("b-1", "a-1")).reason
        assert lean_option(b, "b-1") == (True, 2, "")
        leaned = b.submit(Lean("b-1"))
        assert [(e.unit, e.out, e.ap_cost) for e in of(leaned, Leaned)] == [("b-1", True, 2)]
        assert describe(of(leaned, Leaned)[0], str) == "b-1 leans out from total cover (2 AP)."
        assert s.get("b-1", c.ActionPoints).current == 12
        assert visible_enemies(s, "a") == ["b-1"] and visible_enemies(s, "b") == ["a-1"]
        shot = of(b.submit(Attack("b-1", "a-1")), AttackResolved)[0]
        assert (shot.attack.total, shot.defense.total, shot.hits) == (8, 5, 1)
        assert dict(shot.defense.modifiers).get("cover", 0) == 0          # the shooter has none
        assert lean_option(b, "b-1") == (False, 2, "")
        b.submit(Lean("b-1", out=False))
        assert s.get("b-1", c.ActionPoints).current == 12 - 2 - 2
        assert visible_enemies(s, "a") == []


def test_an_exposed_unit_keeps_its_cover_bonus_and_moving_ends_the_lean() -> None:
    # the hider leans out on its turn and stays out: the shooter now sees it, and its Dodge
    # keeps the container's +4. Then the hider steps along the container and is hidden again.
    with battle([1, 9, 5, 5], ambush="b") as b:
        s = b.session
        assert s.active == "b-1"
        b.submit(Lean("b-1"))
        b.submit(EndTurn("b-1"))
        shot = of(b.submit(Attack("a-1", "b-1")), AttackResolved)[0]
        assert dict(shot.defense.modifiers)["cover"] == 4
        b.submit(EndTurn("a-1"))
        moved = b.submit(Move("b-1", ((1, 2),)))
        assert not s.has("b-1", Leaning)
        assert [(e.out, e.ap_cost) for e in of(moved, Leaned)] == [(False, 0)]
        assert visible_enemies(s, "a") == []          # (1, 2) is still behind the container's corner


def test_leaning_is_refused_in_the_open_and_twice() -> None:
    with battle([1, 9], ambush="b") as b:
        assert "not leaning out" in b.submit(Lean("b-1", out=False)).reason
        b.submit(Move("b-1", ((0, 1),)))
        assert lean_option(b, "b-1") == (True, 2, "not behind total cover")
        assert "not behind total cover" in b.submit(Lean("b-1")).reason
    with battle([1, 9], ambush="b", hider_ap=3) as b:
        b.submit(Lean("b-1"))
        assert "costs 2 AP" in b.submit(Lean("b-1", out=False)).reason
        assert lean_option(b, "b-1") == (False, 2, "not enough AP")
    with battle([1, 9], ambush="b", hider_ap=1) as b:   # longer than a turn: a full pool starts it
        assert lean_option(b, "b-1") == (True, 2, "")
        b.submit(Lean("b-1"))
        assert b.session.get("b-1", c.ActionPoints).debt == 1
    with battle([1, 9], ambush="b") as b:
        b.submit(Lean("b-1"))
        assert "already leaning out" in b.submit(Lean("b-1")).reason


def test_a_watcher_does_not_fire_at_a_unit_behind_total_cover_but_does_once_it_is_out() -> None:
    # the shooter watches toward the container; the hider walks (1, 1) -> (1, 2) -> (1, 3): all
    # three squares lie in the cone, but only (1, 3) is past the container's corner. The shot:
    # 1 + Aim 6 - 2 accuracy = 5 against 10 + Dodge 4 = 14, a miss.
    with battle([9, 1, 1, 10], watcher=True) as b:
        b.submit(SetOverwatch("a-1", (1, 1)))
        events = b.submit(Move("b-1", ((1, 2), (1, 3))))
        assert [e.at for e in of(events, OverwatchTriggered)] == [(1, 3)]
        assert [e.hit for e in of(events, AttackResolved)] == [False]


def test_a_wall_along_a_corridor_hides_no_one() -> None:
    # walls stand diagonally next to both units, at exactly 45° to the line between them.
    rows = ["##########", "..........", "##########"]
    dice = Dice(0)
    dice.force(9, 1)
    placements = {"a": [(unit("shooter"), (8, 1))], "b": [(unit("walker"), (1, 1))]}
    with new_battle(setup(rows, placements, ambush="a"), 0, dice=dice) as b:
        assert visible_enemies(b.session, "a") == ["b-1"] and visible_enemies(b.session, "b") == ["a-1"]
        assert lean_option(b, "b-1")[2] == "not behind total cover"


def test_a_battle_with_leans_replays_from_its_save() -> None:
    from game.core.commands import command_from_dict
    from game.rulesets import load_battle

    placements = {"a": [(unit("shooter", aim=6), (7, 1))], "b": [(unit("hider"), (1, 1))]}
    with new_battle(setup(ROWS, placements, ambush="b"), 7) as b:
        b.submit(Lean("b-1"))
        b.submit(Attack("b-1", "a-1"))
        b.submit(Lean("b-1", out=False))
        state = b.state()
        assert [cmd["kind"] for cmd in state["commands"]] == ["lean", "attack", "lean"]
        assert command_from_dict(state["commands"][2]) == Lean("b-1", out=False)
    again = load_battle(state)
    try:
        assert again.digest() == state["digest"]
        assert not again.session.has("b-1", Leaning)
    finally:
        again.close()
