"""At the table: a battle whose every die is typed in is the battle with those faces forced; it
saves and replays exactly; a face the die cannot show is refused with the reason."""

from __future__ import annotations

import dataclasses
import itertools
import re

import pytest

from game.ai import make_player
from game.content.loader import load_setup
from game.core.commands import Attack, EndTurn
from game.core.dice import Dice, RollNeeded
from game.core.events import AttackResolved, Damaged, Refused, RollWanted
from game.rulesets import load_battle, new_battle
from tests.core.builders import setup as build
from tests.core.builders import unit
from tests.table.table_helpers import play_at_table
from tests.sequential import sequential

RULESETS = ("skirmish", "eclipse1", "eclipse2", "opend6", "d20")


def players_for(setup):
    return {s.id: make_player("easy", s.id, 3) for s in setup.scenario.sides}


@pytest.mark.parametrize("ruleset, turns", [*((r, "sequential") for r in RULESETS),
                                            ("skirmish", "simultaneous")])
def test_typed_rolls_give_the_events_of_the_same_faces_forced(ruleset, turns):
    setup = load_setup("alley", ruleset=ruleset)
    setup = sequential(setup) if turns == "sequential" else setup
    run = play_at_table(setup, 5, players_for(setup), limit=40 if turns == "sequential" else 200)
    with run.battle:
        assert run.asked, "a battle at the table asks for dice"
        assert {run.battle.session.side_of(w.unit) for w in run.asked} == set(run.battle.table)
        prompt = re.compile(r"(?P<who>[^:,]+)(, attacking [^:]+)?: roll (a d(?P<one>\d+)|(?P<n>\d+)d(?P<d>\d+))( and the Wild Die)? for ")
        for w in run.asked:
            said = prompt.match(w.reason)
            assert said is not None and said["who"] == w.name, w.reason
            assert (said["n"] is None) == (w.count == 1), w.reason
            assert int(said["one"] or said["d"]) == w.sides, w.reason
        for w, then in itertools.pairwise(run.asked):     # typed one by one: the count goes down
            if w.count > 1:
                assert (then.unit, then.what, then.sides, then.count) == (w.unit, w.what, w.sides, w.count - 1)
        dice = Dice(5)
        dice.force(*run.raw)
        with new_battle(setup, 5, dice=dice) as forced:
            events = list(forced.opening)
            for command in run.commands:
                result = forced.submit(command)
                assert not isinstance(result, Refused), result.reason
                events.extend(result)
            assert [e.to_dict() for e in events] == [e.to_dict() for e in run.events]
            assert dice.forced_left == 0


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_table_battle_saves_and_replays_exactly(ruleset):
    setup = sequential(load_setup("alley", ruleset=ruleset))
    run = play_at_table(setup, 2, players_for(setup), limit=30)
    with run.battle:
        state = run.battle.state()
        assert state["table"] == sorted(run.battle.table)
        typed = len(state["opening_rolls"]) + sum(len(d.get("rolls", ())) for d in state["commands"])
        assert typed == len(run.faces)
        with load_battle(state) as again:
            assert again.digest() == run.battle.digest()
            assert [e.to_dict() for e in again.replayed] == [e.to_dict() for e in run.events]
            assert again.table == run.battle.table


def test_a_save_whose_typed_rolls_do_not_fit_is_refused():
    setup = sequential(load_setup("alley", ruleset="skirmish"))
    run = play_at_table(setup, 2, players_for(setup), limit=20)
    with run.battle:
        state = run.battle.state()
    typed_at = next(i for i, d in enumerate(state["commands"]) if d.get("rolls"))
    state["commands"][typed_at]["rolls"] = [99]
    with pytest.raises(ValueError, match="99 cannot come up on a d10"):
        load_battle(state)
    state["commands"][typed_at]["rolls"] = []
    with pytest.raises(ValueError):
        load_battle(state)


# --- one attack at the table --------------------------------------------------------------------

OPEN = ["." * 16 for _ in range(8)]


def duel(table=("spacer", "olea")):
    hollis = unit("hollis", ap=10, aim=6, dexterity=1, weapons=("pistol",))
    trooper = unit("trooper", dodge=4, agility=0, armor="light")
    setup = build(OPEN, {"spacer": [(hollis, (2, 3))], "olea": [(trooper, (8, 3))]}, ambush="spacer")
    return new_battle(setup, 0, table=table, opening_rolls=(5, 5))


def test_the_opening_initiative_is_asked_of_the_table():
    hollis = unit("hollis", ap=10, aim=6, dexterity=1, weapons=("pistol",))
    trooper = unit("trooper", dodge=4, agility=0, armor="light")
    setup = build(OPEN, {"spacer": [(hollis, (2, 3))], "olea": [(trooper, (8, 3))]}, ambush="spacer")
    with pytest.raises(RollNeeded) as asked:
        new_battle(setup, 0, table=("spacer", "olea"), opening_rolls=(5,))
    request = asked.value.request
    assert (request.unit, request.what, request.sides, asked.value.typed) == ("olea-1", "initiative", 10, 1)
    assert asked.value.wanted.reason == "Trooper: roll a d10 for the initiative"
    with new_battle(setup, 0, table=("spacer", "olea"), opening_rolls=(5, 5, 9)) as fight:
        assert fight.opening_rolls == (5, 5)          # only what was rolled is kept


def test_each_die_is_asked_for_by_name_and_a_face_the_die_cannot_show_is_refused():
    with duel() as fight:
        attack = Attack("spacer-1", "olea-1", aim=2)
        before = fight.digest()
        wanted = fight.submit(attack)
        assert isinstance(wanted, RollWanted)
        assert wanted.reason == "Hollis, attacking Trooper: roll a d10 for the aim"
        assert wanted.refusal(12) == "12 cannot come up on a d10: it shows 1 to 10; a 0 reads 10"
        assert wanted.refusal(10) is None and wanted.refusal(0) is None
        bad = fight.submit(dataclasses.replace(attack, rolls=(12,)))
        assert isinstance(bad, RollWanted) and bad.reason == "Hollis, attacking Trooper: roll a d10 for the aim"
        assert bad.problem == "12 cannot come up on a d10: it shows 1 to 10; a 0 reads 10." and bad.typed == ()
        assert fight.digest() == before and fight.commands == []
        wanted = fight.submit(dataclasses.replace(attack, rolls=(4,)))
        assert isinstance(wanted, RollWanted) and wanted.typed == (4,)
        assert wanted.reason == "Trooper: roll a d10 for the dodge against Hollis's attack"
        wanted = fight.submit(dataclasses.replace(attack, rolls=(4, 5)))
        assert wanted.reason == "Hollis, attacking Trooper: roll 2d6 for the damage" and wanted.count == 2
        assert fight.digest() == before
        # "He rolls a 4 ... total attack of 11 ... defense roll a 9. Hollis hits." 2d6 -> 7.
        events = fight.submit(dataclasses.replace(attack, rolls=(4, 5, 3, 4, 6, 6)))
        shot = [e for e in events if isinstance(e, AttackResolved)][0]
        assert (shot.attack.total, shot.defense.total, shot.hits) == (11, 9, 1)
        damage = [e for e in events if isinstance(e, Damaged)][0]
        assert (damage.rolled, damage.resisted, damage.taken) == (7, 3, 4)
        assert fight.commands[-1].rolls == (4, 5, 3, 4)   # the faces it used, no more


def test_a_d10_marked_0_to_9_is_typed_as_it_reads():
    """A 0 on a d10 is its 10: Hollis's aim die typed 0 totals as a 10 would."""
    totals = []
    for face in (0, 10):
        with duel() as fight:
            events = fight.submit(Attack("spacer-1", "olea-1", aim=2, rolls=(face, 1, 3, 4, 6, 6)))
            assert not isinstance(events, Refused), events
            totals.append([e for e in events if isinstance(e, AttackResolved)][0].attack)
            assert fight.commands[-1].rolls[0] == face     # kept as typed: the save replays it
            with load_battle(fight.state()) as again:
                assert again.digest() == fight.digest()
    assert totals[0] == totals[1] and totals[0].rolls == (10,)


def test_the_app_rolls_for_a_side_not_at_the_table():
    with duel(table=("spacer",)) as fight:
        assert fight.opening_rolls == (5,)            # the trooper's initiative was rolled
        attack, asked = Attack("spacer-1", "olea-1", aim=2), []
        result = fight.submit(attack)
        while isinstance(result, RollWanted):
            asked.append(result)
            result = fight.submit(dataclasses.replace(attack, rolls=(*result.typed, result.last)))
        assert not isinstance(result, Refused)
        assert [w.what for w in asked][:1] == ["aim"] and {w.unit for w in asked} == {"spacer-1"}
        shot = [e for e in result if isinstance(e, AttackResolved)][0]
        assert shot.attack.rolls == (10,) and len(shot.defense.rolls) == 1   # the dodge: the app's


def test_typed_faces_are_refused_without_a_table_side():
    with duel(table=()) as fight:
        refused = fight.submit(EndTurn("spacer-1", rolls=(3,)))
        assert isinstance(refused, Refused) and "at the table" in refused.reason


def test_a_copy_of_a_battle_at_the_table_is_its_own():
    """A copy (a replay's checkpoint, a plan's rehearsal) of a battle whose dice are typed in
    shares none of its state, and asks its own battle whose die is typed."""
    from game.core import components as c
    from tests.table.table_helpers import open_at_table, random_answers
    battle, _, _ = open_at_table(load_setup("alley"), 5, ("jensen", "olea"), random_answers(7))
    with battle:
        before = battle.digest()
        copy_ = battle.copy()
        copy_.session.use()
        copy_.session.get("jensen-1", c.Position).x += 1
        assert copy_.session.dice.at_table.__self__ is copy_
        copy_.close()
        assert battle.digest() == before


def test_an_opening_pool_is_asked_for_at_once():
    """OpenD6 initiative is a pool with a Wild Die: asked as one line before the battle opens."""
    setup = load_setup("opend6_alley")
    with pytest.raises(RollNeeded) as asked:
        new_battle(setup, 1, table=tuple(s.id for s in setup.scenario.sides))
    wanted = asked.value.wanted
    assert wanted.count > 1 and wanted.then == "initiative_wild"
    assert wanted.reason.endswith(f"roll {wanted.count}d6 and the Wild Die for the initiative")
