"""Helpers for the tests of rulesets written outside game/."""

from __future__ import annotations

SCENARIO = "alley"          # a bundled scenario, written for skirmish
