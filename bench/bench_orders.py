"""Speed of the computer players under simultaneous orders. A plain script, not a test:
machines are noisy.

    .venv/bin/python bench/bench_orders.py            # all figures
    .venv/bin/python bench/bench_orders.py --quick    # fewer battles

Figures, on outskirts (64x64, 10 against 8 and 2 at the alarm) under `turns: simultaneous`:
- a side's planning: one `next_command` while the round is planned, which gives the whole
  side's `GiveOrders` (a rehearsal copy of the battle per unit, and the unit's choices made on
  it), for each level (simple, easy, normal, hard playing against itself), over every planning
  of a few battles: median, 90th percentile and worst, by the clock and by process time (the
  CPU time of this process alone, which other jobs on the machine do not inflate). The
  process starts cold: the first planning of the first battle fills the odds caches;
- complete hard-against-hard battles per second under simultaneous orders and under
  sequential turns (the scenario loaded once, as `sim` does; one untimed battle first): what
  planning on rehearsal copies costs a whole battle.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.ai import make_player  # noqa: E402
from game.content.loader import load_setup, with_turns  # noqa: E402
from game.content.schema import BattleSetup  # noqa: E402
from game.core.commands import EndTurn, GiveOrders  # noqa: E402
from game.core.events import Refused  # noqa: E402
from game.rulesets import new_battle  # noqa: E402
from game.sim import play  # noqa: E402

SCENARIO = "outskirts"
LEVELS = ("simple", "easy", "normal", "hard")
TARGET_MS = 250.0          # a side's planning, every one of them
WARM_UP_SEED = 1000
FIRST_SEED = 100


def plannings(setup: BattleSetup, level: str, seeds: range) -> tuple[list[float], list[float], int]:
    """Every side's planning (ms by the clock, ms of process time) in battles of `level`
    against itself, and how many rounds they took."""
    wall: list[float] = []
    cpu: list[float] = []
    rounds = 0
    for seed in seeds:
        with new_battle(setup, seed) as battle:
            s = battle.session
            players = {side: make_player(level, side, seed) for side in s.sides}
            while not s.over:
                side = s.acting_side
                assert side is not None, "a battle that is not over waits for a side"
                planning = bool(s.planning)
                start, start_cpu = time.perf_counter(), time.process_time()
                command = players[side].next_command(battle)
                if planning:
                    wall.append(1000 * (time.perf_counter() - start))
                    cpu.append(1000 * (time.process_time() - start_cpu))
                if isinstance(battle.submit(command), Refused):
                    battle.submit(GiveOrders(side=side) if s.planning else EndTurn(s.active or ""))
            rounds += s.round
    return wall, cpu, rounds


def spread(times: list[float]) -> str:
    ordered = sorted(times)
    return (f"median {statistics.median(ordered):.0f}, 90th percentile "
            f"{ordered[int(0.9 * len(ordered))]:.0f}, worst {ordered[-1]:.0f} ms")


def battles_per_second(setup: BattleSetup, count: int) -> dict[str, float]:
    """Hard against hard: `count` battles after an untimed one, per second by clock and CPU."""
    def one(seed: int) -> int:
        players = {side.id: make_player("hard", side.id, seed) for side in setup.scenario.sides}
        return play(setup, seed, players, keep_events=False).rounds

    one(WARM_UP_SEED)
    rounds = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for seed in range(FIRST_SEED, FIRST_SEED + count):
        rounds += one(seed)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {"wall": count / wall, "cpu": count / cpu, "rounds": rounds / count}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer battles")
    args = parser.parse_args()
    base = load_setup(SCENARIO)
    simultaneous = with_turns(base, "simultaneous")
    seeds = range(1 if args.quick else 3)
    print(f"{SCENARIO} under simultaneous orders: a side's planning, each level against itself, "
          f"{len(seeds)} battle(s) (target: every planning <= {TARGET_MS:.0f} ms)")
    for level in LEVELS:
        wall, cpu, rounds = plannings(simultaneous, level, seeds)
        slow = sum(1 for ms in cpu if ms > TARGET_MS)
        verdict = "met" if not slow else f"NOT MET: {slow} of {len(cpu)} over by process time"
        print(f"  {level}: {len(wall)} plannings over {rounds} rounds")
        print(f"    by the clock:      {spread(wall)}")
        print(f"    by process time:   {spread(cpu)} ({verdict})")
    count = 2 if args.quick else 6
    print(f"hard against hard on {SCENARIO}, {count} battles each way (after one untimed):")
    rates = {}
    for turns in ("simultaneous", "sequential"):
        rates[turns] = rate = battles_per_second(with_turns(base, turns), count)
        print(f"  {turns}: {rate['wall']:.2f} battles/s by the clock, {rate['cpu']:.2f} by "
              f"process time ({rate['rounds']:.1f} rounds each)")
    sim, seq = rates["simultaneous"], rates["sequential"]
    per_round = (seq["cpu"] * seq["rounds"]) / (sim["cpu"] * sim["rounds"])
    print(f"  a simultaneous battle takes {seq['cpu'] / sim['cpu']:.2f}x the process time of a "
          f"sequential one; a round {per_round:.2f}x")


if __name__ == "__main__":
    main()
