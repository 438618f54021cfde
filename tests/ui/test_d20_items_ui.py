"""d20's items on the floor in the app: the board draws one where the side has seen it, the
action bar offers picking it up (T), and the key picks it up."""

from __future__ import annotations

import re

import pytest

from game.content.loader import load_setup
from game.content.schema import BattleSetup
from game.core.events import ActionTaken
from game.rulesets import new_battle
from game.ui.actions import action_items
from game.ui.match import Match
from game.ui.screens.battle import BattleScreen
from game.ui.screens.help import Help
from tests.ui.ui_helpers import DUEL, at_my_turn, make_app, open_new_battle, seats_for, wait_until


@pytest.mark.slow
async def test_an_item_on_the_floor_is_drawn_offered_and_picked_up_with_t(save_dir, tmp_path):
    kit = tmp_path / "kit.yaml"
    kit.write_text(DUEL.read_text().replace("id: ui_duel", "id: ui_kit")
                   .replace("ruleset: skirmish", "ruleset: d20")
                   + "items:\n  - {item: medkit, at: [2, 1]}\n")
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_new_battle(pilot, str(kit), "5")
        await pilot.click("#ruleset-d20")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, BattleScreen))
        screen = app.screen
        await wait_until(pilot, screen.my_turn)
        uid = screen.match.active_uid
        assert screen.match.battle.session.position(uid) == (1, 1)
        assert screen.picture.scene.units[(2, 1)].text == "! "
        assert screen.picture.items == {(2, 1): ("Medical kit",)}
        items = {item.key: item for item in action_items(screen.match, uid, move_cost=None,
                                                          mode=None, aim=0, has_target=False,
                                                          revive_target=False)}
        assert items["T"].label == "pick up Medical kit" and items["T"].enabled
        assert items["T"].cost == 1
        await pilot.press("f1")                  # the help's map legend names what lies there
        await wait_until(pilot, lambda: isinstance(app.screen, Help))
        assert ("!", "Medical kit (on the floor)") in [(g, n) for g, _, n in app.screen.terrain]
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)
        await pilot.press("T")
        await wait_until(pilot, lambda: any(isinstance(e, ActionTaken) for e in screen.match.history))
        done = next(e for e in screen.match.history if isinstance(e, ActionTaken))
        assert done.action == "recover_item" and done.ap_cost == 1
        await wait_until(pilot, lambda: (2, 1) not in screen.picture.items)
        assert (2, 1) not in screen.picture.scene.units
        # keys whose action is not offered now say why, in the ruleset's words
        for key, words in (("R", "holds no jammed weapon"), ("T", "no item on"),
                           ("J", "nothing next to")):
            await pilot.press(key)
            await wait_until(pilot, lambda w=words: any(w in n.message for n in app._notifications))
        assert not any("no such action" in n.message for n in app._notifications)


async def test_the_status_line_gives_a_jumps_dc_and_chance_at_its_landing_square(save_dir):
    """The cursor beyond the ditch from the unit: the jump, its test and its chance, and the
    key that makes it; a square no jump reaches says nothing of one."""
    data = load_setup("d20_ditch").model_dump()
    spots = {"jensen": [(8, 5), (8, 3)], "olea": [(18, 10), (17, 9)]}
    for side in data["scenario"]["sides"]:
        for member, at in zip(side["members"], spots[side["id"]], strict=True):
            member["at"] = list(at)
    setup = BattleSetup.model_validate(data)
    match = Match(new_battle(setup, 2), seats_for(setup, {"jensen"}))
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await at_my_turn(app, pilot, match)
        x, y = match.position(match.active_uid)
        screen.move_cursor_to((x + 2, y))
        await pilot.pause()
        status = str(screen.query_one("#status").render())
        assert re.search(r"path \d+ AP; or jump \(DEX d20[+-]\d+ vs DC 12, \d+%\) \[J\]", status), status
        screen.move_cursor_to((x + 3, y))
        await pilot.pause()
        assert "jump" not in str(screen.query_one("#status").render())
