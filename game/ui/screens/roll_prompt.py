"""At the table: the prompt for a die a person rolls, and the loop that asks until an order
has every die it needs.

The engine says which die it wants (RollWanted: who rolls, what for, which die); the prompt
takes the face as the die reads, or several on one line for a pool (OpenD6: the pool's dice,
then the Wild Die and its re-rolls). A face the die cannot show is refused with the reason and
the line stays as typed. The faces go into the order (`Command.rolls`), which is given again;
Escape takes the order back. No rule lives here: the engine checks every face it uses.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Static

from game.core.commands import Command
from game.core.events import Event, Refused, RollWanted
from game.ui.glyphs import plain
from game.ui.screens.base import GameModal
from game.ui.widgets.problem import Problem

TAKEN_BACK = "No die was rolled: the order was taken back."
EXAMPLE = (4, 5, 3, 2, 6, 1)        # faces to show how a line of several is typed


def read_faces(text: str, wanted: RollWanted) -> tuple[int, ...] | str:
    """The faces typed on one line, or why they cannot be taken. The first face is checked
    against the die asked for; the engine checks the others against the dice they go to."""
    words = text.replace(",", " ").split()
    if not words:
        return f"Type the face the d{wanted.sides} shows ({wanted.faces()})."
    faces = []
    for word in words:
        if not word.isdigit():
            return f"{word!r} is not a face: type whole numbers, separated by spaces."
        faces.append(int(word))
    why = wanted.refusal(faces[0])
    if why is not None:
        return f"{why}."
    return tuple(faces)


class RollPrompt(GameModal[tuple[int, ...] | None]):
    """Asks for the die the engine wants; dismissed with the faces typed, or None (Escape)."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Take the order back")]
    AUTO_FOCUS = "Input"

    def __init__(self, wanted: RollWanted) -> None:
        super().__init__()
        self.wanted = wanted

    def compose(self) -> ComposeResult:
        w = self.wanted
        so_far = f"\nTyped so far for this order: {' '.join(map(str, w.typed))}." if w.typed else ""
        with Vertical(classes="dialog", id="roll-prompt"):
            yield Static(plain(w.reason), classes="dialog-title", id="roll-title")
            example = " ".join(str(min(face, w.last)) for face in (EXAMPLE * w.count)[:w.count])
            faces = (f"Roll {w.count}d{w.sides} and type every face on one line, as the dice "
                     f"read ({w.faces()}): {example}." if w.count > 1 else
                     f"Type the face as the d{w.sides} reads it ({w.faces()}).")
            if w.what.endswith("_wild"):
                after = (" A Wild Die that comes up 6 is rolled again and added: its re-rolls "
                         "may follow on the same line, or are asked for next.")
            elif w.then.endswith("_wild"):
                after = (" The Wild Die's face may follow on the same line (then, if it comes "
                         "up 6, its re-rolls), or it is asked for next.")
            else:
                after = " The dice asked for next may follow on the same line."
            yield Static(f"{faces}{after}{so_far}", markup=False, id="roll-about")
            yield Input(id="roll-faces", restrict=r"[0-9 ,]*", max_length=80,
                        placeholder=w.faces())
            yield Problem(w.problem, id="roll-problem")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Roll", id="roll", variant="primary")
                yield Button("Take back", id="take-back")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._finish(event.value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "roll":
            self._finish(self.query_one("#roll-faces", Input).value)
        else:
            self.dismiss(None)

    def _finish(self, text: str) -> None:
        faces = read_faces(text, self.wanted)
        if isinstance(faces, str):
            self.query_one("#roll-problem", Problem).update(faces)
            return
        self.dismiss(faces)


async def submit_at_table(app: Any, submit: Any, command: Command) -> list[Event] | Refused:
    """`submit(command)` (a Match's), asking the table for each die it wants; must run in a
    worker. Refused when the order was refused or taken back."""
    result = submit(command)
    while isinstance(result, RollWanted):
        faces = await app.push_screen_wait(RollPrompt(result))
        if faces is None:
            return Refused(TAKEN_BACK)
        command = dataclasses.replace(command, rolls=(*result.typed, *faces))
        result = submit(command)
    return result
