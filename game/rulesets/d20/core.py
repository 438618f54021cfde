"""The `d20` ruleset: Chapter 6, Combat (seed 003).

Initiative is d20 + DEX (ties: DEX, then d6 roll-offs). A turn is two Actions and a Free
Action. An attack's hit test is d20 + modifiers against the target's Armor Rating; a natural
roll in the weapon's critical range goes through armor and doubles the weapon dice. A target
may react (dodge, parry, riposte, counterspell, rebound) with d20 + DEX above the hit test; a
critical is stopped only by a reaction that is critical as well as above the hit test. Resistance halves damage, weakness
doubles it; criticals may inflict statuses by damage type. Numbers: content/rulesets/d20.yaml.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from game.content.schema import RulesetSpec
from game.core.dice import DiceCode

Roll = Callable[[str, int, int], int]
Style = Literal["melee", "finesse", "ranged", "magic"]
_ALL_STYLES: tuple[Style, ...] = ("melee", "finesse", "ranged", "magic")


class _P(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class AttackType(_P):
    actions: int = Field(ge=1, le=2)
    attack: bool = True
    hit: int = 0
    damage_multiplier: int = Field(default=1, ge=1)
    exposed: int = 0                 # to be hit, until the attacker's next turn
    reaction_bonus: int = 0          # to the attacker's own reactions this round
    enemy_hit: int = 0               # to enemies' hit tests against the attacker this round
    multiple_hits: Literal["none", "burst", "clip"] = "none"
    subtract_awareness: bool = False
    no_reaction: bool = False
    styles: list[Style] = Field(default_factory=lambda: list(_ALL_STYLES))


class Reaction(_P):
    attribute: str
    against: list[Style]
    damage: str | None = None        # rebound: dice dealt back; riposte: the defender's weapon
    excludes: list[str] = []         # reactions it cannot share a round with (parry / riposte)


class CritEffect(_P):
    test: Literal["d20_at_least", "willpower_below"]
    value: int
    status: str | None = None
    armor_loss: int = 0


class Status(_P):
    damage: str | None = None
    actions_lost: float = 0
    # "each_turn": Actions lost on every turn under the status (stunned); "next_turn": only on
    # the bearer's next turn after it is inflicted (shocked, frozen), whatever the duration.
    lost_on: Literal["each_turn", "next_turn"] = "each_turn"
    speed_divisor: int = Field(default=1, ge=1)   # movement speed divided (rounded down) for the duration
    hit_bonus: int = 0
    duration: str | int = "1d4"
    ends_on_damage: bool = False
    ends_on_test_above: int | None = None


class UnarmedSize(_P):
    damage: str                      # the dice and flat bonus: 1d4+2
    strength: int = Field(default=1, ge=0)    # times the melee damage attribute is added
    divisor: int = Field(default=1, ge=1)     # the total divided, rounded down (a flea's 1d4 / 2)

    @field_validator("damage")
    @classmethod
    def _dice(cls, value: str) -> str:
        DiceCode.parse(value)
        return value


class Unarmed(_P):
    damage_type: str
    by_size: dict[str, UnarmedSize]


class Ability(_P):
    """A skill that changes the turn: more reactions a round, more attacks a turn."""
    reactions: int | None = Field(default=None, ge=1)
    attacks: int | None = Field(default=None, ge=1)


class ItemKind(_P):
    """An item a scenario may leave on the floor (Recover Item picks it up, Use Item uses it):
    what it is called and drawn as, the Actions using it takes, and what it does."""
    name: str = Field(min_length=1, max_length=40)
    glyph: str = Field(min_length=1, max_length=1)
    actions: int = Field(ge=1, le=2)          # "One or Two Actions"
    heal: str | None = None                   # dice of hit points back to its user
    magazines: int = Field(default=0, ge=0, le=10)   # spare magazines for the firearm in hand

    @field_validator("heal")
    @classmethod
    def _heal_dice(cls, value: str | None) -> str | None:
        if value is not None:
            DiceCode.parse(value)
        return value

    @model_validator(mode="after")
    def _does_something(self) -> ItemKind:
        if not self.heal and not self.magazines:
            raise ValueError("an item needs an effect: `heal` (dice) or `magazines`")
        return self


class Jump(_P):
    """Jump (One Action): over one square of a terrain listed in `over` (its DC) to the
    square beyond, on an Attribute Test of `attribute`; failed, the unit stays where it was,
    prone if `fall_prone`."""
    actions: int = Field(default=1, ge=1, le=2)
    attribute: str
    over: dict[str, int] = Field(default_factory=dict)   # terrain id -> DC
    fall_prone: bool = True


class D20Params(_P):
    die: int = Field(ge=2)
    initiative_attribute: str
    tie_die: int = Field(ge=2)
    actions_per_turn: int = Field(ge=1)
    free_actions: int = Field(ge=0)
    attacks_per_turn: int = Field(ge=1)
    reactions_per_round: int = Field(default=1, ge=1)
    abilities: dict[str, Ability] = Field(default_factory=dict)
    held_action_reaction_bonus: int
    speed_base: int
    speed_attribute_divisor: int = Field(ge=1)
    equal_hits: bool
    natural_one_misses: bool
    attack_attributes: dict[Style, str | None]
    damage_attributes: dict[Style, str | None]
    attack_types: dict[str, AttackType]
    hit_modifiers: dict[str, int]
    sizes: dict[str, int]
    proficiency: dict[Literal["basic", "advanced"], int]
    reactions: dict[str, Reaction]
    reaction_critical: int
    multi_hit_step: int = Field(ge=1)
    resistance_divisor: int = Field(ge=1)
    weakness_multiplier: int = Field(ge=1)
    crit_effects: dict[str, CritEffect]
    statuses: dict[str, Status]
    willpower_attribute: str
    dead_below_zero_share: float = Field(gt=0)
    unarmed: Unarmed
    # The Combat Actions table's Unjam Weapon and Recover Item, in Actions; how far away (in
    # squares) an item can be picked up from; the items a scenario may leave on the floor; Jump.
    unjam_actions: int = Field(default=2, ge=1, le=2)
    recover_item_actions: int = Field(default=1, ge=1, le=2)
    recover_reach: int = Field(default=1, ge=0, le=1)
    items: dict[str, ItemKind] = Field(default_factory=dict)
    jump: Jump | None = None

    @model_validator(mode="after")
    def _every_size_punches(self) -> D20Params:
        missing = [size for size in self.sizes if size not in self.unarmed.by_size]
        if missing:
            raise ValueError(f"unarmed.by_size has no damage for {', '.join(missing)}")
        return self


@dataclass(frozen=True, slots=True)
class Fighter:
    name: str
    attributes: dict[str, int] = field(default_factory=dict)    # str, dex, per, wil, mag ...
    armor_rating: int = 10
    armored: bool = False                # wears armor (concussive criticals wear it down)
    hp: int = 20
    damage: int = 0
    reactions: tuple[str, ...] = ()      # reaction skills the fighter has
    resistances: tuple[str, ...] = ()
    weaknesses: tuple[str, ...] = ()
    size: str = "medium"
    awareness: int = 0


@dataclass(frozen=True, slots=True)
class Weapon:
    name: str
    damage: str                          # 1d8, 2d6 ...
    damage_type: str = "piercing"
    style: Style = "ranged"
    crit_range: int = 20                 # 19: criticals on 19-20
    advanced: bool = False
    burst: int = 1                       # rounds a burst can hit with
    clip: int = 1
    attribute_times: int = 1             # times the damage attribute is added (a giant's fists: 2)
    divisor: int = 1                     # the damage divided, rounded down (a flea's fists: 2)
    jams_on: int = 0                     # a natural hit roll this low or lower jams it (0: never)


@dataclass(frozen=True, slots=True)
class Situation:
    attack_type: str = "basic"
    modifiers: tuple[str, ...] = ()      # names from hit_modifiers
    extra: int = 0
    proficient: bool = True
    reaction: str = "none"
    held_actions: int = 0                # the defender's held actions: +1 each to reactions
    defender_reaction_bonus: int = 0     # e.g. +2 after its own Defensive Strike
    riposte_damage: str | None = None    # the defender's weapon dice, for a riposte
    extra_label: str = "other"           # what the log calls `extra`


@dataclass(frozen=True, slots=True)
class Outcome:
    natural: int
    hit_test: int
    hit_parts: tuple[tuple[str, int], ...]
    armor_rating: int
    critical: bool
    hit: bool
    reason: str
    hits: int = 0
    reaction: tuple[int, int, bool] | None = None       # natural, total, stopped
    damage_rolls: tuple[tuple[int, ...], ...] = ()
    damage_rolled: tuple[int, ...] = ()
    damage_applied: int = 0
    damage_after: int = 0
    state: str = "ok"
    status: str | None = None
    status_turns: int = 0
    armor_loss: int = 0
    effect: str = ""                                     # a critical's effect test, in words
    retaliation: int = 0                                 # riposte or rebound damage to the attacker
    jammed: bool = False                                 # the weapon jammed: no shot left it


class D20Rules:
    name = "d20"
    Params = D20Params

    def __init__(self, spec: RulesetSpec) -> None:
        self.spec = spec
        self.p = D20Params.model_validate(spec.params)

    # --- turns ------------------------------------------------------------------------------

    def initiative_order(self, fighters: list[Fighter], roll: Roll) -> list[tuple[str, int]]:
        """(name, total) highest first; ties by the attribute, then d6 roll-offs until broken."""
        attr = self.p.initiative_attribute
        rolled = [(f, roll(f"initiative:{f.name}", 1, self.p.die) + f.attributes.get(attr, 0))
                  for f in fighters]
        keys = {f.name: (total, f.attributes.get(attr, 0)) for f, total in rolled}
        groups: dict[tuple[int, ...], list[str]] = {}
        key: tuple[int, ...]
        for name, key in keys.items():
            groups.setdefault(tuple(key), []).append(name)
        while any(len(names) > 1 for names in groups.values()):
            regrouped: dict[tuple[int, ...], list[str]] = {}
            for key, names in groups.items():
                for name in names:
                    extra = (roll(f"tie:{name}", 1, self.p.tie_die),) if len(names) > 1 else (0,)
                    regrouped.setdefault(key + extra, []).append(name)
            groups = regrouped
        order = sorted(groups, reverse=True)
        return [(groups[key][0], key[0]) for key in order]

    def speed(self, who: Fighter) -> int:
        return self.p.speed_base + who.attributes.get("dex", 0) // self.p.speed_attribute_divisor

    def reaction_bonus(self, held_actions: int) -> int:
        return self.p.held_action_reaction_bonus * max(0, min(held_actions, self.p.actions_per_turn))

    # --- the hit test -------------------------------------------------------------------------

    def attack_type(self, name: str, weapon: Weapon) -> AttackType:
        kind = self.p.attack_types.get(name)
        if kind is None:
            raise ValueError(f"unknown attack type {name!r}; known: {', '.join(self.p.attack_types)}")
        if not kind.attack or weapon.style not in kind.styles:
            raise ValueError(f"{name} is not an attack a {weapon.style} weapon can make")
        return kind

    def hit_parts(self, attacker: Fighter, defender: Fighter, weapon: Weapon,
                  sit: Situation) -> list[tuple[str, int]]:
        kind = self.attack_type(sit.attack_type, weapon)
        attr = self.p.attack_attributes.get(weapon.style)
        parts = [(attr, attacker.attributes.get(attr, 0))] if attr else []
        parts.append((sit.attack_type.replace("_", " "), kind.hit))
        for name in sit.modifiers:
            if name not in self.p.hit_modifiers:
                raise ValueError(f"unknown modifier {name!r}; known: {', '.join(self.p.hit_modifiers)}")
            parts.append((name.replace("_", " "), self.p.hit_modifiers[name]))
        parts.append((f"{defender.size} target", self.p.sizes.get(defender.size, 0)))
        if not sit.proficient:
            parts.append(("untrained", self.p.proficiency["advanced" if weapon.advanced else "basic"]))
        if kind.subtract_awareness:
            parts.append(("target's awareness", -defender.awareness))
        parts.append((sit.extra_label, sit.extra))
        return [(label, value) for label, value in parts if value]

    def hits_for(self, kind: AttackType, weapon: Weapon, margin: int) -> int:
        """Burst and Full Auto: one hit, plus one per full step the hit test beats the AR."""
        if kind.multiple_hits == "none":
            return 1
        cap = weapon.burst if kind.multiple_hits == "burst" else weapon.clip
        return max(1, min(cap, 1 + max(0, margin) // self.p.multi_hit_step))

    def hit_result(self, natural: int, test: int, armor_rating: int, crit_range: int) -> tuple[bool, bool]:
        """(hit?, critical?) of a hit test."""
        critical = natural >= crit_range
        if self.p.natural_one_misses and natural == 1:
            return False, False
        reaches = test >= armor_rating if self.p.equal_hits else test > armor_rating
        return critical or reaches, critical

    @staticmethod
    def jams(natural: int, weapon: Weapon) -> bool:
        """A natural hit roll of the weapon's `jams_on` or lower jams it (CHOICE: the text
        names Unjam Weapon but no rule that jams one): the attack misses, whatever the test."""
        return natural <= weapon.jams_on

    def attribute_test(self, attributes: dict[str, int], attribute: str, dc: int,
                       roll: Roll, name: str = "attribute_test") -> tuple[int, int, bool]:
        """An Attribute Test: (natural, total, passed) of d20 + the attribute against `dc`
        (CHOICE: the text gives no rule; a total equal to the DC passes, as a hit test equal
        to the Armor Rating hits)."""
        natural = roll(name, 1, self.p.die)
        total = natural + attributes.get(attribute, 0)
        return natural, total, total >= dc

    def attribute_test_chance(self, score: int, dc: int) -> float:
        """P(an Attribute Test of an attribute at `score` passes `dc`): the faces of the die
        that pass, as `attribute_test` rolls it."""
        passed = 0
        for face in range(1, self.p.die + 1):
            passed += self.attribute_test({"a": score}, "a", dc, lambda *_, f=face: f)[2]
        return passed / self.p.die

    def reaction_stops(self, natural: int, total: int, hit_test: int, critical: bool) -> bool:
        """Above the hit test; against a critical hit, the reaction must also be critical.

        "Actions that stop, dodge, or redirect attacks that were critical on their hit tests
        only succeed if the reaction is critical as well": a critical reaction is what a
        reaction needs besides beating the hit test, not a success of its own.
        """
        above = total > hit_test
        return above and natural >= self.p.reaction_critical if critical else above

    def can_react(self, defender: Fighter, weapon: Weapon, sit: Situation) -> str | None:
        """Why the chosen reaction cannot be made, or None if it can."""
        kind = self.p.attack_types[sit.attack_type]
        reaction = self.p.reactions.get(sit.reaction)
        if reaction is None:
            return f"unknown reaction {sit.reaction!r}"
        if kind.no_reaction:
            return f"a {sit.attack_type} cannot be reacted to"
        if sit.reaction not in defender.reactions:
            return f"{defender.name} lacks the {sit.reaction} skill"
        if weapon.style not in reaction.against:
            return f"{sit.reaction} works only against {', '.join(reaction.against)} attacks"
        return None

    # --- damage -------------------------------------------------------------------------------

    def damage_total(self, dice_total: int, attacker: Fighter, weapon: Weapon, defender: Fighter,
                     critical: bool, multiplier: int) -> int:
        """The weapon's dice roll `dice_total` (doubled on a critical, multiplied by the attack
        type), then its flat bonus and the attribute, then resistance. "Critical Damage means you
        double your weapon damage roll, then add modifiers": a flat bonus (a large unit's fists,
        1d4 + Str + 2) is a modifier, added after."""
        attr = self.p.damage_attributes.get(weapon.style)
        total = dice_total * (2 if critical else 1) * multiplier + DiceCode.parse(weapon.damage).bonus
        total += attacker.attributes.get(attr, 0) * weapon.attribute_times if attr else 0
        total = max(0, total) // weapon.divisor
        resisted = weapon.damage_type in defender.resistances
        weak = weapon.damage_type in defender.weaknesses
        if resisted and not weak:
            return total // self.p.resistance_divisor
        if weak and not resisted:
            return total * self.p.weakness_multiplier
        return total

    def unarmed(self, size: str) -> Weapon:
        """Bare fists, by the attacker's size (the Unarmed Combat list): Large 1d4 + STR + 2,
        Medium 1d4 + STR, Small 1d4, a flea 1d4 / 2 ..."""
        entry = self.p.unarmed.by_size.get(size)
        if entry is None:
            raise ValueError(f"unknown size {size!r}; known: {', '.join(self.p.unarmed.by_size)}")
        return Weapon(name="bare fists", damage=entry.damage, damage_type=self.p.unarmed.damage_type,
                      style="melee", attribute_times=entry.strength, divisor=entry.divisor)

    def state_for(self, damage: int, who: Fighter) -> str:
        left = who.hp - damage
        if left <= -who.hp * self.p.dead_below_zero_share:
            return "dead"
        return "unconscious" if left <= 0 else "ok"

    def crit_effect(self, weapon: Weapon, defender: Fighter,
                    roll: Roll) -> tuple[str | None, int, int, str]:
        """(status, turns, armor lost) a critical inflicts by its damage type, and its test in
        words ("" when the damage type has no effect)."""
        effect = self.p.crit_effects.get(weapon.damage_type)
        if effect is None:
            return None, 0, 0, ""
        what = effect.status or "armor damage"
        if effect.test == "willpower_below":
            value = roll("willpower", 1, self.p.die) + defender.attributes.get(self.p.willpower_attribute, 0)
            landed = value < effect.value
            test = f"Willpower {value}, below {effect.value} to take hold"
        else:
            value = roll("critical_effect", 1, self.p.die)
            landed = value >= effect.value
            test = f"d20 {value}, {effect.value} or more to take hold"
        told = f"critical effect ({what}): {test}: {'it does' if landed else 'it does not'}"
        if not landed:
            return None, 0, 0, told
        if effect.armor_loss:
            return (None, 0, effect.armor_loss, told) if defender.armored else (None, 0, 0, told)
        return effect.status, self.status_turns(effect.status, roll), 0, told

    def status_turns(self, name: str | None, roll: Roll) -> int:
        status = self.p.statuses.get(name or "")
        if status is None:
            return 0
        if isinstance(status.duration, int):
            return status.duration
        code = DiceCode.parse(status.duration)
        return sum(roll("status_duration", 1, code.sides) for _ in range(code.count)) + code.bonus

    @staticmethod
    def roll_dice(code: str, roll: Roll, name: str) -> int:
        """A dice code's total (2d4+1), each die rolled as `name`."""
        dice = DiceCode.parse(code)
        return sum(roll(name, 1, dice.sides) for _ in range(dice.count)) + dice.bonus

    def status_tick(self, name: str, roll: Roll) -> int:
        """Damage a status deals at the start of its bearer's turn."""
        status = self.p.statuses[name]
        if not status.damage:
            return 0
        code = DiceCode.parse(status.damage)
        return sum(roll(name, 1, code.sides) for _ in range(code.count)) + code.bonus

    # --- one attack ---------------------------------------------------------------------------

    def attack(self, attacker: Fighter, defender: Fighter, weapon: Weapon, sit: Situation,
               roll: Roll) -> Outcome:
        kind = self.attack_type(sit.attack_type, weapon)
        parts = self.hit_parts(attacker, defender, weapon, sit)
        natural = roll("hit", 1, self.p.die)
        test = natural + sum(v for _, v in parts)
        hit, critical = self.hit_result(natural, test, defender.armor_rating, weapon.crit_range)
        base: dict[str, Any] = dict(natural=natural, hit_test=test, hit_parts=tuple(parts),
                    armor_rating=defender.armor_rating, critical=critical,
                    damage_after=defender.damage, state=self.state_for(defender.damage, defender))
        if self.jams(natural, weapon):
            base.update(critical=False)
            return Outcome(hit=False, jammed=True, reason=f"a natural {natural} jams the "
                           f"{weapon.name}", **base)
        if not hit:
            return Outcome(hit=False, reason=f"hit test {test} is below Armor Rating "
                           f"{defender.armor_rating}", **base)
        reaction, retaliation = None, 0
        if sit.reaction != "none":
            refused = self.can_react(defender, weapon, sit)
            if refused:
                raise ValueError(refused)
            spec = self.p.reactions[sit.reaction]
            r_nat = roll("reaction", 1, self.p.die)
            r_total = (r_nat + defender.attributes.get(spec.attribute, 0)
                       + self.reaction_bonus(sit.held_actions) + sit.defender_reaction_bonus)
            stopped = self.reaction_stops(r_nat, r_total, test, critical)
            reaction = (r_nat, r_total, stopped)
            if stopped:
                dice = spec.damage or (sit.riposte_damage if sit.reaction == "riposte" else None)
                if dice:
                    code = DiceCode.parse(dice)
                    retaliation = sum(roll("retaliation", 1, code.sides)
                                      for _ in range(code.count)) + code.bonus
                why = (f"critical {sit.reaction} {r_total} beats the critical hit test {test}"
                       if critical else f"{sit.reaction} {r_total} beats hit test {test}")
                return Outcome(hit=False, reason=why,
                               reaction=reaction, retaliation=retaliation, **base)
        hits = self.hits_for(kind, weapon, test - defender.armor_rating)
        code = DiceCode.parse(weapon.damage)
        rolls, totals = [], []
        for _ in range(hits):
            faces = tuple(roll("damage", 1, code.sides) for _ in range(code.count))
            rolls.append(faces)
            totals.append(self.damage_total(sum(faces), attacker, weapon, defender,
                                            critical, kind.damage_multiplier))
        status, turns, armor_loss, effect = (self.crit_effect(weapon, defender, roll) if critical
                                             else (None, 0, 0, ""))
        after = defender.damage + sum(totals)
        base.update(damage_after=after, state=self.state_for(after, defender))
        why = "critical: through armor" if critical else f"hit test {test} reaches Armor Rating {defender.armor_rating}"
        return Outcome(hit=True, reason=why, hits=hits, reaction=reaction, damage_rolls=tuple(rolls),
                       damage_rolled=tuple(totals), damage_applied=sum(totals), status=status,
                       status_turns=turns, armor_loss=armor_loss, effect=effect, **base)

    def ambush(self, ambusher: Fighter, target: Fighter, stealth: int, awareness: int,
               roll: Roll) -> tuple[int, int, bool]:
        """Stealth (d20 + skill + DEX) against Awareness (d20 + skill + PER): ambusher wins above."""
        a = roll("stealth", 1, self.p.die) + stealth + ambusher.attributes.get("dex", 0)
        t = roll("awareness", 1, self.p.die) + awareness + target.attributes.get("per", 0)
        return a, t, a > t
