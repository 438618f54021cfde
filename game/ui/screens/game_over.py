"""The end of a battle: who won, and each side's casualties, shots and accuracy.

A shot is one attack (a burst, a throw, a suppressive volley each count one) and a hit one that
struck an enemy, so accuracy never passes 100%. Damage is what the side did to its enemies; a
"Friendly" column shows what it did to its own units, when any side did some.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Horizontal, Vertical
from textual.widgets import Button, Footer, Label, Static

from game.content.text import printable
from game.ui.glyphs import plain, side_color, side_letter
from game.core.queries import objectives
from game.ui.match import Match
from game.ui.objectives import objectives_card
from game.ui.screens.base import GameScreen


def results_table(match: Match) -> Table:
    session = match.battle.session
    table = Table(box=None, header_style="bold", pad_edge=False)
    friendly = any(session.records[side].friendly_damage for side in match.sides)
    columns = ["Side", "Casualties", "Shots", "Hits", "Accuracy", "Damage"]
    if friendly:
        columns.append("Friendly")
    for column in columns:
        table.add_column(column, justify="left" if column == "Side" else "right")
    for side in match.sides:
        record = session.records[side]
        index = match.side_index(side)
        accuracy = f"{100 * record.hits / record.shots:.0f}%" if record.shots else "-"
        letter = (side_letter(index) + " ", f"bold {side_color(index)}")
        name = Text.assemble(letter, printable(match.name(side)))
        cells = [str(record.casualties), str(record.shots), str(record.hits), accuracy,
                 str(record.damage_dealt)]
        if friendly:
            cells.append(str(record.friendly_damage))
        table.add_row(name, *cells)
    return table


class GameOver(GameScreen[str]):
    """Dismissed with 'menu', 'new' or 'quit'."""

    BINDINGS = [Binding("m,escape", "to_menu", "Main menu"),
                Binding("m,escape", "to_campaign", "Back to the campaign"),
                Binding("n", "dismiss('new')", "New battle"),
                Binding("w", "watch", "Watch replay"),
                Binding("q", "dismiss('quit')", "Quit")]

    def __init__(self, match: Match) -> None:
        super().__init__()
        self.match = match

    @property
    def in_campaign(self) -> bool:
        """A campaign's battle: leaving it goes on to the campaign's briefing."""
        campaign = getattr(self.app, "campaign", None)
        return campaign is not None and campaign.match is self.match

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "to_menu" or (action == "dismiss" and parameters == ("new",)):
            return not self.in_campaign
        if action == "to_campaign":
            return self.in_campaign
        return True

    def action_to_menu(self) -> None:
        self.dismiss("menu")

    def action_to_campaign(self) -> None:
        self.dismiss("menu")

    def compose(self) -> ComposeResult:
        session = self.match.battle.session
        if session.winner is None:
            headline = "The battle ends in a draw"
        else:
            headline = f"Victory: {self.match.name(session.winner)}"
        with Center():
            with Vertical(id="game-over"):
                yield Label(plain(headline), id="winner")
                why = session.end_reason[:1].upper() + session.end_reason[1:]  # names keep case
                yield Static(f"{why}, round {session.round}.", markup=False)
                if any(o.kind != "eliminate" for o in objectives(self.match.battle)):
                    yield Static(objectives_card(self.match), id="objectives-result",
                                 markup=False)
                yield Static(results_table(self.match), id="results")
                with Horizontal(classes="dialog-buttons"):
                    if self.in_campaign:
                        yield Button("Back to the campaign", id="menu", variant="primary")
                    else:
                        yield Button("Main menu", id="menu", variant="primary")
                        yield Button("New battle", id="new")
                    yield Button("Watch replay", id="watch")
                    yield Button("Quit", id="quit")
        yield Footer()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "watch":
            self.action_watch()
            return
        self.dismiss(event.button.id)

    def action_watch(self) -> None:
        """The battle again from its start; leaving the replay comes back here."""
        self.app.watch_replay(self.match.battle.state(), leave=False)
