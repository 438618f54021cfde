"""Headless battles between computer players."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from game.ai import Player
from game.content.schema import BattleSetup
from game.core.commands import EndTurn, GiveOrders
from game.rulesets import new_battle
from game.core.events import Event, Refused
from game.core.queries import battle_outcome


@dataclass
class SimResult:
    winner: str | None
    reason: str
    rounds: int
    commands: int
    refused: list[str] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    outcome: dict = field(default_factory=dict)   # queries.battle_outcome: objectives and all
    names: dict[str, str] = field(default_factory=dict)   # every id's name, reinforcements too


def play(setup: BattleSetup, seed: int, players: Mapping[str, Player], *, keep_events: bool = True,
         on_events: Callable[[list[Event]], None] | None = None, max_commands: int = 20000) -> SimResult:
    """Play a battle to its end, each side's commands chosen by its player."""
    with new_battle(setup, seed) as battle:
        result = SimResult(None, "", 0, 0)
        _collect(result, battle.opening, keep_events, on_events)
        s = battle.session
        while not s.over and result.commands < max_commands:
            uid, side = s.active, s.acting_side
            assert side is not None, "a battle that is not over waits for a side"
            command = players[side].next_command(battle)
            events = battle.submit(command)
            result.commands += 1
            if isinstance(events, Refused):
                result.refused.append(f"{command!r}: {events.reason}")
                events = battle.submit(GiveOrders(side=side) if s.planning else EndTurn(uid or ""))
            _collect(result, events, keep_events, on_events)
        result.winner, result.reason, result.rounds = s.winner, s.end_reason, s.round
        if not s.over:
            result.reason = f"stopped after {max_commands} commands"
        result.outcome = battle_outcome(battle) | {"reason": result.reason}
        result.names = battle.names()
        return result


def _collect(result: SimResult, events: list[Event], keep: bool,
             on_events: Callable[[list[Event]], None] | None) -> None:
    if keep:
        result.events.extend(events)
    if on_events is not None:
        on_events(events)


def _one(job: tuple[BattleSetup, int, str, str, bool]) -> str | None:
    """One battle of a series: which program won ('first side' when both are the same)."""
    from game.ai import make_player

    setup, seed, first, other, swap = job
    sides = [s.id for s in setup.scenario.sides]
    roles = {side: (other if (i == 0) == swap else first) for i, side in enumerate(sides)}
    players = {side: make_player(roles[side], side, seed) for side in sides}
    result = play(setup, seed, players, keep_events=False)
    if result.winner is None:
        return None
    if first == other:
        return "first side" if result.winner == sides[0] else "other side"
    return roles[result.winner]


def play_many(setup: BattleSetup, seed: int, first: str, other: str, battles: int,
              *, jobs: int = 1) -> list[str | None]:
    """Battle n uses seed + n; the programs swap sides every other battle. Returns, per battle,
    the name of the winning program (None for a draw). `jobs` > 1 runs battles in parallel."""
    work = [(setup, seed + n, first, other, n % 2 == 1) for n in range(battles)]
    if jobs <= 1:
        return [_one(job) for job in work]
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(_one, work, chunksize=max(1, battles // (jobs * 4))))
