"""The calculator under the `d20` ruleset: stats written inline."""

from __future__ import annotations

from typing import Any, Literal, TYPE_CHECKING

from pydantic import Field, field_validator

from game.content.schema import Name, RulesetSpec, check_dice
from game.core.dice import DiceCode
from game.rulesets.d20.core import D20Rules, Fighter, Outcome, Situation, Weapon
from game.rulesets.d20.odds import d20_odds
from game.resolve.inputs import Action, Checker, Header, In, Invalid, unknown
from game.resolve.report import Report, mods_text, odds_report
from game.resolve.rolls import NamedRolls

if TYPE_CHECKING:
    from game.content.loader import Library


class FighterIn(In):
    name: Name
    attributes: dict[str, int] = Field(default_factory=dict)
    armor_rating: int = 10
    armored: bool = False
    hp: int = Field(default=20, ge=1)
    damage: int = Field(default=0, ge=0)
    reactions: list[str] = Field(default_factory=list)
    resistances: list[str] = Field(default_factory=list)
    weaknesses: list[str] = Field(default_factory=list)
    size: str = "medium"
    awareness: int = 0


class WeaponIn(In):
    name: Name
    damage: str
    damage_type: str = "piercing"
    style: Literal["melee", "finesse", "ranged", "magic"] = "ranged"
    crit_range: int = Field(default=20, ge=2, le=20)
    advanced: bool = False
    burst: int = Field(default=1, ge=1)
    clip: int = Field(default=1, ge=1)

    @field_validator("damage")
    @classmethod
    def _dice(cls, value: str) -> str:
        return check_dice(value)


class SituationIn(In):
    attack_type: str = "basic"
    modifiers: list[str] = Field(default_factory=list)
    extra: int = 0
    proficient: bool = True
    reaction: str = "none"
    held_actions: int = Field(default=0, ge=0, le=2)
    defender_reaction_bonus: int = 0
    riposte_damage: str | None = None


class Model(Header):
    attacker: FighterIn
    defender: FighterIn
    weapon: WeaponIn | Literal["unarmed"]     # "unarmed": bare fists, by the attacker's size
    situation: SituationIn = Field(default_factory=SituationIn)


def rules_for(spec: RulesetSpec) -> D20Rules:
    return D20Rules(spec)


def actions() -> dict[str, Action]:
    """What the calculator resolves under d20 beyond an attack: an ambush."""
    from game.rulesets.d20.calculator_ambush import ACTIONS   # it builds on game.resolve

    return ACTIONS


def _inputs(rules: D20Rules, data: Model) -> tuple[Fighter, Fighter, Weapon, Situation]:
    s = data.situation
    check = Checker()
    if s.attack_type not in rules.p.attack_types:
        check.add(("situation", "attack_type"), unknown("attack type", s.attack_type, rules.p.attack_types))
    for index, name in enumerate(s.modifiers):
        if name not in rules.p.hit_modifiers:
            check.add(("situation", "modifiers", index), unknown("modifier", name, rules.p.hit_modifiers))
    for who in ("attacker", "defender"):
        size = getattr(data, who).size
        if size not in rules.p.sizes:
            check.add((who, "size"), unknown("size", size, rules.p.sizes))
    if s.reaction != "none" and s.reaction not in rules.p.reactions:
        check.add(("situation", "reaction"), unknown("reaction", s.reaction, [*rules.p.reactions, "none"]))
    check.done()
    a, d = (Fighter(**{**f.model_dump(), "reactions": tuple(f.reactions), "resistances": tuple(f.resistances),
                       "weaknesses": tuple(f.weaknesses)}) for f in (data.attacker, data.defender))
    weapon = (rules.unarmed(a.size) if data.weapon == "unarmed"
              else Weapon(**data.weapon.model_dump()))
    sit = Situation(s.attack_type, tuple(s.modifiers), s.extra, s.proficient, s.reaction,
                    s.held_actions, s.defender_reaction_bonus, s.riposte_damage)
    if s.reaction != "none":
        refused = rules.can_react(d, weapon, sit)
        if refused:
            raise Invalid(("situation", "reaction"), refused)
    return a, d, weapon, sit


def _title(data: Model) -> str:
    kind = data.situation.attack_type.replace("_", " ")
    article = "an" if kind[0] in "aeiou" else "a"
    return data.title or (f"{data.attacker.name} makes {article} {kind} attack on {data.defender.name} "
                          f"with {'bare fists' if data.weapon == 'unarmed' else 'the ' + data.weapon.name}")


def resolve(rules: D20Rules, data: Model, rolls: NamedRolls, library: Library) -> Report:
    attacker, defender, weapon, sit = _inputs(rules, data)
    out = rules.attack(attacker, defender, weapon, sit, rolls)
    report = Report(_title(data))
    crit = f" (natural {out.natural}: critical, range {weapon.crit_range}-20)" if out.critical else ""
    report.step(f"Hit test: {out.natural}{mods_text(out.hit_parts)} = {out.hit_test}{crit} "
                f"against Armor Rating {out.armor_rating}.")
    if out.reaction is not None:
        natural, total, stopped = out.reaction
        if out.critical:
            if stopped:
                why = (f"a natural {natural} is a critical reaction, and above the hit test "
                       f"{out.hit_test}: it stops a critical hit")
            elif total > out.hit_test:
                why = "above the hit test, but only a critical reaction stops a critical hit"
            else:
                why = (f"not above the hit test {out.hit_test} (a critical hit needs a critical "
                       "reaction above it)")
        else:
            why = f"{'above' if stopped else 'not above'} the hit test {out.hit_test}"
        report.step(f"Reaction ({sit.reaction}): {natural} + modifiers = {total}; {why}.")
    report.step(f"{out.reason[0].upper()}{out.reason[1:]}: {'hit' if out.hit else 'miss'}.")
    if out.retaliation:
        report.step(f"{sit.reaction.title()}: {attacker.name} takes {out.retaliation} damage.")
    for n, (faces, total) in enumerate(zip(out.damage_rolls, out.damage_rolled, strict=True), 1):
        report.step(f"Hit {n}: {_damage_text(rules, attacker, defender, weapon, sit, faces, out.critical)} "
                    f"= {total} {weapon.damage_type}.")
    if out.status:
        report.step(f"Critical {weapon.damage_type}: {defender.name} is {out.status} for {out.status_turns} turns.")
    if out.armor_loss:
        report.step(f"Critical concussive: {defender.name}'s Armor Rating drops by {out.armor_loss}.")
    report.step(f"{defender.name}: {defender.hp - out.damage_after} of {defender.hp} HP: {out.state}.")
    report.result = _result(out, defender)
    return report


def _damage_text(rules: D20Rules, attacker: Fighter, defender: Fighter, weapon: Weapon, sit: Situation,
                 faces: tuple[int, ...], critical: bool) -> str:
    code = DiceCode.parse(weapon.damage)
    text = f"{weapon.damage} = {'+'.join(map(str, faces))}"
    factor = (2 if critical else 1) * rules.p.attack_types[sit.attack_type].damage_multiplier
    if factor > 1:
        why = " and ".join(w for w, on in (("critical", critical), (sit.attack_type, factor > (2 if critical else 1))) if on)
        text += f", x{factor} ({why.replace('_', ' ')})"
    if code.bonus:
        text += f", {code.bonus:+d}"
    attr = rules.p.damage_attributes.get(weapon.style)
    if attr and attacker.attributes.get(attr, 0) and weapon.attribute_times:
        times = f" x{weapon.attribute_times}" if weapon.attribute_times > 1 else ""
        text += f", {attacker.attributes[attr]:+d} {attr}{times}"
    if weapon.divisor > 1:
        text += f", / {weapon.divisor} (rounded down)"
    resisted, weak = weapon.damage_type in defender.resistances, weapon.damage_type in defender.weaknesses
    if resisted != weak:
        text += ", halved (resistance)" if resisted else ", doubled (weakness)"
    return text


def _result(out: Outcome, defender: Fighter) -> dict[str, Any]:
    return {"hit": out.hit, "hits": out.hits, "damage_rolled": sum(out.damage_rolled),
            "damage_applied": out.damage_applied, "wounds": 0,
            "defender": {"name": defender.name, "hp": defender.hp - out.damage_after, "max_hp": defender.hp,
                         "state": out.state, "status": out.status, "status_turns": out.status_turns,
                         "armor_rating": defender.armor_rating - out.armor_loss},
            "hit_test": out.hit_test, "natural": out.natural, "critical": out.critical,
            "reaction": None if out.reaction is None else dict(zip(("natural", "total", "stopped"), out.reaction, strict=True)),
            "retaliation": out.retaliation, "per_hit": list(out.damage_rolled)}


def odds(rules: D20Rules, data: Model, library: Library) -> Report:
    attacker, defender, weapon, sit = _inputs(rules, data)
    return odds_report(_title(data), d20_odds(rules, attacker, defender, weapon, sit), {})
