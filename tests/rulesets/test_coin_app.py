"""The coin ruleset in the app: offered on the new-battle screen, and a bundled scenario played
from the keyboard against the computer."""

from __future__ import annotations

import re


from game.core.commands import Attack, Move
from game.core.events import AttackResolved
from game.core.queries import unit_info
from game.rulesets import new_battle
from game.ui.match import Match
from game.ui.screens.battle import BattleScreen
from game.ui.screens.new_battle import NewBattle
from tests.rulesets.coin import CoinRuleset
from tests.rulesets.helpers import SCENARIO
from tests.ui.ui_helpers import at_my_turn, make_app, screen_text, seats_for, wait_until

SEED = 4
MIN_TURNS = 3              # the person's turns played from the keyboard, at least ...
TURNS = 8                  # ... and at most, until one of them has fired


async def open_new_battle(app, pilot, library) -> NewBattle:
    """Main menu -> New battle, with `library` as the app's content, the bundled scenario's file
    typed in."""
    app.library = library
    await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(app.screen, NewBattle))
    path = library.source("scenario", SCENARIO)
    await pilot.press("tab", *path, "enter")
    await pilot.pause()
    return app.screen


async def test_the_new_battle_screen_offers_a_registered_ruleset(coin_library, save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_new_battle(app, pilot, coin_library)
        assert "coin" in [spec.id for spec in screen.rulesets]
        assert "Coin flip" in str(screen.query_one("#ruleset-coin").label)


async def test_a_bundled_scenario_starts_under_coin_from_the_new_battle_screen(
        coin_library, save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_new_battle(app, pilot, coin_library)
        assert not screen.query_one("#ruleset-coin").disabled
        await pilot.click("#ruleset-coin")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, BattleScreen))
        assert app.screen.match.battle.session.setup.ruleset.id == "coin"


async def step_toward_enemy(pilot, screen: BattleScreen) -> None:
    """Put the cursor on the square closest to an enemy in sight (or to where the enemy
    deployed) that leaves an AP for a shot, with the arrow keys, and walk there with Enter."""
    match = screen.match
    here = match.position(match.active_uid)
    keep = unit_info(match.battle, match.active_uid).ap - 1
    squares = [sq for sq in screen.picture.reach.squares()
               if sq != here and screen.picture.reach.cost(sq) <= keep]
    foes = [sq for sq, info in screen.picture.known.items() if info.side != screen.viewer]
    if foes:
        goal = foes[0]
    else:                                   # none in sight: toward where the enemy deployed
        session = match.battle.session
        zone = next(s.zone for s in session.setup.scenario.sides if s.id != screen.viewer)
        goal = min(session.grid.zone_set(zone))
    square = min(squares, key=lambda sq: (max(abs(sq[0] - goal[0]), abs(sq[1] - goal[1])), sq))
    dx, dy = square[0] - screen.cursor[0], square[1] - screen.cursor[1]
    keys = ["right" if dx > 0 else "left"] * abs(dx) + ["down" if dy > 0 else "up"] * abs(dy)
    await pilot.press(*keys, "enter")
    await pilot.pause()


def shot(battle, side: str) -> bool:
    return any(isinstance(cmd, Attack) and cmd.unit.startswith(f"{side}-") for cmd in battle.commands)


async def test_a_bundled_scenario_under_coin_played_from_the_keyboard(coin_setup, save_dir):
    human = coin_setup.scenario.sides[0].id
    match = Match(new_battle(coin_setup, SEED), seats_for(coin_setup, {human}, level="easy"))
    battle = match.battle
    assert isinstance(battle.session.rules, CoinRuleset)
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await at_my_turn(app, pilot, match)
        assert re.search(r"HP +3/3", screen_text(app))          # the coin ruleset's 3 HP
        turns = 0
        while turns < TURNS and not match.over and (turns < MIN_TURNS or not shot(battle, human)):
            await wait_until(pilot, lambda: screen.my_turn() or match.over)
            if match.over:
                break
            turns += 1
            uid, before = match.active_uid, len(battle.commands)
            await step_toward_enemy(pilot, screen)                      # move
            assert battle.commands[before] == Move(uid, battle.commands[before].path)
            if match.active_uid == uid and screen.my_turn():
                await pilot.press("f", "f")                             # attack, if in sight
            if match.active_uid == uid and screen.my_turn():
                await pilot.press("e")                                  # end the turn
        await wait_until(pilot, lambda: screen.my_turn() or match.over)

        assert turns >= MIN_TURNS or match.over
        mine = [cmd for cmd in battle.commands if cmd.unit.startswith(f"{human}-")]
        theirs = [cmd for cmd in battle.commands if not cmd.unit.startswith(f"{human}-")]
        assert any(isinstance(cmd, Attack) for cmd in mine), "the person never got a shot"
        assert any(isinstance(cmd, (Attack, Move)) for cmd in theirs), "the computer never played"
        attacks = [e for e in match.history if isinstance(e, AttackResolved)]
        told = [match.tell(e) for e in attacks if e.attacker.startswith(f"{human}-")]
        assert told and all("the coin shows" in line for line in told)
        log = "".join(strip.text for strip in screen.query_one("#log").lines)
        def squeeze(text: str) -> str:
            return "".join(text.split())       # the log wraps its lines

        assert all(squeeze(line) in squeeze(log) for line in told)
