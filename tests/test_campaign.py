"""Campaigns: survivors carried from battle to battle, branches, campaign saves, bad files.

Battles are ended by hand here (a unit's wounds and ammunition set, a unit killed, the battle
finished with the winner wanted), so each outcome and each carried number is known exactly.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.campaign import (CampaignState, after_battle, battle_setup, load_campaign,
                           play_campaign, read_campaign, save_campaign, start_campaign)
from game.cli import main
from game.content.campaign import next_of
from game.content.loader import load_library, validate_paths
from game.core import components as c
from game.core.engine import Battle
from game.core.systems.health import set_state
from game.core.systems.turns import finish
from game.rulesets import new_battle
from game.saves import SaveError, campaign_dir, write_save

CAMPAIGN = load_campaign("breakout")


def _wound(battle: Battle, name: str, hp: int, ammo: int, spare: int) -> str:
    session = battle.session
    session.use()
    uid = next(uid for uid, unit in session.units() if unit.name == name)
    session.get(uid, c.Health).hp = hp
    weapon = session.get(uid, c.Loadout).weapons[0]
    weapon.ammo, weapon.spare = ammo, spare
    return uid


def _kill(battle: Battle, name: str) -> None:
    session = battle.session
    uid = next(uid for uid, unit in session.units() if unit.name == name)
    session.get(uid, c.Health).hp = -100
    set_state(session, uid, "dead", "test")


def _end(state: CampaignState, battle: Battle, winner: str | None) -> CampaignState:
    finish(battle.session, winner, "ended by the test")
    campaign, _ = CAMPAIGN
    return after_battle(state, campaign, battle.session)


def _units(battle: Battle, side: str) -> dict[str, tuple[int, str, int, int, dict]]:
    session = battle.session
    session.use()
    out = {}
    for uid, unit in session.units():
        if unit.side == side:
            health, loadout = session.get(uid, c.Health), session.get(uid, c.Loadout)
            weapon = loadout.weapons[0]
            out[unit.name] = (health.hp, health.state, weapon.ammo, weapon.spare,
                              dict(loadout.grenades))
    return out


def test_three_battles_carry_survivors_exactly_across_a_save(tmp_path: Path) -> None:
    campaign, library = CAMPAIGN
    state = start_campaign(campaign, library, seed=5)
    assert state.step == "alley"
    with new_battle(battle_setup(state, campaign, library), 5) as battle:
        assert set(_units(battle, "jensen")) == {"Maire Jensen", "Hollis", "Sana Ives"}
        _wound(battle, "Maire Jensen", 9, 4, 1)
        _kill(battle, "Hollis")
        state = _end(state, battle, "jensen")
    assert state.step == "depot"
    assert [m.name for m in state.roster] == ["Maire Jensen", "Sana Ives"]
    assert state.history[-1].lost == ["Hollis"]

    save_campaign(tmp_path, state)                      # saved between battles ...
    loaded = read_campaign(tmp_path, "campaign-breakout")
    assert loaded.model_dump(exclude={"summary"}) == state.model_dump(exclude={"summary"})

    with new_battle(battle_setup(loaded, campaign, library), 6) as battle:   # ... and continued
        units = _units(battle, "jensen")
        assert "Hollis" not in units                     # the dead stay dead
        assert units["Maire Jensen"][:4] == (9, "ok", 4, 1)
        ives = units["Sana Ives"]
        assert ives[0] == 20 and ives[1] == "ok"         # untouched: as she was
        assert len(battle.session.order) == 2 + 4        # two of the cell, four guards
        _wound(battle, "Sana Ives", 3, 0, 0)
        state = _end(loaded, battle, "jensen")           # through the depot
    assert state.step == "causeway"

    with new_battle(battle_setup(state, campaign, library), 7) as battle:
        units = _units(battle, "jensen")
        assert units["Maire Jensen"][:4] == (9, "ok", 4, 1)
        assert units["Sana Ives"][:4] == (3, "ok", 0, 0)
        state = _end(state, battle, "jensen")
    assert state.over and state.ending == "victory"
    assert [r.step for r in state.history] == ["alley", "depot", "causeway"]


def test_a_lost_battle_branches_the_other_way() -> None:
    campaign, library = CAMPAIGN
    state = start_campaign(campaign, library, seed=1)
    with new_battle(battle_setup(state, campaign, library), 1) as battle:
        state = _end(state, battle, "olea")              # time ran out: the cell is still up
    assert state.step == "fallback"
    with new_battle(battle_setup(state, campaign, library), 2) as battle:
        assert set(_units(battle, "jensen")) == {"Maire Jensen", "Hollis", "Sana Ives"}
        assert battle.session.setup.scenario.id == "breakout_fallback"
        state = _end(state, battle, "olea")
    assert state.over and state.ending == "defeat"     # `on` has no `lose`: the campaign is lost


def test_the_downed_are_carried_down_and_a_roster_with_no_one_up_is_defeated() -> None:
    campaign, library = CAMPAIGN
    state = start_campaign(campaign, library, seed=1)
    with new_battle(battle_setup(state, campaign, library), 1) as battle:
        session = battle.session
        for name in ("Hollis", "Sana Ives"):
            _kill(battle, name)
        uid = _wound(battle, "Maire Jensen", -2, 1, 0)
        set_state(session, uid, "unconscious", "test")
        state = _end(state, battle, "olea")
    assert [(m.name, m.hp, m.state) for m in state.roster] == [("Maire Jensen", -2, "unconscious")]
    assert state.ending == "defeat"


def test_branches_follow_every_outcome() -> None:
    campaign, _ = CAMPAIGN
    alley, depot, fallback, causeway = (campaign.step(s) for s in ("alley", "depot", "fallback", "causeway"))
    assert [next_of(alley, r) for r in ("win", "lose", "draw")] == ["depot", "fallback", "fallback"]
    assert [next_of(depot, r) for r in ("win", "lose", "draw")] == ["causeway", "fallback", "fallback"]
    assert [next_of(fallback, r) for r in ("win", "lose", "draw")] == ["causeway", "defeat", "causeway"]
    assert [next_of(causeway, r) for r in ("win", "lose", "draw")] == ["victory", "defeat", "defeat"]


def test_computer_players_play_the_bundled_campaign_to_its_end(tmp_path: Path) -> None:
    campaign, library = CAMPAIGN
    seen: list[CampaignState] = []
    end = play_campaign(campaign, library, "simple", None, 3, on_battle=seen.append)
    assert end.over and end.ending in ("victory", "defeat")
    assert len(end.history) == len(seen) >= 1
    for before, record in zip(["alley"] + [s.step for s in seen[:-1]], end.history, strict=True):
        assert record.step == before
    for earlier, later in zip(seen, seen[1:], strict=False):
        dead = set(earlier.history[-1].lost)
        assert dead.isdisjoint(m.name for m in later.roster)


def test_the_campaign_command_plays_saves_and_refuses_to_resume_an_ended_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--save-dir", str(tmp_path), "campaign", "breakout", "--seed", "4", "--ai", "normal",
            "--vs", "easy", "--save", "run"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("Breakout 1: the alley: ")
    assert "Campaign Breakout: " in out.splitlines()[-1]
    state = read_campaign(tmp_path, "run")
    assert state.over and f"{state.ending} after {len(state.history)} battles" in out
    assert main(["--save-dir", str(tmp_path), "campaign", "--resume", "run"]) == 0
    assert "has ended already" in capsys.readouterr().out
    assert main(["campaign", "no_such_campaign"]) == 2
    assert "campaigns: breakout" in capsys.readouterr().err


# --- campaign saves ------------------------------------------------------------------------

def _saved(tmp_path: Path) -> tuple[Path, bytes]:
    campaign, library = CAMPAIGN
    path = save_campaign(tmp_path, start_campaign(campaign, library, seed=1))
    return path, path.read_bytes()


def test_a_corrupt_campaign_save_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    path, _ = _saved(tmp_path)
    assert path.parent == campaign_dir(tmp_path)
    doc = json.loads(path.read_bytes())
    doc["state"]["seed"] = 99                              # edited by hand: checksum fails
    path.write_text(json.dumps(doc))
    damaged = path.read_bytes()
    with pytest.raises(SaveError, match="checksum does not match"):
        read_campaign(tmp_path, "campaign-breakout")
    assert path.read_bytes() == damaged
    path.write_bytes(damaged[:40])                         # cut short
    with pytest.raises(SaveError, match="not a valid save file"):
        read_campaign(tmp_path, "campaign-breakout")
    assert path.read_bytes() == damaged[:40]


def test_a_campaign_state_that_does_not_fit_is_refused(tmp_path: Path) -> None:
    from game.saves import write_campaign_save
    path, _ = _saved(tmp_path)
    state = json.loads(path.read_bytes())["state"]
    state["roster"] = [{"unit": "maire", "name": "M", "hp": "lots", "max_hp": 26}]
    write_campaign_save(tmp_path, "bad", state)            # a good envelope, a bad state
    before = (campaign_dir(tmp_path) / "bad.json").read_bytes()
    with pytest.raises(SaveError, match=r"damaged \(roster\.0\.hp"):
        read_campaign(tmp_path, "bad")
    assert (campaign_dir(tmp_path) / "bad.json").read_bytes() == before


def test_battle_and_campaign_saves_are_kept_apart(tmp_path: Path) -> None:
    from game.saves import list_saves, read_save
    path, _ = _saved(tmp_path)
    write_save(tmp_path, "a battle", {"x": 1})
    assert [info.name for info in list_saves(tmp_path)] == ["a battle"]
    with pytest.raises(SaveError, match="it is a campaign save, not a battle save"):
        read_save(tmp_path, str(path))
    with pytest.raises(SaveError, match="it is a battle save, not a campaign save"):
        read_campaign(tmp_path, str(tmp_path / "a battle.json"))


# --- bad campaign files ---------------------------------------------------------------------

def _campaign_file(tmp_path: Path, steps: str, head: str = "side: jensen\n") -> Path:
    path = tmp_path / "bad.yaml"
    path.write_text(f"id: bad\nname: Bad\n{head}steps:\n{steps}")
    return path


def _problems(path: Path) -> list[str]:
    return [str(problem) for problem in validate_paths([path])]


def test_an_unknown_scenario_is_refused_with_its_file_and_place(tmp_path: Path) -> None:
    path = _campaign_file(tmp_path, "  - id: one\n    scenario: breakout_aley\n")
    assert _problems(path) == [
        f"{path}:6:15: steps[0].scenario: unknown scenario 'breakout_aley' (did you mean "
        f"'breakout_alley'?) (scenarios: " + ", ".join(sorted(load_library().scenarios)) + ")"]


def test_a_branch_to_an_unknown_step_is_refused(tmp_path: Path) -> None:
    path = _campaign_file(tmp_path, "  - id: one\n    scenario: breakout_alley\n"
                                    "    on: {win: tow}\n  - id: two\n    scenario: breakout_depot\n")
    problems = _problems(path)
    assert len(problems) == 1
    assert problems[0].startswith(f"{path}:7:15: steps[0].on.win: branch to unknown step 'tow'")


def test_a_cycle_is_refused_where_it_closes(tmp_path: Path) -> None:
    path = _campaign_file(tmp_path, "  - id: one\n    scenario: breakout_alley\n"
                                    "    on: {win: two}\n"
                                    "  - id: two\n    scenario: breakout_depot\n"
                                    "    on: {lose: one}\n")
    problems = _problems(path)
    assert len(problems) == 1
    assert problems[0].startswith(f"{path}:10:") and "steps[1].on.lose: branch back to step 'one'" \
        " makes a cycle" in problems[0]


def test_other_bad_campaigns_are_refused_with_their_place(tmp_path: Path) -> None:
    cases = {
        "  - id: one\n    scenario: breakout_alley\n    on: {won: one}\n":
            "steps[0].on.won: unknown outcome 'won'",
        "  - id: one\n    scenario: breakout_alley\n  - id: two\n    scenario: breakout_depot\n":
            "steps[1].id: step 'two' is never reached",
        "  - id: one\n    scenario: breakout_alley\n    side: olae\n":
            "steps[0].side: scenario 'breakout_alley' has no side 'olae'",
        "  - id: victory\n    scenario: breakout_alley\n":
            "steps[0].id: 'victory' ends a campaign",
        "  - id: one\n    scenario: breakout_alley\n    on: {win: two}\n"
        "  - id: two\n    scenario: d20_depot\n":
            "every step of a campaign is played under the first step's ruleset",
    }
    for steps, expected in cases.items():
        problems = _problems(_campaign_file(tmp_path, steps))
        assert any(expected in p and p.startswith(str(tmp_path)) for p in problems), (steps, problems)
    problems = _problems(_campaign_file(tmp_path, "  - id: one\n    scenario: breakout_alley\n",
                                        head="side: jensen\ndowned: maybe\n"))
    assert problems and "downed" in problems[0]


def test_a_step_too_small_for_the_roster_is_refused(tmp_path: Path) -> None:
    (tmp_path / "tiny.yaml").write_text(
        "id: tiny\nname: Tiny\nmap:\n  id: tiny_map\n  name: Tiny\n"
        "  legend: {A: {terrain: open, zone: alpha}, B: {terrain: open, zone: bravo}}\n"
        "  rows: ['A....B', '.....B']\n"
        "sides:\n  - {id: jensen, name: J, members: [{unit: maire}], zone: alpha}\n"
        "  - {id: olea, name: O, members: [{unit: soldier}], zone: bravo}\n")
    _campaign_file(tmp_path, "  - id: one\n    scenario: breakout_alley\n    on: {win: two}\n"
                             "  - id: two\n    scenario: tiny\n")
    problems = [str(p) for p in validate_paths([tmp_path])]
    assert len(problems) == 1
    assert problems[0].startswith(f"{tmp_path / 'bad.yaml'}:9:15: steps[1].scenario: the 3 units "
                                  "the campaign starts with cannot be deployed in scenario 'tiny'")


def test_misshapen_campaign_files_are_refused_with_their_place(tmp_path: Path) -> None:
    cases = {
        "id: t\nname: T\nside: jensen\nstpes: 1\nsteps:\n  - {id: one, scenario: breakout_alley}\n":
            ":4:1: stpes: unknown key 'stpes' (did you mean 'steps'?)",
        "id: t\nname: T\nside: jensen\nsteps:\n  - {id: one, scenario: breakout_alley, brifing: x}\n":
            "steps[0].brifing: unknown key 'brifing' (did you mean 'briefing'?)",
        "id: t\nname: T\nside: jensen\nsteps: 3\n": ":4:8: steps: ",
        "id: t\nname: T\nside: jensen\nsteps: []\n": "steps: ",
        "id: t\nname: T\nside: jensen\nsteps:\n  - {id: one, scenario: breakout_alley, on: [win]}\n":
            "steps[0].on: ",
        "id: t\nname: T\nside: jensen\nstart: two\nsteps:\n  - {id: one, scenario: breakout_alley}\n":
            "start 'two' is not one of the steps",
    }
    for text, expected in cases.items():
        path = tmp_path / "c.yaml"
        path.write_text(text)
        problems = _problems(path)
        assert any(p.startswith(str(path)) and expected in p for p in problems), (text, problems)


def test_an_objective_the_side_met_takes_its_branch() -> None:
    """The objectives met are read from the battle: a branch keyed by one is taken first."""
    campaign, library = CAMPAIGN
    steps = [step.model_copy(update={"on": {"reach_jensen": "causeway", **step.on}})
             if step.id == "alley" else step for step in campaign.steps]
    branched = campaign.model_copy(update={"steps": steps})
    for reached, expected in ((True, "causeway"), (False, "depot")):
        state = start_campaign(branched, library, seed=1)
        with new_battle(battle_setup(state, branched, library), 1) as battle:
            session = battle.session
            session.use()
            if reached:                       # Hollis stands at the depot gate (where a guard stood)
                uid = next(uid for uid, unit in session.units() if unit.name == "Hollis")
                gate = sorted(session.grid.zone_set("bravo"))[0]
                guard = session.occupied().get(gate)
                pos = session.get(uid, c.Position)
                if guard is not None:
                    there = session.get(guard, c.Position)
                    there.x, there.y = pos.x, pos.y
                pos.x, pos.y = gate
            finish(session, "jensen", "ended by the test")
            state = after_battle(state, branched, session)
        assert state.step == expected
