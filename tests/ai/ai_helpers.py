"""Helpers for the computer-player tests: drive one unit's turn and keep what it chose."""

from __future__ import annotations

from game.ai.tactical import TacticalPlayer
from game.core.commands import Command, EndTurn
from game.core.engine import Battle
from game.core.events import Refused


def take_turn(battle: Battle, player: TacticalPlayer, limit: int = 30) -> list[Command]:
    """Let `player` play the active unit's whole turn; every command must be accepted."""
    uid = battle.session.active
    chosen: list[Command] = []
    for _ in range(limit):
        if battle.session.over or battle.session.active != uid:
            break
        command = player.next_command(battle)
        chosen.append(command)
        result = battle.submit(command)
        assert not isinstance(result, Refused), f"{command!r} refused: {result.reason}"
        if isinstance(command, EndTurn):
            break
    return chosen


def end_turns_until(battle: Battle, uid: str) -> None:
    """End other units' turns until it is `uid`'s."""
    for _ in range(50):
        if battle.session.active == uid:
            return
        battle.submit(EndTurn(battle.session.active))
    raise AssertionError(f"{uid} never got a turn")
