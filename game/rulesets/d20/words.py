"""d20 on the grid: the words of an attack's detail and a unit's statuses. D20Grid takes these
as its methods."""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.core import components as c
from game.rulesets.tabletop.grid import GridRules
from game.core.session import Session
from game.rulesets.d20.core import Fighter, Outcome, Situation
from game.rulesets.d20 import kit
from game.rulesets.d20.common import REACTION_VERBS

if TYPE_CHECKING:
    from game.rulesets.d20.grid import D20Grid


def label(self: D20Grid, name: str) -> str:
    """Attribute names in capitals (DEX), everything else as the core words it."""
    return name.upper() if name in self.spec.unit_attributes else name

def detail(self: D20Grid, out: Outcome, sit: Situation, attacker: Fighter, defender: Fighter,
           why_not: str) -> str:
    """One line: the hit test and its parts, the reaction, the damage, the critical's effect."""
    if out.jammed:
        return f"d20 {out.natural}: {out.reason}: no shot leaves it, and it cannot attack until unjammed"
    terms = [f"d20 {out.natural}"] + [f"{self.label(k)} {v}" for k, v in out.hit_parts]
    parts = " + ".join(terms)
    text = f"hit test {out.hit_test} ({parts}) against Armor Rating {out.armor_rating}: "
    if out.critical:
        text += "critical hit, through armor"
    elif out.reaction is not None or out.hit:
        text += "hit"
    else:
        return text + "miss"
    if out.reaction is not None:
        natural, total, stopped = out.reaction
        bonus = total - natural
        text += (f"; {defender.name} {REACTION_VERBS.get(sit.reaction, sit.reaction)} "
                 f"{natural}{bonus:+d} = {total}: ")
        if stopped:
            text += "a critical reaction stops it" if out.critical else "stops it"
            if out.retaliation:
                text += f", {out.retaliation} damage back to {attacker.name}"
            return text
        text += ("not critical, against a critical hit"
                 if out.critical and total > out.hit_test else f"too low for hit test {out.hit_test}")
    elif why_not:
        text += f" ({why_not})"
    if out.hits > 1:
        text += f"; {out.hits} hits"
    rolled = ", ".join(f"{'+'.join(map(str, faces))}"
                       + ("" if len(faces) == 1 and faces[0] == total else f" -> {total}")
                       for faces, total in zip(out.damage_rolls, out.damage_rolled, strict=True))
    text += f"; damage {rolled}"
    if out.effect:
        text += f"; {out.effect}"
    if out.status:
        text += f"; {defender.name} is {out.status} for {out.status_turns} turns"
    if out.armor_loss:
        text += f"; {defender.name}'s armor loses {out.armor_loss} Armor Rating"
    return text

def statuses(self: D20Grid, session: Session, uid: str) -> list[str]:
    out = GridRules.statuses(self, session, uid)
    cond = session.get(uid, c.Condition)
    if cond.armor_loss:
        out.append(f"armor -{cond.armor_loss}")
    if cond.exposed:
        out.append(f"exposed +{cond.exposed}")
    if cond.held:
        out.append(f"{cond.held} held")
    if cond.reacted_round:
        out.append("reacted")
    return out + kit.kit_words(self, session, uid)
