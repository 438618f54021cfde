"""Players that are programs: they read what their side sees and send commands.

    player = make_player("simple", side, seed)
    command = player.next_command(battle)      # for the active unit, which is on `side`
    memory = player.memory()                   # JSON data: what it carries between commands
    player.restore(memory, battle)             # the same battle loaded again: it goes on alike
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from game.ai.levels import LEVELS
from game.ai.simple import SimplePlayer
from game.ai.tactical import TacticalPlayer
from game.core.commands import Command
from game.core.engine import Battle


class Player(Protocol):
    side: str

    def next_command(self, battle: Battle) -> Command: ...

    def memory(self) -> dict[str, Any]: ...

    def restore(self, memory: Any, battle: Battle) -> None: ...


PLAYERS: dict[str, Callable[[str, int], Player]] = {
    "simple": lambda side, seed: SimplePlayer(side, seed),
    "easy": lambda side, seed: TacticalPlayer(side, seed, LEVELS["easy"]),
    "normal": lambda side, seed: TacticalPlayer(side, seed, LEVELS["normal"]),
    "hard": lambda side, seed: TacticalPlayer(side, seed, LEVELS["hard"]),
}


def make_player(name: str, side: str, seed: int = 0) -> Player:
    try:
        return PLAYERS[name](side, seed)
    except KeyError:
        raise ValueError(f"no computer player called {name!r}; choose from {', '.join(PLAYERS)}") from None
