"""The side panel's cards, as text: each line fits the panel."""

from __future__ import annotations

from game.core.queries import unit_info
from game.ui.cards import CARD_WIDTH, unit_card
from tests.ui.ui_helpers import DUEL, new_match


def test_a_long_weapon_name_puts_the_ammunition_on_its_own_line():
    match = new_match("eclipse1_depot", 1, {"alpha"})
    battle = match.battle
    marksman = next(uid for uid, unit in battle.session.units() if unit.name == "Marksman")
    info = unit_info(battle, marksman)
    lines = unit_card(match, info, own=True).plain.splitlines()
    assert info.weapon_name in lines and f"  {info.ammo}/{info.magazine} +{info.spare} mag" in lines
    assert all(len(line) <= CARD_WIDTH for line in lines)
    short = new_match(DUEL, 1, {"blue"})
    info = unit_info(short.battle, "blue-1")
    lines = unit_card(short, info, own=True).plain.splitlines()
    assert f"{info.weapon_name} {info.ammo}/{info.magazine} +{info.spare} mag" in lines
