"""The action bar lists overwatch and suppressive fire only for a unit with the ability, and
`x` for a unit without it says why without starting to aim."""

from __future__ import annotations

from game.content.loader import load_setup
from game.rulesets import new_battle
from game.ui.actions import action_items
from game.ui.match import Match
from tests.ui.ui_helpers import DUEL, at_my_turn, make_app, new_match, screen_text, seats_for


def keys_of(unit: str) -> dict[str, str]:
    setup = load_setup("depot")
    with new_battle(setup, 1) as battle:
        match = Match(battle, seats_for(setup, {"alpha"}))
        uid = next(uid for uid, u in battle.session.units() if u.name == unit)
        items = action_items(match, uid, move_cost=None, mode=None, aim=0, has_target=False,
                             revive_target=False)
        return {item.key: item.label for item in items}


def test_only_a_unit_with_the_ability_is_offered_it():
    assert keys_of("Rifleman")["o"] == "overwatch" and "x" not in keys_of("Rifleman")
    assert keys_of("Gunner")["x"] == "suppress" and "o" not in keys_of("Gunner")
    grenadier = keys_of("Grenadier")
    assert "o" not in grenadier and "x" not in grenadier
    assert grenadier["g"].startswith("throw")                  # grenades still listed


async def test_x_without_the_ability_is_refused_and_aims_nothing(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(110, 32)) as pilot:
        match = new_match(DUEL, 2, {"blue"})
        screen = await at_my_turn(app, pilot, match)
        bar = str(screen.action_bar.render())
        assert "suppress" not in bar and "overwatch" not in bar
        await pilot.press("x")
        await pilot.pause()
        assert screen.area is None
        assert any("does not have the Suppressive Fire ability" in n.message
                   for n in app._notifications)
        assert "Move the cursor" not in screen_text(app)
    match.close()
