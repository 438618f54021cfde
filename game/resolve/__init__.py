"""The referee's calculator: `skirmish resolve FILE` resolves one attack under any ruleset.

`main_resolve(path, as_json=..., odds=...)` returns (exit code, text to print). The file
format is described in docs/RESOLVE.md; examples are in docs/resolve/.
"""

from __future__ import annotations

from game.resolve.main import main_resolve

__all__ = ["main_resolve"]
