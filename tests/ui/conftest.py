"""Fixtures for the app's tests (helpers are in ui_helpers.py)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def save_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "saves"
    folder.mkdir()
    return folder
