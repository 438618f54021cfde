"""The main menu: New battle, Load, Campaign, How to play, Quit."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Center, Vertical
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from game.ui.widgets.choices import Choices
from game.ui.screens.base import GameScreen

TITLE = r"""
 ___ _  _____ ___ __  __ ___ ___ _  _
/ __| |/ /_ _| _ \  \/  |_ _/ __| || |
\__ \ ' < | ||   / |\/| || |\__ \ __ |
|___/_|\_\___|_|_\_|  |_|___|___/_||_|
"""

ENTRIES = (
    ("new", "New battle"),
    ("load", "Load a saved battle"),
    ("campaign", "Campaign"),
    ("help", "How to play"),
    ("quit", "Quit"),
)


class MainMenu(GameScreen):
    """The first screen. Arrows and Enter, or the mouse."""

    AUTO_FOCUS = "#menu-options"

    def compose(self) -> ComposeResult:
        with Vertical(id="main-menu"):
            yield Static(TITLE, id="menu-title", markup=False)
            yield Static("A turn-based tactical battle in your terminal.", id="menu-tagline")
            with Center():
                yield Choices(*(Option(label, id=ident) for ident, label in ENTRIES),
                                 id="menu-options")
        yield Footer()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        choice = event.option.id
        app = self.app
        if choice == "new":
            app.action_new_battle()
        elif choice == "campaign":
            app.action_campaign()
        elif choice == "load":
            app.action_load()
        elif choice == "help":
            app.action_help()
        elif choice == "quit":
            app.action_quit()
