"""A line saying what went wrong (a file that cannot be read, a bad save name); it takes no
room while there is nothing to say."""

from __future__ import annotations

from textual.widgets import Static

from game.content.text import printable


class Problem(Static):
    def __init__(self, text: str = "", *, id: str | None = None) -> None:
        super().__init__(printable(text), id=id, classes="problem", markup=False)
        self.display = bool(text)

    def update(self, content="", *, layout: bool = True) -> None:
        if isinstance(content, str):
            content = printable(content)
        super().update(content, layout=layout)
        self.display = bool(str(content))
