"""The referee's calculator: `skirmish resolve FILE` resolves one attack under any ruleset.

`game.resolve.main.main_resolve(path, as_json=..., odds=...)` returns (exit code, text to
print). The file format is described in docs/RESOLVE.md; examples are in docs/resolve/. Each
ruleset's side of it lives in its package (game/rulesets/<name>/calculator.py).
"""
