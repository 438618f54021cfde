"""An OptionList that shrugs off Page Up/Down pressed before its lines are laid out.

Textual 8's OptionList raises KeyError when paging while its line index is still empty (keys
typed faster than the first layout); the press is simply ignored here.
"""

from __future__ import annotations

from textual.widgets import OptionList


class Choices(OptionList):
    def action_page_down(self) -> None:
        try:
            super().action_page_down()
        except (KeyError, IndexError):
            pass

    def action_page_up(self) -> None:
        try:
            super().action_page_up()
        except (KeyError, IndexError):
            pass
