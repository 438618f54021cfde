"""Whether the computer opponent fights: hard against hard on every bundled scenario, each under
its own way of taking turns. A plain script, not a test: it measures play, not correctness.

    .venv/bin/python bench/bench_press.py                      # 20 battles a scenario, seed 1
    .venv/bin/python bench/bench_press.py --battles 40 --jobs 2
    .venv/bin/python bench/bench_press.py depot alley          # some scenarios only

For each scenario it prints:
- attacks per unit-turn: shots (reaction shots included), grenades thrown and bursts of
  suppressive fire, over the units' turns (TurnStarted events);
- lost orders per unit-turn (OrderLost: orders that could not be carried out, each counted,
  though the like attacks right after one are told in its line);
- untriggered lines per unit-turn (OrderUntriggered: a conditional order whose condition had
  not come, with the like orders right after it; reported, not lost);
- mean rounds, draws, and each side's wins (the same program plays both sides, so a side's
  share is the scenario's balance).
The bars (docs/AI.md): attacks >= 0.20, lost <= 0.05, at most a quarter drawn, each side's
share of the decided battles within 30-70%.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.ai import make_player  # noqa: E402
from game.content.loader import load_library, load_setup  # noqa: E402
from game.core import events as ev  # noqa: E402
from game.sim import play  # noqa: E402

ATTACKS = (ev.AttackResolved, ev.GrenadeThrown, ev.SuppressionFired)
BARS = {"attacks": 0.20, "lost": 0.05, "draws": 0.25, "share": (0.30, 0.70)}


@dataclass
class Tally:
    battles: int = 0
    turns: int = 0
    attacks: int = 0
    lost: int = 0
    untriggered: int = 0
    rounds: int = 0
    wins: Counter = field(default_factory=Counter)

    def add(self, other: Tally) -> None:
        self.battles += other.battles
        self.turns += other.turns
        self.attacks += other.attacks
        self.lost += other.lost
        self.untriggered += other.untriggered
        self.rounds += other.rounds
        self.wins.update(other.wins)


def one(job: tuple[str, int, str]) -> Tally:
    """One battle of `scenario`, `level` on both sides."""
    scenario, seed, level = job
    setup = load_setup(scenario)
    players = {d.id: make_player(level, d.id, seed) for d in setup.scenario.sides}
    tally = Tally(battles=1)

    def count(events: list[ev.Event]) -> None:
        for e in events:
            if isinstance(e, ev.TurnStarted):
                tally.turns += 1
            elif isinstance(e, ATTACKS):
                tally.attacks += 1
            elif isinstance(e, ev.OrderLost):
                tally.lost += e.orders          # one line for the like attacks after it
            elif isinstance(e, ev.OrderUntriggered):
                tally.untriggered += 1          # lines: one for the like orders after it too

    result = play(setup, seed, players, keep_events=False, on_events=count)
    tally.rounds = result.rounds
    tally.wins[result.winner or "draw"] += 1
    return tally


def measure(scenario: str, battles: int, seed: int, level: str, jobs: int) -> Tally:
    work = [(scenario, seed + n, level) for n in range(battles)]
    total = Tally()
    if jobs <= 1:
        results = map(one, work)
        for t in results:
            total.add(t)
        return total
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for t in pool.map(one, work):
            total.add(t)
    return total


def verdict(t: Tally, sides: list[str]) -> tuple[str, bool]:
    turns = max(1, t.turns)
    attacks, lost, untriggered = t.attacks / turns, t.lost / turns, t.untriggered / turns
    draws = t.wins["draw"] / t.battles
    decided = max(1, t.battles - t.wins["draw"])
    shares = [t.wins[side] / decided for side in sides]
    low, high = BARS["share"]
    ok = (attacks >= BARS["attacks"] and lost <= BARS["lost"] and draws <= BARS["draws"]
          and all(low <= share <= high for share in shares))
    wins = " / ".join(f"{side} {t.wins[side]}" for side in sides)
    line = (f"{attacks:6.3f} {lost:6.3f} {untriggered:6.3f} {t.rounds / t.battles:6.1f} "
            f"{t.wins['draw']:4d}  {wins}")
    return line, ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("scenarios", nargs="*", help="scenario ids (default: every bundled one)")
    parser.add_argument("--battles", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    scenarios = args.scenarios or sorted(load_library().scenarios)
    print(f"{args.level} against {args.level}, {args.battles} battles a scenario, "
          f"seeds {args.seed}-{args.seed + args.battles - 1}")
    print(f"{'scenario':20s} {'attack':>6s} {'lost':>6s} {'untrig':>6s} {'rounds':>6s} "
          f"{'draw':>4s}  wins")
    met = 0
    for scenario in scenarios:
        sides = [d.id for d in load_setup(scenario).scenario.sides]
        tally = measure(scenario, args.battles, args.seed, args.level, args.jobs)
        line, ok = verdict(tally, sides)
        met += ok
        print(f"{scenario:20s} {line}  {'met' if ok else 'short'}", flush=True)
    print(f"bars met on {met} of {len(scenarios)} scenarios")


if __name__ == "__main__":
    main()
