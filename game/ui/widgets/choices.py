"""An OptionList that stops at its ends and shrugs off Page Up/Down pressed too early; a radio
button whose choice shows by a glyph, not by colour alone; a radio set whose keys start from
the chosen button.

Up on the first line stays there (Textual's OptionList wraps round to the last: on the main
menu, Up then Enter quit the game), and Down on the last stays there.

Textual 8's OptionList raises KeyError when paging while its line index is still empty (keys
typed faster than the first layout); the press is simply ignored here.
"""

from __future__ import annotations

from textual.widgets import OptionList, RadioButton, RadioSet


class Radio(RadioButton):
    """Textual draws every radio button's dot and tells the chosen one by colour only: here the
    chosen one has the dot and the others are empty."""

    @property  # type: ignore[override]
    def BUTTON_INNER(self) -> str:
        return "●" if self.value else " "


class Radios(RadioSet):
    """Textual's radio set puts its keyboard highlight on the first button, wherever the choice
    is: with the second chosen (a remembered choice, a ruleset's own way), the first Down only
    reached the button already chosen and seemed ignored. Here the highlight starts on the
    chosen button each time the set gets focus."""

    def on_focus(self) -> None:
        if self.pressed_index >= 0:
            self._selected = self.pressed_index


class Choices(OptionList):
    def _enabled(self) -> list[int]:
        return [index for index, option in enumerate(self.options) if not option.disabled]

    def action_cursor_up(self) -> None:
        enabled = self._enabled()
        if self.highlighted is not None and enabled and self.highlighted <= enabled[0]:
            return
        super().action_cursor_up()

    def action_cursor_down(self) -> None:
        enabled = self._enabled()
        if self.highlighted is not None and enabled and self.highlighted >= enabled[-1]:
            return
        super().action_cursor_down()

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
