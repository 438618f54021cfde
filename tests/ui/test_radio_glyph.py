"""The new battle form marks the chosen option of each radio set with a glyph (the dot), not by
colour alone."""

from __future__ import annotations

from textual.widgets import RadioButton

from tests.ui.test_small_terminal import SIZE, open_form, screen_rows
from tests.ui.ui_helpers import make_app


async def test_the_chosen_radio_option_has_the_dot(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=SIZE) as pilot:
        form = await open_form(app, pilot)

        def marks() -> dict[str, bool]:
            rows = screen_rows(app)
            out = {}
            for button in form.query(RadioButton):
                region = button.region
                cell = rows[region.y][region.x:region.right]
                assert str(button.label) in cell and "▐" in cell, (button.id, cell)
                mark = cell[cell.index("▐") + 1]
                assert mark in ("●", " "), (button.id, cell)
                out[button.id] = mark == "●"
            return out

        shown = marks()
        assert shown == {button.id: button.value for button in form.query(RadioButton)}
        assert sum(shown.values()) == 4          # a ruleset, the turns, a mode and a level
        form.query_one("#hotseat", RadioButton).value = True
        await pilot.pause()
        shown = marks()
        assert shown["hotseat"] and not shown["solo"]
