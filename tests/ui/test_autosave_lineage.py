"""A battle loaded from a save and played on gets its own autosaves: the original run's
autosaves (their rotation is per battle) are left as they were."""

from __future__ import annotations

from functools import partial

from game.saves import list_saves, parse_autosave, read_save
from game.ui.screens.battle import BattleScreen
from game.ui.screens.handoff import Handoff, Summary
from tests.ui.ui_helpers import DUEL, make_app, new_match, wait_until


def autosaves(folder) -> dict[str, bytes]:
    return {info.name: (folder / f"{info.name}.json").read_bytes()
            for info in list_saves(folder) if parse_autosave(info.name)}


async def at_the_board(pilot) -> BattleScreen:
    """Past the hot-seat handoff and summary: the battle screen, a person's turn."""
    app = pilot.app
    for _ in range(400):
        screen = app.screen
        if isinstance(screen, Handoff) and not screen.waiting:
            await pilot.press("space")
        elif isinstance(screen, Summary):
            await pilot.press("enter")
        elif isinstance(screen, BattleScreen) and screen.my_turn():
            return screen
        await pilot.pause(0.01)
    raise AssertionError("never the board")


async def play_to_round(pilot, round_: int) -> BattleScreen:
    """Both players end their turns until round `round_` begins."""
    screen = await at_the_board(pilot)
    while screen.match.battle.session.round < round_:
        await pilot.press("e")
        await pilot.pause()
        screen = await at_the_board(pilot)
    return screen


async def test_playing_on_from_an_earlier_save_leaves_the_original_autosaves(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(100, 32)) as pilot:
        match = new_match(DUEL, 2, {"blue", "red"})          # two people: nobody shoots
        await app.start_match(match)
        first_id = match.battle_id
        await play_to_round(pilot, 5)
        original = autosaves(save_dir)
        assert sorted(parse_autosave(n).round for n in original) == [3, 4, 5]
        assert all(parse_autosave(n).battle == first_id for n in original)

        state = read_save(save_dir, next(n for n in original if parse_autosave(n).round == 3))
        app.run_worker(partial(app._load, state), exclusive=True, group="load")
        await wait_until(pilot, lambda: app.match is not match)
        screen = await at_the_board(pilot)
        assert autosaves(save_dir) == original                  # loading writes nothing
        await pilot.press("right", "enter")                      # a different move this time
        await pilot.pause()
        assert screen.match.battle_id != first_id                # its own lineage from here
        screen = await play_to_round(pilot, 7)
        now = autosaves(save_dir)
        assert {n: now[n] for n in original if n in now} == original
        assert set(original) <= set(now)
        mine = sorted(parse_autosave(n).round for n in now
                      if parse_autosave(n).battle == screen.match.battle_id)
        assert mine == [5, 6, 7]                                # rotated within its lineage
        screen.match.close()
