"""The computer player under the tabletop rulesets (Eclipse Phase, OpenD6, d20).

The tactical player's own odds machinery speaks skirmish; under the other rulesets this player
weighs its options through the engine's queries alone: the exact odds of every attack
(`preview_attack`), asked as if the unit stood on each square it considers (`standing_at`),
where it can walk and at what price (`reach`), and what each action costs (`action_costs`). It
sees only what its side sees.

A turn: pick the square that best trades the attack it gets from there against the fire it
will take there (the enemies' exact odds against it, on that square), walk there, make the
attack worth most for the target's remaining health and the harm the target can do (wounded
enemies are finished first, the most dangerous hit hardest), and spend any movement left on the
safest square. Under OpenD6, when it will only shoot, it declares as many actions as its shots
are worth at their -1D each (one on a nearly dead enemy). Ways of firing that would empty its
last magazine within two turns (a d20 full auto) count for the share of them they last. As
the round limit nears it fears less and closes in, as under skirmish (`goals.lateness`).
With nothing in sight it advances as the simple player, but never back to the square its turn
began on (walking off and back is pacing, not a plan).

The objectives (`game.ai.aims`) weigh in with enemies in sight too: a unit whose side scores or
wins by standing in a zone walks in when it can this turn; the zone to get to or to contest
pulls every square it weighs (the nearest enemy no longer does), the zone to guard holds it
within GUARD_SQUARES; at `hard` (`Level.objectives`) the enemy an objective names is worth
TARGET_WORTH times as much and the unit the side must keep fears harm PRECIOUS times as much.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import numpy as np

from game.ai import geometry as geo
from game.ai import memory as m
from game.ai.aims import NOTHING, TARGET_WORTH, Aims, weighed_aims
from game.ai.goals import CALM, HURRY, PRECIOUS, lateness
from game.ai.levels import Level
from game.ai.simple import MIN_VALUE, SimplePlayer, walking_distances
from game.core.commands import Attack, Command, Declare, Defend, EndTurn, Move
from game.core.engine import Battle
from game.core.events import Refused
from game.core.queries import (AttackPreview, Sighting, UnitInfo, action_costs, declaring, extra_actions,
                               floor_items, full_move_beyond, opportunity_attacks, preview_attack, reach,
                               standing_at, unit_info)

Square = tuple[int, int]
EXPOSED = {"none": 1.0, "half": 0.55, "full": 0.3}   # a cheap first guess of the fire let through
KILL_BONUS = 0.5          # a likely kill is worth this share of the target over its damage
THREAT = 0.8              # how much the fire it will take weighs against what it deals
APPROACH = 0.02           # per square of walk to the nearest enemy: hiding far off is no plan
WORTH_RANGE = (0.5, 2.0)  # how far an enemy's harm moves the worth of hitting it
WORTHLESS = 0.01          # an attack worth less than this share of the target per AP, and
                          # less damage than the simple player shoots for, is not made
FIGHT_TURNS = 2           # turns ahead a way of firing should leave the unit rounds for
AIM_BELOW = 0.2           # OpenD6: a shot less likely than this is worth a round of aim ...
AIM_DANGER = 0.05         # ... if the enemies in sight expect to take less than this share of it meanwhile
POINT_CHANCE = (0.3, 0.7)  # a Character Point goes on a shot whose chance is in this band
SHORTLIST = 10            # squares weighed by exact odds (after a cheap first sort)
HIGH_GROUND = 0.5         # the first sort's guess of standing above an enemy (superior position)
ZONE_PULL = 0.06          # per square walked toward the zone the objectives send it to
ZONE_SCORES = 3.0         # standing where its side scores or wins at once (reach, extract)
GUARD_SQUARES = 6         # a defender of the zone the enemy must reach stays this close to it
KIT_KEYS = ("R", "T", "U")  # d20: unjam, pick up an item, use one (game/rulesets/d20/kit.py)
ZONE_SQUARES = 3          # squares nearest the zone added to those weighed by exact odds


class TabletopPlayer:
    def __init__(self, side: str, seed: int, level: Level) -> None:
        self.side = side
        self.level = level
        self.rng = random.Random(seed)
        self.scout = SimplePlayer(side, seed)     # memory of enemies, reloads, defenses, blades
        self._turn: tuple[int, str] | None = None
        self._moved = False
        self._attacked = False
        self._after = False
        self._start: Square | None = None     # where the unit began its turn
        self._worth: dict[str, float] = {}    # enemy uid -> how much harm it does, by the mean
        self._aims: Aims = NOTHING            # what the objectives ask, read afresh each command

    def memory(self) -> dict[str, Any]:
        """What it carries between commands, as JSON data (see game.ai.memory)."""
        return {"kind": "tabletop", "rng": m.rng_to(self.rng), "scout": self.scout.memory(),
                "turn": m.turn_to(self._turn), "moved": self._moved, "attacked": self._attacked,
                "after": self._after, "start": m.square_to(self._start),
                "worth": [[uid, value] for uid, value in self._worth.items()]}

    def restore(self, memory: Any, battle: Battle | None = None) -> None:
        """Take back what `memory()` gave; ValueError (and nothing changed) if it does not fit."""
        data = m.as_dict(memory, "memory")
        m.need(data.get("kind") == "tabletop", "kind")
        scout = SimplePlayer(self.side)
        scout.restore(data.get("scout"), battle)
        rng = m.rng_from(data.get("rng"))
        turn = m.turn_from(data.get("turn"))
        flags = [m.as_bool(data.get(key), key) for key in ("moved", "attacked", "after")]
        start = m.square_from(data.get("start"), "start", optional=True)
        worth: dict[str, float] = {}
        for item in m.as_list(data.get("worth"), "worth"):
            pair = m.as_list(item, "worth")
            m.need(len(pair) == 2, "worth")
            worth[m.as_str(pair[0], "worth")] = m.as_float(pair[1], "worth")
        self.rng, self.scout, self._turn, self._start, self._worth = rng, scout, turn, start, worth
        self._moved, self._attacked, self._after = flags

    # --- the turn -----------------------------------------------------------------------------

    def next_command(self, battle: Battle) -> Command:
        s = battle.session
        uid = s.active
        if uid is None:
            return EndTurn("")
        if self._turn != (s.round, uid):
            self._turn, self._moved, self._attacked, self._after = (s.round, uid), False, False, False
            self._start = s.position(uid)
        me = unit_info(battle, uid)
        if me.state != "ok":
            return EndTurn(uid)
        self._aims = weighed_aims(battle, self.side, self.level.objectives)
        kit = self._kit(battle, me) or self._fetch(battle, me)
        if kit is not None:
            return kit
        blade = self.scout._blade(battle, me)       # a dry gun: the knife, if it carries one
        if blade is not None:
            return blade
        enemies = self.scout._enemies(battle)
        if not enemies:
            return self.scout.next_command(battle)    # advance, or search, as `simple` does
        self._worth = self._worth_of(battle, enemies) if self.level.lookahead else {}
        if not self._moved:
            finish = self._finish(battle, me)
            if finish is not None:
                self._moved = True
                return finish
        shot = self._best_attack(battle, me, enemies)
        if shot is not None and not self._moved and not self._attacked and self.level.tactics:
            aim = self._aim(battle, me, enemies, shot)
            if aim is not None:
                self._moved = True                     # an aim in hand is lost by moving first
                if not isinstance(aim, Declare):
                    self._attacked = True
                return aim
        if shot is not None and not self._attacked and self.level.tactics:
            point = self._point(battle, me, shot)
            if point is not None:
                return point
        if not self._moved and not self._attacked:
            self._moved = True
            # With a shot from here it shoots first (then finds cover with what movement is
            # left). Under OpenD6 it weighs moving first: staying to shoot is one action only.
            declares = "declared_actions" in battle.session.rules.supports
            if declares or shot is None or self._higher_ground_near(battle, me):
                best = self._best_square(battle, me, enemies, shooting=True)
                move = None if best in (None, me.square) else self._walk(battle, me, best)
                away = self._disengage(battle, me, move) if move is not None else None
                if away is not None:
                    self._moved = False           # then walk, with what is left
                    return away
                if move is not None:
                    return move
                if declares and shot is not None and me.ap == me.ap_per_turn > 1:
                    # one action, no multi-action penalty on the shot; or, with tactics, as
                    # many shots as are worth their -1D each
                    actions = self._actions(battle, me, enemies) if self.level.tactics else 1
                    return Declare(uid, actions)
        if shot is not None:
            self._attacked = True
            return shot
        if self._attacked and not self._after and (self.level.lookahead or self._goal(battle)):
            self._after = True
            move = self._reposition(battle, me, enemies, shooting=False)
            if move is not None:
                return move
        fallback = self.scout.next_command(battle)   # no shot from anywhere near: close in
        if isinstance(fallback, Move) and (self._attacked or fallback.path[-1:] == (self._start,)):
            return EndTurn(uid)           # not back to where the turn began: that is pacing
        return fallback

    def _kit(self, battle: Battle, me: UnitInfo) -> Command | None:
        """d20's Combat Actions where the content gives them something to do: clear a jammed
        weapon in hand as soon as the turn has the Actions for it; with no enemy in sight,
        pick up an item in reach and use what it carries (a medical kit only when hurt: the
        engine refuses one on an unhurt unit)."""
        offered = {e.key: e for e in extra_actions(battle, me.uid) if e.key in KIT_KEYS}
        if not offered:
            return None
        unjam = offered.get("R")
        if unjam is not None and unjam.command is not None:
            return unjam.command
        if self.scout._enemies(battle):
            return None
        for key in ("U", "T"):
            found = offered.get(key)
            if found is not None and found.command is not None:
                return found.command
        return None

    def _fetch(self, battle: Battle, me: UnitInfo) -> Command | None:
        """d20: with no enemy in sight, walk next to an item the side has seen lying within
        this turn's reach, keeping an Action to pick it up."""
        items = floor_items(battle, self.side)
        if not items or me.stance == "prone" or self.scout._enemies(battle):
            return None
        area = reach(battle, me.uid)
        near = [(cost, square) for item in items
                for square in ((item.at[0] + dx, item.at[1] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1))
                if (cost := area.cost(square)) is not None and cost < me.ap]
        if not near or any(square == me.square for _, square in near):
            return None
        return self._walk(battle, me, min(near)[1])

    def _aim(self, battle: Battle, me: UnitInfo, enemies: list[Sighting], shot: Attack) -> Command | None:
        """OpenD6: a round of aim (+1D on the next shot, to +3D) when the shot is a long one and
        the enemies in sight can do it little harm meanwhile."""
        offered = {e.key: e for e in extra_actions(battle, me.uid, shot.target)}
        aim = offered.get("a")
        if aim is None:
            return None
        preview = preview_attack(battle, me.uid, shot.target, shot.mode)
        if isinstance(preview, Refused):
            return None
        in_hand = any(name == "aim D" for name, _ in preview.attack_modifiers)
        if in_hand and (preview.hit_chance >= AIM_BELOW or aim.command is None):
            # the aim is in hand: shoot from here, one action, no multi-action penalty
            return Declare(me.uid, 1) if me.ap == me.ap_per_turn > 1 else shot
        if aim.command is None:
            return None
        if preview.hit_chance >= AIM_BELOW or self._danger(battle, me, enemies) > AIM_DANGER:
            return None
        return aim.command

    def _point(self, battle: Battle, me: UnitInfo, shot: Attack) -> Command | None:
        """OpenD6: a Character Point on a shot whose chance a die moves most (neither sure nor
        hopeless), at a target that does harm at least as much as the others."""
        point = {e.key: e for e in extra_actions(battle, me.uid)}.get("b")
        if point is None or point.command is None or me.ap < 1:
            return None
        preview = preview_attack(battle, me.uid, shot.target, shot.mode)
        if isinstance(preview, Refused) or not POINT_CHANCE[0] <= preview.hit_chance <= POINT_CHANCE[1]:
            return None
        if self._worth.get(shot.target, 1.0) < 1.0:
            return None
        return point.command

    def _higher_ground_near(self, battle: Battle, me: UnitInfo) -> bool:
        """Whether ground higher than its own is within its free move (a superior position to
        shoot from): then it weighs walking there before its shot, by the exact odds."""
        if not self.level.lookahead:
            return False
        s = battle.session
        heights = {t.id: t.elevation for t in s.setup.terrain}
        if not any(heights.values()):
            return False
        here = heights.get(s.grid.terrain_at(*me.square), 0)
        xs, ys, prices = reach(battle, me.uid).arrays()
        return any(heights.get(s.grid.terrain_at(x, y), 0) > here
                   for x, y, price in zip(xs.tolist(), ys.tolist(), prices.tolist(), strict=True)
                   if price == 0)

    def _actions(self, battle: Battle, me: UnitInfo, enemies: list[Sighting]) -> int:
        """OpenD6: how many actions to declare for shooting from where it stands: each shot
        goes where it is worth most for what the shots before it are expected to have left."""
        best, best_value = 1, 0.0
        for actions in range(1, battle.session.rules.max_actions + 1):
            with declaring(battle, me.uid, actions) as what_if:
                odds = {}
                for enemy in enemies:
                    for name in self._modes(what_if, me):
                        preview = preview_attack(what_if, me.uid, enemy.uid, name)
                        if not isinstance(preview, Refused) and preview.ap_cost == 1:
                            odds.setdefault(enemy.uid, []).append(preview)
            left = {e.uid: e for e in enemies}
            total = 0.0
            for _ in range(actions):
                options = [(self._attack_value(p, left[uid]), uid, p)
                           for uid, previews in odds.items() if left[uid].hp > 0 for p in previews]
                if not options:
                    break
                value, uid, preview = max(options, key=lambda o: o[0])
                total += value
                left[uid] = replace(left[uid], hp=int(left[uid].hp - preview.expected_damage))
            if total > best_value + 0.05:
                best, best_value = actions, total
        return best

    # --- attacks ------------------------------------------------------------------------------

    def _attack_value(self, preview, enemy: Sighting) -> float:
        """Damage as a share of what the target has left, a likely kill worth more (the chance
        of enough hits to put it down), weighed by the harm the target does."""
        left = max(1, enemy.hp)
        value = min(preview.expected_damage, left + 1) / left
        kill = sum(p for k, p in enumerate(preview.hits) if k and k * preview.damage_per_hit >= left)
        named = TARGET_WORTH if enemy.uid in self._aims.targets else 1.0
        return (value + KILL_BONUS * kill) * self._worth.get(enemy.uid, 1.0) * named

    def _worth_of(self, battle: Battle, enemies: list[Sighting]) -> dict[str, float]:
        """Each enemy in sight by the harm it can do: the largest share of health it expects to
        take from any unit of the side, against the mean of the enemies (between 0.5 and 2)."""
        s = battle.session
        own = [unit_info(battle, uid) for uid, _ in s.units()
               if s.side_of(uid) == self.side and s.is_up(uid)]
        harm = {}
        for enemy in enemies:
            best = 0.0
            for unit in own:
                preview = preview_attack(battle, enemy.uid, unit.uid, threat=True)
                if not isinstance(preview, Refused):
                    best = max(best, preview.expected_damage / max(1, unit.hp))
            harm[enemy.uid] = best
        mean = sum(harm.values()) / len(harm)
        if mean <= 0:
            return {}
        return {uid: min(WORTH_RANGE[1], max(WORTH_RANGE[0], value / mean))
                for uid, value in harm.items()}

    def _modes(self, battle: Battle, me: UnitInfo) -> list[str]:
        weapon = battle.session.weapons.get(me.weapon) if me.weapon else None
        if weapon is None or self.scout._dry(battle, me):
            return ["unarmed"]
        return [m.name for m in weapon.modes]

    def _best_attack(self, battle: Battle, me: UnitInfo, enemies: list[Sighting]) -> Command | None:
        """The attack worth most: damage up to what the target has left, a kill worth more."""
        costs = action_costs(battle, me.uid).modes
        best, best_value = None, 0.0
        for enemy in enemies:
            plain = self._previews(battle, me, enemy, me.ap, costs=costs)
            for preview, lasting in self._lasting(battle, me, plain):
                # per AP: an action saved moves the unit, or holds for a reaction (d20)
                value = self._attack_value(preview, enemy) * lasting / max(1, preview.ap_cost)
                if value <= WORTHLESS and preview.expected_damage / max(1, preview.ap_cost) < MIN_VALUE:
                    continue              # worth nothing: neither a share of the target nor
                location = "torso"        # the damage the simple player would shoot for
                called = self._called_shot(battle, me, enemy, preview)
                if called is not None:    # a called shot that deals more: its extra damage
                    gain = (called.expected_damage - preview.expected_damage) / max(1, enemy.hp)
                    value += gain * self._worth.get(enemy.uid, 1.0) * lasting / max(1, preview.ap_cost)
                    location = "called_shot"
                value += self._noise()
                if value > best_value:
                    best, best_value = Attack(me.uid, enemy.uid, preview.mode, location), value
        return best

    def _called_shot(self, battle: Battle, me: UnitInfo, enemy: Sighting,
                     plain: AttackPreview) -> AttackPreview | None:
        """The called shot (Eclipse Phase: -10, armor bypassed when it lands) of the same way of
        firing, when the ruleset has one, the level weighs them (`normal`, `hard`) and its
        exact expected damage beats the plain shot's; else None. Only the damage is compared:
        a called shot's mean damage per hit mixes hits that bypass the armor with hits that
        do not, and would overstate its chance to kill."""
        if not self.level.called_shots or "called_shot" not in battle.session.rules.p.hit_locations:
            return None
        called = preview_attack(battle, me.uid, enemy.uid, plain.mode, "called_shot")
        if isinstance(called, Refused) or called.expected_damage <= plain.expected_damage:
            return None
        return called

    def _previews(self, battle: Battle, me: UnitInfo, enemy: Sighting, spare: int, *,
                  costs: dict[str, int] | None = None, threat: bool = False) -> list[AttackPreview]:
        """The unit's attacks on `enemy` within `spare` AP, one per way of firing (`costs`: the
        ways' known prices, to skip asking those it cannot pay for)."""
        out = []
        for name in self._modes(battle, me):
            if costs is not None and costs.get(name, 0) > spare:
                continue
            preview = preview_attack(battle, me.uid, enemy.uid, name, threat=threat)
            if not isinstance(preview, Refused) and preview.ap_cost <= spare:
                out.append(preview)
        return out

    def _lasting(self, battle: Battle, me: UnitInfo, previews: list[AttackPreview]
                 ) -> list[tuple[AttackPreview, float]]:
        """Each attack with how long its way of firing lasts, against the one that lasts longest
        (1.0): the share of its next FIGHT_TURNS turns (or of the rounds left) that the rounds
        the unit carries would keep it firing that way. A d20 full auto empties the magazine: on
        the last one, it is one volley and a dry gun, where bursts last."""
        if not self.level.lookahead or not any(p.rounds > 1 for p in previews):
            return [(p, 1.0) for p in previews]
        s = battle.session
        left = s.setup.scenario.victory.max_rounds - s.round + 1
        fight = me.ap_per_turn * max(1, min(FIGHT_TURNS, left))
        carried = me.ammo + me.spare * me.magazine
        lasts = [min(1.0, (carried // max(1, p.rounds)) * p.ap_cost / fight) if p.rounds else 1.0
                 for p in previews]
        most = max(lasts)
        return [(p, last / most) for p, last in zip(previews, lasts, strict=True)]

    def _offense(self, battle: Battle, me: UnitInfo, enemies: list[Sighting], spare: int) -> float:
        """The best attack's worth from where the unit (hypothetically) stands, within `spare` AP."""
        best = 0.0
        for enemy in enemies:
            previews = self._previews(battle, me, enemy, spare, threat=True)
            for preview, lasting in self._lasting(battle, me, previews):
                best = max(best, self._attack_value(preview, enemy) * lasting)
        return best

    def _danger(self, battle: Battle, me: UnitInfo, enemies: list[Sighting]) -> float:
        """The damage an enemy in sight expects to deal it next, on average over the enemies
        (each fires once, with the whole side to choose from), as a share of its health."""
        total = 0.0
        for enemy in enemies:
            preview = preview_attack(battle, enemy.uid, me.uid, threat=True)
            if not isinstance(preview, Refused):
                total += preview.expected_damage
        return total / max(1, me.hp) / max(1, len(enemies))

    # --- where to stand -----------------------------------------------------------------------

    def _best_square(self, battle: Battle, me: UnitInfo, enemies: list[Sighting], *,
                     shooting: bool) -> Square | None:
        s = battle.session
        grid = s.grid
        costs = action_costs(battle, me.uid)
        keep = min(costs.modes.values(), default=0) if shooting else 0
        if me.stance == "prone" or "pinned" in me.statuses:
            return None
        area = reach(battle, me.uid)
        xs, ys, prices = area.arrays()
        affordable = prices <= me.ap - keep
        squares = list(zip(xs[affordable].tolist(), ys[affordable].tolist(), strict=True))
        if not squares:
            return None
        if self.level.squares and len(squares) > self.level.squares:
            squares = self.rng.sample(squares, self.level.squares)

        heights = {t.id: t.elevation for t in s.setup.terrain}

        def height(square: Square) -> int:
            return heights.get(grid.terrain_at(*square), 0)

        def guess(square: Square) -> float:     # cheap: cover against the enemies it would see,
            view = grid.view(square[0], square[1], me.sight)   # and high ground over them (its
            seen = [e for e in enemies if e.square in view]    # worth is then weighed exactly)
            if shooting and not seen:
                return -5.0
            return -sum(EXPOSED[grid.cover_against(square, e.square)]
                        - HIGH_GROUND * (height(square) > height(e.square)) for e in seen)

        squares.sort(key=guess, reverse=True)
        shortlist = [me.square] + squares[:SHORTLIST]
        goal = self._goal(battle)
        if goal is not None:                 # and the squares nearest the zone
            field = geo.walk_field(grid, s.rules.move_costs, goal[0])
            to_zone = geo.field_at(field, geo.as_array(squares))
            shortlist += [squares[i] for i in np.argsort(to_zone, kind="stable")[:ZONE_SQUARES]]
        beyond = self._base_move(battle, me)
        nearest = min(enemies, key=lambda e: max(abs(e.square[0] - me.square[0]),
                                                 abs(e.square[1] - me.square[1]))).square
        walk = walking_distances(grid, nearest)
        push = lateness(battle)[1]       # as the round limit nears, fear less and close in
        engaged = any(max(abs(e.square[0] - me.square[0]), abs(e.square[1] - me.square[1])) == 1
                      for e in enemies)
        best, best_score = me.square, None
        for square in shortlist:
            moved = max(abs(square[0] - me.square[0]), abs(square[1] - me.square[1]))
            full = beyond is not None and moved > beyond and shooting
            danger = self._provoked(battle, me, area, square) if engaged else 0.0
            with standing_at(battle, me.uid, square, full_move=full) as what_if:
                danger += self._danger(what_if, me, enemies)
                # Before its attack: the attack it makes after walking there. After it: only
                # safety (keeping a shot for next turn measured worse: 14-15 of 32 against 20).
                offense = (self._offense(what_if, me, enemies, me.ap - prices_of(area, square))
                           if shooting else 0.0)
            # `easy` (lookahead 0) weighs this command's gain only, not the fire it will take.
            threat = THREAT * (1.0 - CALM * push) if self.level.lookahead else 0.0
            if me.uid in self._aims.precious:
                threat *= PRECIOUS
            score = offense - threat * danger + self._noise()
            if goal is not None:
                score += self._zone_score(field, square, goal[1], push)
                if goal[1] == "go" and self._scores_there(me) and square in goal[0]:
                    score += ZONE_SCORES
            if shooting and (goal is None or goal[1] == "guard"):
                score -= APPROACH * (1.0 + HURRY * push) * float(walk[square[1], square[0]]) / 3
            if square == me.square:
                score += 0.02                   # staying put wins ties
            if best_score is None or score > best_score:
                best, best_score = square, score
        return best

    # --- the objectives -----------------------------------------------------------------------

    def _goal(self, battle: Battle) -> tuple[tuple[Square, ...], str] | None:
        """The zone the objectives send the side's units to, and how: "go" (get there; a
        zone where standing scores), "contest" (get into the zone the enemy must hold) or
        "guard" (stay near the zone the enemy must get to); None without one."""
        zones = battle.session.grid.zones
        aims = self._aims
        for name, how in ((aims.go, "go"), (aims.contest, "contest"), (aims.guard, "guard")):
            if name in zones:
                return tuple(zones[name or ""]), how
        return None

    def _scores_there(self, me: UnitInfo) -> bool:
        """Whether standing in the zone to get to scores or wins for this unit."""
        aims = self._aims
        return aims.finish and aims.mover in (None, me.uid)

    def _zone_score(self, field: np.ndarray, square: Square, how: str, push: float) -> float:
        far = float(field[square[1], square[0]])
        if far > 1e6:
            return -ZONE_PULL * 100       # no way to the zone from there
        if how == "guard":
            far = max(0.0, far - GUARD_SQUARES)
        return -ZONE_PULL * (1.0 + HURRY * push) * far

    def _finish(self, battle: Battle, me: UnitInfo) -> Command | None:
        """A walk onto the zone where standing scores or wins, when it can get there this
        turn (the cheapest square of it); else None."""
        goal = self._goal(battle)
        if goal is None or goal[1] != "go" or not self._scores_there(me) or me.square in goal[0]:
            return None
        if me.stance == "prone" or "pinned" in me.statuses:
            return None
        area = reach(battle, me.uid)
        priced = [(area.cost(square), square) for square in goal[0]]
        affordable = [(cost, square) for cost, square in priced
                      if cost is not None and cost <= me.ap]
        if not affordable:
            return None
        return self._walk(battle, me, min(affordable)[1])

    @staticmethod
    def _provoked(battle: Battle, me: UnitInfo, area, square: Square) -> float:
        """The damage the attacks of opportunity on the walk to `square` are expected to deal,
        as a share of the unit's health (d20: stepping out of an enemy's reach)."""
        if square == me.square:
            return 0.0
        total = 0.0
        for enemy, mode in opportunity_attacks(battle, me.uid, area.path_to(square) or []):
            preview = preview_attack(battle, enemy, me.uid, mode, threat=True)
            if not isinstance(preview, Refused):
                total += preview.expected_damage
        return total / max(1, me.hp)

    def _reposition(self, battle: Battle, me: UnitInfo, enemies: list[Sighting], *,
                    shooting: bool) -> Command | None:
        best = self._best_square(battle, me, enemies, shooting=shooting)
        return None if best in (None, me.square) else self._walk(battle, me, best)

    @staticmethod
    def _disengage(battle: Battle, me: UnitInfo, move: Move) -> Command | None:
        """d20: before walking out of an enemy's reach, disengage from it (One Action) when its
        attack of opportunity is expected to cost more than a tenth of the unit's health and an
        Action is left for the walk."""
        offered = action_costs(battle, me.uid).defend
        for enemy, mode in opportunity_attacks(battle, me.uid, list(move.path)):
            kind = f"disengage:{enemy}"
            cost = offered.get(kind)
            if cost is None or me.ap - cost < 1:
                continue
            preview = preview_attack(battle, enemy, me.uid, mode, threat=True)
            if not isinstance(preview, Refused) and preview.expected_damage > me.hp / 10:
                return Defend(me.uid, kind)
        return None

    @staticmethod
    def _walk(battle: Battle, me: UnitInfo, square: Square) -> Command | None:
        path = reach(battle, me.uid).path_to(square)
        return Move(me.uid, tuple(path)) if path else None

    @staticmethod
    def _base_move(battle: Battle, me: UnitInfo) -> int | None:
        """Squares a unit may walk without a full move (Eclipse Phase); None where moving
        carries no penalty."""
        return full_move_beyond(battle, me.uid)

    def _noise(self) -> float:
        noise = self.level.tabletop_noise
        return self.rng.gauss(0.0, noise) if noise else 0.0


def prices_of(area, square: Square) -> int:
    cost = area.cost(square)
    return 0 if cost is None else cost
