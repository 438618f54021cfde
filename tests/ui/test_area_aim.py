"""Grenades and suppressive fire are aimed before they are spent: the card's numbers are the
engine's exact odds, friends in the area ask first, bad squares are refused with the reason;
Escape leaves the cursor where it is; revive shows its odds."""

from __future__ import annotations

from game.content.schema import WeaponSpec
from game.core import components as c
from game.core.commands import Revive, Suppress, Throw
from game.core.queries import preview_suppress, preview_throw, revive_odds
from game.core.ruleset import SuppressOdds, ThrowOdds
from game.rulesets import new_battle
from game.ui.match import Match
from game.ui.screens.dialogs import Choice
from tests.core.builders import setup, unit
from tests.ui.ui_helpers import at_my_turn, make_app, seats_for, wait_until

INCENDIARY = WeaponSpec(id="incendiary_grenade", name="Incendiary grenade", kind="grenade",
                        skill="demolitions", damage="3d12", damage_type="thermal", range=15,
                        modes=[{"name": "throw", "ap": 4}])
ROWS = ["..............",
        "..............",
        "..........####",
        "..........#..#",
        "..........####",
        ".............."]
SIZE = (120, 40)


def match_with(friend_at=(9, 1), *, fallen: bool = False, heal: int = 12) -> Match:
    lead = unit("lead", agility=9, demolitions=3, weapons=("lmg",), hp=40, heal=heal,
                abilities={"suppressive_fire": 1},
                grenades={"he_grenade": 2, "incendiary_grenade": 1})
    placements = {"us": [(lead, (1, 1)), (unit("friend", hp=12), friend_at)],
                  "them": [(unit("foe", hp=15), (8, 1)), (unit("hidden"), (12, 3))]}
    s = setup(ROWS, placements, ambush="us")
    s = s.model_copy(update={"weapons": [*s.weapons, INCENDIARY]})
    battle = new_battle(s, 3)
    if fallen:
        health = battle.session.get("us-2", c.Health)
        health.hp, health.state = 0, "unconscious"
    return Match(battle, seats_for(s, {"us"}))


def told(app, words: str) -> bool:
    return any(words in n.message for n in app._notifications)


def spent(match: Match) -> tuple:
    s = match.battle.session
    return (len(match.battle.commands), s.get("us-1", c.ActionPoints).current,
            dict(s.get("us-1", c.Loadout).grenades))


def pct(p: float) -> str:
    return f"{p * 100:.0f}%"


async def test_the_throw_card_shows_the_engines_exact_odds_and_m_picks_the_incendiary(save_dir):
    app, match = make_app(save_dir), match_with(friend_at=(0, 5))
    async with app.run_test(size=SIZE) as pilot:
        screen = await at_my_turn(app, pilot, match)
        assert match.active_uid == "us-1"
        screen.move_cursor_to((8, 2))
        await pilot.press("g")
        card = str(screen.area_card.card)
        odds = preview_throw(match.battle, "us-1", "he_grenade", (8, 2))
        assert isinstance(odds, ThrowOdds)
        assert "HE grenade" in card and "(2 kinds)" in card
        assert f"Lands there {pct(dict(odds.landings)[(8, 2)])}" in card
        assert {h.uid for h in odds.harms} == {"us-1", "them-1"}   # a short scatter
        for harm in odds.harms:                                             # reaches the thrower
            assert match.name(harm.uid) in card
            assert f"caught {pct(harm.caught)}  dmg {harm.expected_damage:.1f}" in card
            assert f"down {pct(harm.down)}" in card
        assert "Hidden" not in card                      # an enemy the side does not see
        tints = screen.map.scene.tints
        for square, ring in odds.rings.items():
            assert tints[square] == ("aim_blast" if ring % 2 == 0 else "aim_blast_odd")
        assert all(tints[sq] == "aim_landing" for sq, _ in odds.landings if sq not in odds.rings)
        assert screen.unit_card.display is False and screen.area_card.display is True

        await pilot.press("m")
        card = str(screen.area_card.card)
        fire = preview_throw(match.battle, "us-1", "incendiary_grenade", (8, 2))
        assert isinstance(fire, ThrowOdds) and "Incendiary grenade" in card
        foe = next(h for h in fire.harms if h.uid == "them-1")
        assert f"caught {pct(foe.caught)}  dmg {foe.expected_damage:.1f}" in card

        screen.move_cursor_to((9, 1))          # no friend within the incendiary's reach
        await pilot.press("g")
        await pilot.pause()
        assert isinstance(match.battle.commands[-1], Throw)
        assert match.battle.commands[-1].grenade == "incendiary_grenade"
        assert match.battle.session.get("us-1", c.Loadout).grenades["incendiary_grenade"] == 0
        assert screen.area is None


async def test_friends_in_the_blast_ask_first_and_cancelling_spends_nothing(save_dir):
    app, match = make_app(save_dir), match_with()
    async with app.run_test(size=SIZE) as pilot:
        screen = await at_my_turn(app, pilot, match)
        screen.move_cursor_to((8, 1))
        before = spent(match)
        await pilot.press("g", "enter")                  # aim, then Enter throws ... after asking
        await wait_until(pilot, lambda: isinstance(app.screen, Choice))
        dialog = app.screen
        assert "Friend" in dialog.body and "caught" in dialog.body
        await pilot.press("enter")                       # Enter presses Cancel, the first
        await wait_until(pilot, lambda: app.screen is screen)
        assert spent(match) == before and screen.area is not None
        await pilot.press("g")
        await wait_until(pilot, lambda: isinstance(app.screen, Choice))
        await pilot.click("#go")
        await wait_until(pilot, lambda: len(match.battle.commands) > before[0])
        assert isinstance(match.battle.commands[-1], Throw)


async def test_a_wall_is_refused_with_the_reason_before_any_ap_is_spent(save_dir):
    app, match = make_app(save_dir), match_with()
    async with app.run_test(size=SIZE) as pilot:
        screen = await at_my_turn(app, pilot, match)
        screen.move_cursor_to((10, 2))
        before = spent(match)
        await pilot.press("g")
        assert "solid" in str(screen.area_card.card)
        await pilot.press("g")
        await pilot.pause()
        assert told(app, "a grenade cannot land in it")
        assert spent(match) == before


async def test_suppression_previews_its_circle_refuses_the_own_square_and_asks_for_friends(save_dir):
    app, match = make_app(save_dir), match_with(friend_at=(8, 0))
    async with app.run_test(size=SIZE) as pilot:
        screen = await at_my_turn(app, pilot, match)
        before = spent(match)
        screen.move_cursor_to((1, 1))                    # its own square
        await pilot.press("x", "x")
        await pilot.pause()
        assert told(app, "cannot suppress the square it stands on")
        assert spent(match) == before

        screen.move_cursor_to((8, 1))
        await pilot.pause()
        odds = preview_suppress(match.battle, "us-1", (8, 1))
        assert isinstance(odds, SuppressOdds)
        card = str(screen.area_card.card)
        assert {h.uid for h in odds.harms} == {"us-2", "them-1"}
        for harm in odds.harms:
            assert f"hit {pct(harm.hit)}  pinned {pct(harm.pinned)}" in card
            assert f"dmg {harm.expected_damage:.1f}  down {pct(harm.down)}" in card
        assert all(screen.map.scene.tints.get(sq) == "aim_area" for sq in odds.area if sq != (8, 1))

        await pilot.press("x")
        await wait_until(pilot, lambda: isinstance(app.screen, Choice))
        assert "Friend" in app.screen.body and "pinned" in app.screen.body
        await pilot.click("#cancel")
        await wait_until(pilot, lambda: app.screen is screen)
        assert spent(match) == before
        await pilot.press("x")
        await wait_until(pilot, lambda: isinstance(app.screen, Choice))
        await pilot.click("#go")
        await wait_until(pilot, lambda: len(match.battle.commands) > before[0])
        assert isinstance(match.battle.commands[-1], Suppress)


async def test_escape_leaves_the_cursor_where_it_is(save_dir):
    app, match = make_app(save_dir), match_with()
    async with app.run_test(size=SIZE) as pilot:
        screen = await at_my_turn(app, pilot, match)
        await pilot.press("tab")
        assert screen.target == "them-1" and screen.cursor == (8, 1)
        await pilot.press("escape")
        assert screen.target is None and screen.cursor == (8, 1)
        await pilot.press("g", "left", "down", "escape")
        assert screen.area is None and screen.cursor == (7, 2)
        assert screen.area_card.display is False and screen.unit_card.display is True


async def test_revive_shows_its_odds_before_acting(save_dir):
    app, match = make_app(save_dir), match_with(friend_at=(2, 2), fallen=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await at_my_turn(app, pilot, match)
        before = spent(match)
        chance, stage = revive_odds(match.battle, "us-1", "us-2")
        assert 0 < chance < 1
        await pilot.press("v")
        await wait_until(pilot, lambda: isinstance(app.screen, Choice))
        assert f"to {stage} Friend succeeds {pct(chance)}" in app.screen.body
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)
        assert spent(match) == before
        await pilot.press("v")
        await wait_until(pilot, lambda: isinstance(app.screen, Choice))
        await pilot.click("#v-go")
        await wait_until(pilot, lambda: len(match.battle.commands) > before[0])
        assert isinstance(match.battle.commands[-1], Revive)


async def test_first_aid_that_cannot_succeed_says_so_and_spends_nothing(save_dir):
    app, match = make_app(save_dir), match_with(friend_at=(2, 2), fallen=True, heal=0)
    async with app.run_test(size=SIZE) as pilot:
        screen = await at_my_turn(app, pilot, match)
        before = spent(match)
        assert revive_odds(match.battle, "us-1", "us-2") == (0.0, "stabilize")
        await pilot.press("v")
        await wait_until(pilot, lambda: told(app, "Heal check cannot succeed"))
        assert app.screen is screen and spent(match) == before
