"""What the d20 modules on the grid share: a few words and squares."""

from __future__ import annotations

import math
from fractions import Fraction
from game.core import components as c
from game.core.session import Session

Square = tuple[int, int]

STANCE_HEIGHT = {"stand": 2, "crouch": 1, "prone": 0}
# CHOICE: "auto" takes the reaction with the highest bonus; on a tie, the first of these (the
# ones that hurt the attacker back first).
AUTO_ORDER = ("riposte", "rebound", "parry", "counterspell", "dodge")
REACTION_VERBS = {"dodge": "dodges", "parry": "parries", "riposte": "ripostes",
                  "counterspell": "counterspells", "rebound": "rebounds"}
VITALITY = "vit"                 # the attribute of the vitality test that lifts a stun
DAMAGE_SOURCES = {"burned": ("burning", "fire")}   # status -> (damage source, damage type)


def adjacent(a: Square | None, b: Square | None) -> bool:
    """Within five feet: the eight squares around."""
    if a is None or b is None or a == b:
        return False
    return max(abs(a[0] - b[0]), abs(a[1] - b[1])) <= 1


def guard_kind(session: Session, uid: str) -> str | None:
    return session.get(uid, c.Guard).kind if session.has(uid, c.Guard) else None


def turn_share(share: float, turns: int) -> int:
    """Whole Actions a status taking `share` of an Action a turn removes on the turn with
    `turns` left (this one included): the shares add up, an odd half rounding up."""
    part = Fraction(share).limit_denominator(1000)
    return math.ceil(part * turns) - math.ceil(part * (turns - 1))


TOTAL_DISENGAGE = "total_disengage"
STEALTH = "stealth"
DISENGAGE = "disengage"           # from one enemy: the defense "disengage:<its id>"
OPPORTUNITY = "attack_of_opportunity"   # a reaction too, counted among the round's


MAX_FULL_AUTO_TOTAL = 2000
"""The most a full-auto attack's dice may roll over a full magazine (one hit a round in it):
the bound that keeps its exact odds fast (docs/PERFORMANCE.md)."""
