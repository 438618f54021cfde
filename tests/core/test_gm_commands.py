"""The game master's commands: a modifier for one attack roll, HP set by hand, in every ruleset.

Each is checked and refused with a reason like any command, kept in the command log, and a
save replays it to the same position."""

from __future__ import annotations

import pytest

from game.content.loader import load_library, load_setup
from game.content.schema import BattleSetup, MapSpec, ScenarioSpec, SideSpec, SquadMember
from game.core import components as c
from game.core import queries as q
from game.core.commands import (Attack, ChooseDefense, EndTurn, GiveModifier, SetHealth,
                                command_from_dict)
from game.core.events import AttackResolved, HealthChanged, HealthSet, ModifierGiven, Refused
from game.rulesets import load_battle, new_battle
from tests.core.builders import setup, unit
from tests.sequential import sequential

SCENARIOS = ["alley", "eclipse2_alley", "eclipse1_depot", "opend6_alley", "d20_depot"]


@pytest.fixture(scope="module")
def library():
    return load_library()


def duel(library, scenario: str) -> BattleSetup:
    """The scenario's first unit of each side, side by side on open ground."""
    base = load_setup(scenario, library)
    first = [base.scenario.sides[i].members[0] if base.scenario.sides[i].members
             else next(s for s in base.squads if s.id == base.scenario.sides[i].squad).members[0]
             for i in range(2)]
    grid = MapSpec(id="duel", name="Duel", rows=["a...b", ".....", "....."],
                   legend={".": {"terrain": "open"}, "a": {"terrain": "open", "zone": "a"},
                           "b": {"terrain": "open", "zone": "b"}})
    sides = [SideSpec(id=f"s{i}", name=f"Side {i}", zone="ab"[i],
                      members=[SquadMember(unit=first[i].unit, at=(1 + i, 1))]) for i in range(2)]
    scenario = base.scenario.model_copy(update={  # the scenario's own objectives name its sides
        "id": "duel", "map": "duel", "sides": sides, "objectives": [], "reinforcements": [],
        "events": []})
    return sequential(base.model_copy(update={"scenario": ScenarioSpec.model_validate(scenario.model_dump()),
                                              "map": grid, "squads": []}))


def gm_parts(event: AttackResolved) -> list[tuple[str, int]]:
    return [(label, value) for check in (event.attack, event.defense)
            for label, value in check.modifiers if label.startswith("GM")]


def first_attack(battle):
    s = battle.session
    uid = s.active
    other = next(u for u in s.order if u != uid)
    events = battle.submit(Attack(uid, other))
    assert not isinstance(events, Refused), events.reason
    return uid, next(e for e in events if isinstance(e, AttackResolved))


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_a_modifier_goes_into_exactly_one_attack_roll(library, scenario):
    with new_battle(duel(library, scenario), 7) as plain, new_battle(duel(library, scenario), 7) as given:
        uid = given.session.active
        events = given.submit(GiveModifier(uid, 5, "high ground"))
        assert [type(e) for e in events] == [ModifierGiven]
        assert q.unit_sheet(given, uid).modifier == (5, "high ground")
        _, without = first_attack(plain)
        _, with_it = first_attack(given)
        assert gm_parts(without) == []
        parts = gm_parts(with_it)
        opend6 = scenario.startswith("opend6")
        assert parts == [("GM: high ground", -5 if opend6 else 5)]
        # the same dice: the roll is the same, only the named part differs (OpenD6 takes the
        # +5 off the difficulty the attack must beat; the others add it to the attack)
        assert with_it.attack.rolls == without.attack.rolls
        moved = (with_it.attack.total - without.attack.total) - (with_it.defense.total - without.defense.total)
        floored = any(label == "lowest difficulty" for label, _ in with_it.defense.modifiers)
        assert moved == 5 or floored
        assert q.unit_sheet(given, uid).modifier is None
        other = next(u for u in given.session.order if u != uid)
        preview = q.preview_attack(given, uid, other, threat=True)
        if not isinstance(preview, Refused):
            assert not [m for m in preview.attack_modifiers if m[0].startswith("GM")]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_hp_set_by_hand_changes_health_and_state(library, scenario):
    with new_battle(duel(library, scenario), 3) as battle:
        s = battle.session
        uid = s.order[-1]
        name, low, high = q.health_bounds(battle, uid)
        events = battle.submit(SetHealth(uid, high - 2, "fell down the stairs"))
        assert isinstance(events[0], HealthSet) and events[0].hp_after == high - 2
        assert q.unit_info(battle, uid).hp == high - 2
        assert (name, f"{high - 2}/{high}") in q.unit_sheet(battle, uid).rows
        events = battle.submit(SetHealth(uid, low, "the roof fell in"))
        assert any(isinstance(e, HealthChanged) and e.state == "dead" for e in events)
        assert s.get(uid, c.Health).state == "dead"
        assert s.over and s.winner == s.side_of(s.order[0])     # its side had no one left


def test_refused_gm_commands_say_why():
    with new_battle(setup([".....", "....."], {"blue": [(unit("ann"), (0, 0))], "red": [(unit("bob"), (4, 0))]}), 1) as b:
        ann = "blue-1"
        cases = {
            SetHealth(ann, 99, "x"): "can be set from -5 to 20, not 99",
            SetHealth(ann, 20, "x"): "already has 20 HP",
            SetHealth(ann, 10, "  "): "Give a reason",
            SetHealth("nobody", 10, "x"): "no unit 'nobody'",
            GiveModifier(ann, 0, "x"): "no modifier waiting",
            GiveModifier(ann, 500, "x"): "too large",
            GiveModifier(ann, 2, "y" * 61): "at most 60",
        }
        for command, why in cases.items():
            result = b.submit(command)
            assert isinstance(result, Refused), command
            assert why in result.reason, (command, result.reason)
        assert b.commands == []


def test_gm_commands_are_logged_saved_and_replayed():
    spec = setup(["......", "......"], {"blue": [(unit("ann"), (0, 0))], "red": [(unit("bob"), (3, 0))]})
    with new_battle(spec, 11) as battle:
        s = battle.session
        first = s.active
        other = next(u for u in s.order if u != first)
        battle.submit(GiveModifier(first, -2, "blinded by the sun"))
        battle.submit(SetHealth(other, 7, "old wound"))      # not its turn: the GM's call anyway
        battle.submit(Attack(first, other))
        kinds = [cmd.kind for cmd in battle.commands]
        assert kinds[:2] == ["give_modifier", "set_health"]
        state = battle.state()
        assert state["commands"][0] == {"kind": "give_modifier", "unit": first, "modifier": -2,
                                        "reason": "blinded by the sun"}
        assert command_from_dict(state["commands"][1]) == SetHealth(other, 7, "old wound")
        with load_battle(state) as again:
            assert again.digest() == battle.digest()
            assert [e.to_dict() for e in again.replayed] == \
                [e.to_dict() for e in battle.opening] + [e.to_dict() for e in _all_events(spec, 11, battle.commands)]


def _all_events(spec, seed, commands):
    with new_battle(spec, seed) as b:
        out = []
        for cmd in commands:
            out += b.submit(cmd)
        return out


def test_a_gm_call_waits_while_a_defender_chooses(library):
    with new_battle(duel(library, "d20_depot"), 2) as battle:
        s = battle.session
        first = s.active
        assert not isinstance(battle.submit(ChooseDefense(first, "ask")), Refused)
        battle.submit(EndTurn(first))
        second = s.active
        assert second != first
        assert not isinstance(battle.submit(Attack(second, first)), Refused)
        assert battle.pending is not None and battle.pending[0] == first
        refused = battle.submit(SetHealth(first, 5, "x"))
        assert isinstance(refused, Refused) and "waiting for its defender" in refused.reason
        refused = battle.submit(GiveModifier(second, 1, "x"))
        assert isinstance(refused, Refused) and "waiting for its defender" in refused.reason


def test_a_call_about_a_hidden_unit_is_told_only_to_those_who_see_it():
    spec = setup(["..#..", "..#.."], {"blue": [(unit("ann"), (0, 0))], "red": [(unit("bob"), (4, 0))]})
    with new_battle(spec, 1) as battle:
        bob = next(uid for uid in battle.session.order if battle.session.side_of(uid) == "red")
        [given] = battle.submit(GiveModifier(bob, 1, "the wind"))
        assert given.seen_by == ("red",)
        events = battle.submit(SetHealth(bob, 3, "a fall"))
        assert events[0].seen_by == ("red",)
