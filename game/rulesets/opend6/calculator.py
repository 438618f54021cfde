"""The calculator under the `opend6` ruleset: die codes written inline."""

from __future__ import annotations

from typing import Annotated, Any, Literal, TYPE_CHECKING

from pydantic import AfterValidator, Field, field_validator

from game.content.schema import Name, RulesetSpec
from game.rulesets.opend6.odds import opend6_odds
from game.rulesets.opend6.core import Backlash, D6Code, D6Roll, Fighter, OpenD6Rules, Outcome, Situation, Weapon
from game.resolve.inputs import Checker, Header, In, unknown
from game.resolve.report import Report, mods_text, odds_report
from game.resolve.rolls import NamedRolls

if TYPE_CHECKING:
    from game.content.loader import Library


def _code(value: str | int) -> str:
    D6Code.parse(value)
    return str(value)


Code = Annotated[str | int, AfterValidator(_code)]


class FighterIn(In):
    name: Name
    attributes: dict[str, Code] = Field(default_factory=dict)
    skills: dict[str, Code] = Field(default_factory=dict)
    body_points: int = Field(default=20, ge=1)
    damage: int = Field(default=0, ge=0)
    armor: Code = 0


class WeaponIn(In):
    name: Name
    skill: str
    damage: str
    sharp: bool = False          # a blade (sword, dagger)
    unarmed: bool = False        # a fist or a kick

    @field_validator("damage")
    @classmethod
    def _damage(cls, value: str) -> str:
        return _code(value)


class SituationIn(In):
    actions: int = Field(default=1, ge=1, le=10)
    aim_rounds: int = Field(default=0, ge=0)
    character_points: int = Field(default=0, ge=0)
    range: str = "short"
    cover: list[str] = Field(default_factory=list)
    extra_difficulty: int = 0
    defense: Literal["passive", "dodge", "block", "parry"] = "passive"
    full_defense: bool = False
    defense_actions: int = Field(default=1, ge=1, le=10)
    defender_character_points: int = Field(default=0, ge=0)
    defense_total: int | None = None
    melee: bool = False
    defender_weapon: WeaponIn | None = None   # what the defender parries with


class Model(Header):
    attacker: FighterIn
    defender: FighterIn
    weapon: WeaponIn
    situation: SituationIn = Field(default_factory=SituationIn)
    options: dict[str, Any] = Field(default_factory=dict)    # optional rules switched (the ruleset's optional_rules)


def rules_for(spec: RulesetSpec) -> OpenD6Rules:
    return OpenD6Rules(spec)


def _inputs(rules: OpenD6Rules, data: Model) -> tuple[OpenD6Rules, Fighter, Fighter, Weapon, Situation]:
    s = data.situation
    check = Checker()
    for name, message in rules.option_problems(rules.spec, data.options):
        check.add(("options", name) if name else ("options",), message)
    check.done()
    rules = rules.with_options(data.options)
    if s.range not in rules.p.range_modifiers:
        check.add(("situation", "range"), unknown("range", s.range, rules.p.range_modifiers))
    for index, name in enumerate(s.cover):
        if name not in rules.p.cover_modifiers:
            check.add(("situation", "cover", index), unknown("cover", name, rules.p.cover_modifiers))
    check.done()
    a, d = (Fighter(**f.model_dump()) for f in (data.attacker, data.defender))
    parry = Weapon(**s.defender_weapon.model_dump()) if s.defender_weapon is not None else None
    sit = Situation(s.actions, s.aim_rounds, s.character_points, s.range, tuple(s.cover),
                    s.extra_difficulty, s.defense, s.full_defense, s.defense_actions,
                    s.defender_character_points, s.defense_total, s.melee,
                    defender_weapon=parry)
    return rules, a, d, Weapon(**data.weapon.model_dump()), sit


def _title(data: Model) -> str:
    return data.title or f"{data.attacker.name} attacks {data.defender.name} with the {data.weapon.name}"


def _roll_text(roll: D6Roll, extra: int = 0) -> str:
    parts = []
    normal = roll.dice[:len(roll.dice) - extra] if extra else roll.dice
    if normal:
        parts.append("+".join(map(str, normal)))
    if roll.wild:
        exploded = " (exploded)" if len(roll.wild) > 1 else ""
        parts.append(f"Wild Die {'+'.join(map(str, roll.wild))}{exploded}")
    if extra:
        parts.append(f"Character Point die {'+'.join(map(str, roll.dice[-extra:]))}")
    if roll.code.pips:
        parts.append(str(roll.code.pips))
    text = " + ".join(parts) + f" = {roll.total}"
    if roll.complication:
        text += " (a 1 on the Wild Die: complication"
        text += f"; {'+'.join(map(str, roll.removed))} removed)" if roll.removed else ")"
    return text


def _code_text(rules: OpenD6Rules, who: Fighter, skill: str, final: D6Code, actions: int,
               aim: int = 0) -> str:
    base = rules.code_of(who, skill)
    text = f"{skill} {base}"
    if actions > 1:
        text += f" - {rules.p.multi_action_penalty * (actions - 1)}D ({actions} actions)"
    if rules.wound_penalty(who):
        text += f" - {rules.wound_penalty(who)}D (wounded)"
    if aim:
        text += f" + {min(rules.p.aim_max_dice, aim * rules.p.aim_dice_per_round)}D aim"
    return text + (f" = {final}" if final != base else "")


def resolve(rules: OpenD6Rules, data: Model, rolls: NamedRolls, library: Library) -> Report:
    rules, attacker, defender, weapon, sit = _inputs(rules, data)
    out = rules.attack(attacker, defender, weapon, sit, rolls)
    report = Report(_title(data))
    if out.defense is not None:
        skill = rules.p.defense_skills[sit.defense]
        actions = 1 if sit.full_defense else sit.defense_actions
        code = _code_text(rules, defender, skill, out.defense.code, actions)
        full = f" + {rules.p.full_defense_bonus} full defense" if sit.full_defense else ""
        report.step(f"Active defense ({sit.defense}): {code}: "
                    f"{_roll_text(out.defense, sit.defender_character_points)}{full}.")
    (label, base), mods = out.difficulty_parts[0], out.difficulty_parts[1:]
    floor = f" (never below {rules.p.min_difficulty})" if out.difficulty != base + sum(v for _, v in mods) else ""
    report.step(f"Difficulty: {label} {base}{mods_text(mods)} = {out.difficulty}{floor}.")
    code = _code_text(rules, attacker, weapon.skill, out.attack.code, sit.actions, sit.aim_rounds)
    report.step(f"Attack: {code}: {_roll_text(out.attack, sit.character_points)}.")
    report.step(f"{out.reason[0].upper()}{out.reason[1:]}: {'hit' if out.hit else 'miss'}.")
    if out.hit and out.damage is not None:
        _damage_steps(rules, report, out, weapon)
    if out.backlash is not None:
        _backlash_steps(rules, report, out.backlash, attacker if out.backlash.victim == "attacker" else defender)
    report.step(_body_text(rules, defender, out.damage_after, out.state))
    report.result = _result(rules, out, defender)
    return report


def _body_text(rules: OpenD6Rules, who: Fighter, after: int, state: str) -> str:
    if rules.wounds is not None:
        return f"{who.name}: {state.replace('_', ' ')}."
    return f"{who.name}: {who.body_points - after} of {who.body_points} Body Points left: {state}."


def _backlash_steps(rules: OpenD6Rules, report: Report, hit: Backlash, victim: Fighter) -> None:
    report.step(f"{hit.reason}: {victim.name} takes the weapon's listed damage "
                f"{hit.damage.code}: {_roll_text(hit.damage)}.")
    _injury_step(rules, report, hit.damage.total, hit.armor, hit.resist, hit.applied)
    report.step(_body_text(rules, victim, hit.after, hit.state))


def _damage_steps(rules: OpenD6Rules, report: Report, out: Outcome, weapon: Weapon) -> None:
    assert out.damage is not None
    plus = " (with Strength Damage)" if D6Code.parse(weapon.damage).plus else ""
    report.step(f"Damage: {out.damage.code}{plus}: {_roll_text(out.damage)}.")
    if out.damage_bonus:
        report.step(f"Damage bonus: ({out.attack.total} - {out.difficulty}) / 5, rounded up = +{out.damage_bonus}.")
    _injury_step(rules, report, out.damage.total + out.damage_bonus, out.armor, out.resist, out.damage_applied)


def _injury_step(rules: OpenD6Rules, report: Report, total: int, armor: int, resist: D6Roll | None,
                 applied: int) -> None:
    if resist is None or rules.p.wounds is None:
        report.step(f"Body Points: {total} - {armor} armor = {applied} lost.")
        return
    worn = f" + {armor} armor" if armor and rules.p.wounds.armor_adds else ""
    over = total - resist.total - (armor if rules.p.wounds.armor_adds else 0)
    report.step(f"Wounds: resisted with {rules.p.wounds.resist} {resist.code}: {_roll_text(resist)}{worn}; "
                f"{total} is {max(0, over)} over the resistance total.")


def _result(rules: OpenD6Rules, out: Outcome, defender: Fighter) -> dict[str, Any]:
    rolled = (out.damage.total + out.damage_bonus) if out.damage else 0
    wounds = rules.wounds is not None
    found: dict[str, Any] = {
        "hit": out.hit, "hits": int(out.hit), "damage_rolled": rolled,
        "damage_applied": 0 if wounds else out.damage_applied, "wounds": out.damage_applied if wounds else 0,
        "defender": {"name": defender.name, "body_points": defender.body_points - out.damage_after,
                     "max_body_points": defender.body_points, "state": out.state},
        "attack_total": out.attack.total, "difficulty": out.difficulty,
        "complication": out.attack.complication, "damage_bonus": out.damage_bonus, "armor": out.armor}
    if wounds:
        found["defender"] = {"name": defender.name, "wound_level": out.damage_after, "state": out.state}
        found["resist_total"] = out.resist.total if out.resist else None
        found["over"] = out.over
    if out.backlash is not None:
        found["backlash"] = {"victim": out.backlash.victim, "damage_rolled": out.backlash.damage.total,
                             "damage_applied": out.backlash.applied, "state": out.backlash.state}
    return found


def odds(rules: OpenD6Rules, data: Model, library: Library) -> Report:
    rules, attacker, defender, weapon, sit = _inputs(rules, data)
    return odds_report(_title(data), opend6_odds(rules, attacker, defender, weapon, sit), {})
