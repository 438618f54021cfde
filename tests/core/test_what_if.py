"""A computer player's "what if" is asked of a copy: the battle itself never changes."""

from __future__ import annotations

from game.content.loader import load_setup
from game.core import components as c
from game.core.queries import declaring, preview_attack, standing_at
from game.core.events import Refused
from game.rulesets import new_battle


def test_standing_elsewhere_answers_for_there_and_leaves_the_battle_alone():
    with new_battle(load_setup("eclipse2_alley"), 1) as battle:
        s = battle.session
        me = s.active
        here = s.position(me)
        enemy = next(uid for uid, unit in s.units() if unit.side != s.side_of(me))
        there = s.position(enemy)
        left = (there[0] - 1, there[1])
        beside = left if s.grid.walkable[left[1], left[0]] else (there[0] + 1, there[1])
        before = battle.digest()
        with standing_at(battle, me, beside, full_move=True) as what_if:
            assert what_if.session.position(me) == beside
            assert what_if.session.get(me, c.Tempo).full_move is True
            assert s.position(me) == here                     # the battle is where it was
            assert s.get(me, c.Tempo).full_move is False
            preview = preview_attack(what_if, me, enemy)
            assert battle.digest() == before
        assert not isinstance(preview, Refused)
        assert battle.digest() == before


def test_declaring_answers_for_the_actions_and_leaves_the_battle_alone():
    with new_battle(load_setup("opend6_alley"), 1) as battle:
        s = battle.session
        me = s.active
        ap = s.get(me, c.ActionPoints).current
        before = battle.digest()
        with declaring(battle, me, 3) as what_if:
            assert what_if.session.get(me, c.Tempo).actions == 3
            assert what_if.session.get(me, c.ActionPoints).current == 3
            assert s.get(me, c.ActionPoints).current == ap
            assert battle.digest() == before
