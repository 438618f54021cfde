"""The action bar's items, as the unit card's player reads them."""

from __future__ import annotations

from game.content.loader import load_setup
from game.rulesets import new_battle
from game.ui.actions import action_items
from game.ui.match import Match
from tests.ui.ui_helpers import seats_for


def draw_label(unit: str) -> str:
    setup = load_setup("d20_depot")
    with new_battle(setup, 1) as battle:
        match = Match(battle, seats_for(setup, {"jensen"}))
        uid = next(uid for uid, u in battle.session.units() if u.name == unit)
        items = action_items(match, uid, move_cost=None, mode=None, aim=0, has_target=False,
                             revive_target=False)
        return next(item.label for item in items if item.key == "w")


def test_draw_names_the_weapon_it_draws():
    assert draw_label("Breacher") == "draw E&S '63 Custom"       # not "draw custom"
    assert draw_label("Hollis") == "draw Combat knife"
