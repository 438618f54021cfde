"""The seams hold: the engine imports no ruleset, and nothing outside game/rulesets asks which
ruleset it has (it calls the ruleset's hooks, or reads what the ruleset says it supports)."""

from __future__ import annotations

import ast
from pathlib import Path

GAME = Path(__file__).resolve().parents[2] / "game"
RULESETS = GAME / "rulesets"


def sources(under: Path, *, skip: Path | None = None) -> list[tuple[Path, ast.Module]]:
    out = []
    for path in sorted(under.rglob("*.py")):
        if skip is not None and skip in path.parents:
            continue
        out.append((path, ast.parse(path.read_text(), str(path))))
    return out


def mentions_rules(node: ast.AST) -> bool:
    return any(isinstance(n, (ast.Name, ast.Attribute)) and "rules" in ast.unparse(n).lower()
               for n in ast.walk(node))


def test_the_engine_imports_no_ruleset():
    found = []
    for path, tree in sources(GAME / "core"):
        for node in ast.walk(tree):
            names = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                     else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            found += [f"{path.name}: {name}" for name in names if name.startswith("game.rulesets")]
    assert found == []


def branches(tree: ast.AST) -> list[str]:
    """The places in `tree` that ask which ruleset a battle has."""
    found = []
    for node in ast.walk(tree):
        where = f"{getattr(node, 'lineno', '?')}: {ast.unparse(node)}"
        if isinstance(node, ast.Attribute) and node.attr == "grid" and mentions_rules(node.value):
            found.append(where)
        elif isinstance(node, ast.Attribute) and node.attr == "import_module":
            found.append(where)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            name, args = node.func.id, node.args
            if name in ("hasattr", "getattr") and args and mentions_rules(args[0]):
                found.append(where)
            elif name == "isinstance" and len(args) == 2 and any(
                    word in ast.unparse(args[1]) for word in ("Rules", "Grid", "Ruleset")):
                found.append(where)
            elif name in ("skirmish_only", "import_module", "__import__"):
                found.append(where)
    return found


def test_nothing_outside_the_rulesets_asks_which_ruleset_it_has():
    found = [f"{path.relative_to(GAME)}:{where}"
             for path, tree in sources(GAME, skip=RULESETS) for where in branches(tree)]
    assert found == []


def test_the_scan_sees_each_kind_of_branch():
    code = ("if session.rules.grid:\n    pass\n"
            "a = isinstance(s.rules, SkirmishRules)\n"
            "b = hasattr(battle.session.rules, 'declare')\n"
            "c = getattr(rules, 'max_actions', 0)\n"
            "d = importlib.import_module('game.rulesets.d20')\n"
            "skirmish_only(rules, 'x', 'grenades')\n"
            "e = 'grenades' in session.rules.supports\n")
    assert len(branches(ast.parse(code))) == 6
