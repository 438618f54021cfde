"""The coin ruleset, written only under tests/rulesets, plays bundled scenarios headless through
the same registry as the bundled rulesets: computer players, replays, saves and exact odds.

The last tests load it the way every ruleset is loaded: its file checked by its own models,
the bundled scenarios playable under it, the new-battle screen offering it.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from game.ai import make_player
from game.content.loader import ContentError, load_library, load_setup, playable_rulesets
from game.core import components as c
from game.core.commands import Attack, Move
from game.core.dice import Dice
from game.core.events import (AttackResolved, BattleStarted, Damaged, HealthChanged,
                              InitiativeRolled, Moved, Refused)
from game.core.queries import preview_attack, reach, sightings
from game.core.ruleset import Ruleset
from game.rulesets import RULESETS, UnknownRuleset, find_ruleset, load_battle, new_battle
from game.saves import read_save, write_save
from game.sim import play
from tests.rulesets.coin import RULESET_FILE, CoinParams, CoinRuleset
from tests.rulesets.helpers import SCENARIO

DUEL = Path(__file__).parents[1] / "ui" / "data" / "duel.yaml"     # two units in sight


def players_for(setup, seed: int, first: str = "hard", other: str = "easy") -> dict:
    sides = [side.id for side in setup.scenario.sides]
    return {sides[0]: make_player(first, sides[0], seed), sides[1]: make_player(other, sides[1], seed)}


def side_of(uid: str) -> str:
    return uid.rsplit("-", 1)[0]


# --- the registry ----------------------------------------------------------------------------

def test_the_registry_makes_the_coin_ruleset_from_its_file(coin_library):
    spec = coin_library.rulesets["coin"]
    assert spec.engine == "coin" and spec.name == "Coin flip"
    rules = find_ruleset(spec)
    assert isinstance(rules, CoinRuleset)
    assert rules.params == CoinParams(ap=4, hp=3, hit_face=2, attack_ap=1, reload_ap=1, draw_ap=1,
                                      stance_ap=1, movement={"straight": 1, "diagonal": 1,
                                                             "rough_extra": 1},
                                      overwatch_cone=90)


def test_the_coin_ruleset_needs_only_the_interface():
    """It defines nothing beyond Ruleset's hooks (and its own helpers' data)."""
    own = {name for name in vars(CoinRuleset) if not name.startswith("__")}
    assert own - set(dir(Ruleset)) == set()
    assert CoinRuleset.__mro__[1] is Ruleset


def test_without_the_registry_entry_there_is_no_coin_battle(coin_setup, monkeypatch):
    monkeypatch.delitem(RULESETS, "coin")
    with pytest.raises(UnknownRuleset, match="engine 'coin'"):
        new_battle(coin_setup, 1)


# --- whole battles ---------------------------------------------------------------------------

@pytest.mark.parametrize("scenario", ["alley", "depot"])
def test_a_bundled_scenario_is_played_to_the_end_by_computer_players(coin_library, scenario):
    setup = load_setup(scenario, coin_library, ruleset="coin")
    sides = [side.id for side in setup.scenario.sides]
    result = play(setup, 7, players_for(setup, 7))

    assert result.refused == []
    decided = [o for o in result.outcome["objectives"] if o["state"] != "open"]   # alley: Maire
    assert result.reason in ("last side standing", "no one left standing", "time ran out") \
        or decided
    assert result.winner in (*sides, None)
    started = next(e for e in result.events if isinstance(e, BattleStarted))
    assert started.ruleset == "coin"

    attacks = [e for e in result.events if isinstance(e, AttackResolved)]
    assert attacks and {side_of(e.attacker) for e in attacks} == set(sides)
    assert all(e.ap_cost == 1 and e.hits == int(e.hit) and e.attack.name == "coin" for e in attacks)
    assert all("the coin shows" in e.detail for e in attacks)
    hits = sum(e.hit for e in attacks)
    assert 0 < hits < len(attacks)                     # heads and tails both came up

    damage = [e for e in result.events if isinstance(e, Damaged)]
    assert len(damage) == hits and all(e.taken == 1 for e in damage)
    assert any(isinstance(e, Moved) and e.ap_cost == 1 for e in result.events)

    units = Counter(side_of(e.unit) for e in result.events if isinstance(e, InitiativeRolled))
    dead = Counter(side_of(e.unit) for e in result.events
                   if isinstance(e, HealthChanged) and e.state == "dead")
    assert 0 < 3 * sum(dead.values()) <= hits          # three hits kill (hp: 3)
    assert all(dead[side] <= units[side] for side in sides)
    if result.reason == "last side standing":          # not when an objective decided it
        loser = next(side for side in sides if side != result.winner)
        assert dead[loser] == units[loser] and dead[result.winner] < units[result.winner]


def test_the_same_seed_gives_the_same_battle(coin_setup):
    first = play(coin_setup, 11, players_for(coin_setup, 11))
    again = play(coin_setup, 11, players_for(coin_setup, 11))
    other = play(coin_setup, 12, players_for(coin_setup, 12))
    assert first.events == again.events
    assert (first.winner, first.rounds, first.commands) == (again.winner, again.rounds, again.commands)
    assert other.events != first.events


def test_a_saved_coin_battle_loads_to_the_same_position(coin_setup, save_dir):
    players = players_for(coin_setup, 5)
    with new_battle(coin_setup, 5) as battle:
        s = battle.session
        saved = None
        while not s.over:
            result = battle.submit(players[s.side_of(s.active)].next_command(battle))
            assert not isinstance(result, Refused), result
            if saved is None and len(battle.commands) == 12:
                saved = json.loads(json.dumps(battle.state()))      # mid-battle, as a file holds it
        final, commands, winner = battle.state(), list(battle.commands), s.winner

    assert saved is not None, "the battle ended before the save point"
    assert final["summary"]["ruleset"] == "coin" and final["summary"]["over"]
    with load_battle(saved) as loaded:
        assert isinstance(loaded.session.rules, CoinRuleset)
        assert loaded.digest() == saved["digest"]
        for command in commands[12:]:                     # the rest of the battle, replayed
            assert not isinstance(loaded.submit(command), Refused)
        assert loaded.digest() == final["digest"] and loaded.session.over

    write_save(save_dir, "coin", final)
    with load_battle(read_save(save_dir, "coin")) as loaded:
        assert loaded.digest() == final["digest"]
        assert loaded.session.over and loaded.session.winner == winner


# --- the rules themselves --------------------------------------------------------------------

def duel(coin_library, dice: Dice | None = None):
    setup = load_setup(str(DUEL), coin_library, ruleset="coin")
    return new_battle(setup, 3, dice=dice)


def test_initiative_is_a_coin_flip(coin_library):
    dice = Dice(3)
    dice.force(1, 2)                      # blue shows tails, red heads: red acts first
    with duel(coin_library, dice) as battle:
        assert battle.session.order == ["red-1", "blue-1"]
        rolls = [e.check.rolls for e in battle.opening if isinstance(e, InitiativeRolled)]
        assert rolls == [(1,), (2,)]


def test_the_odds_are_exact_and_heads_takes_one_hp(coin_library):
    with duel(coin_library) as battle:
        s = battle.session
        me = s.active
        foe = next(uid for uid in s.entities if uid != me)
        assert [seen.uid for seen in sightings(battle, s.side_of(me))] == [foe]
        preview = preview_attack(battle, me, foe)
        assert (preview.hit_chance, preview.hits, preview.expected_damage) == (0.5, (0.5, 0.5), 0.5)
        assert preview.ap_cost == 1 and preview.attack_modifiers == ()

        assert reach(battle, me).cost((s.position(me)[0] + 1, s.position(me)[1])) == 1
        s.dice.force(1)                                   # tails: a miss
        events = battle.submit(Attack(me, foe))
        assert [e.hit for e in events if isinstance(e, AttackResolved)] == [False]
        assert not any(isinstance(e, Damaged) for e in events)
        s.dice.force(2)                                   # heads: one HP
        events = battle.submit(Attack(me, foe))
        assert [e.hit for e in events if isinstance(e, AttackResolved)] == [True]
        assert [(e.hp_before, e.hp_after) for e in events if isinstance(e, Damaged)] == [(3, 2)]
        moved = battle.submit(Move(me, ((s.position(me)[0] + 1, s.position(me)[1]),)))
        assert not isinstance(moved, Refused), moved
        assert s.get(me, c.ActionPoints).current == 1     # 4 AP: two attacks and a step


# --- loaded like every ruleset -------------------------------------------------------------

def test_load_setup_plays_a_bundled_scenario_under_coin(coin_library):
    setup = load_setup(SCENARIO, coin_library, ruleset="coin")
    assert setup.ruleset.id == "coin" and setup.scenario.ruleset == "coin"


def test_the_bundled_scenarios_are_playable_under_coin(coin_library):
    assert "coin" in playable_rulesets(coin_library, SCENARIO)


def test_every_method_the_engine_calls_has_a_neutral_default(coin_library):
    assert Ruleset(coin_library.rulesets["coin"]).morale_modifier(100.0) == 0


def test_a_ruleset_file_is_checked_by_its_own_params_model_alone(monkeypatch):
    monkeypatch.setitem(RULESETS, "coin", CoinRuleset)
    library = load_library([RULESET_FILE])
    assert library.rulesets["coin"].params["hp"] == 3


def test_a_broken_coin_file_is_refused_at_its_line_and_key(coin, tmp_path: Path):
    broken = tmp_path / "coin.yaml"
    broken.write_text(RULESET_FILE.read_text().replace("  hp: 3 ", "  hp: 0 "))
    with pytest.raises(ContentError) as refused:
        load_library([broken])
    text = str(refused.value)
    assert str(broken) in text and "params.hp" in text
    line = next(n for n, row in enumerate(broken.read_text().splitlines(), 1) if "hp: 0" in row)
    assert f":{line}:" in text
