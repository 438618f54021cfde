"""Small things a playtest found: the status line after the computer's turn, the one-grenade
`m`, the winner's sentence."""

from __future__ import annotations

from game.core import components as c
from game.core import events as ev
from game.core.narrate import describe
from tests.ui.ui_helpers import DATA, FOG, at_my_turn, make_app, new_match, wait_until


def status_text(screen) -> str:
    return str(screen.status_line.render())


async def test_space_skip_leaves_the_status_line_when_the_players_turn_begins(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(100, 32)) as pilot:
        match = new_match(FOG, 3, {"blue"})
        screen = await at_my_turn(app, pilot, match)
        screen.busy = True                     # as while a computer side plays
        screen.redraw()
        assert "Space: skip" in status_text(screen)
        await screen.flow._computer_turn()     # it ends with the board as it was
        await pilot.pause()
        assert screen.my_turn()
        assert "Space: skip" not in status_text(screen), status_text(screen)
    match.close()


async def test_m_with_one_kind_of_grenade_says_so(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(110, 32)) as pilot:
        match = new_match(DATA / "throw.yaml", 2, {"blue"})
        session = match.battle.session
        session.use()
        session.get("blue-1", c.Loadout).grenades = {"he_grenade": 2}
        screen = await at_my_turn(app, pilot, match)
        kinds = screen.orders.grenades()
        assert len(kinds) == 1
        await pilot.press("g")
        await wait_until(pilot, lambda: screen.area is not None)
        await pilot.press("m")
        await pilot.pause()
        assert any("Only one kind of grenade." in n.message for n in app._notifications)
    match.close()


def test_the_winner_is_told_whatever_the_sides_name():
    name = {"blue": "Jensen and Hollis"}.get
    line = describe(ev.BattleEnded("blue", "last side standing"), lambda i: name(i, i))
    assert line == "Battle over: victory for Jensen and Hollis (last side standing)."
    assert describe(ev.BattleEnded(None, "time is up"), str) == "Battle over: a draw (time is up)."


def test_a_throw_a_wall_stops_short_says_so():
    check = ev.Check.of("demolitions", (3,), [])
    def thrown(landed, far):
        return describe(ev.GrenadeThrown("a-1", "frag", (14, 2), check, 12, landed, 4, far, 6), str)
    assert thrown((14, 2), 1).endswith("off by 1 (direction d10 4), but a wall stops it at (14, 2).")
    assert thrown((15, 3), 3).endswith("off by 3 (direction d10 4), lands at (15, 3).")
    assert thrown((16, 4), 2).endswith("off by 2 (direction d10 4), lands at (16, 4).")
