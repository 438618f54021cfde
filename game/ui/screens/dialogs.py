"""Small dialogs: a question with choices, a message, and the save-name prompt."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Input, Label, Static

from game.content.text import printable
from game.ui.glyphs import plain
from game.ui.screens.base import GameModal
from game.ui.widgets.problem import Problem


ROW_WIDTH = 56          # columns a row of buttons may take in a dialog (64 wide, less its frame);
                        # a button takes its label and 6 (padding, border, margin)


class Choice(GameModal[str | None]):
    """A question with buttons; dismissed with the chosen button's id, or None on Escape.

    Choices in `greyed` are shown but cannot be pressed (their label should say why)."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel"),
                Binding("left,up", "app.focus_previous", show=False),
                Binding("right,down", "app.focus_next", show=False)]
    AUTO_FOCUS = "Button"

    def __init__(self, title: str, body: str, choices: list[tuple[str, str]],
                 greyed: frozenset[str] = frozenset()) -> None:
        super().__init__()
        self.title_text, self.body, self.choices = title, body, choices
        self.greyed = greyed

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(plain(self.title_text), classes="dialog-title")
            with VerticalScroll(classes="dialog-body"):
                yield Static(printable(self.body), markup=False)
            # More choices than fit side by side stand in a column (up/down or Tab move).
            many = len(self.choices) > 3 or sum(len(label) + 6 for _, label in self.choices) > ROW_WIDTH
            row = Vertical(classes="dialog-buttons stacked") if many else Horizontal(classes="dialog-buttons")
            usable = [ident for ident, _ in self.choices if ident not in self.greyed]
            with row:
                for ident, label in self.choices:
                    first = bool(usable) and ident == usable[0]
                    yield Button(plain(label), id=ident, variant="primary" if first else "default",
                                 disabled=ident in self.greyed)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id)


def message(title: str, body: str) -> Choice:
    return Choice(title, body, [("ok", "OK")])


class SaveAs(GameModal[str | None]):
    """Asks for a save name; dismissed with it, or None."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]
    AUTO_FOCUS = "Input"

    def __init__(self, suggestion: str, problem: str = "") -> None:
        super().__init__()
        self.suggestion, self.problem = suggestion, problem

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Save the battle", classes="dialog-title")
            yield Static("Name (letters, digits, spaces, - _ .):")
            yield Input(self.suggestion, id="save-name", max_length=64)
            yield Problem(self.problem, id="save-problem")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Save", id="save", variant="primary")
                yield Button("Cancel", id="cancel")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._finish(event.value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "save":
            self._finish(self.query_one("#save-name", Input).value)
        else:
            self.dismiss(None)

    def _finish(self, value: str) -> None:
        if value.strip():
            self.dismiss(value.strip())
        else:
            self.query_one("#save-problem", Problem).update("Give the save a name.")
