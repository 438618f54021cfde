"""What every screen shares: the notice shown when the terminal is too small to play in."""

from __future__ import annotations

from typing import TypeVar

from textual import work
from textual.await_complete import AwaitComplete
from textual.command import CommandPalette
from textual.css.query import NoMatches
from textual.screen import ModalScreen, Screen
from textual.widget import MountError
from textual.notifications import SeverityLevel
from textual.widgets import Static

from game.content.text import printable

MIN_WIDTH, MIN_HEIGHT = 80, 24
Result = TypeVar("Result")


class TooSmall(Static):
    """Covers the screen while the terminal is smaller than MIN_WIDTH x MIN_HEIGHT."""

    def on_mount(self) -> None:
        self.update(self._message())

    def on_resize(self) -> None:
        self.update(self._message())

    def _message(self) -> str:
        width, height = self.app.size
        return (f"The terminal is too small to play in.\n\n"
                f"It is {width}x{height}; skirmish needs at least {MIN_WIDTH}x{MIN_HEIGHT}.\n"
                f"Enlarge the window or make the font smaller.")


class Dismissable:
    """Dismissing twice (two quick key presses) must not pop the screen underneath. Its
    notifications are plain text: they quote names (a unit called [/] has no grenades), which
    Textual would otherwise read as markup and fail on."""

    _gone = False

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = False) -> None:
        super().notify(printable(message), title=printable(title), severity=severity,
                       timeout=timeout, markup=markup)

    def dismiss(self, result=None) -> AwaitComplete:
        if self._gone or not self.is_active:
            return AwaitComplete()
        self._gone = True
        return super().dismiss(result)


class Palette(Dismissable, CommandPalette):
    """Textual's command palette, safe against a second click after it closed, against Page
    Down pressed before its list is laid out, and against its search or its watchers running
    after a burst of keys closed it (all raise in Textual 8: KeyError, IndexError, or NoMatches
    for its CommandList)."""

    def _action_command_list(self, action: str) -> None:
        try:
            super()._action_command_list(action)
        except (KeyError, IndexError, NoMatches):
            pass

    @work(exclusive=True, group=CommandPalette._GATHER_COMMANDS_GROUP)
    async def _gather_commands(self, search_value: str) -> None:
        try:
            await CommandPalette._gather_commands.__wrapped__(self, search_value)
        except NoMatches:            # closed while the search ran: nothing left to fill
            pass

    def _watch__list_visible(self) -> None:
        try:
            super()._watch__list_visible()
        except NoMatches:
            pass

    async def _watch__show_busy(self) -> None:
        try:
            await super()._watch__show_busy()
        except NoMatches:
            pass


class GameScreen(Dismissable, Screen[Result]):
    """A full screen; shows TooSmall instead of itself in a terminal under 80x24."""

    def closing(self) -> bool:
        """Dismissed, or its widgets being removed: messages queued before (a burst of keys
        moving a list's highlight) must not look for widgets that are gone."""
        return self._gone or not self.is_attached or self._closing or self._pruning

    def on_mount(self) -> None:
        add_too_small(self)


class GameModal(Dismissable, ModalScreen[Result]):
    def on_mount(self) -> None:
        add_too_small(self)


def add_too_small(screen: Screen) -> None:
    try:
        screen.mount(TooSmall(classes="too-small"))
    except MountError:          # the screen was closed as soon as it opened
        pass
