"""Overwatch cones, suppression circles and the warning on a path into a cone."""

from __future__ import annotations

from pathlib import Path

from game.core.commands import SetOverwatch, Suppress
from game.core.queries import enemy_cones
from game.ui.glyphs import TINTS
from tests.ui.ui_helpers import DATA, at_my_turn, make_app, new_match

WATCH = DATA / "watch.yaml"


def ambushed_match():
    """Red's watcher sets overwatch down the street, its gunner sprays the middle; blue to play."""
    match = new_match(WATCH, 1, {"blue"})
    assert match.submit(SetOverwatch("red-1", (6, 1)))
    assert match.submit(Suppress("red-2", (3, 4)))
    assert match.active_uid == "blue-1"
    return match


async def test_cones_circles_and_the_danger_warning(save_dir: Path):
    match = ambushed_match()
    app = make_app(save_dir)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await at_my_turn(app, pilot, match)
        cone = set(enemy_cones(match.battle, "blue")["red-1"])
        area = set(match.battle.session.grid.disc((3, 4), 3))
        assert cone and area
        tints = screen.map.scene.tints
        assert all(tints.get(sq) == "cone" for sq in cone - area)
        assert all(tints.get(sq) == "suppressed" for sq in area)
        reachable = [sq for sq in cone if screen.picture.reach.cost(sq) is not None]
        target = max(reachable, key=lambda sq: (screen.picture.reach.cost(sq), sq))
        screen.move_cursor_to(target)
        await pilot.pause()
        status = str(screen.query_one("#status").render())
        assert "ENTERS OVERWATCH" in status
        assert screen.map.scene.tints[target] == "danger"
        crossed = [sq for sq in screen.picture.reach.path_to(target)[:-1] if sq in cone]
        assert crossed, "the path should cross the cone before the cursor"
        strip = screen.map.row_strip(crossed[0][1])
        backgrounds = {seg.style.bgcolor.name for seg in strip if seg.style and seg.style.bgcolor}
        assert TINTS["danger"] in backgrounds
        safe = next(sq for sq in sorted(screen.picture.reach.squares()) if sq not in cone)
        screen.move_cursor_to(safe)
        await pilot.pause()
        assert "ENTERS OVERWATCH" not in str(screen.query_one("#status").render())


async def test_a_path_out_of_an_enemys_reach_warns_of_the_attack_of_opportunity(save_dir: Path):
    """d20: stepping away from a breacher with a baton in hand draws its attack; the status
    line says so before the move, and not for a step that stays next to it."""
    match = new_match(DATA / "brawl.yaml", 5, {"blue"})
    assert match.active_side == "blue"               # seed 5: Hollis wins the initiative
    app = make_app(save_dir)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await at_my_turn(app, pilot, match)
        assert match.position("red-1") == (5, 2) and match.position("blue-1") == (4, 2)
        screen.move_cursor_to((4, 1))                  # still next to the breacher
        await pilot.pause()
        status = str(screen.query_one("#status").render())
        assert "path" in status and "ATTACK OF OPPORTUNITY" not in status
        screen.move_cursor_to((2, 2))                  # out of its reach
        await pilot.pause()
        status = str(screen.query_one("#status").render())
        assert "ATTACK OF OPPORTUNITY from Breacher" in status


async def test_tab_targets_the_enemies_the_unit_itself_sees_before_the_others(save_dir: Path):
    """Hollis sees the far trooper; the near one is round a corner, seen by Maire only."""
    match = new_match(DATA / "tab.yaml", 5, {"blue"})
    assert match.active_uid == "blue-1"
    app = make_app(save_dir)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await at_my_turn(app, pilot, match)
        await pilot.press("tab")
        assert screen.target == "red-2"                  # the far trooper, in his sight
        card = str(screen.query_one("#target-card").render())
        assert "Hit chance" in card
        await pilot.press("tab")
        assert screen.target == "red-1"                  # nearer, but not in his sight
        card = str(screen.query_one("#target-card").render())
        assert "line of sight" in card
