"""Where a unit should be heading: the objective, the enemy, or home when morale breaks."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from game.ai import geometry as geo
from game.ai.aims import Aims, weighed_aims
from game.ai.board import Destinations
from game.ai.intel import Picture
from game.content.schema import PlaySpec
from game.core.engine import Battle
from game.core.grid import Grid

Square = tuple[int, int]
GUARD = 18            # AP: a defender of an objective stays this close to it
BLOCK = 30.0          # a defender standing on a square of the zone the enemy must reach:
                      # one it holds is one the enemy cannot step into
SEARCH = 0.25         # score per AP walked toward where the enemy might be, none in sight ...
RESTLESS = 0.5        # ... and this much more for every round without sight of an enemy
RESTLESS_MOST = 4     # (counting at most this many rounds)
CLOSE_IN = 0.2        # ... toward enemies last seen elsewhere
PRESS = 0.08          # ... toward enemies in sight (the shots themselves pull harder)
REACH = 0.9           # ... toward an objective the side must reach
HURRY_FROM = 0.35     # share of the rounds after which a side that must win presses harder
WIN = 1000.0          # standing on the objective that wins the battle at once
HURRY = 2.5           # how much harder, by the last round
CALM = 0.7            # how much less the harm it expects weighs, by the last round
FIGHT_ON = 0.3        # score per AP toward a zone to get to, with enemies in sight
THEIR_CLOCK = 0.5     # the least press against an enemy that wins by lasting
HANG_BACK = 0.3       # the pace of a unit that must not be lost, or of a side that must last
PRECIOUS = 1.6        # how much more the harm it expects weighs
PRESSING = 1.5       # how much harder a side whose posture is to press closes in
PATIENCE = 2          # quiet rounds an outpaced side waits for the enemy to come, then goes
HOLD_PACE = 0.3       # score per AP back toward its post, for a side whose posture is to hold


@dataclass(frozen=True, slots=True)
class Stance:
    """How the side plays right now."""

    advance: float        # score per AP walked toward the goal
    caution: float        # weight of the harm it expects to take
    targets: tuple[Square, ...]
    guard: bool           # stay near the targets, on them where a square is free (BLOCK)
    finish: bool = False  # standing on the targets wins or scores at once (WIN)
    wanted: frozenset[str] = frozenset()   # enemies an objective names: worth more (aims)
    post: bool = False    # guarding the side's own post, not a zone the enemy must reach: no BLOCK


def lateness(battle: Battle) -> tuple[float, float]:
    """(share of the rounds gone, how hard to press: 0 until HURRY_FROM, 1 by the last round)."""
    s = battle.session
    late = s.round / max(1, s.setup.scenario.victory.max_rounds)
    return late, max(0.0, late - HURRY_FROM) / (1.0 - HURRY_FROM)


def stance_for(battle: Battle, side: str, picture: Picture, weighs_objectives: bool = True,
               patient: bool = False) -> Stance:
    """How the side's unit plays now: its objectives first (game.ai.aims), then the enemy, as
    the scenario says the side plays (`play`: its posture, aggression and caution).
    Without `weighs_objectives` (the lower levels) only the zone to get to or guard counts: no
    unit is worth more or kept back for an objective. A `patient` side that is `outpaced`, with
    nowhere it must be and no enemy known, holds where it is and lets the enemy come (unless
    its posture is to press)."""
    aims = weighed_aims(battle, side, weighs_objectives)
    play = side_play(battle, side)
    stance = _stance(battle, side, picture, aims, patient and play.posture != "press")
    if play.posture == "hold" and not (aims.go or aims.guard or aims.contest) and not stance.guard:
        home = _own_zone(battle, side)
        if home:                          # the side's post: it stays by it and fights from there
            stance = Stance(HOLD_PACE, stance.caution, home, True, post=True)
    pressing = PRESSING if play.posture == "press" and not stance.guard else 1.0
    stance = replace(stance, advance=stance.advance * 2 * play.aggression * pressing,
                     caution=stance.caution * 2 * play.caution)
    return replace(stance, wanted=aims.targets) if aims.targets else stance


def side_play(battle: Battle, side: str) -> PlaySpec:
    """How the scenario says `side` plays (its `play`, as validated with the rest)."""
    found = next((d.play for d in battle.session.setup.scenario.sides if d.id == side), None)
    return found or PlaySpec()


def outpaced(battle: Battle, side: str) -> bool:
    """Under simultaneous orders: every enemy acts before every unit of the side this round (as
    behind an ambush), so whoever steps into the open first is shot before its side can answer."""
    s = battle.session
    if not s.rules.simultaneous:
        return False
    mine = [s.side_of(uid) == side for uid in s.order if s.is_up(uid)]
    if True not in mine:
        return False
    first = mine.index(True)
    return first > 0 and all(mine[first:])


def _stance(battle: Battle, side: str, picture: Picture, aims: Aims, patient: bool = False
            ) -> Stance:
    s = battle.session
    late, push = lateness(battle)
    if aims.their_clock:                  # the enemy wins by lasting: no time to lose
        push = max(push, THEIR_CLOCK)
    hurry = 1.0 + HURRY * push
    caution = 1.0 - CALM * push
    morale = s.morale_modifier(side)
    me = picture.me.uid
    zones = s.grid.zones
    if aims.go in zones:
        finish = aims.finish and (aims.mover is None or aims.mover == me)
        # Under fire, fight forward from cover; the dash onto the zone itself still scores WIN.
        under_fire = any(f.visible for f in picture.foes)
        pace = FIGHT_ON if under_fire and aims.fight else REACH
        if me in aims.precious:           # the escorted unit waits for the way to be cleared
            pace, caution = (HANG_BACK * PRESS if under_fire else pace), caution * PRECIOUS
        return Stance(pace * hurry, caution, tuple(zones[aims.go or ""]), False, finish)
    if aims.guard in zones:
        return Stance(0.3, 1.2, tuple(zones[aims.guard or ""]), True)
    if aims.contest in zones:
        return Stance(REACH * hurry, caution, tuple(zones[aims.contest or ""]), False)
    foes = [f.square for f in picture.foes]
    home = _own_zone(battle, side) if morale <= -3 and late < 0.6 else ()
    if home:                                         # broken: fall back toward home
        return Stance(0.25, 1.5, home, False)
    if me in aims.precious or aims.hold_out:         # keep the unit that matters out of harm
        return Stance(HANG_BACK * PRESS, PRECIOUS * caution, tuple(foes) or home, True)
    if foes:
        visible = any(f.visible for f in picture.foes)
        pace = (PRESS if visible else CLOSE_IN) * hurry
        wanted = tuple(f.square for f in picture.foes if f.uid in aims.targets)
        if wanted:                                   # the enemy the objective names first
            return Stance(max(pace, CLOSE_IN), caution, wanted, False)
        if morale < 0 and not push:          # shaken: hold, unless time is running out
            return Stance(0.3 * pace, 1.3 * caution, tuple(foes), False)
        return Stance(pace, caution, tuple(foes), False)
    if patient and not push and picture.quiet < PATIENCE and outpaced(battle, side):   # let them come
        return Stance(0.0, caution, (picture.me.square,), False)
    restless = 1.0 + RESTLESS * min(picture.quiet, RESTLESS_MOST)
    return Stance(SEARCH * hurry * restless, caution, _search_targets(battle, side, picture), False)


def _own_zone(battle: Battle, side: str) -> tuple[Square, ...]:
    s = battle.session
    zone = next((d.zone for d in s.setup.scenario.sides if d.id == side), None)
    return tuple(s.grid.zones.get(zone or "", ()))


def _search_targets(battle: Battle, side: str, picture: Picture) -> tuple[Square, ...]:
    """The enemy's deployment zones while unexplored, then the nearest unexplored ground, then
    the nearest of the ground the side has not looked at for longest (where someone may hide)."""
    s = battle.session
    here = picture.me.square
    mine = next((d.zone for d in s.setup.scenario.sides if d.id == side), None)
    explored = s.sight[side].explored
    others = _zone_squares(s.grid, mine)
    if len(others):
        left = others[~explored[others[:, 1], others[:, 0]]]
        if len(left):
            return tuple(map(tuple, left.tolist()))
    nearest = _nearest(~explored & s.grid.walkable, here)
    if nearest is None and picture.looked is not None:
        hidden = s.grid.walkable & (s.sight[side].count == 0)
        if hidden.any():
            nearest = _nearest(hidden & (picture.looked <= picture.looked[hidden].min()), here)
    if nearest is not None:
        return (nearest,)
    return tuple(map(tuple, others.tolist())) or (here,)


def _nearest(area: np.ndarray, here: Square) -> Square | None:
    squares = np.argwhere(area)
    if not len(squares):
        return None
    y, x = squares[int(np.argmin(np.hypot(squares[:, 1] - here[0], squares[:, 0] - here[1])))]
    return int(x), int(y)


def _zone_squares(grid: Grid, mine: str | None) -> np.ndarray:
    """(N, 2) x, y of every zone square but those of zone `mine`, in the map's zone order."""
    tables = geo.per_grid(grid)
    key = ("zones but", mine)
    if key not in tables:
        tables[key] = geo.as_array([sq for name, zone in grid.zones.items() if name != mine
                                    for sq in zone])
    return tables[key]


def progress(battle: Battle, stance: Stance, dest: Destinations,
             obstacles: tuple[Square, ...] = ()) -> np.ndarray:
    """Score for each destination of getting closer to the goal (walking round `obstacles`)."""
    if not stance.targets or stance.advance == 0:
        return np.zeros(len(dest))
    s = battle.session
    field = geo.walk_field(s.grid, s.rules.move_costs, stance.targets, obstacles)
    far = geo.field_at(field, dest.squares)
    cut_off = far > 1e6
    if cut_off.any():           # no way to the goal from there: a little worse than here
        far[cut_off] = 1e6 if cut_off[0] else far[0] + 50
    on_it = far == 0
    if stance.guard:
        far = np.maximum(0.0, far - GUARD)
        return stance.advance * (far[0] - far) + (0.0 if stance.post else BLOCK) * on_it
    return stance.advance * (far[0] - far) + WIN * (_objective(battle, stance) & on_it)


def _objective(battle: Battle, stance: Stance) -> bool:
    """Whether the goal is a zone where standing wins or scores at once (reach; extract and
    escort, which leave the battle there)."""
    return stance.finish and not stance.guard
