"""Hot-seat: the screen that hides the board between players, and the catch-up summary."""

from __future__ import annotations

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
from game.ui.widgets.panels import ap_hider, without_ap

__all__ = ["Handoff", "Summary", "summary_lines", "without_ap"]

def summary_lines(match: Match, side: str, events: Iterable[Event]) -> list[str]:
    """The catch-up summary for `side`: each event told, but another side's AP are its own
    (how much a unit had and has left is not told to its enemies' player)."""
    hide = ap_hider(match, side)
    return [hide(event, match.tell(event)) for event in events]


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
