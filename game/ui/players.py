"""Computer players, from `game.ai`: which ones exist and how to make one.

The app reaches `game.ai` only through this module, so a missing or failing computer player
shows a message instead of breaking the app. Thinking runs in a thread: `think` makes sure no
two battles are read or changed at once (esper's current world is shared by the process).
"""

from __future__ import annotations

import asyncio
from typing import Any

PREFERRED = ("hard", "normal", "easy", "simple")
_thinking: asyncio.Future | None = None


def computer_levels() -> list[str]:
    """The names `game.ai.PLAYERS` offers, in its order; empty if there are none yet."""
    try:
        from game import ai
    except ImportError:
        return []
    players = getattr(ai, "PLAYERS", None)
    if not players or not hasattr(ai, "make_player"):
        return []
    return [str(name) for name in players]


def default_level(levels: list[str]) -> str | None:
    """The strongest level on offer."""
    for name in PREFERRED:
        if name in levels:
            return name
    return levels[-1] if levels else None


def make_computer(level: str, side: str, seed: int) -> Any:
    from game import ai
    return ai.make_player(level, side, seed)


async def think(player: Any, battle: Any) -> Any:
    """Ask `player` for its next command in a worker thread, without blocking the app."""
    global _thinking
    await settle()
    loop = asyncio.get_running_loop()
    _thinking = loop.run_in_executor(None, player.next_command, battle)
    return await asyncio.shield(_thinking)


async def settle() -> None:
    """Wait until no computer player is still reading a battle (before touching another)."""
    pending = _thinking
    if pending is not None and not pending.done():
        try:
            await asyncio.wait_for(asyncio.shield(pending), timeout=30)
        except Exception:       # its answer is not wanted any more; only its end matters
            pass
