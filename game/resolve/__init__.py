"""The referee's calculator: `skirmish resolve FILE` resolves an attack under any ruleset, or
what else a game master asks (suppressive fire, a throw, morale, an ambush: `action:`).

`game.resolve.main.main_resolve(path, as_json=..., odds=...)` returns (exit code, text to
print). The file format is described in docs/RESOLVE.md; examples are in docs/resolve/. Each
ruleset's side of it lives in its package (game/rulesets/<name>/calculator.py).
"""
