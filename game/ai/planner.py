"""Choosing one command for the active unit: every option scored, the best one taken.

An option is where the unit ends its turn and what it does with the AP it has left: shoot
(the best aim, mode and hit location for the AP), keep watch, throw, suppress, revive or hold.
Its score adds the harm it does, the harm it can expect from the enemies it knows of there
(cover against each, overwatch cones on the way), the shots it will have next turn and its
progress toward the goal. After each command the unit chooses again, from what it sees then.
"""

from __future__ import annotations

import math
import random

import numpy as np

from game.ai import geometry as geo
from game.ai import scoring, shooting, tactics
from game.ai.assess import Assessor
from game.ai.board import destinations
from game.ai.goals import progress, stance_for
from game.ai.intel import Picture
from game.ai.levels import Level
from game.ai.state import Board, Option, later
from game.core import components as c
from game.core.commands import ChangeStance, Command, EndTurn, Move, Reload
from game.core.engine import Battle
from game.core.queries import revive_cost

CAUTION = 1.0             # weight of the harm expected from the enemy's reply
UNSEEN = 8.0              # per 100 squares in view that the side cannot see (who may be there?)
COVER_BONUS = 1.0         # standing by cover, against enemies not seen yet (per 8 cover points)


def choose(battle: Battle, a: Assessor, pic: Picture, level: Level, rng: random.Random,
           may_move: bool) -> Option:
    board = _board(battle, a, pic, level, rng, may_move)
    options = _stay_options(board)
    if level.noise:
        for option in options:
            option.score += rng.gauss(0.0, level.noise)
    return max([*options, *_move_options(board)])


def _board(battle: Battle, a: Assessor, pic: Picture, level: Level, rng: random.Random,
           may_move: bool) -> Board:
    s = battle.session
    me = pic.me
    foes = pic.foes if level.lookahead >= 2 else [f for f in pic.foes if f.visible]
    budget = 0
    if may_move and "pinned" not in me.info.statuses:
        budget = me.info.ap - (s.rules.stance_cost("prone", "crouch", False) if me.info.stance == "prone" else 0)
    cones = pic.cones if level.lookahead >= 2 else {}
    by_uid = {f.uid: f for f in pic.foes}

    def reaction(watcher: str, square: tuple[int, int]) -> float:
        foe = by_uid.get(watcher)
        if foe is None:
            return 0.0
        cover = geo.cover_level(a.grid, square, foe.square)
        return a.reaction(foe, me, cover)

    dest = destinations(battle, me.uid, budget, cones, reaction, level.squares, rng,
                        pic.blocked() if budget > 0 else [])
    stance = stance_for(battle, me.info.side, pic, level.objectives, level.lookahead >= 3)
    a.wanted = stance.wanted
    if len(dest) == 1 and not _may_revive(a, pic, level):
        # Staying put: every option shares the square's exposure, goal and next-turn terms,
        # which then cannot change the choice; they are left out of the scores.
        zero = np.zeros(1)
        return Board(battle, a, pic, level, stance, dest, scoring.lines(a, me, dest, []), zero, zero,
                     rng, later_cache=zero)
    sight = scoring.lines(a, me, dest, foes)
    safety = -stance.caution * dest.risk
    if level.lookahead >= 1:          # looking ahead to the enemy's reply
        shares = []
        if sight.foes:
            friends = pic.friends_seen_from([(f.square, f.info.sight) for f in sight.foes])
            shares = scoring.shares(a, me, sight, friends)
        harm = scoring.exposure(a, me, sight, pic.round, shares)
        safety = safety - CAUTION * stance.caution * harm
    if level.lookahead >= 3:          # the enemies not seen yet: who may be there?
        safety = safety + COVER_BONUS * geo.field_at(geo.cover_scores(a.grid), dest.squares) / 8
        if UNSEEN:
            unseen = geo.unseen_in_view(a.grid, s.sight[me.info.side].count > 0, dest.squares,
                                        me.info.sight)
            share = 0.5 if any(f.visible for f in pic.foes) else 1.0
            safety = safety - UNSEEN * share * stance.caution * unseen / 100
    goal = progress(battle, stance, dest, pic.obstacles())
    return Board(battle, a, pic, level, stance, dest, sight, safety, goal, rng)


def _may_revive(a: Assessor, pic: Picture, level: Level) -> bool:
    """Whether first aid is an option (its price depends on how safe the square is)."""
    cost = revive_cost(a.battle, pic.me.uid)
    return (level.tactics and cost is not None and pic.me.info.ap >= cost
            and bool(pic.patients()))


# --- staying put --------------------------------------------------------------------------------

def _stay_options(b: Board) -> list[Option]:
    me = b.me
    base = b.safety[0] + b.goal[0] + later(b)[0]
    options = [Option(base, "hold", EndTurn(me.uid))]
    options += [Option(base + v, label, cmd) for v, label, cmd in shooting.shots_here(b)]
    options += [Option(base + v, label, cmd) for v, label, cmd in shooting.lean_back(b)]
    watch = shooting.watch(b, me.info.ap)
    if watch is not None:
        options.append(Option(base + watch[0], "overwatch", watch[1]))
    options += _tools(b, base)
    options += _upkeep(b, base)
    return options


def _tools(b: Board, base: float) -> list[Option]:
    if not b.level.tactics:
        return []
    me = b.me
    out = []
    if any(f.visible for f in b.pic.foes):
        own = b.pic.own_squares()
        out += [Option(base + v, "throw", cmd) for v, cmd in tactics.throw_options(b.a, me, b.pic.foes, own)]
        out += [Option(base + v, "suppress", cmd)
                for v, cmd in tactics.suppress_options(b.a, me, b.pic.foes, own)]
    cost = revive_cost(b.battle, me.uid)
    if cost is not None and me.info.ap >= cost and b.safety[0] > -0.3 * me.hp:
        for friend in b.pic.patients():
            out.append(Option(base + tactics.revive_value(b.a, me, friend), "revive",
                              tactics.revive_command(me, friend)))
    return out


def _upkeep(b: Board, base: float) -> list[Option]:
    """Reloading, and crouching for a steadier aim, when the AP would go unused."""
    me, s = b.me, b.battle.session
    out = []
    weapon = me.weapon
    if weapon is not None and weapon.kind == "firearm" and me.info.spare > 0:
        if me.info.ammo < weapon.magazine and me.info.ap >= weapon.reload_ap:
            empty = 1.0 - me.info.ammo / max(1, weapon.magazine)
            value = 6.0 if me.info.ammo == 0 else 1.5 * empty - 0.3
            out.append(Option(base + value, "reload", Reload(me.uid)))
    if me.info.stance == "stand" and "pinned" not in me.info.statuses:
        if me.info.ap >= s.rules.stance_cost_now(s, me.uid, "stand", "crouch", False):
            out.append(Option(base + shooting.CROUCH_VALUE, "crouch", ChangeStance(me.uid, "crouch")))
    return out


# --- moving -------------------------------------------------------------------------------------

def _move_options(b: Board) -> list[Option]:
    n = len(b.dest)
    if n < 2:
        return []
    me, rules = b.me, b.battle.session.rules
    spent = b.dest.cost + (rules.stance_cost("prone", "crouch", False) if me.info.stance == "prone" else 0)
    ap_left = me.info.ap - spent
    act = _shots_after_moving(b, ap_left) + later(b)
    watch = shooting.watch_values(b, ap_left)
    act = np.maximum(act, later(b) + watch)
    total = act + b.safety + b.goal
    if b.level.noise:
        total = total + b.level.noise * np.array([b.rng.gauss(0.0, 1.0) for _ in range(n)])
    total[0] = -math.inf
    for i in np.argsort(-total)[:3].tolist():      # the best move that has a way there
        if i and math.isfinite(total[i]):
            command = _walk(b, i)
            if command is not None:
                return [Option(float(total[i]), "move", command)]
    return []


def _shots_after_moving(b: Board, ap_left: np.ndarray) -> np.ndarray:
    """The best shot at each destination with the AP left there (and the running penalty)."""
    if not b.sight.foes:
        return np.zeros(len(b.dest))
    me, s = b.me, b.battle.session
    turn = s.get(me.uid, c.TurnState)
    on_the_run = {"shot_on_the_run", "attack_on_the_run"} & set(dict(me.info.abilities))
    runs = [s.rules.is_running(turn.move_ap + cost, me.info.ap_per_turn)
            for cost in range(int(b.dest.cost.max()) + 1)]
    running = np.array(runs)[b.dest.cost] & (not on_the_run)
    return scoring.offense(b.a, me, b.sight, ap_left, running, b.pic.round,
                           visible_only=b.level.lookahead < 2)


def _walk(b: Board, index: int) -> Command | None:
    me = b.me
    if me.info.stance == "prone":
        return ChangeStance(me.uid, "crouch")
    path = b.dest.path(index)
    return Move(me.uid, path) if path else None


