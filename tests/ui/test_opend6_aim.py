"""OpenD6's own actions from the keyboard: aiming over a whole round (a) and a Character Point
on the next roll (b), in the action bar with their cost, greyed with the reason."""

from __future__ import annotations

from game.core import components as c
from game.core.events import Aimed, PointsSpent
from game.core.queries import extra_actions
from tests.ui.test_tabletop import start_duel_under
from tests.ui.ui_helpers import make_app, wait_until


async def test_aim_and_a_character_point_from_the_keyboard(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start_duel_under(app, pilot, "opend6")
        battle = screen.match.battle
        uid = battle.session.active
        items = {item.key: item for item in screen.items}
        assert items["a"].label.startswith("aim") and items["a"].cost == battle.session.get(uid, c.ActionPoints).current
        assert items["b"].label == "Character Point (5)" and items["b"].enabled and items["b"].cost == 0

        await pilot.press("b", "b")                     # two points on the next roll: the most
        await wait_until(pilot, lambda: sum(isinstance(e, PointsSpent) for e in screen.match.history) == 2)
        items = {item.key: item for item in screen.items}
        assert items["b"].label == "Character Point (3)" and not items["b"].enabled
        assert "at most 2" in items["b"].why
        await pilot.press("b")                          # greyed: refused, and it says why
        await pilot.pause()
        assert any("at most 2" in n.message for n in app._notifications)
        assert sum(isinstance(e, PointsSpent) for e in screen.match.history) == 2

        await pilot.press("a")                          # no target yet: the first is picked
        await pilot.pause()
        assert screen.target is not None                # the duel's enemy is in sight
        assert [e.command for e in extra_actions(battle, uid, screen.target) if e.key == "a"][0] is not None
        await pilot.press("a")
        await wait_until(pilot, lambda: any(isinstance(e, Aimed) for e in screen.match.history))
        cond = battle.session.get(uid, c.Condition)
        assert cond.aim_rounds == 1 and cond.aim_target in battle.session.entities
        assert cond.points_armed == 0 and cond.points_spent == 0      # the turn ended: the points came back
