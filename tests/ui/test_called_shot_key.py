"""Eclipse Phase's called shot from the keyboard: `t` on a target turns the attack into a called
shot, the target card names its -10 beside the other modifiers, and `f` fires it."""

from __future__ import annotations

import pytest

from game.core.events import AttackResolved
from tests.ui.test_tabletop import start_duel_under
from tests.ui.ui_helpers import make_app, screen_text, wait_until


@pytest.mark.slow
async def test_t_calls_a_shot_under_eclipse_phase(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start_duel_under(app, pilot, "eclipse2")
        await pilot.press("tab")
        await wait_until(pilot, lambda: screen.target is not None)
        await wait_until(pilot, lambda: "at torso [t]" in screen_text(app))
        assert "called shot" not in screen_text(app)
        await pilot.press("t")
        await wait_until(pilot, lambda: "at called shot [t]" in screen_text(app))
        text = screen_text(app)
        assert "called shot     -10" in text
        before = len(screen.match.history)
        await pilot.press("f")
        await pilot.pause()
        if not any(isinstance(e, AttackResolved) for e in screen.match.history[before:]):
            await pilot.press("f")                 # the first key showed the odds
        await wait_until(pilot, lambda: any(isinstance(e, AttackResolved)
                                            for e in screen.match.history[before:]))
        shot = next(e for e in screen.match.history[before:] if isinstance(e, AttackResolved))
        assert shot.location == "called_shot"
        assert ("called shot", -10) in shot.attack.modifiers
