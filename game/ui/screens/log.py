"""The whole log of one side, on a screen of its own: every line it saw since the battle began
(as far as the match keeps its history), scrollable. Escape or `L` closes it. In hot-seat it
closes itself when another player has taken the seat: one side's log is never shown to another."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, Static

from game.ui.match import HISTORY_LIMIT, Match
from game.ui.screens.base import GameScreen
from game.ui.widgets.panels import WrappedLog, log_lines


class FullLog(GameScreen[None]):
    BINDINGS = [Binding("escape,L,shift+l,q", "close", "Back to the battle"),
                Binding("home", "top", "First line"),
                Binding("end", "bottom", "Last line")]

    def __init__(self, match: Match, viewer: str, seat: Callable[[], str]) -> None:
        super().__init__()
        self.match = match
        self.viewer = viewer
        self.seat = seat                 # the side whose player holds the keyboard now
        self.lines = log_lines(match, viewer, HISTORY_LIMIT)
        self.log_view = WrappedLog(max_lines=None, id="full-log")   # wrapped to the screen

    def compose(self) -> ComposeResult:
        title = Text(f"The log: what {self.match.name(self.viewer)} saw "
                     f"({len(self.lines)} lines; Page Up / Page Down, Home / End)")
        yield Static(title, classes="screen-title", markup=False)
        yield self.log_view
        yield Footer()

    def on_mount(self) -> None:
        super().on_mount()
        self.log_view.tell(self.lines)
        self.log_view.focus()

    def on_screen_resume(self) -> None:
        if self.seat() != self.viewer:
            self.log_view.clear()
            self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_top(self) -> None:
        self.log_view.scroll_home(animate=False)

    def action_bottom(self) -> None:
        self.log_view.scroll_end(animate=False)
