"""Shooting from where the unit stands, and keeping watch: the options that use its weapon.

Shots from the unit's own square are priced from `queries.preview_attack`, the engine's exact
odds for that very attack; the aim level, fire mode and hit location are then chosen for the
AP the unit has, and the first attack is chosen knowing what the AP it leaves can still do.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from game.ai import geometry as geo
from game.ai.intel import Known
from game.ai.sequences import Opening
from game.ai.state import Board
from game.core.commands import Attack, ChangeStance, Command, Lean, SetOverwatch
from game.ai.aims import TARGET_WORTH
from game.core.events import Refused
from game.core.queries import lean_option, leaning_out, overwatch_cost, preview_attack

CROUCH_VALUE = 0.8        # a steadier aim for the rest of the battle
STANCE_VALUE = {"stand": 0.0, "crouch": CROUCH_VALUE, "prone": 0.3}   # prone: up again to move
STEADIER = {"stand": ["crouch", "prone"], "crouch": ["prone"]}
WATCH_BLIND = 2.0         # overwatch toward where enemies may come from, none known ...
WATCH_FADE = 0.5          # ... times this for every round the side has seen no enemy come
WATCH_MOVING = 0.5        # chance an enemy that has been moving walks into the cone
WATCH_STILL = 0.15        # ... one that has stayed put
SCOOT = 0.7               # share of the cover gained by moving after shooting that counts
LEAN_BACK = 0.5           # ducking back behind total cover before the turn ends, enemies known
LEANING = "leaning out"   # the status of a unit leant out from total cover (skirmish)


@dataclass(frozen=True, slots=True)
class Target:
    foe: Known
    attack: int          # from `preview_attack`: all but the aim bonus and the hit location
    defense: int


def shots_here(b: Board) -> list[tuple[float, str, Command]]:
    """Attacks from this square, priced from `preview_attack`, with or without a stance change."""
    me, a = b.me, b.a
    gun = a.gun(me)
    if gun is None or not any(f.visible for f in b.pic.foes):
        return []
    torso = max((m for _, m, _ in a.locations.items), default=0)
    targets, aim_now, hidden = [], 0, []
    for foe in (f for f in b.pic.foes if f.visible):
        preview = preview_attack(b.battle, me.uid, foe.uid, None, "torso", 0)
        if isinstance(preview, Refused):
            hidden.append(foe)
            continue
        attack = sum(v for _, v in preview.attack_modifiers) - preview.aim - torso
        targets.append(Target(foe, attack, sum(v for _, v in preview.defense_modifiers)))
        aim_now = preview.aim
    out = _lean_to_shoot(b, targets, hidden, torso, aim_now)
    stances = [me.info.stance]
    if "pinned" not in me.info.statuses and gun.kind == "firearm":
        stances += STEADIER.get(me.info.stance, [])
    for stance in stances:
        s = b.battle.session
        cost = s.rules.stance_cost_now(s, me.uid, me.info.stance, stance, False)
        shift = a.attack_total(me, stance, False, False) - a.attack_total(me, me.info.stance, False, False)
        best = _first_shot(b, targets, shift, me.info.ap - cost, 0 if cost else aim_now)
        if best is None:
            continue
        value, target, opening, left = best
        value += _scoot(b, left) + STANCE_VALUE[stance] - STANCE_VALUE[me.info.stance]
        if cost:
            out.append((value, f"{stance} to shoot", ChangeStance(me.uid, stance)))
        else:
            out.append((value, f"shoot {target.foe.uid}", Attack(me.uid, target.foe.uid, opening.mode,
                                                                  opening.location, opening.aim)))
    return out


def _lean_to_shoot(b: Board, targets: list[Target], hidden: list[Known], torso: int,
                   aim_now: int) -> list[tuple[float, str, Command]]:
    """Leaning out from total cover, worth the best first shot it opens (at an enemy the side
    sees but the unit cannot see past its cover) with the AP the lean leaves."""
    me = b.me
    lean = lean_option(b.battle, me.uid)
    if not hidden or lean is None or not lean[0] or lean[2]:
        return []
    opened = []
    with leaning_out(b.battle, me.uid) as view:
        for foe in hidden:
            preview = preview_attack(view, me.uid, foe.uid, None, "torso", 0)
            if not isinstance(preview, Refused):
                attack = sum(v for _, v in preview.attack_modifiers) - preview.aim - torso
                opened.append(Target(foe, attack, sum(v for _, v in preview.defense_modifiers)))
    if not opened:
        return []
    best = _first_shot(b, [*targets, *opened], 0, me.info.ap - lean[1], aim_now)
    if best is None or best[1] not in opened:
        return []
    return [(best[0] - LEAN_BACK, "lean out to shoot", Lean(me.uid))]


def lean_back(b: Board) -> list[tuple[float, str, Command]]:
    """Ducking back behind total cover when leaning out, enemies known."""
    if LEANING not in b.me.info.statuses or not b.pic.foes:
        return []
    lean = lean_option(b.battle, b.me.uid)
    if lean is None or lean[0] or lean[2]:
        return []
    return [(LEAN_BACK, "lean back", Lean(b.me.uid, out=False))]


def _first_shot(b: Board, targets: list[Target], shift: int, ap: int, aim_now: int
                ) -> tuple[float, Target, Opening, int] | None:
    """The attack to make first: its own worth, plus the best use of the AP it leaves.

    If it puts its target down, the AP left go to another target; so a unit that can finish
    a wounded enemy with one shot does that before emptying its magazine into a healthy one.
    """
    a, me = b.a, b.me
    gun = a.gun(me)
    best = None
    for target in targets:
        for opening in a.openings(me, target.foe, target.attack + shift, target.defense, ap, aim_now):
            left = ap - opening.cost
            rest, rest_cost = 0.0, 0
            for other in targets:
                follow = a.best(gun, other.attack + shift, other.defense,
                                other.foe.armor.get(gun.damage_type, 0), other.foe.hp, left,
                                opening.aim, ammo(me), a.value(other.foe))
                if follow is not None:
                    worth = follow.value * ((1.0 - opening.down) if other is target else 1.0)
                    worth *= _wanted(a, other)
                    if worth > rest:
                        rest, rest_cost = worth, follow.cost
            total = opening.value * _wanted(a, target) + rest
            if best is None or total > best[0] + 1e-9:
                best = (total, target, opening, left - rest_cost)
    return best


def _wanted(a, target: Target) -> float:
    """Hits on an enemy an objective names (a kill target, the enemy's VIP) count for more."""
    return TARGET_WORTH if target.foe.uid in a.wanted else 1.0


def _scoot(b: Board, ap_left: int) -> float:
    """What moving to better ground after shooting adds (the best square the AP left reach)."""
    if b.level.lookahead < 3 or ap_left <= 0 or len(b.dest) < 2:
        return 0.0
    ground = b.safety + b.goal
    within = b.dest.cost <= ap_left
    return SCOOT * max(0.0, float(ground[within].max() - ground[0]))


def watch(b: Board, ap: int) -> tuple[float, Command] | None:
    """Overwatch toward the nearest known enemy (or the goal), priced by its reaction shot."""
    me, a = b.me, b.a
    gun = a.gun(me)
    if (gun is None or gun.kind != "firearm" or "overwatch" not in dict(me.info.abilities)
            or me.info.ammo <= 0):
        return None
    cost = overwatch_cost(b.battle, me.uid)
    if ap < cost + min(m[1] for m in gun.modes):
        return None
    if "watch" not in b.memo:
        b.memo["watch"] = _watch_from_here(b)
    return b.memo["watch"]


def _watch_from_here(b: Board) -> tuple[float, Command] | None:
    me, a = b.me, b.a
    toward, likely = _watch_target(b)
    if toward is None or toward == me.square:
        return None
    value = WATCH_BLIND * WATCH_FADE ** b.pic.quiet
    if likely is not None:
        cover = geo.cover_level(a.grid, likely.square, me.square)
        moving = b.pic.round - likely.moved_round <= 1
        value = (WATCH_MOVING if moving else WATCH_STILL) * a.reaction(me, likely, max(0, cover - 1))
    return value, SetOverwatch(me.uid, toward)


def _watch_target(b: Board) -> tuple[tuple[int, int] | None, Known | None]:
    me = b.me
    foes = sorted(b.pic.foes, key=lambda f: math.dist(f.square, me.square))
    if foes:
        return foes[0].square, foes[0]
    if b.stance.targets:
        target = _nearest(b.stance.targets, me.square)
        return (target if target != me.square else None), None
    return None, None


def _nearest(squares: tuple[tuple[int, int], ...], here: tuple[int, int]) -> tuple[int, int]:
    """The first of `squares` nearest to `here`."""
    if len(squares) < 8:
        return min(squares, key=lambda sq: math.dist(sq, here))
    spots = geo.as_array(squares)
    return squares[int(np.argmin((spots[:, 0] - here[0]) ** 2 + (spots[:, 1] - here[1]) ** 2))]


def watch_values(b: Board, ap_left: np.ndarray) -> np.ndarray:
    out = np.zeros(len(ap_left))
    if not b.level.tactics:
        return out
    best = watch(b, int(ap_left.max()) if len(ap_left) else 0)
    if best is None:
        return out
    cost = overwatch_cost(b.battle, b.me.uid)
    gun = b.a.gun(b.me)
    need = cost + min(m[1] for m in gun.modes)
    return np.where(ap_left >= need, best[0], 0.0)


def ammo(me: Known) -> int:
    return me.info.ammo if me.weapon is not None and me.weapon.kind == "firearm" else 99
