"""The replay core: a saved battle watched again step by step reaches the same position."""

from __future__ import annotations

import copy

import pytest

from game.core.events import TurnUnseen
from game.replay import Replay, ReplayError, log_lines, seen
from game.saves import write_save
from tests.replay_helpers import played
from tests.ui.ui_helpers import FOG


def commands_in(state):
    """Every command of a saved log, the orders a GiveOrders holds included."""
    for command in state["commands"]:
        yield command
        for _, queue in command.get("orders", ()):
            for order in queue:
                yield order["command"]


@pytest.fixture(scope="module")
def fog_battle():
    """A three-sided battle in fog, played to its end."""
    return played(str(FOG), 3)


@pytest.mark.parametrize("scenario, ruleset", [(str(FOG), None), ("depot", None),
                                               ("alley", "d20"), ("eclipse2_alley", None)])
def test_stepping_to_the_end_reaches_the_saved_battle(scenario, ruleset):
    state, live = played(scenario, 5, ruleset=ruleset)
    with Replay.from_state(state) as replay:
        assert replay.position == 0 and replay.total == len(state["commands"]) > 0
        assert list(replay.step.events) == live[0]
        while replay.forward() is not None:
            assert list(replay.step.events) == live[replay.position]
        assert replay.at_end
        assert replay.battle.state() == state
        assert replay.over == state["summary"]["over"]


def test_walk_gives_each_step_and_the_battle_after_it(fog_battle):
    state, live = fog_battle
    with Replay.from_state(state) as replay:
        replay.seek(10)
        numbers = []
        for step, battle in replay.walk():
            numbers.append(step.number)
            assert len(battle.commands) == step.number
            assert list(step.events) == live[step.number]
        assert numbers == list(range(len(live)))
        assert battle.digest() == state["digest"]


def test_stepping_back_then_forward_gives_the_same_battle(fog_battle):
    state, _ = fog_battle
    with Replay.from_state(state) as replay:
        digests = [replay.battle.digest()]
        while replay.forward() is not None:
            digests.append(replay.battle.digest())
        assert len(set(digests)) > len(digests) // 2           # the steps do change the battle
        for number in (replay.total, 40, 17, 1):
            replay.seek(number)
            assert replay.back().number == number - 1
            assert replay.battle.digest() == digests[number - 1]
            assert replay.forward().number == number
            assert replay.battle.digest() == digests[number]
        replay.seek(0)
        assert replay.back() is None and replay.battle.digest() == digests[0]
        assert replay.seek(replay.total + 5).number == replay.total
        assert replay.forward() is None
        assert replay.battle.state() == state


def test_a_log_that_no_longer_applies_is_refused(fog_battle):
    state = copy.deepcopy(fog_battle[0])
    state["commands"].insert(3, state["commands"][5])
    with pytest.raises(ReplayError, match=r"command 4 of \d+ no longer applies: It is .*'s turn"):
        Replay.from_state(state)


def test_a_log_that_ends_elsewhere_is_refused(fog_battle):
    state = copy.deepcopy(fog_battle[0])
    state["digest"] = "0" * 16
    with pytest.raises(ReplayError, match="does not give the saved position"):
        Replay.from_state(state)
    state = copy.deepcopy(fog_battle[0])
    state["commands"].append(state["commands"][-1])
    with pytest.raises(ReplayError, match="comes after the end of the battle"):
        Replay.from_state(state)


@pytest.mark.parametrize("damage, words", [
    (lambda s: s.pop("seed"), "has no 'seed'"),
    (lambda s: s.update(seed="x"), "seed 'x' is not a whole number"),
    (lambda s: s.update(commands={"a": 1}), "command log is not a list"),
    (lambda s: s["commands"].__setitem__(0, {"kind": "teleport"}), "not a command"),
    (lambda s: s.update(format=99), "unknown format"),
    (lambda s: s["setup"].pop("scenario"), "damaged"),
])
def test_a_damaged_state_is_refused_with_a_reason(fog_battle, damage, words):
    state = copy.deepcopy(fog_battle[0])
    damage(state)
    with pytest.raises(ReplayError, match=words):
        Replay.from_state(state)


def test_a_save_is_replayed_by_name_or_refused_with_its_problem(fog_battle, tmp_path):
    write_save(tmp_path, "fight", fog_battle[0])
    with Replay.from_save(tmp_path, "fight") as replay:
        assert replay.total == len(fog_battle[0]["commands"])
    with pytest.raises(ReplayError, match="does not exist"):
        Replay.from_save(tmp_path, "nothing")
    state = copy.deepcopy(fog_battle[0])
    del state["commands"][2]
    write_save(tmp_path, "odd", state)
    with pytest.raises(ReplayError, match=r"Cannot replay save odd: command \d+ of"):
        Replay.from_save(tmp_path, "odd")


def test_a_side_sees_only_its_events_and_everything_only_after_the_end(fog_battle):
    state, live = fog_battle
    events = [event for step in live for event in step]
    for side in ("blue", "red", "green"):
        mine = seen(events, side)
        assert mine and all(side in event.seen_by for event in mine)
        assert len(mine) < len(events)
    everything = seen(events, None)
    assert not any(isinstance(event, TurnUnseen) for event in everything)
    assert len(everything) == sum(not isinstance(event, TurnUnseen) for event in events)
    with Replay.from_state(state) as replay:
        assert replay.views() == ["blue", "red", "green", None]
        assert replay.events_until(replay.total) == events
        lines = log_lines(seen(replay.events_until(1), None), replay.name)
        assert lines[0].startswith("Battle begins: Divided yard")
    unfinished, _ = played(str(FOG), 3, commands=12)
    with Replay.from_state(unfinished) as replay:
        assert not replay.over and replay.views() == ["blue", "red", "green"]


def test_a_command_with_odd_fields_is_refused_not_raised(fog_battle):
    """A hand-edited command log (the checksum recomputed) says why it cannot be watched."""
    for field, value in (("unit", 5), ("aim", "x"), ("location", None), ("target", [1]),
                         ("path", [[99, 99]]), ("unit", "nobody")):
        state = copy.deepcopy(fog_battle[0])
        command = next(c for c in commands_in(state) if field in c)
        command[field] = value
        with pytest.raises(ReplayError):
            Replay.from_state(state)
