"""Same scenario + seed + commands gives the same events; a saved battle resumes exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.ai import make_player
from game.content.loader import load_setup
from game.core.commands import EndTurn, Move
from game.rulesets import load_battle, new_battle
from game.saves import SaveError, read_save, write_save
from game.sim import play
from tests.sequential import sequential


def run(scenario: str, seed: int):
    setup = load_setup(scenario)
    players = {s.id: make_player("simple", s.id, seed) for s in setup.scenario.sides}
    return play(setup, seed, players)


def recorded(scenario: str, seed: int) -> tuple[list, list[dict]]:
    """A whole battle's commands and the events each produced."""
    setup = load_setup(scenario)
    players = {s.id: make_player("simple", s.id, seed) for s in setup.scenario.sides}
    commands, events = [], []
    with new_battle(setup, seed) as battle:
        while not battle.session.over:
            command = players[battle.session.acting_side].next_command(battle)
            result = battle.submit(command)
            assert result, f"the simple player sent a refused command: {result}"
            commands.append(command)
            events.append([e.to_dict() for e in result])
    return commands, events


EXAMPLE = str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "maires_stand.yaml")


@pytest.mark.parametrize("scenario", ["alley", EXAMPLE])
def test_same_seed_same_events(scenario):
    a, b = run(scenario, 11), run(scenario, 11)
    assert [e.to_dict() for e in a.events] == [e.to_dict() for e in b.events]
    assert any(e.kind == "attack_resolved" for e in a.events)
    c = run(scenario, 12)
    assert [e.to_dict() for e in a.events] != [e.to_dict() for e in c.events]


@pytest.mark.parametrize("cut", [0.3, 0.6])
def test_saved_mid_battle_continues_identically(tmp_path, cut):
    commands, events = recorded("alley", 5)
    k = int(len(commands) * cut)
    setup = load_setup("alley")
    with new_battle(setup, 5) as battle:
        for command in commands[:k]:
            assert battle.submit(command)
        path = write_save(tmp_path, "mid battle", battle.state())
    state = read_save(tmp_path, "mid battle")
    with load_battle(json.loads(json.dumps(state))) as resumed:
        later = [[e.to_dict() for e in resumed.submit(command)] for command in commands[k:]]
    assert later == events[k:]
    assert path.exists()


def test_a_tampered_save_is_refused_and_left_alone(tmp_path):
    setup = sequential(load_setup("alley"))
    with new_battle(setup, 5) as battle:
        battle.submit(EndTurn(battle.session.active))
        path = write_save(tmp_path, "slot", battle.state())
    raw = path.read_bytes()
    assert b'"seed":5' in raw
    path.write_bytes(raw.replace(b'"seed":5', b'"seed":6'))
    tampered = path.read_bytes()
    with pytest.raises(SaveError, match="corrupt"):
        read_save(tmp_path, "slot")
    assert path.read_bytes() == tampered


def test_a_state_whose_commands_no_longer_apply_is_refused():
    setup = load_setup("alley")
    with new_battle(setup, 5) as battle:
        state = battle.state()
        uid = battle.session.active
    state["commands"] = [Move(uid, ((99, 99),)).to_dict()]
    state["digest"] = None
    with pytest.raises(ValueError, match="no longer applies"):
        load_battle(state)


def test_battles_do_not_leak_into_each_other():
    setup = sequential(load_setup("alley"))
    first = new_battle(setup, 1)
    second = new_battle(setup, 2)
    uid = first.session.active
    digest = second.digest()
    assert first.submit(EndTurn(uid))
    assert second.digest() == digest
    first.close()
    second.close()


def test_a_loaded_battle_brings_back_its_events_for_the_log():
    commands, events = recorded("alley", 5)
    setup = load_setup("alley")
    with new_battle(setup, 5) as battle:
        for command in commands[:10]:
            battle.submit(command)
        state = battle.state()
    with load_battle(state) as loaded:
        replayed = [e.to_dict() for e in loaded.replayed]
    with new_battle(setup, 5) as fresh:
        expected = [e.to_dict() for e in fresh.opening] + [e for batch in events[:10] for e in batch]
    assert replayed == expected


def test_a_save_whose_blocks_carry_keys_of_other_rulesets_still_loads():
    """Saves once carried every ruleset's keys in each `rules:` block, with their defaults; a
    battle reads the keys its ruleset has and replays the same."""
    setup = load_setup("opend6_alley")
    players = {s.id: make_player("simple", s.id, 5) for s in setup.scenario.sides}
    with new_battle(setup, 5) as battle:
        for _ in range(12):
            if battle.session.over:
                break
            battle.submit(players[battle.session.side_of(battle.session.active)].next_command(battle))
        state = json.loads(json.dumps(battle.state()))
    extra = {"units": {"death_rating": 0, "reactions": [], "size": "medium"},
             "weapons": {"crit_range": 20, "burst": None, "armor": "kinetic"},
             "armor": {"kinetic": 0, "armor_rating": 0}}
    for kind, keys in extra.items():
        for item in state["setup"][kind]:
            for block in item["rules"].values():
                block.update(keys)
    with load_battle(state) as loaded:   # the digest of the replayed battle is checked
        assert len(loaded.commands) == len(state["commands"]) > 0
