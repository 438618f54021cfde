"""Hot-seat: the screen that hides the board between players, and the catch-up summary."""

from __future__ import annotations

import re
from collections.abc import Iterable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical, VerticalScroll
from textual.events import Click, Key
from textual.widgets import Label, Static

from game.content.text import printable
from game.core.events import Event
from game.ui.glyphs import plain
from game.ui.match import Match
from game.ui.screens.base import GameModal, GameScreen

_TURN_AP = re.compile(r": \d+ AP( \([^()]*\))?\.$")    # "Trooper's turn: 14 AP (2 still owed)."
_AP_NOTE = re.compile(r" ?\([^()]*\bAP\b[^()]*\)")      # "(6 AP; 8 left)", "(2 AP)"


def without_ap(line: str) -> str:
    """The line with its AP figures left out."""
    return _AP_NOTE.sub("", _TURN_AP.sub(".", line))


def summary_lines(match: Match, side: str, events: Iterable[Event]) -> list[str]:
    """The catch-up summary for `side`: each event told, but another side's AP are its own
    (how much a unit had and has left is not told to its enemies' player)."""
    lines = []
    for event in events:
        line = match.tell(event)
        uid = getattr(event, "unit", None)
        if isinstance(uid, str) and uid in match.battle.session.entities \
                and match.side_of(uid) != side:
            line = without_ap(line)
        lines.append(line)
    return lines


class Handoff(GameScreen[None]):
    """Covers the whole board (a full screen, not a dialog: nothing behind it is drawn).

    While a computer side plays in a hot-seat battle it says so and waits; `ready` turns it into
    "pass the keyboard to ..." and the next key (or click) dismisses it.
    """

    def __init__(self, text: str, waiting: bool = False) -> None:
        super().__init__()
        self.text, self.waiting = text, waiting

    def compose(self) -> ComposeResult:
        with Center(id="handoff"):
            yield Static(printable(self.text), id="handoff-text", markup=False)
            yield Static("" if self.waiting else "Press any key when ready.", id="handoff-hint")

    def ready(self, text: str) -> None:
        self.text, self.waiting = text, False
        self.query_one("#handoff-text", Static).update(printable(text))
        self.query_one("#handoff-hint", Static).update("Press any key when ready.")

    def on_key(self, event: Key) -> None:
        if event.key in ("ctrl+q", "ctrl+p", "f1", "question_mark"):
            return                       # quitting, the palette and help still work
        event.stop()
        event.prevent_default()
        if not self.waiting:
            self.dismiss(None)

    def on_click(self, event: Click) -> None:
        event.stop()
        if not self.waiting:
            self.dismiss(None)


class Summary(GameModal[None]):
    """What a side saw happen since its player last looked, told in words."""

    BINDINGS = [Binding("escape,enter,space", "dismiss(None)", "Continue")]

    def __init__(self, title: str, lines: list[str]) -> None:
        super().__init__()
        self.title_text, self.lines = title, lines

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Label(plain(self.title_text), classes="dialog-title")
            with VerticalScroll(classes="dialog-body"):
                yield Static(printable("\n".join(self.lines)) or "Nothing your side could see.",
                             markup=False)
            yield Label("Enter or Escape to continue", classes="hint")

    def on_click(self, event: Click) -> None:
        self.dismiss(None)
