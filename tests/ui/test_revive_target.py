"""The revive key aims at a fallen ally the engine says can be revived: next to the unit."""

from __future__ import annotations

from types import SimpleNamespace

from game.core import components as c
from game.core.queries import revivable, unit_info
from game.rulesets import new_battle
from game.ui.match import Match
from game.ui.picture import revive_target
from tests.core.builders import setup, unit
from tests.ui.ui_helpers import seats_for

ROWS = ["........"] * 3


def fallen(battle, uid: str) -> None:
    health = battle.session.get(uid, c.Health)
    health.hp, health.state = 0, "unconscious"


def test_the_revive_target_is_a_fallen_ally_next_to_the_unit():
    medic, near, far = unit("medic", agility=9), unit("near"), unit("far")   # the medic acts first
    placements = {"us": [(medic, (1, 1)), (near, (2, 2)), (far, (5, 1))],
                  "them": [(unit("foe"), (7, 2))]}
    battle_setup = setup(ROWS, placements, ambush="us")
    with new_battle(battle_setup, 1) as battle:
        match = Match(battle, seats_for(battle_setup, {"us"}))
        active = battle.session.active
        assert active == "us-1"
        assert revivable(battle, active) == []
        fallen(battle, "us-2")
        fallen(battle, "us-3")
        assert revivable(battle, active) == ["us-2"]              # "far" is three squares off

        known = {info.square: info for info in (unit_info(battle, uid) for uid in ("us-2", "us-3"))}
        picture = SimpleNamespace(viewer="us", known=known)       # what the screen knows
        assert revive_target(match, picture, (5, 1)) == "us-2"    # the cursor on "far"
        assert revive_target(match, picture, (2, 2)) == "us-2"
