"""Fixtures for content tests: bad files are written into tmp_path, never into content/."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tests.content.content_helpers import Write


@pytest.fixture
def write(tmp_path: Path) -> Write:
    """write('units.yaml', text) -> the path of a dedented file under tmp_path."""

    def _write(name: str, text: str) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        return path

    return _write
