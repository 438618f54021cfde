"""Speed of the tactical computer player. A plain script, not a test: machines are noisy.

    .venv/bin/python bench/bench_ai.py            # all figures
    .venv/bin/python bench/bench_ai.py --quick    # fewer battles

Figures (medians unless stated):
- one unit's decision (`next_command`) on outskirts (64x64, 10 against 8 and 2 at the alarm), level hard;
- a whole side's turn on outskirts: every decision of one side's units in one round,
  thinking only, and thinking plus the engine carrying the commands out;
- complete hard-against-hard battles per second on each bundled scenario, by the clock and
  by process time (the CPU time of this process alone, which other jobs on the machine do
  not inflate). The odds the player prices are cached across battles, as in a long `sim`
  run, so each scenario first plays one battle that is not timed (its time is shown apart);
- hard-against-hard battles per second on outskirts as `skirmish sim --jobs N` plays them,
  one process per core (`play_many`), start-up of the worker processes included.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.ai import make_player  # noqa: E402
from game.content.loader import load_setup as load_any, with_turns  # noqa: E402
from game.core.commands import EndTurn  # noqa: E402
from game.rulesets import new_battle  # noqa: E402
from game.core.events import Refused  # noqa: E402
from game.sim import play, play_many  # noqa: E402

TARGETS = {"decision": 20.0, "side_turn": 250.0, "battles": 5.0}
SCENARIOS = (("alley", 40), ("depot", 12), ("outskirts", 12))
WARM_UP_SEED = 1000
FIRST_SEED = 100          # the timed battles: other seeds than the decisions' battles


def load_setup(scenario: str):
    """A bundled scenario played one unit at a time: these figures time units' own turns
    (bench/bench_orders.py times planning under simultaneous orders)."""
    setup = load_any(scenario)
    return with_turns(setup, "sequential")


def decisions(scenario: str, seeds: range, level: str = "hard") -> tuple[list[float], list[float], list[float]]:
    """Times (ms) of every decision, and per side and round: thinking, thinking + engine."""
    setup = load_setup(scenario)
    single: list[float] = []
    thinking: dict[tuple, float] = defaultdict(float)
    total: dict[tuple, float] = defaultdict(float)
    for seed in seeds:
        sides = [s.id for s in setup.scenario.sides]
        players = {side: make_player(level, side, seed) for side in sides}
        with new_battle(setup, seed) as battle:
            s = battle.session
            while not s.over:
                uid = s.active
                key = (seed, s.round, s.side_of(uid))
                start = time.perf_counter()
                command = players[key[2]].next_command(battle)
                chosen = time.perf_counter()
                if isinstance(battle.submit(command), Refused):
                    battle.submit(EndTurn(uid))
                done = time.perf_counter()
                single.append(1000 * (chosen - start))
                thinking[key] += 1000 * (chosen - start)
                total[key] += 1000 * (done - start)
    return single, list(thinking.values()), list(total.values())


def one_battle(setup, seed: int) -> int:
    players = {s.id: make_player("hard", s.id, seed) for s in setup.scenario.sides}
    return play(setup, seed, players, keep_events=False).rounds


def battles_per_second(scenario: str, count: int) -> dict[str, float]:
    """The warm-up battle's time, then `count` battles: per second by the clock and by CPU.
    The scenario is loaded once, as `sim` does."""
    setup = load_setup(scenario)
    start = time.process_time()
    one_battle(setup, WARM_UP_SEED)
    first = time.process_time() - start
    rounds = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for seed in range(FIRST_SEED, FIRST_SEED + count):
        rounds += one_battle(setup, seed)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {"first": first, "wall": count / wall, "cpu": count / cpu, "rounds": rounds / count}


def parallel_battles_per_second(scenario: str, count: int, jobs: int) -> float:
    """Battles per second by the clock for a `sim` run of `count` battles on `jobs` processes."""
    setup = load_setup(scenario)
    start = time.perf_counter()
    play_many(setup, FIRST_SEED, "hard", "hard", count, jobs=jobs)
    return count / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer battles")
    args = parser.parse_args()
    seeds = range(2 if args.quick else 4)
    single, thinking, total = decisions("outskirts", seeds)
    single.sort()
    print(f"outskirts, hard, {len(single)} decisions over {len(seeds)} battles")
    print(f"  one unit's decision: median {statistics.median(single):.1f} ms, "
          f"90th percentile {single[int(0.9 * len(single))]:.1f} ms, "
          f"max {single[-1]:.1f} ms (target: median <= {TARGETS['decision']:.0f} ms)")
    print(f"  a side's turn, thinking: median {statistics.median(thinking):.0f} ms, "
          f"max {max(thinking):.0f} ms (target <= {TARGETS['side_turn']:.0f} ms)")
    print(f"  a side's turn, thinking and playing: median {statistics.median(total):.0f} ms, "
          f"max {max(total):.0f} ms")
    for scenario, count in SCENARIOS:
        count = max(2, count // (4 if args.quick else 1))
        rate = battles_per_second(scenario, count)
        print(f"  hard against hard on {scenario}: {rate['wall']:.1f} battles/s by the clock, "
              f"{rate['cpu']:.1f} by process time ({rate['rounds']:.1f} rounds each, {count} battles; "
              f"the untimed first battle took {1000 * rate['first']:.0f} ms of process time)")
    jobs = os.cpu_count() or 1
    count = max(jobs, 40 // (4 if args.quick else 1))
    rate = parallel_battles_per_second("outskirts", count, jobs)
    print(f"  hard against hard on outskirts, `sim --jobs {jobs}`: {rate:.1f} battles/s by the clock "
          f"({count} battles, {jobs} processes)")
    print(f"(target for battles: >= {TARGETS['battles']:.0f} per second)")


if __name__ == "__main__":
    main()
