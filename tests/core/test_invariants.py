"""Random legal and illegal commands never break the battle's invariants."""

from __future__ import annotations

import esper
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from game.core import components as c
from game.core.commands import (Attack, ChangeStance, Draw, EndTurn, Move, Reload, Revive,
                                SetOverwatch, Suppress, Throw)
from game.rulesets import new_battle
from game.core.events import Refused
from tests.core.builders import setup, unit

ROWS = ["..........",
        "..=....,..",
        "...#..H...",
        ".,....=...",
        "....#.....",
        "......,,.."]
SQUARES = st.tuples(st.integers(-1, 10), st.integers(-1, 6))


def squad(prefix: str, xs: list[int], y: int):
    kinds = [dict(weapons=("rifle", "knife"), abilities={"overwatch": 1}, grenades={"he_grenade": 2}),
             dict(weapons=("lmg",), abilities={"suppressive_fire": 2}, heal=20, ap=16,
                  grenades={"he_grenade": 1}),
             dict(weapons=("smg",), armor="light", hp=8)]
    return [(unit(f"{prefix}{i}", **kinds[i % 3]), (x, y)) for i, x in enumerate(xs)]


class BattleMachine(RuleBasedStateMachine):
    @initialize(seed=st.integers(0, 2**16))
    def start(self, seed: int) -> None:
        self.battle = new_battle(setup(ROWS, {"red": squad("r", [0, 2, 4], 0), "blue": squad("b", [3, 6, 9], 5)}),
                             seed)
        self.uids = list(self.battle.session.entities)

    def teardown(self) -> None:
        if hasattr(self, "battle"):
            self.battle.close()

    def _send(self, make) -> None:
        s = self.battle.session
        actor = s.active
        if actor is None:
            return
        before = self.battle.digest()
        result = self.battle.submit(make(actor))
        if isinstance(result, Refused):
            assert result.reason and self.battle.digest() == before, "a refused command changed the battle"
        else:
            assert s.active is None or s.active != actor or s.get(actor, c.ActionPoints).current > 0

    @rule(path=st.lists(SQUARES, min_size=1, max_size=5))
    def move(self, path):
        self._send(lambda u: Move(u, tuple(path)))

    @rule(data=st.data())
    def walk_somewhere(self, data):
        from game.core.queries import reach
        s = self.battle.session
        if s.active is None:
            return
        options = sorted(reach(self.battle, s.active).squares())
        if options:
            target = data.draw(st.sampled_from(options))
            self._send(lambda u: Move(u, tuple(reach(self.battle, u).path_to(target))))

    @rule(data=st.data())
    def attack_someone_in_sight(self, data):
        from game.core.queries import preview_attack
        s = self.battle.session
        if s.active is None:
            return
        options = [u for u in self.uids if not isinstance(preview_attack(self.battle, s.active, u), Refused)]
        if options:
            victim = data.draw(st.sampled_from(options))
            mode = data.draw(st.sampled_from([None, "burst", "single", "unarmed"]))
            aim = data.draw(st.integers(0, 6))
            self._send(lambda u: Attack(u, victim, mode, "torso", aim))

    @rule(data=st.data())
    def throw_near_an_enemy(self, data):
        s = self.battle.session
        if s.active is None:
            return
        side = s.side_of(s.active)
        spots = sorted(s.position(u) for u in self.uids
                       if s.position(u) is not None and s.side_of(u) != side and s.sees(side, s.position(u)))
        if spots:
            x, y = data.draw(st.sampled_from(spots))
            dx, dy = data.draw(st.integers(-2, 2)), data.draw(st.integers(-2, 2))
            self._send(lambda u: Throw(u, (x + dx, y + dy), "he_grenade"))

    @rule()
    def revive_a_neighbour(self):
        s = self.battle.session
        if s.active is None:
            return
        here = s.position(s.active)
        for other in self.uids:
            there = s.position(other)
            if there and other != s.active and max(abs(there[0] - here[0]), abs(there[1] - here[1])) == 1:
                self._send(lambda u, other=other: Revive(u, other))

    @rule(victim=st.integers(0, 5), mode=st.sampled_from([None, "single", "burst", "strike", "unarmed", "x"]),
          location=st.sampled_from(["torso", "head", "leg", "tail"]), aim=st.integers(-1, 7))
    def attack(self, victim, mode, location, aim):
        self._send(lambda u: Attack(u, self.uids[victim], mode, location, aim))

    @rule(stance=st.sampled_from(["stand", "crouch", "prone", "fly"]), drop=st.booleans())
    def stance(self, stance, drop):
        self._send(lambda u: ChangeStance(u, stance, drop))

    @rule(square=SQUARES)
    def overwatch(self, square):
        self._send(lambda u: SetOverwatch(u, square))

    @rule(square=SQUARES)
    def suppress(self, square):
        self._send(lambda u: Suppress(u, square))

    @rule(square=SQUARES, grenade=st.sampled_from(["he_grenade", "rock"]))
    def throw(self, square, grenade):
        self._send(lambda u: Throw(u, square, grenade))

    @rule()
    def reload(self):
        self._send(Reload)

    @rule(index=st.integers(-1, 2))
    def draw(self, index):
        self._send(lambda u: Draw(u, index))

    @rule(patient=st.integers(0, 5))
    def revive(self, patient):
        self._send(lambda u: Revive(u, self.uids[patient]))

    @rule()
    def end_turn(self):
        self._send(EndTurn)

    @invariant()
    def consistent(self):
        s = self.battle.session
        s.use()
        squares = [(p.x, p.y) for _, p in esper.get_component(c.Position)]
        assert len(squares) == len(set(squares)), "two units share a square"
        for uid, entity in s.entities.items():
            ap = esper.component_for_entity(entity, c.ActionPoints)
            health = esper.component_for_entity(entity, c.Health)
            assert 0 <= ap.current <= ap.per_turn and ap.debt >= 0
            assert health.hp <= health.max_hp
            assert health.state == s.rules.state_for(health.hp, health.constitution) or (
                health.state == "unconscious" and health.stabilized), (uid, health)
            if health.state == "dead":
                assert s.position(uid) is None
            else:
                pos = s.position(uid)
                assert pos is not None and s.grid.walkable[pos[1], pos[0]]
        if s.active is not None:
            assert s.is_up(s.active), "a downed unit has the turn"
        for pool in s.morale.values():
            assert pool.current >= 0
        for sight in s.sight.values():
            assert (sight.count >= 0).all()


BattleMachine.TestCase.settings = settings(max_examples=80, stateful_step_count=50, deadline=None,
                                           suppress_health_check=[HealthCheck.too_slow])
test_battle_invariants = pytest.mark.slow(BattleMachine.TestCase)
