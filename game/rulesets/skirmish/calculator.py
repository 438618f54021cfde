"""The calculator under the `skirmish` ruleset: SkirmishRules' own checks, hits and damage.

Units, weapons and armor may be bundled ids (`unit: hollis`, `weapon: es63_custom`) or
written inline. A `blast` situation resolves a grenade at ring N, as the engine does: ring r
takes the dice from r on (5d20 -> ring 4 takes the last die).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TYPE_CHECKING

from pydantic import Discriminator, Field, Tag, ValidationInfo, field_validator

from game.content.problems import suggest
from game.content.schema import FireMode, Name, RulesetSpec, WeaponSpec
from game.core.dice import DiceCode
from game.core.odds import AttackOdds, states_of
from game.rulesets.skirmish.odds import blast_ring_damage, riposte_chance, skirmish_hit_damage, skirmish_odds
from game.rulesets.skirmish.rules import AttackSituation, Combatant, SkirmishRules
from game.resolve.inputs import Action, Checker, Header, In, Invalid, context_library, context_rules, unknown
from game.resolve.report import Report, mods_text, odds_report
from game.resolve.rolls import NamedDice, NamedRolls

if TYPE_CHECKING:
    from game.content.loader import Library


def _ref_or_inline(value: object) -> str:
    return "ref" if isinstance(value, str) else "inline"


ArmorIn = Annotated[Annotated[str, Tag("ref")] | Annotated[dict[str, int], Tag("inline")],
                    Discriminator(_ref_or_inline)]


class UnitIn(In):
    unit: str | None = None
    name: Name | None = None
    hp: int | None = None
    attributes: dict[str, int] = Field(default_factory=dict)
    skills: dict[str, int] = Field(default_factory=dict)
    abilities: dict[str, int] = Field(default_factory=dict)
    armor: ArmorIn | None = None
    morale_modifier: int = 0

    @field_validator("unit")
    @classmethod
    def _known_unit(cls, value: str | None, info: ValidationInfo) -> str | None:
        library = context_library(info)
        if value is not None and library is not None and value not in library.units:
            raise ValueError(unknown("unit", value, library.units))
        return value

    @field_validator("armor")
    @classmethod
    def _known_armor(cls, value: object, info: ValidationInfo) -> object:
        library = context_library(info)
        if isinstance(value, str) and library is not None and value not in library.armor:
            raise ValueError(unknown("armor", value, library.armor))
        return value


def known_weapon(value: object, info: ValidationInfo) -> object:
    """A bundled weapon id must name a weapon of the library (with a "did you mean")."""
    library = context_library(info)
    if isinstance(value, str) and library is not None and value not in library.weapons:
        raise ValueError(unknown("weapon", value, library.weapons))
    return value


class InlineWeapon(WeaponSpec):
    id: str = "inline"
    name: Name = "weapon"


WeaponIn = Annotated[Annotated[str, Tag("ref")] | Annotated[InlineWeapon, Tag("inline")],
                     Discriminator(_ref_or_inline)]


class SituationIn(In):
    type: Literal["attack", "blast"] = "attack"
    mode: str | None = None
    aim: int = Field(default=0, ge=0)
    location: str = "torso"
    distance: int = Field(default=1, ge=0)
    cover: Literal["none", "half", "full"] = "none"
    concealed: bool = False
    running: bool = False
    moved_rough: bool = False
    dropped_flat: bool = False
    stance: Literal["stand", "crouch", "prone"] = "stand"
    ring: int = Field(default=0, ge=0)

    @field_validator("location")
    @classmethod
    def _known_location(cls, value: str, info: ValidationInfo) -> str:
        rules = context_rules(info)
        if isinstance(rules, SkirmishRules) and value not in rules.p.hit_locations:
            raise ValueError(unknown("location", value, rules.p.hit_locations))
        return value


class Model(Header):
    attacker: UnitIn | None = None
    defender: UnitIn
    weapon: WeaponIn
    situation: SituationIn = Field(default_factory=SituationIn)
    riposte_weapon: WeaponIn | None = None     # what a defender with Riposte strikes back with

    _weapon = field_validator("weapon")(known_weapon)
    _riposte_weapon = field_validator("riposte_weapon")(known_weapon)


class Unit:
    """A unit read from the file: bundled numbers with inline ones on top."""

    def __init__(self, data: UnitIn, library: Library, where: str | tuple[Any, ...]) -> None:
        base = library.units.get(data.unit) if data.unit else None
        self.base = base
        loc = where if isinstance(where, tuple) else (where,)
        if data.unit and base is None:
            raise Invalid((*loc, "unit"), unknown("unit", data.unit, library.units))
        default = where.title() if isinstance(where, str) else f"{str(where[0]).rstrip('s').title()} {where[-1] + 1}"
        self.name = data.name or (base.name if base else default)
        self.hp = data.hp if data.hp is not None else (base.hp if base else 10)
        attrs = {**(base.attributes if base else {}), **data.attributes}
        skills = {**(base.skills if base else {}), **data.skills}
        abilities = {**(base.abilities if base else {}), **data.abilities}
        self.combatant = Combatant(attrs, skills, abilities, data.morale_modifier)
        armor = data.armor if data.armor is not None else (base.armor if base else None)
        self.resist: dict[str, int]
        if isinstance(armor, str):
            if armor not in library.armor:
                raise Invalid((*loc, "armor"), unknown("armor", armor, library.armor))
            self.armor_name, self.resist = library.armor[armor].name, dict(library.armor[armor].resist.items())
        else:
            self.armor_name, self.resist = "armor", dict(armor or {})

    @property
    def constitution(self) -> int:
        return self.combatant.attributes.get("constitution", 0)


def rules_for(spec: RulesetSpec) -> SkirmishRules:
    return SkirmishRules(spec)


def actions() -> dict[str, Action]:
    """What the calculator resolves under skirmish beyond an attack (docs/RESOLVE.md)."""
    from game.rulesets.skirmish.calculator_actions import ACTIONS   # it builds on this module

    return ACTIONS


def _weapon(data: Model, library: Library) -> WeaponSpec:
    return weapon_of(data.weapon, library, ("weapon",))


def weapon_of(weapon: str | WeaponSpec, library: Library, where: tuple[str, ...]) -> WeaponSpec:
    if isinstance(weapon, WeaponSpec):
        return weapon
    if weapon not in library.weapons:
        raise Invalid(where, unknown("weapon", weapon, library.weapons))
    return library.weapons[weapon]


Setup = tuple[WeaponSpec, "Unit | None", "Unit", "AttackSituation | None", "FireMode | None"]


def _setup(rules: SkirmishRules, data: Model, library: Library) -> Setup:
    weapon = _weapon(data, library)
    defender = Unit(data.defender, library, "defender")
    if data.situation.type == "blast":
        return weapon, None, defender, None, None
    check = Checker()
    if data.attacker is None:
        check.add(("attacker",), "an attack needs an attacker")
    s = data.situation
    modes = {m.name: m for m in weapon.modes}
    mode = modes.get(s.mode) if s.mode else (weapon.modes[0] if weapon.modes else None)
    if s.mode and mode is None:
        check.add(("situation", "mode"), f"{weapon.name} has no mode {s.mode!r}{suggest(s.mode, modes)}; "
                                         f"it has: {', '.join(modes)}")
    elif mode is None:
        check.add(("weapon",), "the weapon needs a mode to attack with")
    if s.aim > weapon.aim_max:
        check.add(("situation", "aim"), f"{weapon.name} aims to +{weapon.aim_max} at most")
    if s.location not in rules.p.hit_locations:
        check.add(("situation", "location"), unknown("location", s.location, rules.p.hit_locations))
    check.done()
    assert data.attacker is not None and mode is not None, "checked above"
    attacker = Unit(data.attacker, library, "attacker")
    # as on the grid (core attack.situation): Shot on the Run / Attack on the Run lift the running
    # penalty from that kind of attack
    on_the_run = "attack_on_the_run" if weapon.kind == "melee" else "shot_on_the_run"
    running = s.running and on_the_run not in attacker.combatant.abilities
    sit = AttackSituation(weapon, mode, s.aim, s.stance, s.location, s.distance, s.cover, s.concealed,
                          running, s.moved_rough, s.dropped_flat, weapon.kind == "melee")
    return weapon, attacker, defender, sit, mode


def _after(rules: SkirmishRules, defender: Unit, taken: int) -> dict[str, Any]:
    hp = defender.hp - taken
    return {"name": defender.name, "hp_before": defender.hp, "hp": hp,
            "state": rules.state_for(hp, defender.constitution)}


def resolve(rules: SkirmishRules, data: Model, rolls: NamedRolls, library: Library) -> Report:
    weapon, attacker, defender, sit, mode = _setup(rules, data, library)
    dice = NamedDice(rolls)
    if sit is None:
        return _blast(rules, data, weapon, defender, dice)
    assert attacker is not None and mode is not None, "_setup gives both with a situation"
    report = Report(data.title or f"{attacker.name} attacks {defender.name} with the {weapon.name} ({mode.name})")
    with dice.named("attack"):
        attack = rules.attack_check(attacker.combatant, sit, dice)
    with dice.named("defense"):
        defense = rules.defense_check(defender.combatant, sit, dice)
    report.step(f"Attack ({weapon.skill}): {attack.rolls[0]}{mods_text(attack.modifiers)} = {attack.total}.")
    report.step(f"Defense ({rules.defense_skill(defender.combatant, sit)}): "
                f"{defense.rolls[0]}{mods_text(defense.modifiers)} = {defense.total}.")
    hits = rules.hit_count(attack.total, defense.total, weapon.spread, mode.rof)
    if not hits:
        report.step(f"{attack.total} does not beat {defense.total}: miss.")
    else:
        at = ", ".join(str(attack.total - k * weapon.spread) for k in range(hits))
        report.step(f"{attack.total} beats {defense.total}: {hits} hit{'s' if hits > 1 else ''} "
                    f"(at {at}; spread {weapon.spread}, rate of fire {mode.rof}).")
    per_hit = []
    for n in range(hits):
        with dice.named("damage"):
            roll = rules.damage(weapon.damage, weapon.damage_type, sit.location, defender.resist, dice)
        per_hit.append({"rolls": list(roll.rolls), "rolled": roll.rolled, "resisted": roll.resisted,
                        "taken": roll.taken})
        report.step(f"Hit {n + 1}: {weapon.damage} = {'+'.join(map(str, roll.rolls))} -> "
                    f"{roll.rolled} {weapon.damage_type}; {_armor(defender, weapon.damage_type)} absorbs {roll.resisted}; "
                    f"{roll.taken} to HP.")
    extra: dict[str, Any] = {"attack": attack.to_dict(), "defense": defense.to_dict()}
    if not hits and _ripostes(rules, weapon, defender):
        extra["riposte"] = _riposte(rules, data, library, attacker, defender, dice, report)
    return _finish(rules, report, defender, bool(hits), hits, per_hit, extra)


def _ripostes(rules: SkirmishRules, weapon: WeaponSpec, defender: Unit) -> bool:
    """Whether a miss with `weapon` is answered (the grid's rule: riposte.can_riposte)."""
    from game.rulesets.skirmish.riposte import attack_kind

    return "riposte" in defender.combatant.abilities and attack_kind(weapon) in rules.p.riposte.against


def _riposte_setup(rules: SkirmishRules, data: Model, library: Library) -> tuple[WeaponSpec, AttackSituation]:
    """The defender's blow back, unaimed, as a reaction: its `riposte_weapon`; else a bundled
    unit's first weapon (the one in its hands on the grid) when that is a melee weapon; else
    bare hands."""
    base = Unit(data.defender, library, "defender").base
    first = library.weapons.get(base.weapons[0].weapon) if base and base.weapons else None
    if data.riposte_weapon is not None:
        weapon = weapon_of(data.riposte_weapon, library, ("riposte_weapon",))
    elif first is not None and first.kind == "melee":
        weapon = first
    else:
        weapon = rules.unarmed_weapon()
    if weapon.kind != "melee" or not weapon.modes:
        raise Invalid(("riposte_weapon",), f"{weapon.name} is not a melee weapon: a riposte is a blow")
    return weapon, AttackSituation(weapon, weapon.modes[0], 0, "stand", "torso", 1, "none", False,
                                   False, False, False, True)


def _riposte(rules: SkirmishRules, data: Model, library: Library, attacker: Unit, defender: Unit,
             dice: NamedDice, report: Report) -> dict[str, Any]:
    weapon, sit = _riposte_setup(rules, data, library)
    with dice.named("riposte attack"):
        attack = rules.attack_check(defender.combatant, sit, dice)
    with dice.named("riposte defense"):
        defense = rules.defense_check(attacker.combatant, sit, dice)
    hits = rules.hit_count(attack.total, defense.total, weapon.spread, sit.mode.rof)
    report.step(f"{defender.name} ripostes with the {weapon.name}: {attack.rolls[0]}{mods_text(attack.modifiers)} "
                f"= {attack.total} against {attacker.name}'s {rules.defense_skill(attacker.combatant, sit)} "
                f"{defense.rolls[0]}{mods_text(defense.modifiers)} = {defense.total}: "
                f"{'hit' if hits else 'miss'}.")
    bonus = defender.combatant.attributes.get("strength", 0) if weapon.id == "unarmed" else 0
    taken = 0
    for _ in range(hits):
        with dice.named("riposte damage"):
            roll = rules.damage(weapon.damage, weapon.damage_type, "torso", attacker.resist, dice, bonus)
        taken += roll.taken
        report.step(f"Riposte hit: {weapon.damage}{f'+{bonus}' if bonus else ''} = "
                    f"{'+'.join(map(str, roll.rolls))} -> {roll.rolled} {weapon.damage_type}; "
                    f"{_armor(attacker, weapon.damage_type)} absorbs {roll.resisted}; {roll.taken} to HP.")
    after = _after(rules, attacker, taken)
    report.step(f"{attacker.name}: {attacker.hp} HP -> {after['hp']} HP: {after['state']}.")
    return {"attack": attack.to_dict(), "defense": defense.to_dict(), "hits": hits,
            "damage_applied": taken, "attacker": after}


def _blast(rules: SkirmishRules, data: Model, weapon: WeaponSpec, defender: Unit, dice: NamedDice) -> Report:
    code, drop, ring = DiceCode.parse(weapon.damage), rules.p.grenade.ring_dice_drop, data.situation.ring
    report = Report(data.title or f"The {weapon.name} bursts; {defender.name} is at ring {ring}")
    with dice.named("damage"):
        faces = dice.roll_code(code)
    total = sum(faces) + code.bonus
    report.step(f"Blast: {weapon.damage} = {'+'.join(map(str, faces))} = {total} {weapon.damage_type}.")
    kept = faces[ring * drop:]
    if not kept:
        report.step(f"Ring {ring} is beyond the blast ({code.count} dice, {drop} fewer per ring).")
        return _finish(rules, report, defender, False, 0, [], {})
    rolled = sum(kept) + code.bonus
    resisted = min(rolled, defender.resist.get(weapon.damage_type, 0))
    report.step(f"Ring {ring} takes the dice from the {_nth(ring * drop + 1)} on: "
                f"{'+'.join(map(str, kept))} = {rolled}; {_armor(defender, weapon.damage_type)} absorbs {resisted}; "
                f"{rolled - resisted} to HP.")
    hit = {"rolls": list(kept), "rolled": rolled, "resisted": resisted, "taken": rolled - resisted}
    return _finish(rules, report, defender, True, 1, [hit], {"blast_rolls": list(faces), "ring": ring})


def _armor(defender: Unit, damage_type: str) -> str:
    return f"{defender.armor_name} ({defender.resist.get(damage_type, 0)} {damage_type})"


def _nth(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _finish(rules: SkirmishRules, report: Report, defender: Unit, hit: bool, hits: int,
            per_hit: list[dict[str, Any]], extra: dict[str, Any]) -> Report:
    taken = sum(h["taken"] for h in per_hit)
    after = _after(rules, defender, taken)
    report.step(f"{defender.name}: {defender.hp} HP -> {after['hp']} HP: {after['state']}.")
    report.result = {"hit": hit, "hits": hits, "damage_rolled": sum(h["rolled"] for h in per_hit),
                     "damage_applied": taken, "wounds": 0, "defender": after, "per_hit": per_hit, **extra}
    return report


def odds(rules: SkirmishRules, data: Model, library: Library) -> Report:
    weapon, attacker, defender, sit, mode = _setup(rules, data, library)
    code = DiceCode.parse(weapon.damage)
    resist = defender.resist.get(weapon.damage_type, 0)
    state = lambda hp: rules.state_for(hp, defender.constitution)  # noqa: E731
    if sit is None:
        ring = data.situation.ring
        damage = blast_ring_damage(code, ring, rules.p.grenade.ring_dice_drop, resist)
        result = AttackOdds(1.0, (0.0, 1.0), damage, states_of(damage, lambda d: state(defender.hp - d)))
        return odds_report(data.title or f"The {weapon.name} at ring {ring}: {defender.name}",
                           result, {"odds_of": "blast"})
    assert attacker is not None and mode is not None, "_setup gives both with a situation"
    a_mod = rules.static_modifier(weapon.skill, attacker.combatant, rules.attack_modifiers(sit))
    d_skill = rules.defense_skill(defender.combatant, sit)
    extra = [] if sit.melee else [("cover", rules.p.cover_dodge_bonus[sit.cover])]
    d_mod = rules.static_modifier(d_skill, defender.combatant, extra)
    dist = rules.hit_distribution(a_mod, d_mod, weapon.spread, mode.rof)
    multiplier = rules.p.hit_locations[sit.location].damage_multiplier
    result = skirmish_odds(dist, skirmish_hit_damage(code, multiplier, resist), defender.hp, state)
    title = data.title or f"{attacker.name} attacks {defender.name} with the {weapon.name} ({mode.name})"
    found: dict[str, Any] = {"attack_modifier": a_mod, "defense_modifier": d_mod}
    if _ripostes(rules, weapon, defender):
        back, back_sit = _riposte_setup(rules, data, library)
        r_mod = rules.static_modifier(back.skill, defender.combatant, rules.attack_modifiers(back_sit))
        rd_mod = rules.static_modifier(rules.defense_skill(attacker.combatant, back_sit), attacker.combatant, [])
        back_hits = rules.hit_distribution(r_mod, rd_mod, back.spread, back_sit.mode.rof)
        found["riposte_hit_chance"] = riposte_chance(dist[0], back_hits)
    report = odds_report(title, result, found)
    if "riposte_hit_chance" in found:
        report.step(f"Missed and hit back by {defender.name}'s riposte: "
                    f"{found['riposte_hit_chance'] * 100:.2f}%")
    return report
