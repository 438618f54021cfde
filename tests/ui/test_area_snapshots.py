"""A snapshot of a grenade being aimed: the blast's rings on the map, the odds on the card.

Regenerate after a deliberate change of the look with `pytest tests/ui --snapshot-update`.
"""

from __future__ import annotations

from game.ui.screens.battle import BattleScreen
from tests.ui.test_area_aim import match_with
from tests.ui.ui_helpers import make_app, wait_until


def test_aiming_a_grenade(snap_compare, save_dir):
    app = make_app(save_dir)

    async def start(pilot) -> None:
        await app.start_match(match_with())
        await wait_until(pilot, lambda: isinstance(app.screen, BattleScreen)
                         and app.screen.my_turn())
        app.screen.move_cursor_to((8, 2))

    assert snap_compare(app, run_before=start, press=["g"], terminal_size=(100, 30))
