"""A served game and a headless Chromium looking at it, for the browser tests.

The browser is the system's own (Debian's chromium-headless-shell or chromium, put there by
tests/web/install_browser.sh), driven by Playwright pointed at that executable. WebGL is turned
off, so the page's terminal (xterm.js) draws with its DOM renderer and the text a player sees is
the page's text, readable here.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

BROWSERS = ("chromium-headless-shell", "chromium")
# No sandbox (the tests may run as root), no GPU, and none of the browser's own calls home: this
# machine's network is closed and those connections would be refused, many at a time.
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-3d-apis", "--disable-webgl"]
VIEWPORT = {"width": 1280, "height": 800}


def find_chromium() -> str | None:
    """$SKIRMISH_CHROMIUM, else the first system Chromium on the PATH."""
    given = os.environ.get("SKIRMISH_CHROMIUM")
    if given:
        return given
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    return None


def why_no_browser() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed (pip install -e '.[test]')"
    if find_chromium() is None:
        return ("no Chromium on this machine: run tests/web/install_browser.sh "
                "(apt-get install chromium-headless-shell)")
    return None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Served:
    """`skirmish serve` on a free local port, for as long as the `with` lasts."""

    def __init__(self, save_dir: Path, *extra: str) -> None:
        self.port = free_port()
        self.url = f"http://localhost:{self.port}/"
        self.args = [sys.executable, "-m", "game", "--save-dir", str(save_dir), "serve",
                     "--port", str(self.port), *extra]
        self.process: subprocess.Popen[str] | None = None

    def __enter__(self) -> Served:
        self.process = subprocess.Popen(self.args, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"skirmish serve stopped: {self.process.stdout.read()}")
            try:
                with urllib.request.urlopen(self.url, timeout=1) as answer:
                    if answer.status == 200:
                        return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("skirmish serve did not answer within 30 s")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def __exit__(self, *_exc: object) -> None:
        self.stop()


class Page:
    """The game's page: its terminal's text, keys, clicks on text."""

    def __init__(self, page: Any) -> None:
        self.page = page

    def text(self) -> str:
        rows = self.page.locator(".xterm-rows")
        return rows.inner_text() if rows.count() else ""

    def lines(self) -> list[str]:
        return self.text().splitlines()

    def wait_for(self, wanted: str, timeout: float = 20) -> float:
        """Wait until `wanted` is on the screen; the seconds it took."""
        start = time.monotonic()
        while time.monotonic() - start < timeout:
            if wanted in self.text():
                return time.monotonic() - start
            time.sleep(0.02)
        raise AssertionError(f"{wanted!r} did not appear within {timeout} s; the page shows:\n"
                             + self.text())

    def press(self, *keys: str, pause: float = 0.15) -> None:
        for key in keys:
            self.page.keyboard.press(key)
            time.sleep(pause)

    def type(self, text: str) -> None:
        self.page.keyboard.type(text, delay=10)

    def click_text(self, wanted: str) -> None:
        """Click the middle of the first `wanted` on the screen, as a player would."""
        rows = self.page.locator(".xterm-rows > div")
        box = self.page.locator(".xterm-rows").bounding_box()
        lines = self.lines()
        for number, line in enumerate(lines):
            column = line.find(wanted)
            if column >= 0:
                width = box["width"] / max(len(line), 1)
                row_box = rows.nth(number).bounding_box()
                x = box["x"] + (column + len(wanted) / 2) * width
                self.page.mouse.click(x, row_box["y"] + row_box["height"] / 2)
                return
        raise AssertionError(f"{wanted!r} is not on the screen:\n" + "\n".join(lines))
