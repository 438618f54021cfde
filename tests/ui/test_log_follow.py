"""The battle log: reading back keeps its place but says how many lines came meanwhile, and
scrolling back to the end follows them again; resizing it (or the terminal) keeps it at its
end and wraps its lines to its new width, never scrolling sideways."""

from __future__ import annotations

from tests.ui.ui_helpers import DUEL, at_my_turn, make_app, new_match, screen_text


def fill(screen, count: int, start: int = 0) -> None:
    for number in range(start, start + count):
        screen.say(f"Line {number}: a long line of the log that says something about the fight "
                   f"so that it has to wrap on a narrow terminal, number {number}.")


def at_end(log) -> bool:
    return log.scroll_y >= log.max_scroll_y


async def test_reading_back_counts_new_lines_and_the_end_follows_them_again(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(100, 32)) as pilot:
        match = new_match(DUEL, 2, {"blue"})
        screen = await at_my_turn(app, pilot, match)
        log = screen.log_view
        fill(screen, 30)
        await pilot.pause()
        assert at_end(log)
        await pilot.press("pageup")
        await pilot.pause()
        kept = log.scroll_y
        assert not at_end(log)
        fill(screen, 3, 30)
        await pilot.pause()
        assert log.scroll_y == kept                      # the reader keeps their place
        assert "3 new lines" in screen_text(app)
        assert "End or Page Down to follow" in screen_text(app)
        await pilot.press("end")
        await pilot.pause()
        assert at_end(log) and "new lines" not in screen_text(app)
        fill(screen, 2, 33)
        await pilot.pause()
        assert at_end(log)                               # following again
        assert "number 34." in screen_text(app)
        await pilot.press("pageup", "pagedown", "pagedown")
        await pilot.pause()
        fill(screen, 1, 35)
        await pilot.pause()
        assert at_end(log) and "number 35." in screen_text(app)
    match.close()


async def test_page_up_on_a_short_log_does_not_stop_it_following(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(100, 32)) as pilot:
        match = new_match(DUEL, 2, {"blue"})
        screen = await at_my_turn(app, pilot, match)
        screen.log_view.clear()
        await pilot.pause()
        await pilot.press("pageup")                      # nothing to scroll back to
        fill(screen, 20)
        await pilot.pause()
        assert at_end(screen.log_view) and "number 19." in screen_text(app)
    match.close()


async def test_shrinking_the_log_keeps_it_at_its_end(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(100, 32)) as pilot:
        match = new_match(DUEL, 2, {"blue"})
        screen = await at_my_turn(app, pilot, match)
        fill(screen, 40)
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert at_end(screen.log_view)
        await pilot.press("left_square_bracket")
        await pilot.pause()
        await pilot.pause()
        assert at_end(screen.log_view) and "number 39." in screen_text(app)
    match.close()


async def test_a_resized_terminal_wraps_the_log_again_and_never_sideways(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(100, 32)) as pilot:
        match = new_match(DUEL, 2, {"blue"})
        screen = await at_my_turn(app, pilot, match)
        fill(screen, 20)
        await pilot.pause()
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        log = screen.log_view
        width = log.scrollable_content_region.width
        assert max(strip.cell_length for strip in log.lines) <= width
        assert log.max_scroll_x == 0
        assert at_end(log) and "number 19." in screen_text(app)
    match.close()


async def test_a_battle_begun_on_a_small_terminal_fits_its_log(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        match = new_match(DUEL, 2, {"blue"})
        screen = await at_my_turn(app, pilot, match)
        fill(screen, 10)
        await pilot.pause()
        log = screen.log_view
        assert max(strip.cell_length for strip in log.lines) <= log.scrollable_content_region.width
        assert log.max_scroll_x == 0
    match.close()
