"""First aid on the battlefield: a Heal check to stabilize a fallen ally, then to revive them."""

from __future__ import annotations

from game.core import components as c
from game.core.commands import Revive
from game.core.events import HealAttempted, HealthChanged
from game.core.illegal import Illegal
from game.core.session import Session
from game.core.systems.health import set_state
from game.core.systems.loadout import pay
from game.rulesets.skirmish.rules import rules_of


def revive(session: Session, cmd: Revive) -> None:
    uid, target = cmd.unit, cmd.target
    if target not in session.entities or session.side_of(target) != session.side_of(uid):
        raise Illegal("Only an ally can be revived.")
    health = session.get(target, c.Health)
    name = session.get(target, c.Unit).name
    if health.state not in ("unconscious", "dying"):
        raise Illegal(f"{name} is {'dead' if health.state == 'dead' else 'not down'}.")
    here, there = session.position(uid), session.position(target)
    assert here is not None and there is not None, "a healer and a unit down stand on the map"
    if max(abs(here[0] - there[0]), abs(here[1] - there[1])) != 1:
        raise Illegal(f"{name} is not next to {session.get(uid, c.Unit).name}.")
    p = session.rules.p.revive
    pay(session, uid, p.ap, "A Heal check")
    stage, difficulty = next_check(session, target)
    check = rules_of(session).skill_check("heal", session.combatant(uid), session.dice)
    success = check.total >= difficulty
    session.emit(HealAttempted(uid, target, stage, check, difficulty, success, p.ap), here, there,
                 to=(session.side_of(uid),))
    if not success:
        health.heal_ds[stage] = difficulty + p.fail_step
    elif stage == "stabilize":
        health.stabilized = True
        if health.state == "dying":
            health.state = "unconscious"
        session.emit(HealthChanged(target, "stabilized", health.hp, uid), there)
    else:
        health.hp = p.revived_hp
        set_state(session, target, "ok", uid)


def patients(session: Session, uid: str) -> list[str]:
    """The fallen allies `uid` could give first aid to now: down but not dead, next to it."""
    here, side = session.position(uid), session.side_of(uid)
    if here is None:
        return []
    out = []
    for other, unit in session.units():
        if unit.side != side or other == uid or session.is_up(other):
            continue
        there = session.position(other)
        if (there is not None and max(abs(here[0] - there[0]), abs(here[1] - there[1])) == 1
                and session.get(other, c.Health).state in ("unconscious", "dying")):
            out.append(other)
    return out


def next_check(session: Session, target: str) -> tuple[str, int]:
    """The stage the next Heal check on `target` is for, and its difficulty (each failure
    makes the next one harder)."""
    health = session.get(target, c.Health)
    p = session.rules.p.revive
    stage = "revive" if health.stabilized else "stabilize"
    return stage, health.heal_ds.get(stage, p.revive_ds if stage == "revive" else p.stabilize_ds)


def heal_odds(session: Session, uid: str, target: str) -> tuple[float, str]:
    """The chance that `uid`'s next Heal check on `target` succeeds, and its stage."""
    stage, difficulty = next_check(session, target)
    rules = rules_of(session)
    mod = rules.static_modifier("heal", session.combatant(uid), [])
    faces = sum(1 for face in range(1, rules.p.die + 1) if face + mod >= difficulty)
    return faces / rules.p.die, stage
