"""Suppressive fire: a full-round burst on a circle that pins everyone in it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from game.core import components as c
from game.core.commands import Suppress
from game.core.events import Check, StanceChanged, SuppressionDodged, SuppressionFired, SuppressionTested
from game.core.illegal import Illegal
from game.core.session import Session
from game.core.systems.attack import ready_firearm
from game.core.systems.health import apply_damage
from game.core.systems.sight import unit_sees
from game.content.schema import FireMode, WeaponSpec
from game.core.dice import Dice, DiceCode
from game.core.ruleset import AttackSituation, Combatant, DamageRoll, Harm, SuppressOdds
from game.rulesets.skirmish.odds import skirmish_hit_damage
from game.rulesets.skirmish.rules import SkirmishRules, rules_of

Square = tuple[int, int]
ABILITY = "suppressive_fire"        # the ability a unit needs to lay down suppressive fire


def diameter_for(session: Session, uid: str) -> int:
    rank = session.get(uid, c.Stats).abilities.get(ABILITY, 0)
    return diameter_of(rules_of(session), rank)


def diameter_of(rules: SkirmishRules, rank: int) -> int:
    """The circle's diameter for a Suppressive Fire rank (the top row past the table)."""
    table = rules.p.suppression.diameter_by_rank
    return table.get(rank) or table[max(table)]


def fire_mode(weapon: WeaponSpec) -> FireMode:
    """The mode suppressive fire is laid down in: the weapon's highest rate of fire."""
    return max(weapon.modes, key=lambda m: m.rof)


def fire_situation(weapon: WeaponSpec, stance: str, distance: int, *, running: bool,
                   moved_rough: bool, dropped_flat: bool) -> AttackSituation:
    """The suppressor's attack roll: at the circle's centre, torso, no aim bonus."""
    return AttackSituation(weapon=weapon, mode=fire_mode(weapon), aim_level=0, stance=stance,
                           location="torso", distance=distance, cover="none", concealed=False,
                           running=running, moved_rough=moved_rough, dropped_flat=dropped_flat,
                           melee=False, suppression=True)


def dodge_fire(rules: SkirmishRules, who: Combatant, attack_total: int, cover: str,
               dice: Dice) -> tuple[Check, bool]:
    """A unit in the circle dodges: its Dodge check, and whether the fire hits it (the attack
    beats the Dodge). Hit or not, it ends pinned prone if it is still up."""
    dodge = rules.skill_check("dodge", who, dice, [("cover", rules.p.cover_dodge_bonus[cover])])
    return dodge, attack_total > dodge.total


def fire_damage(rules: SkirmishRules, weapon: WeaponSpec, resist: Mapping[str, int],
                dice: Dice) -> DamageRoll:
    """One hit of the fire: the weapon's damage to the torso, less armor."""
    return rules.damage(weapon.damage, weapon.damage_type, "torso", dict(resist), dice)


def break_attempt(rules: SkirmishRules, who: Combatant, attack_total: int, cover: str,
                  dice: Dice) -> tuple[Check, Check | None, bool]:
    """A pinned unit tries to break free: Willpower against the suppressor's Aim roll; if it
    holds, Dodge against the fire (cover counts); both reaching it free the unit. A Dodge that
    fails is a hit (`fire_damage`). (willpower, dodge or None, broken)."""
    willpower = rules.skill_check("willpower", who, dice)
    if willpower.total < attack_total:
        return willpower, None, False
    dodge = rules.skill_check("dodge", who, dice, [("cover", rules.p.cover_dodge_bonus[cover])])
    return willpower, dodge, dodge.total >= attack_total


def chance_hit(rules: SkirmishRules, attack_total: int, dodge_mod: int) -> float:
    """P(`dodge_fire` is a hit) for a unit whose Dodge adds `dodge_mod`, given the attack total."""
    die = rules.p.die
    return sum(1 for d in range(1, die + 1) if attack_total > d + dodge_mod) / die


def chance_break(rules: SkirmishRules, attack_total: int, willpower_mod: int,
                 dodge_mod: int) -> tuple[float, float]:
    """(P(the Willpower holds), P(`break_attempt` frees the unit)) given the attack total."""
    die = rules.p.die
    holds = sum(1 for w in range(1, die + 1) if w + willpower_mod >= attack_total) / die
    dodges = sum(1 for d in range(1, die + 1) if d + dodge_mod >= attack_total) / die
    return holds, holds * dodges


def checked(session: Session, uid: str, at: Square) -> tuple[c.WeaponState, AttackSituation]:
    """The weapon in hand and the situation of `uid`'s suppressive fire on `at`; Illegal if it
    would be refused (suppressing the unit's own square is: it would fire at its own feet)."""
    name = session.get(uid, c.Unit).name
    held = ready_firearm(session, uid, ABILITY, "Suppressive Fire",
                         "lay down suppressive fire")
    ap = session.get(uid, c.ActionPoints)
    if ap.current < ap.per_turn:
        raise Illegal(f"Suppressive fire takes the whole turn: {name} has already spent AP.")
    if not session.grid.in_bounds(*at) or not unit_sees(session, uid, at):
        raise Illegal(f"{name} cannot see {at}.")
    pos = session.position(uid)
    assert pos is not None, "a unit that has the turn stands on the map"
    if at == pos:
        raise Illegal(f"{name} cannot suppress the square it stands on.")
    weapon = session.weapons[held.weapon]
    turn = session.get(uid, c.TurnState)
    sit = fire_situation(weapon, session.get(uid, c.Posture).stance, session.grid.distance(pos, at),
                         running=session.rules.is_running(turn.move_ap, ap.per_turn),
                         moved_rough=turn.moved_rough, dropped_flat=turn.dropped_flat)
    return held, sit


def suppress(session: Session, cmd: Suppress) -> None:
    uid, at = cmd.unit, cast(Square, tuple(cmd.at))   # a copy, should a caller pass a list
    held, sit = checked(session, uid, at)
    weapon, mode = sit.weapon, sit.mode
    ap = session.get(uid, c.ActionPoints)
    diameter = diameter_for(session, uid)
    ammo = min(mode.rof, held.ammo)
    pos = session.position(uid)
    ap.current = 0
    held.ammo -= ammo
    attack = rules_of(session).attack_check(session.combatant(uid), sit, session.dice)
    area = session.grid.disc(at, diameter)
    session.emit(SuppressionFired(uid, at, diameter, attack, ammo, ap.per_turn), pos, *area)
    session.records[session.side_of(uid)].shots += 1
    occupants = session.occupied()
    struck = False
    for square in area:
        target = occupants.get(square)
        if target is None or target == uid or not session.is_up(target):
            continue
        hit = pin(session, uid, target, attack, weapon.id)
        struck = struck or (hit and session.side_of(target) != session.side_of(uid))
    session.records[session.side_of(uid)].hits += struck     # one volley, one hit at most


def preview(session: Session, uid: str, at: Square, uids: list[str]) -> SuppressOdds:
    """`uid`'s suppressive fire on `at` before it is fired (`checked` first: Illegal if it would
    be refused): the circle, and for each of `uids` in it the chance its Dodge fails (a hit),
    the expected damage, the chance to go down and to end pinned, as `suppress` and `pin` roll
    them. Rolls nothing."""
    _, sit = checked(session, uid, at)
    rules = rules_of(session)
    weapon = sit.weapon
    diameter = diameter_for(session, uid)
    area = session.grid.disc(at, diameter)
    inside = set(area)
    attack_mod = rules.static_modifier(weapon.skill, session.combatant(uid),
                                       rules.attack_modifiers(sit))
    here = session.position(uid)
    assert here is not None, "a unit that has the turn stands on the map"
    multiplier = (rules.p.hit_locations["torso"].damage_multiplier
                  if "torso" in rules.p.hit_locations else 1.0)
    die = rules.p.die
    harms = []
    for other in uids:
        square = session.position(other)
        if other == uid or square not in inside or not session.is_up(other):
            continue
        assert square is not None, "a unit inside the circle stands on the map"
        cover = session.grid.cover_against(square, here)
        dodge_mod = rules.static_modifier("dodge", session.combatant(other),
                                          [("cover", rules.p.cover_dodge_bonus[cover])])
        hit = sum(1 for a in range(1, die + 1) for d in range(1, die + 1)
                  if a + attack_mod > d + dodge_mod) / (die * die)
        health = session.get(other, c.Health)
        resist = session.get(other, c.Armor).resist.get(weapon.damage_type, 0)
        damage = skirmish_hit_damage(DiceCode.parse(weapon.damage), multiplier, resist)
        expected = hit * sum(p * taken for taken, p in damage.items())
        down = hit * sum(p for taken, p in damage.items()
                         if rules.state_for(health.hp - taken, health.constitution) != "ok")
        harms.append(Harm(other, 1.0, hit, 1.0 - down, expected, down))
    return SuppressOdds(at, diameter, session.get(uid, c.ActionPoints).per_turn, tuple(area),
                        attack_mod, tuple(harms))


def pin(session: Session, uid: str, target: str, attack: Check, weapon_id: str) -> bool:
    """Dodge or be hit and pinned; whether the fire hit."""
    weapon = session.weapons[weapon_id]
    there, here = session.position(target), session.position(uid)
    assert there is not None and here is not None, "both stand on the map"
    cover = session.grid.cover_against(there, here)
    with session.dice.facing(uid, target):
        with session.dice.by(target):
            dodge, hit = dodge_fire(rules_of(session), session.combatant(target), attack.total,
                                    cover, session.dice)
        square = session.position(target)
        session.emit(SuppressionDodged(target, uid, dodge, hit), square,
                     to=(session.side_of(uid), session.side_of(target)))
        if hit:
            roll = fire_damage(rules_of(session), weapon, session.get(target, c.Armor).resist,
                               session.dice)
            apply_damage(session, target, uid, roll, weapon.damage_type)
    if not session.is_up(target):
        return hit
    posture = session.get(target, c.Posture)
    if posture.stance != "prone":
        session.emit(StanceChanged(target, posture.stance, "prone", 0, forced=True), square)
        posture.stance = "prone"
    session.add(target, c.Suppressed(uid, attack.total, weapon_id))
    return hit


def try_break(session: Session, uid: str) -> None:
    """Willpower against the suppressor's Aim roll, then Dodge against the fire."""
    pinned = session.get(uid, c.Suppressed)
    cover = "none"
    by_pos = session.position(pinned.by)
    if by_pos is not None:
        here = session.position(uid)
        assert here is not None, "a pinned unit trying to break free stands on the map"
        cover = session.grid.cover_against(here, by_pos)
    willpower, dodge, broken = break_attempt(rules_of(session), session.combatant(uid),
                                             pinned.attack_total, cover, session.dice)
    session.emit(SuppressionTested(uid, pinned.by, willpower, dodge, pinned.attack_total, broken),
                 session.position(uid), to=(session.side_of(uid), session.side_of(pinned.by)))
    if broken:
        session.remove(uid, c.Suppressed)
    elif dodge is not None:
        weapon = session.weapons[pinned.weapon]
        with session.dice.by(pinned.by):        # the suppressor's fire
            roll = fire_damage(rules_of(session), weapon, session.get(uid, c.Armor).resist,
                               session.dice)
        apply_damage(session, uid, pinned.by, roll, weapon.damage_type)

