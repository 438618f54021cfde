"""Scores of every destination at once: exposure, shots, next turn's shots, the objective.

All arrays have one entry per destination (row 0: stay). Scores are in HP of damage: damage
dealt is positive, damage expected to be taken is negative, and the value of putting a unit
down is added in the same unit (`Assessor.value`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from game.ai import geometry as geo
from game.ai.assess import Assessor
from game.ai.board import Destinations
from game.ai.intel import Known
from game.ai.sequences import useful_ap

FRESHNESS = 0.4        # weight of a remembered enemy, per round since it was seen
FORGET = 3             # rounds after which a remembered enemy no longer counts as a threat


@dataclass(slots=True)
class Sight:
    """Lines between each destination (rows) and each known enemy (columns)."""

    foes: list[Known]
    they_see: np.ndarray       # the enemy sees the destination
    i_see: np.ndarray          # the unit, standing there, sees the enemy
    my_cover: np.ndarray       # cover of the destination against the enemy (0, 1, 2)
    their_cover: np.ndarray    # cover of the enemy against the destination
    beyond_mine: np.ndarray    # the enemy is out of the unit's weapon range
    beyond_theirs: np.ndarray  # the destination is out of the enemy's weapon range
    cheb: np.ndarray           # squares apart, diagonals counting one (melee reach)


def lines(a: Assessor, me: Known, dest: Destinations, foes: list[Known]) -> Sight:
    grid = a.grid
    n, m = len(dest), len(foes)
    if not m:
        flags, levels = np.zeros((n, 0), dtype=bool), np.zeros((n, 0), dtype=np.int8)
        return Sight([], flags, flags, levels, levels, flags, flags, np.zeros((n, 0), dtype=np.int32))
    spots = geo.as_array([f.square for f in foes])
    they_see = np.zeros((n, m), dtype=bool)
    i_see = np.zeros((n, m), dtype=bool)
    for j, foe in enumerate(foes):
        they_see[:, j] = geo.seen_from(grid, foe.square, foe.info.sight, dest.squares)
        i_see[:, j] = (they_see[:, j] if foe.info.sight == me.info.sight
                       else geo.seen_from(grid, foe.square, me.info.sight, dest.squares))
    dist = geo.distances(dest.squares, spots) if m else np.zeros((n, 0), dtype=np.int32)
    my_range = me.weapon.range if me.weapon else 1
    their_range = np.array([f.weapon.range if f.weapon else 1 for f in foes], dtype=np.int32)
    cheb = (np.maximum(np.abs(dest.squares[:, None, 0] - spots[None, :, 0]),
                       np.abs(dest.squares[:, None, 1] - spots[None, :, 1]))
            if m else np.zeros((n, 0), dtype=np.int32))
    return Sight(foes, they_see, i_see,
                 geo.cover_matrix(grid, dest.squares, spots),
                 geo.cover_matrix(grid, spots, dest.squares).T,
                 dist > my_range, dist > their_range[None, :], cheb)


def weight(foe: Known, now: int) -> float:
    if foe.visible:
        return 1.0
    age = max(1, now - foe.seen_round)
    return FRESHNESS ** age if age <= FORGET else 0.0


def exposure(a: Assessor, me: Known, sight: Sight, now: int, shares: list[float]) -> np.ndarray:
    """Expected harm from the known enemies' next turn, at each destination."""
    n = sight.they_see.shape[0]
    out = np.zeros(n)
    for j, foe in enumerate(sight.foes):
        table = a.threat(foe, me)
        if a.gun(foe) is not None and a.gun(foe).kind == "melee":
            steps = max(1, foe.info.ap_per_turn // 4)      # a melee fighter walks, then strikes
            harm = np.where(sight.cheb[:, j] <= steps, table[0, 0], 0.0) * 0.5
        else:
            harm = np.where(sight.they_see[:, j],
                            table[sight.my_cover[:, j], sight.beyond_theirs[:, j].astype(int)], 0.0)
        out += harm * weight(foe, now) * shares[j]
    return out


def offense(a: Assessor, me: Known, sight: Sight, ap_left: np.ndarray, running: np.ndarray,
            now: int, visible_only: bool) -> np.ndarray:
    """Value of the best shot after walking to each destination, with the AP left there.

    Destinations that share the target, its cover, the range band, the AP left and whether
    the unit ran are priced once.
    """
    n = len(ap_left)
    best = np.zeros(n)
    gun = a.gun(me)
    if gun is None or not sight.foes:
        return best
    reach = (sight.cheb <= 1) if gun.kind == "melee" else sight.i_see
    if visible_only:
        reach = reach & np.array([f.visible for f in sight.foes])[None, :]
    rows, cols = np.nonzero(reach)
    if not len(rows):
        return best
    ap = np.maximum(np.asarray(ap_left, dtype=np.int64)[rows], 0)
    most = -(-int(ap.max()) // 32) * 32
    ap = useful_ap(gun, a.ammo(me, gun), 0, most)[ap]      # the same shots, asked fewer ways
    code = ((cols.astype(np.int64) * 3 + sight.their_cover[rows, cols]) * 2
            + sight.beyond_mine[rows, cols]) * 2 + np.asarray(running, dtype=np.int64)[rows]
    code = code * (int(ap.max()) + 1) + ap
    keys, inverse = np.unique(code, return_inverse=True)
    stance = _moving_stance(me.info.stance)
    prices = np.zeros(len(keys))
    memos = [a.pair(me, foe) for foe in sight.foes]
    for i, key in enumerate(keys.tolist()):
        rest, ap_here = divmod(key, int(ap.max()) + 1)
        rest, run = divmod(rest, 2)
        rest, beyond = divmod(rest, 2)
        j, cover = divmod(rest, 3)
        situation = (cover, beyond, ap_here, run, stance)
        value = memos[j].get(situation)
        if value is None:
            shot = a.shots(me, sight.foes[j], cover=cover, beyond=bool(beyond), ap=ap_here,
                           running=bool(run), stance=stance)
            value = memos[j][situation] = shot.value if shot is not None else 0.0
        prices[i] = value * weight(sight.foes[j], now)
    values = np.zeros(reach.shape)
    values[rows, cols] = prices[inverse]
    return np.maximum(best, values.max(axis=1))


def potential(a: Assessor, me: Known, sight: Sight, now: int) -> np.ndarray:
    """The best shot each destination offers next turn, with a full turn of AP."""
    ap = np.full(sight.i_see.shape[0], me.info.ap_per_turn)
    return offense(a, me, sight, ap, np.zeros_like(ap, dtype=bool), now, False)


def _moving_stance(stance: str) -> str:
    return "crouch" if stance == "prone" else stance


def shares(a: Assessor, me: Known, sight: Sight, friends: list[Known]) -> list[float]:
    """How much of each enemy's fire would fall on this unit rather than on the friends it sees.

    An enemy is taken to spread its fire in proportion to what it can do to each target.
    """
    out = []
    for foe in sight.foes:
        mine = _worth(a, foe, me, me.square)
        others = sum(_worth(a, foe, f, f.square) for f in friends
                     if a.grid.sees(foe.square, f.square, foe.info.sight))
        out.append(mine / (mine + others) if mine > 0 else 1.0)
    return out


def _worth(a: Assessor, foe: Known, target: Known, square: tuple[int, int]) -> float:
    cover = geo.cover_level(a.grid, square, foe.square)
    beyond = foe.weapon is not None and a.grid.distance(square, foe.square) > foe.weapon.range
    memo = a.pair(foe, target)
    situation = (cover, beyond, foe.info.ap_per_turn, False, foe.info.stance)
    value = memo.get(situation)
    if value is None:
        shot = a.shots(foe, target, cover=cover, beyond=beyond, ap=foe.info.ap_per_turn)
        value = memo[situation] = shot.value if shot else 0.0
    return value
