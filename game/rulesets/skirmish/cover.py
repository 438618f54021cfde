"""Total cover and leaning out (skirmish).

The text: "The Support lets up on the suppressing fire and ducks down, receiving total cover.
With no visible targets..."; and "Hollis ... leans out (-2 AP) and sees an Olea trooper ... He
leans back (-2 AP)". A unit behind cover of a level the params list in `total_cover` (full
cover: containers, pillars), on the side facing a looker (within 45°, as cover is counted), is
hidden from it and cannot see it, unless it has leant out (`lean.out_ap`).
Walls, which block sight, hide by that already and are not counted. It stays out until
it leans back (`lean.back_ap`) or moves; leaning changes nothing else (its Dodge keeps the
cover bonus). An adjacent looker is past any cover.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from game.core import components as c
from game.core.commands import Lean
from game.core.events import Leaned
from game.core.grid import COVER_LEVELS, NEIGHBOURS
from game.core.illegal import Illegal
from game.core.session import Session
from game.core.systems.loadout import can_pay, pay
from game.rulesets.skirmish.rules import rules_of

Square = tuple[int, int]
STATUS = "leaning out"


@dataclass(slots=True)
class Leaning:
    """The unit has leant out from behind total cover: it sees and is seen past it."""

    since_round: int


def hiding_levels(session: Session) -> set[int]:
    return {COVER_LEVELS.index(level) for level in rules_of(session).p.total_cover}


def behind_total_cover(session: Session, uid: str) -> bool:
    """Whether `uid` stands next to a cover object that can hide it (from some side)."""
    pos = session.position(uid)
    if pos is None:
        return False
    grid, levels = session.grid, hiding_levels(session)
    if not grid.near_cover[pos[1], pos[0]]:
        return False
    return any(grid.in_bounds(pos[0] + dx, pos[1] + dy) and int(grid.cover[pos[1] + dy, pos[0] + dx]) in levels
               and grid.transparent[pos[1] + dy, pos[0] + dx] for dx, dy in NEIGHBOURS)


def screened(session: Session, uid: str, looker: Square) -> bool:
    """Whether a cover object of a hiding level stands next to `uid`, strictly within 45° of the
    line to `looker` (a wall hides by blocking sight already; one just off the line at exactly
    45°, as along a corridor, does not hide), and `uid` has not leant out."""
    pos = session.position(uid)
    if pos is None or not session.is_up(uid) or session.has(uid, Leaning):
        return False
    grid = session.grid
    if not grid.near_cover[pos[1], pos[0]]:
        return False
    dx, dy = looker[0] - pos[0], looker[1] - pos[1]
    if max(abs(dx), abs(dy)) <= 1:
        return False                  # an adjacent looker is past any cover
    levels, length, edge = hiding_levels(session), math.hypot(dx, dy), math.cos(math.radians(45)) + 1e-9
    for ux, uy in NEIGHBOURS:
        cx, cy = pos[0] + ux, pos[1] + uy
        if not grid.in_bounds(cx, cy) or int(grid.cover[cy, cx]) not in levels or not grid.transparent[cy, cx]:
            continue
        if (ux * dx + uy * dy) / (math.hypot(ux, uy) * length) > edge:
            return True
    return False


def lean(session: Session, cmd: Lean) -> None:
    uid = cmd.unit
    name = session.get(uid, c.Unit).name
    p = rules_of(session).p.lean
    if cmd.out:
        if session.has(uid, Leaning):
            raise Illegal(f"{name} is already leaning out.")
        if not behind_total_cover(session, uid):
            raise Illegal(f"{name} is not behind total cover: there is nothing to lean out from.")
        pay(session, uid, p.out_ap, "Leaning out")
        session.add(uid, Leaning(session.round))
        session.emit(Leaned(uid, True, p.out_ap), session.position(uid))
    else:
        if not session.has(uid, Leaning):
            raise Illegal(f"{name} is not leaning out.")
        pay(session, uid, p.back_ap, "Leaning back")
        end(session, uid, p.back_ap)


def end(session: Session, uid: str, ap_cost: int = 0) -> None:
    """The lean is over: leant back for `ap_cost`, or the unit stepped away (0)."""
    if session.has(uid, Leaning):
        session.remove(uid, Leaning)
        session.emit(Leaned(uid, False, ap_cost), to=(session.side_of(uid),))


def option(session: Session, uid: str) -> tuple[bool, int, str]:
    """What the lean action would do now: (out?, AP, why not or "")."""
    p = rules_of(session).p.lean
    if session.has(uid, Leaning):
        out, cost, why = False, p.back_ap, ""
    else:
        out, cost = True, p.out_ap
        why = "" if behind_total_cover(session, uid) else "not behind total cover"
    if not why and not session.is_up(uid):
        why = "the unit is down"
    elif not why and not can_pay(session.get(uid, c.ActionPoints), cost):
        why = "not enough AP"
    return out, cost, why
