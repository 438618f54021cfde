"""Golden battles: every bundled scenario under every ruleset it can be played under, computer
against computer with a fixed seed, recorded as JSON lines (one event each, then the result).

The files under tests/golden/battles/ are what the game did when they were recorded; the test
beside this module plays the same battles again and compares byte for byte. Re-record only when a
change is meant to change what happens in a battle:

    .venv/bin/python -m tests.golden.record
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path

from game.ai import make_player
from game.content.loader import load_library, load_setup, playable_rulesets
from game.sim import play

HERE = Path(__file__).resolve().parent
BATTLES = HERE / "battles"
SEED = 1
# The first side plays `hard`, the second `normal`, any others `easy`: every level takes part.
LEVELS = ("hard", "normal", "easy")


def cases() -> Iterator[tuple[str, str]]:
    """(scenario id, ruleset id) of every golden battle, in a fixed order."""
    library = load_library()
    for scenario in sorted(library.scenarios):
        for ruleset in playable_rulesets(library, scenario):
            yield scenario, ruleset


def battle_lines(scenario: str, ruleset: str) -> list[str]:
    """The battle's events as JSON lines, then one line with its result."""
    setup = load_setup(scenario, ruleset=ruleset)
    sides = [side.id for side in setup.scenario.sides]
    players = {side: make_player(LEVELS[min(i, len(LEVELS) - 1)], side, SEED)
               for i, side in enumerate(sides)}
    result = play(setup, SEED, players)
    lines = [json.dumps(event.to_dict(), sort_keys=True) for event in result.events]
    lines.append(json.dumps({"result": {"winner": result.winner, "reason": result.reason,
                                        "rounds": result.rounds, "commands": result.commands,
                                        "refused": result.refused}}, sort_keys=True))
    return lines


def path_of(scenario: str, ruleset: str) -> Path:
    return BATTLES / f"{scenario}.{ruleset}.jsonl.gz"


def read(path: Path) -> list[str]:
    return gzip.decompress(path.read_bytes()).decode("utf-8").splitlines()


def write(path: Path, lines: list[str]) -> None:
    data = ("\n".join(lines) + "\n").encode("utf-8")
    path.write_bytes(gzip.compress(data, compresslevel=9, mtime=0))


def main() -> None:
    BATTLES.mkdir(exist_ok=True)
    for old in BATTLES.glob("*.jsonl.gz"):
        old.unlink()
    for scenario, ruleset in cases():
        write(path_of(scenario, ruleset), battle_lines(scenario, ruleset))
        print(f"recorded {scenario} under {ruleset}")


if __name__ == "__main__":
    main()
