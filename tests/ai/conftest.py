"""The computer-player tests build small battles with tests/core/builders.py."""

from __future__ import annotations

import sys
from pathlib import Path

CORE_TESTS = Path(__file__).resolve().parents[1] / "core"
if str(CORE_TESTS) not in sys.path:
    sys.path.insert(0, str(CORE_TESTS))
