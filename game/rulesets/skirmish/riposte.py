"""Riposte: "Failed attacks do not generally result in repercussions for the attacker—situations
in which the defender has the Ability Riposte excepted."

The text names the ability and nothing more; the game's reading (docs/RULES-skirmish.md,
`riposte` in content/rulesets/skirmish.yaml): a failed attack of a kind the params list (melee
and unarmed by default) against an adjacent defender that is up and has Riposte is answered at
once by one blow of the defender's, free of AP, with the melee weapon in its hands or bare
hands. The attacker defends as against any blow; a riposte is never itself riposted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.content.schema import WeaponSpec
from game.core import components as c
from game.core.systems.attack import AttackPlan

if TYPE_CHECKING:
    from game.core.session import Session
    from game.rulesets.skirmish.rules import SkirmishRules


def attack_kind(weapon: WeaponSpec) -> str:
    """`firearm`, `melee` or `unarmed`: what the riposte params name."""
    if weapon.id == "unarmed":
        return "unarmed"
    return "melee" if weapon.kind == "melee" else weapon.kind


def blade(rules: SkirmishRules, session: Session, uid: str) -> WeaponSpec:
    """The weapon a riposte strikes with: the melee weapon in hand, else bare hands."""
    held = session.get(uid, c.Loadout).current
    if held is not None and session.weapons[held.weapon].kind == "melee":
        return session.weapons[held.weapon]
    return rules.unarmed_weapon()


def can_riposte(rules: SkirmishRules, session: Session, attacker: str, defender: str,
                weapon: WeaponSpec) -> bool:
    """Whether a miss by `attacker` with `weapon` would be answered by `defender`."""
    if "riposte" not in session.get(defender, c.Stats).abilities:
        return False
    if attack_kind(weapon) not in rules.p.riposte.against or not session.is_up(defender):
        return False
    apos, dpos = session.position(attacker), session.position(defender)
    if apos is None or dpos is None:
        return False
    return max(abs(apos[0] - dpos[0]), abs(apos[1] - dpos[1])) <= rules.p.riposte.reach


def plan(rules: SkirmishRules, session: Session, defender: str, attacker: str) -> AttackPlan:
    """The defender's free blow back at the attacker."""
    weapon = blade(rules, session, defender)
    mode = weapon.modes[0]
    return AttackPlan(defender, attacker, weapon, mode, "torso", 0, 0, 0, mode.rof)
