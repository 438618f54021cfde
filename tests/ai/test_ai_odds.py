"""The odds the tactical player computes for other squares agree with `preview_attack`."""

from __future__ import annotations

import pytest

from game.ai import odds
from game.ai.assess import Assessor
from game.ai.intel import Intel
from game.rulesets import new_battle
from game.core.queries import preview_attack
from tests.ai.ai_helpers import end_turns_until
from tests.core.builders import setup, unit

ROWS = ["................",
        "........=.......",
        "................"]


@pytest.mark.parametrize("weapon, stance_aim", [("rifle", 0), ("smg", 2), ("pistol", 4)])
def test_totals_and_expected_damage_match_the_preview(weapon, stance_aim):
    shooter = unit("shooter", weapons=(weapon,), aim=6, dexterity=1)
    target = unit("target", weapons=("rifle",), hp=200, armor="light", dodge=5, agility=1)
    with new_battle(setup(ROWS, {"us": [(shooter, (2, 1))], "them": [(target, (10, 1))]}, ambush="us"), 1) as b:
        end_turns_until(b, "us-1")
        a = Assessor(b)
        picture = Intel("us").update(b)
        me, foe = picture.me, picture.foes[0]
        gun = a.gun(me)
        cover = b.session.grid.cover_against(foe.square, me.square)
        attack = a.attack_total(me, me.info.stance, False, False)
        defense = a.defense_total(foe, cover)
        for mode, _, rof in gun.modes:
            for location, modifier, multiplier in a.locations.items:
                preview = preview_attack(b, "us-1", "them-1", mode, location, stance_aim)
                assert attack + stance_aim + modifier == sum(v for _, v in preview.attack_modifiers)
                assert defense == sum(v for _, v in preview.defense_modifiers)
                hits = tuple(a.rules.hit_distribution(attack + stance_aim + modifier, defense,
                                                      gun.spread, rof))
                expected, _ = odds.repeated(hits, gun.damage, multiplier,
                                            foe.armor.get(gun.damage_type, 0), 200, 1)
                assert expected == pytest.approx(preview.expected_damage, rel=1e-9)


def test_more_shots_put_a_target_down_more_often():
    hits = (0.4, 0.6)
    one = odds.repeated(hits, "3d8", 1.0, 3, 20, 1)
    three = odds.repeated(hits, "3d8", 1.0, 3, 20, 3)
    assert 0 <= one[1] < three[1] <= 1
    assert one[0] < three[0] <= 20
