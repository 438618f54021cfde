"""`skirmish resolve`: the worked examples of every reference, through the bundled files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.resolve.main import main_resolve

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "resolve"
ATTACKS = sorted(p.name for p in EXAMPLES.glob("*.yaml") if "\naction:" not in p.read_text())


def run(path: Path | str, *, odds: bool = False) -> dict:
    code, text = main_resolve(str(path), as_json=True, odds=odds)
    assert code == 0, text
    return json.loads(text)


def text_of(path: Path | str) -> str:
    code, text = main_resolve(str(path), as_json=False, odds=False)
    assert code == 0, text
    return text


def test_hollis_hits_the_trooper_for_four() -> None:
    result = run(EXAMPLES / "hollis.yaml")
    assert (result["hit"], result["hits"], result["damage_rolled"], result["damage_applied"]) == (True, 1, 7, 4)
    assert result["attack"]["total"] == 11 and result["defense"]["total"] == 9
    assert result["defender"] == {"name": "Olea trooper", "hp_before": 18, "hp": 14, "state": "ok"}
    assert result["wounds"] == 0 and result["rolls"] == {"attack": [4], "defense": [5], "damage": [3, 4]}


def test_the_olea_burst_hits_twice() -> None:
    result = run(EXAMPLES / "olea_burst.yaml")
    assert (result["attack"]["total"], result["defense"]["total"], result["hits"]) == (14, 9, 2)
    assert "2 hits (at 14, 10; spread 4" in text_of(EXAMPLES / "olea_burst.yaml")


def test_maires_burst_is_stopped_by_heavy_armor() -> None:
    result = run(EXAMPLES / "maire_burst.yaml")
    assert (result["attack"]["total"], result["defense"]["total"], result["hits"]) == (12, 7, 2)
    assert [h["rolled"] for h in result["per_hit"]] == [25, 22]
    assert (result["damage_rolled"], result["damage_applied"]) == (47, 0)


def test_maires_grenade_kills_the_support(tmp_path: Path) -> None:
    result = run(EXAMPLES / "maire_grenade.yaml")
    assert (result["damage_rolled"], result["damage_applied"]) == (58, 28)     # 58 - 30 shock DR
    assert result["defender"]["state"] == "dead"
    soldier = (EXAMPLES / "maire_grenade.yaml").read_text().replace("ring: 0", "ring: 4").replace(
        "unit: support", "unit: soldier, armor: {}")
    (tmp_path / "soldier.yaml").write_text(soldier)
    result = run(tmp_path / "soldier.yaml")
    assert (result["damage_rolled"], result["damage_applied"]) == (12, 12)    # the last die


def test_jinx_burst_against_the_exhuman() -> None:
    result = run(EXAMPLES / "jinx_burst.yaml")
    assert result["attack"] == {"roll": 69, "target": 70, "success": True, "critical": False,
                                "superior": 2, "mos": 69}
    assert result["defense"]["target"] == 30 and result["defense"]["success"]
    assert (result["hit"], result["damage_rolled"], result["damage_applied"], result["wounds"]) == (True, 21, 11, 1)
    assert result["defender"]["state"] == "ok" and not result["defender"]["knocked_down"]
    text = text_of(EXAMPLES / "jinx_burst.yaml")
    assert "2d10 weapon + 1d10 burst + 2d6 2 superior successes = 7+5+5+1+3 = 21" in text


def test_the_exhumans_charge_is_beaten_by_a_critical() -> None:
    result = run(EXAMPLES / "exhuman_charge.yaml")
    assert (result["attack"]["target"], result["attack"]["roll"]) == (60, 7)
    assert (result["defense"]["target"], result["defense"]["roll"], result["defense"]["critical"]) == (80, 0, True)
    assert not result["hit"] and result["damage_applied"] == 0


def test_eclipse1_example() -> None:
    result = run(EXAMPLES / "sasha_railgun.yaml")
    assert (result["damage_rolled"], result["armor"], result["damage_applied"], result["wounds"]) == (18, 5, 13, 2)


def test_cians_crossbow() -> None:
    result = run(EXAMPLES / "cian_crossbow.yaml")
    assert (result["attack_total"], result["difficulty"], result["hit"]) == (21, 15, True)
    assert (result["damage_rolled"], result["damage_applied"]) == (18, 18)
    assert result["defender"]["state"] == "dead"
    assert "marksmanship 5D - 1D (2 actions) = 4D" in text_of(EXAMPLES / "cian_crossbow.yaml")


def test_ariks_shot_misses_the_thrashers_armor_rating() -> None:
    result = run(EXAMPLES / "arik_shot.yaml")
    assert result["hit_test"] < 14 and not result["hit"] and result["hits"] == 0


@pytest.mark.parametrize("name", ATTACKS)
def test_every_attack_example_has_exact_odds(name: str) -> None:
    result = run(EXAMPLES / name, odds=True)
    odds = result["odds"]
    assert 0 <= odds["p_hit"] <= 1
    assert sum(odds["damage"].values()) == pytest.approx(1, abs=1e-6)
    assert sum(odds["states"].values()) == pytest.approx(1, abs=1e-6)
    assert "hit" not in result                                   # odds, not a roll


def test_skirmish_odds_match_the_rulesets_own_hit_distribution() -> None:
    from game.content.loader import load_library
    from game.rulesets.skirmish.rules import SkirmishRules

    rules = SkirmishRules(load_library().rulesets["skirmish"])
    odds = run(EXAMPLES / "olea_burst.yaml", odds=True)["odds"]
    assert odds["hits"] == pytest.approx(rules.hit_distribution(7, 5, 4, 8))


def test_unfixed_rolls_follow_the_seed_and_are_reported() -> None:
    first, again = run(EXAMPLES / "olea_burst.yaml"), run(EXAMPLES / "olea_burst.yaml")
    assert first["seed"] == 4 and first["rolls"] == again["rolls"]
    assert len(first["rolls"]["damage"]) == 6 and first["defender"]["hp"] == 20 - first["damage_applied"]
