"""`skirmish serve`: the game in a web browser.

textual-serve does the serving: it answers the page, and for every browser that opens it starts
the game as a process of its own (the same app as in a terminal) and carries keys, mouse and
screen over a websocket. Every page gets a fresh game; all of them save into the one folder the
server was given, so a battle saved in one page can be loaded in another.
"""

from __future__ import annotations

import asyncio
import ipaddress
import shlex
import socket
import sys
from pathlib import Path
from typing import Any

DEFAULT_HOST = "localhost"
DEFAULT_PORT = 8000
TITLE = "skirmish"


def game_command(save_dir: Path) -> str:
    """The shell command textual-serve runs for each page: this Python, this game, this folder."""
    return " ".join(shlex.quote(part) for part in
                    (sys.executable, "-m", "game", "--save-dir", str(save_dir), "play"))


def is_loopback(host: str) -> bool:
    """Whether only this machine can reach a server listening on `host`."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def public_url(host: str, port: int, given: str | None) -> str:
    """The address the page's websocket calls back. A server on every interface (0.0.0.0, ::)
    cannot be called back at that address from another machine, so this machine's name is used,
    unless --public-url names another."""
    if given:
        return given.rstrip("/")
    if host in ("0.0.0.0", "::", ""):
        host = socket.getfqdn()
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


def check_port(port: int) -> None:
    if not 1 <= port <= 65535:
        raise ValueError(f"--port must be between 1 and 65535, not {port}")


def serve(host: str, port: int, save_dir: Path, url: str | None = None) -> None:
    """Serve until Ctrl+C. Raises OSError (port taken, host unknown) before anything is served."""
    from textual_serve.server import Server

    class GameServer(Server):
        """textual-serve's server, which on Ctrl+C also ends the games of the pages still open
        (each page's game is told to quit, its page says the session ended); without that the
        server waits for every open page's connection to time out."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.pages: set[asyncio.Task] = set()

        async def handle_websocket(self, request):  # type: ignore[no-untyped-def]
            page = asyncio.current_task()
            if page is not None:
                self.pages.add(page)
            try:
                return await super().handle_websocket(request)
            finally:
                self.pages.discard(page)  # type: ignore[arg-type]

        async def on_shutdown(self, app) -> None:  # type: ignore[no-untyped-def]
            for page in list(self.pages):
                page.cancel()

    check_port(port)
    server = GameServer(game_command(save_dir), host=host, port=port, title=TITLE,
                        public_url=public_url(host, port, url))
    server.serve()
