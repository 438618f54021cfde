"""Fixtures for rulesets written outside game/: registered for one test, their file loaded."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.content.loader import Library, load_library, load_setup
from game.content.schema import BattleSetup
from game.rulesets import RULESETS
from tests.rulesets.coin import RULESET_FILE, CoinRuleset
from tests.rulesets.helpers import SCENARIO


@pytest.fixture
def coin(monkeypatch: pytest.MonkeyPatch) -> type[CoinRuleset]:
    """The coin ruleset in the registry, for this test only."""
    monkeypatch.setitem(RULESETS, "coin", CoinRuleset)
    return CoinRuleset


@pytest.fixture
def coin_library(coin) -> Library:
    """The bundled content plus the coin ruleset file."""
    return load_library([RULESET_FILE])


@pytest.fixture
def coin_setup(coin_library: Library) -> BattleSetup:
    """The bundled `alley` scenario under the coin ruleset."""
    return load_setup(SCENARIO, coin_library, ruleset="coin")


@pytest.fixture
def save_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "saves"
    folder.mkdir()
    return folder
