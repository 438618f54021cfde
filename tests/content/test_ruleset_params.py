"""A ruleset file's params are checked against its engine, with file, line and key."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.content.loader import bundled_content_dir, validate_paths


def test_bad_params_are_reported_with_line_and_key(tmp_path: Path):
    text = (bundled_content_dir() / "rulesets" / "skirmish.yaml").read_text()
    text = text.replace("id: skirmish", "id: house_rules", 1).replace("stand_crouch: 2", "stand_crouch: two")
    text = text.replace("  die: 10 ", "  dice: 10 ")
    bad = tmp_path / "house.yaml"
    bad.write_text(text)
    problems = validate_paths([bad])
    found = {(p.key, p.file) for p in problems}
    assert ("params.stance_ap.stand_crouch", str(bad)) in found
    assert ("params.dice", str(bad)) in found
    line = next(p.line for p in problems if p.key == "params.stance_ap.stand_crouch")
    assert "stand_crouch: two" in text.splitlines()[line - 1]


def test_a_scenario_under_an_engine_not_yet_playable_is_refused(tmp_path: Path):
    (tmp_path / "future.yaml").write_text(
        "id: future\nname: Future\nengine: not_yet\nparams: {}\n")
    (tmp_path / "fight.yaml").write_text(
        "id: fight\nname: Fight\nruleset: future\nmap: depot\n"
        "sides:\n  - {id: a, name: A, zone: alpha, squad: alpha_team}\n"
        "  - {id: b, name: B, zone: bravo, squad: olea_section}\n")
    problems = validate_paths([tmp_path])
    assert any(p.key == "ruleset" and "cannot be played" in p.message for p in problems)


def test_a_bad_tactical_block_is_reported_with_line_and_key(tmp_path: Path):
    text = (bundled_content_dir() / "rulesets" / "eclipse2.yaml").read_text()
    text = text.replace("id: eclipse2", "id: gritty", 1).replace("  actions: 1 ", "  actions: many ", 1)
    assert "actions: many" in text
    bad = tmp_path / "gritty.yaml"
    bad.write_text(text)
    problems = validate_paths([bad])
    found = [p for p in problems if p.key == "tactical.actions"]
    assert found and found[0].file == str(bad)
    assert "actions: many" in text.splitlines()[found[0].line - 1]


def test_a_tabletop_ruleset_without_a_tactical_block_is_refused(tmp_path: Path):
    text = (bundled_content_dir() / "rulesets" / "eclipse2.yaml").read_text()
    text = text.replace("id: eclipse2", "id: bare", 1).split("\ntactical:")[0] + "\n"
    (tmp_path / "bare.yaml").write_text(text)
    problems = validate_paths([tmp_path / "bare.yaml"])
    assert any("tactical" in p.message and p.line is not None for p in problems)


def test_turns_are_set_only_where_the_ruleset_has_the_choice():
    from game.content.loader import load_setup, with_turns

    skirmish = load_setup("alley")
    assert with_turns(skirmish, "sequential").ruleset.params["turns"] == "sequential"
    assert with_turns(skirmish, "simultaneous").ruleset.params["turns"] == "simultaneous"
    with pytest.raises(ValueError, match="only skirmish offers the choice"):
        with_turns(load_setup("alley", ruleset="d20"), "sequential")
    with pytest.raises(ValueError, match="not 'both'"):
        with_turns(skirmish, "both")
