"""The largest content `validate` accepts, timed. A plain script, not a test: machines are noisy.

    .venv/bin/python bench/bench_limits.py

Writes into a temporary folder the biggest battle the bounds allow (docs/CONTENT.md): a
512x512 map, 100 units (the cap), every one carrying the largest dice allowed (10d10 at rof 10
and 1d50 at rof 20: 1,000 a burst; a 10d100 grenade), and times:
- `skirmish validate` of the folder (the whole process, as a player runs it), and loading the
  scenario in this process (load_setup);
- the first 20 decisions of each computer player on that battle (median and slowest);
- the exact-odds preview of one attack (the engine's query, what the app shows) and
  `skirmish resolve --odds` at the largest dice: 10d10 rof 10, 1d50 rof 20, 10d100 rof 1;
- d20 full auto at its cap (1d20 over a 100-round magazine): the damage of one group of
  equal hits (a d20 preview sums one such group per distinct hit count and critical).
Medians of REPEATS runs, in milliseconds. With --dice it first prints the table the dice bounds
were chosen from: the engine's exact sum of the dice and `resolve --odds`'s damage over every
hit, for dice inside and outside the bounds (the slow ones take a while).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.ai import make_player  # noqa: E402
from game.content.loader import load_library, load_setup  # noqa: E402
from game.content.schema import MAX_ATTACK_TOTAL, MAX_DICE, MAX_ROF, MAX_SIDES  # noqa: E402
from game.core.engine import Battle  # noqa: E402
from game.core.queries import preview_attack  # noqa: E402
from game.resolve import main_resolve  # noqa: E402
from game.core import odds  # noqa: E402
from game.rulesets.skirmish.odds import skirmish_hit_damage, skirmish_odds  # noqa: E402

REPEATS = 5
SIZE = 512
PER_SIDE = 50
LEVELS = ("easy", "simple", "normal", "hard")
BIG_GUNS = (("ten_ten", "10d10", 10), ("one_fifty", "1d50", 20), ("ten_hundred", "10d100", 1))
STATS = """    attributes: {strength: 1, dexterity: 1, agility: 1, constitution: 5, intelligence: 0}
    skills: {aim: 6, melee: 3, unarmed: 2, dodge: 4, willpower: 4, heal: 1, demolitions: 2}
"""


def weapons_file() -> str:
    lines = ["weapons:"]
    for ident, damage, rof in BIG_GUNS:
        lines += [f"  - id: {ident}", f"    name: {ident.replace('_', ' ').title()}",
                  "    kind: firearm", f"    damage: {damage}", "    range: 60",
                  "    magazine: 100",
                  f"    modes: [{{name: single, ap: 3}}, {{name: burst, ap: 6, rof: {rof}}}]",
                  "    rules: {d20: {damage: 1d20, damage_type: piercing, style: ranged}}"]
    lines += ["  - {id: big_bang, name: Big bang, kind: grenade, skill: demolitions,",
              "     damage: 10d100, range: 12, modes: [{name: throw, ap: 4}]}"]
    return "\n".join(lines) + "\n"


def units_file() -> str:
    lines = ["units:"]
    for ident, _, _ in BIG_GUNS:
        lines += [f"  - id: gunner_{ident}", "    name: Gunner", "    ap: 100", "    hp: 1000",
                  "    sight: 60", STATS.rstrip("\n"), f"    weapons: [{{weapon: {ident}}}]",
                  "    grenades: {big_bang: 2}"]
    return "\n".join(lines) + "\n"


def map_file() -> str:
    rows = []
    for y in range(SIZE):
        row = ["#" if (x * 13 + y * 7) % 29 == 0 else "=" if (x * 5 + y * 11) % 31 == 0
               else "," if (x * 7 + y * 3) % 11 == 0 else "." for x in range(SIZE)]
        if y < 10:
            row[:10] = "A" * 10           # the sides start 8 squares apart, in sight
        if 18 <= y < 28:
            row[:10] = "B" * 10
        rows.append("    " + "".join(row))
    return ("id: vast\nname: Vast\nlegend:\n  A: {terrain: open, zone: alpha}\n"
            "  B: {terrain: open, zone: bravo}\nrows: |\n" + "\n".join(rows) + "\n")


def scenario_file() -> str:
    members = [f"{{unit: gunner_{ident}, count: {PER_SIDE // 2}}}" for ident, _, _ in BIG_GUNS[:2]]
    sides = "\n".join(f"  - {{id: {side}, name: {side.title()}, zone: {zone}, members: "
                      f"[{', '.join(members)}]}}"
                      for side, zone in (("a", "alpha"), ("b", "bravo")))
    return (f"id: largest\nname: Largest\nmap: vast.yaml\nsides:\n{sides}\n"
            "victory: {type: reach, side: a, zone: bravo, max_rounds: 1000}\n")


def resolve_file(folder: Path, weapon: str) -> Path:
    path = folder.parent / f"resolve_{weapon}.yaml"
    text = (weapons_file().split(f"  - id: {weapon}\n", 1)[1].split("  - ", 1)[0])
    body = "\n".join("  " + line[4:] for line in text.splitlines())
    path.write_text(f"ruleset: skirmish\nattacker: {{unit: hollis}}\ndefender: {{unit: "
                    f"olea_trooper}}\nweapon:\n  id: {weapon}\n{body}\n"
                    "situation: {mode: burst, distance: 4}\n")
    return path


def decisions(setup, level: str, count: int = 20) -> list[float]:
    """Times (ms) of the first `count` decisions of a battle in which `level` plays every side."""
    times = []
    with Battle(setup, 1) as battle:
        players = {side.id: make_player(level, side.id, 1) for side in setup.scenario.sides}
        session = battle.session
        while len(times) < count and not session.over:
            player = players[session.side_of(session.active)]
            start = time.perf_counter()
            command = player.next_command(battle)
            times.append((time.perf_counter() - start) * 1000)
            battle.submit(command)
    return times


def median_ms(action, repeats: int = REPEATS) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def write_content(folder: Path) -> None:
    folder.mkdir()
    for name, text in (("weapons.yaml", weapons_file()), ("units.yaml", units_file()),
                       ("vast.yaml", map_file()), ("largest.yaml", scenario_file())):
        (folder / name).write_text(text)


DICE_TABLE = ((4, 10, 8), (5, 20, 1), (10, 20, 4), (10, 10, 8), (10, 10, 10), (1, 50, 20),
              (10, 100, 1), (2, 10, 40), (10, 20, 8), (1, 10, 100), (10, 100, 2), (20, 100, 1))


def dice_table() -> None:
    """Exact-odds work for dice inside and outside the bounds."""
    from game.core.dice import DiceCode
    from game.rulesets.skirmish.rules import _hit_distribution
    print("dice, rof, one attack's total: engine sum of the dice / resolve --odds damage (ms)")
    for count, sides, rof in DICE_TABLE:
        odds._dice_sum.cache_clear()
        start = time.perf_counter()
        odds.dice_sum(count, sides)
        engine = time.perf_counter() - start
        hits = list(_hit_distribution(10, 3, 1, rof))
        start = time.perf_counter()
        odds._dice_sum.cache_clear()
        per_hit = skirmish_hit_damage(DiceCode(count, sides, 0), 1.0, 0)
        skirmish_odds(hits, per_hit, 1000, lambda hp: "up")
        resolve = time.perf_counter() - start
        fits = (count <= MAX_DICE and sides <= MAX_SIDES and rof <= MAX_ROF
                and count * sides * rof <= MAX_ATTACK_TOTAL)
        inside = "accepted" if fits else "refused"
        print(f"  {count}d{sides} rof {rof}: total {count * sides * rof} ({inside}): "
              f"{engine * 1000:.1f} / {resolve * 1000:.0f}")


def main() -> None:
    if "--dice" in sys.argv:
        dice_table()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "largest"
        write_content(folder)
        size = sum(p.stat().st_size for p in folder.iterdir())
        print(f"content: {size / 1024:.0f} KiB, a {SIZE}x{SIZE} map, {2 * PER_SIDE} units")
        skirmish = [str(Path(sys.executable).with_name("skirmish")), "validate", str(folder)]
        done = subprocess.run(skirmish, capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
        print(f"skirmish validate (whole process): "
              f"{median_ms(lambda: subprocess.run(skirmish, capture_output=True)):.0f} ms")
        scenario = folder / "largest.yaml"
        library = load_library([folder])
        print(f"load_library (bundled + the folder): "
              f"{median_ms(lambda: load_library([folder])):.0f} ms")
        print(f"load_setup: {median_ms(lambda: load_setup(str(scenario), library)):.0f} ms")
        setup = load_setup(str(scenario), library)
        for level in LEVELS:
            times = decisions(setup, level)
            print(f"decisions, {level}: median {statistics.median(times):.1f} ms, "
                  f"max {max(times):.1f} ms over {len(times)}")
        with Battle(setup, 1) as battle:
            session = battle.session
            uid = session.active
            enemies = [u for u in session.order if session.side_of(u) != session.side_of(uid)]
            times, shown = [], 0
            for enemy in enemies:             # the first asks are cold: nothing cached yet
                start = time.perf_counter()
                shown += bool(preview_attack(battle, uid, enemy, "burst"))
                times.append((time.perf_counter() - start) * 1000)
            print(f"engine preview of a 10d10 rof 10 burst (the app's target card): first "
                  f"{times[0]:.1f} ms, slowest {max(times):.1f} ms ({shown} of {len(enemies)} "
                  "enemies in sight)")
        for weapon, damage, rof in BIG_GUNS:
            path = resolve_file(folder, weapon)
            code, text = main_resolve(str(path), as_json=False, odds=True)
            assert code == 0, text
            ms = median_ms(lambda path=path: main_resolve(str(path), as_json=False, odds=True))
            print(f"resolve --odds, {damage} rof {rof}: {ms:.0f} ms")
    one = odds.dice_sum(1, 20)
    ms = median_ms(lambda: odds.power(one, 100))
    print(f"d20 full auto at the cap (1d20 x 100 hits), one (hits, critical) group: {ms:.0f} ms")

if __name__ == "__main__":
    main()
