"""Modifier and skill names read as words: no raw ids (`point_blank`, `kinetic_weapons`) and
no doubled words ("range range") in what an attack's check shows."""

from __future__ import annotations

import re

import pytest

from game.rulesets.eclipse.core import Fighter, Situation, Weapon, range_words
from game.rulesets.eclipse.first import Eclipse1Rules
from game.rulesets.eclipse.second import Eclipse2Rules
from tests.rules.rules_helpers import spec

RULES = {"eclipse1": Eclipse1Rules(spec("eclipse1")), "eclipse2": Eclipse2Rules(spec("eclipse2"))}


def readable(name: str) -> bool:
    return "_" not in name and re.search(r"\b(\w+) \1\b", name) is None


def test_range_words():
    assert range_words("point_blank") == "point blank range"
    assert range_words("range") == "range"
    assert range_words("beyond") == "beyond range"


@pytest.mark.parametrize("ruleset", sorted(RULES))
def test_every_range_band_and_skill_reads_as_words(ruleset):
    rules = RULES[ruleset]
    shooter = Fighter("S", skills={"kinetic_weapons": 60, "guns": 60})
    for skill in ("kinetic_weapons", "guns", "beam_weapons"):
        gun = Weapon("gun", skill, "1d10")
        for band in rules.p.range_modifiers:
            label, _, mods = rules.attack_target(shooter, gun, Situation(range=band))
            assert readable(label), label
            assert all(readable(name) for name, _ in mods), (band, mods)
