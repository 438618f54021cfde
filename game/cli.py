"""The `skirmish` command: play (the default), sim, validate."""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
from collections.abc import Sequence

from game.content.problems import ContentError
from game.content.text import printable
from game.serve import DEFAULT_HOST, DEFAULT_PORT

DESCRIPTION = """\
skirmish: a turn-based tactical game for the terminal.

Run with no arguments to open the game. Subcommands:
  sim SCENARIO       play a headless battle between computer players and print its log
  validate PATH...   check content files (maps, units, scenarios...) and report every problem
  resolve FILE.yaml  resolve an attack, suppression, a throw, morale or an ambush, step by step
  serve              play in a web browser: serve the game at http://localhost:8000
  replay SAVE        watch a saved battle again from its start (--text: its log, step by step)
  campaign FILE      play a whole campaign between computer players (or continue a saved one)

--content DIR (before the subcommand, repeatable) adds a mod: a folder of content files, read
with the bundled content. Its items may use each other and the bundled ones, and an id it
defines again replaces the bundled item (the game says so).
"""


def say(*parts: object, file=None) -> None:
    """print(), with every control character of the text written as an escape: names, paths
    and messages quoting a file may hold ESC or NUL, and a terminal obeys them."""
    print(printable(" ".join(str(part) for part in parts)), file=file or sys.stdout)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="skirmish", description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--save-dir", help="folder for saves (default: $SKIRMISH_SAVE_DIR, else a "
                        "checkout's saves/, else the user's data folder)")
    parser.add_argument("--content", action="append", default=[], metavar="DIR",
                        help="a mod: a folder (or file) of content read with the bundled content, "
                        "for play, sim, validate and replay (repeatable)")
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("play", help="open the game (the default)")
    sim = sub.add_parser("sim", help="play headless battles between computer players")
    sim.add_argument("scenario", help="a bundled scenario id or a path to a scenario file")
    sim.add_argument("--seed", type=int, default=None, help="random seed (default: random)")
    sim.add_argument("--ai", default="simple", help="the computer player of the first side")
    sim.add_argument("--vs", default=None, help="the computer player of the other sides (default: --ai)")
    sim.add_argument("--battles", type=int, default=1, help="how many battles; sides swap every other one")
    sim.add_argument("--jobs", type=int, default=None,
                     help="with --battles: how many battles to run at once (default: one per core)")
    sim.add_argument("--json", action="store_true", help="print JSON instead of a readable log")
    sim.add_argument("--ruleset", default=None,
                     help="play under this ruleset instead of the scenario's own (e.g. d20)")
    sim.add_argument("--turns", choices=("simultaneous", "sequential"), default=None,
                     help="skirmish: orders chosen at once, or one unit at a time "
                          "(default: the scenario's or ruleset's own)")
    resolve = sub.add_parser("resolve", help="resolve an attack (or suppression, a throw, morale, an ambush) step by step")
    resolve.add_argument("file", help="a resolve file (see docs/RESOLVE.md)")
    resolve.add_argument("--json", action="store_true", help="print a machine-readable result")
    resolve.add_argument("--odds", action="store_true", help="print exact probabilities instead of rolling")
    serve = sub.add_parser("serve", help="play in a web browser (served on this machine)")
    serve.add_argument("--host", default=DEFAULT_HOST,
                       help="address to listen on (default: localhost, this machine only; "
                       "0.0.0.0 lets other machines in)")
    serve.add_argument("--port", type=int, default=DEFAULT_PORT,
                       help=f"port to listen on (default: {DEFAULT_PORT})")
    serve.add_argument("--public-url", default=None,
                       help="the address browsers reach the server by, if not http://HOST:PORT "
                       "(behind a proxy, say)")
    replay = sub.add_parser("replay", help="watch a saved battle again from its start")
    replay.add_argument("save", help="a save's name (in the save folder) or the path of a save file")
    replay.add_argument("--text", action="store_true",
                        help="print the battle's log step by step instead of opening the app "
                        "(a finished battle: everything, as an all-seeing watcher; one still going "
                        "on: its first person's side unless --view says)")
    replay.add_argument("--view", metavar="SIDE", default=None,
                        help="with --text: only what this side saw (a side id of the battle)")
    campaign = sub.add_parser("campaign", help="play a campaign headless, computer against computer")
    campaign.add_argument("campaign", nargs="?", default=None,
                          help="a bundled campaign id or a campaign file's path")
    campaign.add_argument("--ai", default="simple", help="the computer player of the campaign's side")
    campaign.add_argument("--vs", default=None, help="the computer player of the other sides (default: --ai)")
    campaign.add_argument("--seed", type=int, default=None, help="random seed (default: random)")
    campaign.add_argument("--save", metavar="NAME", default=None,
                          help="save the campaign after each battle as this campaign save")
    campaign.add_argument("--resume", metavar="SAVE", default=None,
                          help="go on from this campaign save (a name or a path) instead")
    validate = sub.add_parser("validate", help="check content files and report every problem")
    validate.add_argument("paths", nargs="+", help="files or folders")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "validate":
            return _validate(args.content + args.paths)
        if args.command == "sim":
            return _sim(args)
        if args.command == "replay":
            return _replay(args)
        if args.command == "campaign":
            return _campaign(args)
        if args.command == "resolve":
            from game.resolve.main import main_resolve
            code, text = main_resolve(args.file, as_json=args.json, odds=args.odds)
            say(text, file=sys.stdout if code == 0 else sys.stderr)
            return code
        if args.command == "serve":
            return _serve(args)
        return _play(args)
    except ContentError as error:
        say(error, file=sys.stderr)
        return 2
    except BrokenPipeError:          # output piped into `head` and closed early (an OSError:
        sys.stderr.close()           # caught before the others)
        return 0
    except (ValueError, OSError) as error:
        say(f"skirmish: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def _play(args: argparse.Namespace) -> int:
    try:
        from game.ui.app import run_app
    except ImportError:
        build_parser().print_help()
        return 0
    run_app(save_dir=args.save_dir, **_mod(args))
    return 0


def _mod(args: argparse.Namespace) -> dict:
    """The app's library when --content names a mod (loaded here, so a broken mod is told on
    the terminal and the app does not open), with its notices on stderr."""
    if not args.content:
        return {}
    from game.content.loader import load_library
    library = load_library(args.content)
    _notes(library.notices)
    return {"library": library}


def _notes(notices) -> None:
    for notice in notices:
        say(f"note: {notice}", file=sys.stderr)


def _serve(args: argparse.Namespace) -> int:
    from game.saves import SaveError, resolve_save_dir
    from game.serve import check_port, is_loopback, serve

    check_port(args.port)
    try:
        folder = resolve_save_dir(args.save_dir)
    except SaveError as error:
        say(f"skirmish: {error}", file=sys.stderr)
        return 2
    if not is_loopback(args.host):
        say(f"Listening on {args.host}: anyone who can reach this machine on port {args.port} "
            "can play, and save into " + str(folder) + ".", file=sys.stderr)
    say(f"Saves go to {folder}.")
    serve(args.host, args.port, folder, args.public_url)
    return 0


def _replay(args: argparse.Namespace) -> int:
    """`skirmish replay SAVE`: the Replay screen of a save, or with --text its log on stdout.
    A save that cannot be read or replayed is told in a sentence (exit status 2)."""
    from pathlib import Path

    from game.replay import Replay, ReplayError
    from game.saves import SaveError, read_save, resolve_save_dir

    name = args.save
    if Path(name).expanduser().is_file():           # a file here, even without a folder in it
        name = str(Path(name).expanduser().resolve())
    try:
        folder = resolve_save_dir(args.save_dir)
    except SaveError as error:
        if not Path(name).is_absolute():
            say(f"skirmish: {error}", file=sys.stderr)
            return 2
        folder = Path(".")                           # a path does not need the save folder
    try:
        state = read_save(folder, name)
        replay = Replay.from_state(state)
    except SaveError as error:
        say(f"skirmish: {error}", file=sys.stderr)
        return 2
    except ReplayError as error:
        say(f"skirmish: Cannot replay save {args.save}: {str(error).rstrip('.')}.",
            file=sys.stderr)
        return 2
    with replay:
        if args.view is not None and args.view not in replay.sides:
            say(f"skirmish: the battle has no side {args.view!r} (its sides: "
                f"{', '.join(replay.sides)}).", file=sys.stderr)
            return 2
        if args.text:
            view = args.view
            if view is None and not replay.over:      # never all-seeing while it goes on
                from game.replay import human_sides
                view = (human_sides(replay, state) or replay.sides)[0]
                say(f"-- The battle is not over: its log as {replay.name(view)} ({view}) saw "
                    "it; --view SIDE for another side's --")
            _replay_text(replay, view)
            return 0
    if args.view is not None:
        say("skirmish: --view goes with --text (in the app, v changes the view).", file=sys.stderr)
        return 2
    try:
        from game.ui.app import run_app
    except ImportError:
        say("skirmish: the app cannot start here; --text prints the replay instead.",
            file=sys.stderr)
        return 2
    run_app(save_dir=args.save_dir, watch=state, **_mod(args))
    return 0


def _replay_text(replay, view: str | None) -> None:
    from game.replay import log_lines, seen

    for step, battle in replay.walk():
        lines = log_lines(seen(step.events, view), replay.name, replay.measure)
        if not lines:
            continue
        where = "the opening" if step.number == 0 else f"round {battle.session.round}"
        say(f"-- step {step.number} of {replay.total}, {where} --")
        for line in lines:
            say(line)
    if replay.over:
        winner = replay.name(replay.winner) if replay.winner else "none (a draw)"
        say(f"Winner: {winner}; {replay.rounds} rounds, {replay.total} commands, "
            f"seed {replay.seed}.")
    else:
        say(f"The log ends in round {replay.rounds}, the battle still going on; "
            f"{replay.total} commands, seed {replay.seed}.")


def _campaign(args: argparse.Namespace) -> int:
    """`skirmish campaign FILE`: every battle of a campaign between computer players, one line
    each, then how it ended; with --save, saved after each battle; --resume goes on from one."""
    from game.ai import make_player
    from game.campaign import load_campaign, play_campaign, read_campaign, reopen, save_campaign
    from game.saves import SaveError, resolve_save_dir

    for name in (args.ai, args.vs or args.ai):
        make_player(name, "side")           # unknown names fail here, with the list of names
    folder = None
    try:
        if args.save is not None or args.resume is not None:
            folder = resolve_save_dir(args.save_dir)
        state = read_campaign(folder, args.resume) if args.resume is not None else None
    except SaveError as error:
        say(f"skirmish: {error}", file=sys.stderr)
        return 2
    if state is not None:
        try:
            campaign, library = reopen(state)
        except ValueError as error:
            say(f"skirmish: Cannot go on with campaign save {args.resume}: {error}", file=sys.stderr)
            return 2
    elif args.campaign is None:
        raise ValueError("name a campaign (an id or a file), or --resume a campaign save")
    else:
        campaign, library = load_campaign(args.campaign)
    seed = args.seed if args.seed is not None else random.randrange(2**31)

    def told(now) -> None:
        record = now.history[-1]
        lost = f"; lost: {', '.join(record.lost)}" if record.lost else ""
        say(f"{record.name}: {record.result} ({record.reason}, round {record.rounds}){lost}.")
        if folder is not None:
            save_campaign(folder, now, args.save or args.resume)

    if state is not None and state.over:
        say(f"Campaign save {args.resume} has ended already ({state.ending}).")
        return 0
    end = play_campaign(campaign, library, args.ai, args.vs, seed, state=state, on_battle=told)
    survivors = ", ".join(f"{m.name} ({m.hp}/{m.max_hp} HP)" for m in end.roster) or "none"
    say(f"Campaign {campaign.name}: {end.ending} after {len(end.history)} battles; "
        f"survivors: {survivors}; seed {end.seed}.")
    return 0


def _validate(paths: Sequence[str]) -> int:
    from game.content.loader import validate_report
    problems, notices = validate_report(paths)
    for problem in problems:
        say(problem)
    for notice in notices:
        say(f"note: {notice}")
    if problems:
        say(f"{len(problems)} problem{'s' if len(problems) != 1 else ''} found.", file=sys.stderr)
        return 1
    say(f"OK: {', '.join(paths)} passed every check.")
    return 0


def _sim(args: argparse.Namespace) -> int:
    from game.ai import make_player
    from game.content.loader import load_library, load_setup, with_turns
    from game.core.events import TurnUnseen
    from game.core.narrate import describe, tell
    from game.rulesets import health_name
    from game.sim import play

    notices: list = []
    setup = load_setup(args.scenario, load_library(args.content), ruleset=args.ruleset,
                       notices=notices)
    _notes(notices)
    if args.turns is not None:
        try:
            setup = with_turns(setup, args.turns)
        except ValueError as why:
            raise ValueError(f"--turns: {why}") from None
    sides = [s.id for s in setup.scenario.sides]
    names = {"first": args.ai, "other": args.vs or args.ai}
    for name in names.values():
        make_player(name, sides[0])          # unknown names fail here, with the list of names
    if args.battles < 1:
        raise ValueError("--battles must be at least 1")
    seed = args.seed if args.seed is not None else random.randrange(2**31)
    if args.battles == 1:
        players = {side: make_player(names["first" if i == 0 else "other"], side, seed)
                   for i, side in enumerate(sides)}
        labels = {side: setup.scenario.sides[i].name for i, side in enumerate(sides)}
        result = play(setup, seed, players, keep_events=True)
        if args.json:
            for event in result.events:
                say(json.dumps(event.to_dict()))
            say(json.dumps({"kind": "outcome", **result.outcome}))
            return 0
        names = {s.id: s.name for s in setup.scenario.sides} | {w.id: w.name for w in setup.weapons}
        names |= _unit_names(setup) | {setup.scenario.id: setup.scenario.name} | result.names
        namer = lambda ident: names.get(ident, ident)  # noqa: E731
        told = [e for e in result.events if not isinstance(e, TurnUnseen)]   # the log sees all
        measure = health_name(setup.ruleset)
        for line in tell(told, lambda event: describe(event, namer, measure), namer):
            say(line)
        say(f"Winner: {labels[result.winner] if result.winner else 'none (a draw)'} "
            f"({result.reason}); "
              f"{result.rounds} rounds, {result.commands} commands, seed {seed}.")
        return 0
    return _many(setup, seed, names, args)


def _unit_names(setup) -> dict[str, str]:
    from game.content.deploy import deploy
    counters: dict[str, int] = {}
    out = {}
    for d in deploy(setup):
        counters[d.side] = counters.get(d.side, 0) + 1
        out[f"{d.side}-{counters[d.side]}"] = d.name
    return out


def _many(setup, seed: int, names: dict[str, str], args: argparse.Namespace) -> int:
    """Many battles, swapping which side each program plays every other battle."""
    from game.sim import play_many

    if args.jobs is not None and args.jobs < 1:
        raise ValueError("--jobs must be at least 1")
    jobs = min(args.battles, args.jobs or os.cpu_count() or 1)
    winners = play_many(setup, seed, names["first"], names["other"], args.battles, jobs=jobs)
    draws = sum(w is None for w in winners)
    first_wins = sum(w == names["first"] for w in winners)
    if args.json:
        if names["first"] == names["other"]:
            wins = {names["first"]: args.battles - draws}
        else:
            wins = {name: sum(w == name for w in winners) for name in names.values()}
        say(json.dumps({"battles": args.battles, "wins": wins, "draws": draws, "seed": seed}))
        return 0
    low, high = wilson(first_wins, args.battles)
    if names["first"] == names["other"]:
        say(f"{args.battles} battles on {setup.scenario.id} (seed {seed}): {draws} draws; "
              f"the first side won {sum(w == 'first side' for w in winners)}.")
        return 0
    say(f"{args.battles} battles on {setup.scenario.id} (seed {seed}): {names['first']} won "
          f"{first_wins} ({100 * first_wins / args.battles:.1f}%, 95% interval "
          f"{100 * low:.1f}-{100 * high:.1f}%), {names['other']} won "
          f"{args.battles - first_wins - draws}, {draws} draws.")
    return 0


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


if __name__ == "__main__":
    sys.exit(main())
