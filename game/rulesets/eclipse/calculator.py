"""The calculator under the Eclipse Phase rulesets (`eclipse2`, `eclipse1`): inline stats."""

from __future__ import annotations

from typing import Any, Literal, TYPE_CHECKING

from pydantic import Field, field_validator

from game.content.schema import Name, RulesetSpec, check_dice
from game.rulesets.eclipse.first import Eclipse1Rules
from game.rulesets.eclipse.second import Eclipse2Rules
from game.rulesets.eclipse.core import D100, EclipseRules, Fighter, Outcome, Situation, Weapon, attack_odds
from game.resolve.inputs import Checker, Header, In, pairs, unknown
from game.resolve.report import Report, mods_text, odds_report
from game.resolve.rolls import NamedRolls

if TYPE_CHECKING:
    from game.content.loader import Library


class FighterIn(In):
    name: Name
    skills: dict[str, int] = Field(default_factory=dict)
    aptitudes: dict[str, int] = Field(default_factory=dict)
    armor: dict[Literal["energy", "kinetic"], int] = Field(default_factory=dict)
    durability: int = Field(default=30, ge=1)
    wound_threshold: int = Field(default=6, ge=1)
    death_rating: int = Field(default=0, ge=0)
    damage: int = Field(default=0, ge=0)
    wounds: int = Field(default=0, ge=0)
    traumas: int = Field(default=0, ge=0)


class WeaponIn(In):
    name: Name
    skill: str
    damage: str
    kind: Literal["melee", "ranged", "psi"] = "ranged"
    armor: Literal["kinetic", "energy"] = "kinetic"
    armor_piercing: bool = False
    armor_penetration: int = 0
    burst: str | None = None

    @field_validator("damage", "burst")
    @classmethod
    def _dice(cls, value: str | None) -> str | None:
        return None if value is None else check_dice(value)


class SituationIn(In):
    attacker_modifiers: list[str] = Field(default_factory=list)
    defender_modifiers: list[str] = Field(default_factory=list)
    attacker_extra: dict[str, int] = Field(default_factory=dict)
    defender_extra: dict[str, int] = Field(default_factory=dict)
    range: str | None = None
    defense: Literal["fray", "melee", "none"] = "fray"
    defense_skill: str = "melee"
    full_defense: bool = False
    burst: bool = False
    blind_miss_chance: bool = False


class Model(Header):
    attacker: FighterIn
    defender: FighterIn
    weapon: WeaponIn
    situation: SituationIn = Field(default_factory=SituationIn)


def rules_for(spec: RulesetSpec) -> EclipseRules:
    return Eclipse2Rules(spec) if spec.engine == "eclipse2" else Eclipse1Rules(spec)


def _inputs(rules: EclipseRules, data: Model) -> tuple[Fighter, Fighter, Weapon, Situation]:
    s = data.situation
    check = Checker()
    for key in ("attacker_modifiers", "defender_modifiers"):
        for index, name in enumerate(getattr(s, key)):
            if name not in rules.p.modifiers:
                check.add(("situation", key, index), unknown("modifier", name, rules.p.modifiers))
    if s.range is not None and s.range not in rules.p.range_modifiers:
        check.add(("situation", "range"), unknown("range", s.range, rules.p.range_modifiers))
    check.done()
    fighters = [Fighter(**f.model_dump()) for f in (data.attacker, data.defender)]
    sit = Situation(tuple(s.attacker_modifiers), tuple(s.defender_modifiers), pairs(s.attacker_extra),
                    pairs(s.defender_extra), s.range, s.defense, s.defense_skill, s.full_defense,
                    s.burst, s.blind_miss_chance)
    return fighters[0], fighters[1], Weapon(**data.weapon.model_dump()), sit


def _title(data: Model) -> str:
    return data.title or f"{data.attacker.name} attacks {data.defender.name} with the {data.weapon.name}"


def _target(check: Any) -> str:
    label, base = check.modifiers[0]
    first = f"{label} = {base}" if ("/" in label or " x " in label) else f"{label} {base}"
    return f"{first}{mods_text(check.modifiers[1:])} = target {check.total}"


def _test(test: D100, eclipse2: bool) -> str:
    text = f"roll {test.roll:02d}: {'success' if test.success else 'failure'}"
    if test.critical:
        text += ", critical"
    if eclipse2 and test.superior:
        text += f", {test.superior} superior success{'es' if test.superior > 1 else ''}"
    if not eclipse2 and test.success:
        text += f", margin of success {test.mos}"
    return text


def resolve(rules: EclipseRules, data: Model, rolls: NamedRolls, library: Library) -> Report:
    attacker, defender, weapon, sit = _inputs(rules, data)
    out = rules.attack(attacker, defender, weapon, sit, rolls)
    eclipse2 = isinstance(rules, Eclipse2Rules)
    report = Report(_title(data))
    report.step(f"Attack ({weapon.kind}): {_target(out.attack)}; {_test(out.attack_test, eclipse2)}.")
    if out.defense is None:
        report.step(f"Defense: {defender.name} cannot defend (surprised or incapacitated).")
    else:
        how = "full defense, " if sit.full_defense else ""
        assert out.defense_test is not None, "a defense rolled has its test"
        report.step(f"Defense ({how}{out.defense.modifiers[0][0].split(' ')[0]}): {_target(out.defense)}; "
                    f"{_test(out.defense_test, eclipse2)}.")
    report.step(f"{out.reason[0].upper()}{out.reason[1:]}: {'hit' if out.hit else 'miss'}.")
    if out.hit and out.plan is not None:
        _damage_steps(rules, report, out, defender, weapon)
    for note in out.notes:
        report.step(f"Note: {note}.")
    if isinstance(rules, Eclipse1Rules) and rules.defender_benefit(out):
        report.step(f"{defender.name}'s critical defense earns a benefit (cover, superior position...).")
    report.step(f"{defender.name}: {out.damage_after} damage (Durability {defender.durability}, "
                f"Death Rating {rules.death_rating(defender)}), {out.wounds_after} "
                f"wound{'s' if out.wounds_after != 1 else ''}: {out.state}.")
    report.result = _result(rules, out, defender)
    return report


def _damage_steps(rules: EclipseRules, report: Report, out: Outcome, defender: Fighter, weapon: Weapon) -> None:
    plan = out.plan
    assert plan is not None
    dice = " + ".join(f"{code} {label}" for label, code in plan.dice)
    bonus = f" + {plan.bonus}" if plan.bonus else ""
    excellent = rules.excellent_bonus(out.attack_test.mos) if isinstance(rules, Eclipse1Rules) else 0
    labels = f" + {plan.bonus - excellent}" if plan.bonus - excellent else ""
    labels += f" + {excellent} excellent success" if excellent else ""
    text = f"Damage: {dice}{labels} = {'+'.join(map(str, out.damage_rolls))}{bonus}"
    if plan.multiplier > 1:
        text += f" = {out.damage_rolled // plan.multiplier}, x{plan.multiplier} for the critical"
    report.step(f"{text} = {out.damage_rolled}.")
    defeating = (isinstance(rules, Eclipse1Rules) and rules.p.armor_defeating_critical
                 and out.attack_test.critical)
    if plan.armor_ignored and defeating:
        report.step("Critical: the attack is armor-defeating; armor is ignored.")
    elif plan.armor_ignored:
        report.step("Called shot: it finds a gap in the armor; armor is ignored.")
    else:
        worn = defender.armor.get(weapon.armor, 0)
        how = f"{weapon.armor} armor {worn}"
        if out.armor != worn:
            how += f", cut to {out.armor}"
        report.step(f"Armor: {how}: {out.damage_rolled} - {out.armor} = {out.damage_applied} through.")
    report.step(f"Wounds: {out.damage_applied} against Wound Threshold {defender.wound_threshold}: "
                f"{out.wounds} wound{'s' if out.wounds != 1 else ''}.")
    if out.knockdown is not None:
        stays = "stays standing" if out.knockdown.success else "knocked down"
        report.step(f"Knockdown: check {out.knockdown.target}, roll {out.knockdown.roll:02d}: {stays}.")


def _result(rules: EclipseRules, out: Outcome, defender: Fighter) -> dict[str, Any]:
    def test(t: D100 | None) -> dict[str, Any] | None:
        return None if t is None else {"roll": t.roll, "target": t.target, "success": t.success,
                                       "critical": t.critical, "superior": t.superior, "mos": t.mos}
    return {"hit": out.hit, "hits": int(out.hit), "damage_rolled": out.damage_rolled,
            "damage_applied": out.damage_applied, "wounds": out.wounds,
            "defender": {"name": defender.name, "damage": out.damage_after, "wounds": out.wounds_after,
                         "durability": defender.durability, "death_rating": rules.death_rating(defender),
                         "state": out.state,
                         "knocked_down": bool(out.knockdown and not out.knockdown.success)},
            "attack": test(out.attack_test), "defense": test(out.defense_test),
            "damage_rolls": list(out.damage_rolls), "armor": out.armor, "reason": out.reason,
            "notes": list(out.notes)}


def odds(rules: EclipseRules, data: Model, library: Library) -> Report:
    attacker, defender, weapon, sit = _inputs(rules, data)
    return odds_report(_title(data), attack_odds(rules, attacker, defender, weapon, sit), {})
