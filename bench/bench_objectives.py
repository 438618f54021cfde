"""Who wins each objective, computer against computer. A plain script, not a test.

    .venv/bin/python bench/bench_objectives.py               # 40 battles a scenario
    .venv/bin/python bench/bench_objectives.py --battles 10 --level hard
    .venv/bin/python bench/bench_objectives.py --ruleset d20    # the same scenarios under d20

Plays every bundled scenario with objectives (and bench/scenarios/, for the kinds no bundled
scenario decides by), the same level on both sides, seeds 1..N, and counts for each objective
kind how often the battle ended with it met (for its side) or failed (against it), and how
often each side won. A `protect` objective is never met; it counts for its side when that side
won with the unit still up. An objective the computer never pursues shows as never met.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.ai import make_player  # noqa: E402
from game.content.loader import load_library, load_setup  # noqa: E402
from game.sim import play  # noqa: E402

HERE = Path(__file__).resolve().parent


def scenarios() -> list[str]:
    library = load_library()
    bundled = [ident for ident, spec in sorted(library.scenarios.items()) if spec.objectives]
    return bundled + [str(path) for path in sorted((HERE / "scenarios").glob("*.yaml"))]


def one(job: tuple[str, int, str, str | None]) -> tuple[str | None, str, list[dict]]:
    scenario, seed, level, ruleset = job
    setup = load_setup(scenario, ruleset=ruleset)
    players = {side.id: make_player(level, side.id, seed) for side in setup.scenario.sides}
    result = play(setup, seed, players, keep_events=False)
    return result.winner, result.reason, result.outcome["objectives"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--battles", type=int, default=40)
    parser.add_argument("--level", default="normal")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--ruleset", default=None, help="play under this ruleset instead")
    args = parser.parse_args()
    kinds: Counter = Counter()
    for scenario in scenarios():
        jobs = [(scenario, seed, args.level, args.ruleset) for seed in range(1, args.battles + 1)]
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(pool.map(one, jobs))
        wins = Counter(winner or "draw" for winner, _, _ in results)
        decided: Counter = Counter()
        for winner, _, objectives in results:
            for o in objectives:
                if o["state"] == "met" and winner == o["side"]:
                    decided[f"{o['type']} met ({o['side']})"] += 1
                    kinds[o["type"]] += 1
                elif o["state"] == "failed" and winner not in (None, o["side"]):
                    decided[f"{o['type']} failed ({o['side']})"] += 1
                    kinds[f"{o['type']} stopped"] += 1
                elif o["type"] == "protect" and o["state"] == "open" and winner == o["side"]:
                    decided[f"protect kept ({o['side']})"] += 1      # met by lasting the battle
                    kinds["protect"] += 1
        name = Path(scenario).stem
        print(f"{name}: {dict(wins)}; ended by: {dict(decided)}")
    print(f"objective kinds met by their side / stopped by the other: {dict(kinds)}")


if __name__ == "__main__":
    main()
