"""The action bar's items, as the unit card's player reads them."""

from __future__ import annotations

from game.content.loader import load_setup
from game.core import components as c
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


def d20_items(unit: str, mode: str | None = None):
    setup = load_setup("d20_depot")
    battle = new_battle(setup, 1)
    match = Match(battle, seats_for(setup, {"jensen"}))
    uid = next(uid for uid, u in battle.session.units() if u.name == unit)
    items = action_items(match, uid, move_cost=None, mode=mode, aim=0, has_target=True,
                         revive_target=False)
    weapon = battle.session.weapons[battle.session.get(uid, c.Loadout).current.weapon]
    battle.close()
    return items, [m.name for m in weapon.modes]


def test_d20_modes_have_human_names_and_one_key_each():
    items, modes = d20_items("Hollis")
    assert len(modes) > 2 and any("_" in m for m in modes)     # all_out, full_auto ...
    keys = [item.key for item in items]
    assert len(keys) == len(set(keys)), keys
    assert not any("_" in item.label for item in items), [i.label for i in items]
    fire = next(item for item in items if item.key == "f")
    cycle = next(item for item in items if item.key == "m")
    assert fire.label == f"fire {modes[0].replace('_', ' ')}"
    assert cycle.label == f"mode: {modes[1].replace('_', ' ')}"
    # m cycles: from the last mode it comes back to the first
    items, _ = d20_items("Hollis", modes[-1])
    assert next(i for i in items if i.key == "f").label == f"fire {modes[-1].replace('_', ' ')}"
    assert next(i for i in items if i.key == "m").label == f"mode: {modes[0].replace('_', ' ')}"
