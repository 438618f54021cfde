"""The command line: sim, validate and resolve, as a player or a script would use them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from game.cli import main, wilson

ROOT = Path(__file__).resolve().parents[1]


def test_sim_prints_a_readable_log_and_the_winner(capsys):
    assert main(["sim", "alley", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "Initiative order:" in out and "Winner:" in out
    assert "against defense" in out          # every attack shows its rolls


def test_sim_json_is_one_event_per_line_and_deterministic(capsys):
    assert main(["sim", "alley", "--seed", "3", "--json"]) == 0
    first = capsys.readouterr().out.splitlines()
    assert main(["sim", "alley", "--seed", "3", "--json"]) == 0
    assert capsys.readouterr().out.splitlines() == first
    kinds = [json.loads(line)["kind"] for line in first]
    assert kinds[0] == "battle_started" and kinds[-2:] == ["battle_ended", "outcome"]
    ended, outcome = (json.loads(line) for line in first[-2:])
    assert outcome["winner"] == ended["winner"] and outcome["reason"] == ended["reason"]
    assert {o["type"] for o in outcome["objectives"]} == {"protect", "eliminate", "kill"}
    assert outcome["reason"] and outcome["winner"] in ("jensen", "olea")


def test_sim_json_gives_the_objective_that_ended_the_battle(capsys):
    assert main(["sim", "depot_raid", "--seed", "1", "--json"]) == 0
    outcome = json.loads(capsys.readouterr().out.splitlines()[-1])
    met = [o for o in outcome["objectives"] if o["state"] == "met"]
    assert outcome["kind"] == "outcome" and met and outcome["winner"] == met[0]["side"]
    assert outcome["reason"] in ("Alpha fire team held office for 3 rounds", "Sergeant Vell is down",
                                 "Olea depot guard held out for 20 rounds")


def test_sim_plays_either_way_of_taking_turns(capsys):
    kinds = {}
    for turns in ("simultaneous", "sequential"):
        assert main(["sim", "alley", "--seed", "3", "--json", "--turns", turns]) == 0
        kinds[turns] = {json.loads(line)["kind"] for line in capsys.readouterr().out.splitlines()}
    assert {"planning_started", "orders_given"} <= kinds["simultaneous"]
    assert not {"planning_started", "orders_given"} & kinds["sequential"]


def test_sim_refuses_turns_for_a_ruleset_without_the_choice(capsys):
    assert main(["sim", "alley", "--ruleset", "d20", "--turns", "simultaneous"]) != 0
    assert "only skirmish offers the choice" in capsys.readouterr().err


def test_sim_many_battles_as_json(capsys):
    assert main(["sim", "alley", "--battles", "4", "--seed", "1", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["battles"] == 4 and result["draws"] + result["wins"]["simple"] == 4


def test_sim_uses_every_core_by_default_and_gives_the_same_battles(capsys, monkeypatch):
    import game.sim

    asked = []
    play_many = game.sim.play_many
    monkeypatch.setattr(game.sim, "play_many",
                        lambda *args, jobs: asked.append(jobs) or play_many(*args, jobs=jobs))
    monkeypatch.setattr("os.cpu_count", lambda: 3)
    results = []
    for extra in ([], ["--jobs", "1"]):
        assert main(["sim", "alley", "--battles", "2", "--seed", "5", "--json", *extra]) == 0
        results.append(json.loads(capsys.readouterr().out))
    assert asked == [2, 1]                   # one per core, but no more than the battles
    assert results[0] == results[1]


def test_unknown_scenario_is_a_message_not_a_traceback(capsys):
    assert main(["sim", "no_such_place"]) == 2
    err = capsys.readouterr().err
    assert "no_such_place" in err and "Traceback" not in err


def test_validate_reports_every_problem_with_its_line(tmp_path, capsys):
    bad = tmp_path / "units.yaml"
    bad.write_text("units:\n  - id: grunt\n    name: Grunt\n    ap: lots\n    hp: -3\n    armour: none\n")
    assert main(["validate", str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"{bad}:4:" in out and f"{bad}:5:" in out and f"{bad}:6:" in out


def test_validate_accepts_the_bundled_content(capsys):
    assert main(["validate", str(ROOT / "content")]) == 0


def test_resolve_hollis(capsys):
    assert main(["resolve", str(ROOT / "docs" / "resolve" / "hollis.yaml"), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["hit"], result["hits"], result["damage_applied"]) == (True, 1, 4)


def test_wilson_interval():
    low, high = wilson(160, 200)
    assert round(low, 4) == 0.7391 and round(high, 4) == 0.8495   # textbook values for 160/200


def test_module_entry_point_prints_help():
    done = subprocess.run([sys.executable, "-m", "game", "--help"], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert done.returncode == 0 and "sim" in done.stdout and "validate" in done.stdout


def test_a_log_piped_into_a_reader_that_stops_early_ends_quietly():
    """`skirmish sim ... | head -1`: no "Broken pipe" message, no traceback, exit 0."""
    process = subprocess.Popen([sys.executable, "-m", "game", "sim", "depot", "--seed", "3"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    assert process.stdout.readline().startswith(b"Battle begins")
    process.stdout.close()
    _, err = process.communicate(timeout=120)
    assert process.returncode == 0 and err == b""
