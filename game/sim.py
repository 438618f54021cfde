"""Headless battles between computer players."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from game.ai import Player
from game.content.schema import BattleSetup
from game.core.commands import EndTurn
from game.core.engine import Battle
from game.core.events import Event, Refused


@dataclass
class SimResult:
    winner: str | None
    reason: str
    rounds: int
    commands: int
    refused: list[str] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)


def play(setup: BattleSetup, seed: int, players: Mapping[str, Player], *, keep_events: bool = True,
         on_events: Callable[[list[Event]], None] | None = None, max_commands: int = 20000) -> SimResult:
    """Play a battle to its end, each side's commands chosen by its player."""
    with Battle(setup, seed) as battle:
        result = SimResult(None, "", 0, 0)
        _collect(result, battle.opening, keep_events, on_events)
        s = battle.session
        while not s.over and result.commands < max_commands:
            uid = s.active
            command = players[s.side_of(uid)].next_command(battle)
            events = battle.submit(command)
            result.commands += 1
            if isinstance(events, Refused):
                result.refused.append(f"{command!r}: {events.reason}")
                events = battle.submit(EndTurn(uid))
            _collect(result, events, keep_events, on_events)
        result.winner, result.reason, result.rounds = s.winner, s.end_reason, s.round
        if not s.over:
            result.reason = f"stopped after {max_commands} commands"
        return result


def _collect(result: SimResult, events: list[Event], keep: bool,
             on_events: Callable[[list[Event]], None] | None) -> None:
    if keep:
        result.events.extend(events)
    if on_events is not None:
        on_events(events)
