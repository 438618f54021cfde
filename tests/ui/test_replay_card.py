"""The replay's side panel shows the unit whose turn the status line names, or says it is out
of the view's sight: never another unit."""

from __future__ import annotations

from tests.replay_helpers import played
from tests.ui.test_replay import open_replay, status
from tests.ui.ui_helpers import FOG, make_app


async def test_the_card_is_the_unit_the_header_names(save_dir):
    state = played(str(FOG), 3, commands=40)[0]
    app = make_app(save_dir)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_replay(app, pilot, state)
        unseen = 0
        for _ in range(40):
            await pilot.press("n")
            await pilot.pause()
            session = screen.match.battle.session
            active = session.active
            assert f"{screen.match.name(active)}'s turn" in status(screen)
            shown = screen.unit_card.unit
            if shown is not None:
                assert shown[0].uid == active
            else:
                unseen += 1
                assert "out of Blue team's sight" in str(screen.unit_card.render())
        assert unseen                     # the test went through both kinds of step
