"""The engine, rules, content and computer players never import the app's toolkit."""

from __future__ import annotations

import subprocess
import sys


def test_headless_packages_do_not_import_textual():
    code = ("import sys\n"
            "import game.core.engine, game.core.queries, game.rulesets, game.content.loader,"
            " game.ai, game.sim, game.saves, game.resolve\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'game') "
            "and (m.startswith('textual') or m.startswith('game.ui'))))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
