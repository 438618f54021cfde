"""The `opend6` ruleset: OpenD6 (seed 002, "Combat").

Skills are die codes such as 4D+2: roll that many six-sided dice and add the pips. One die of
every roll is the Wild Die: a 6 is rolled again and added, as long as it shows 6; a 1 on its
first roll is a complication. An attack hits when its total meets the combat difficulty:
passive defense 10, or the defender's active defense roll (dodge, block, parry), or a full
defense roll + 10, modified by range (attacks made at a distance only) and cover, never below
3. Damage goes to Body Points, or (the option `damage_system: wounds`) is resisted by a
Physique roll and read off the wound levels. A bare-handed block of a bladed weapon takes the
weapon's damage; a sharp weapon that parries a bare-handed blow hurts the attacker.
Numbers: content/rulesets/opend6.yaml. Dice come through `roll(name, 1, 6)`.
"""

from __future__ import annotations

import math
import re
from difflib import get_close_matches
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from game.content.schema import RulesetSpec

Roll = Callable[[str, int, int], int]
DefenseChoice = Literal["passive", "dodge", "block", "parry"]
_CODE = re.compile(r"^\s*(\+)?\s*(\d+)\s*[dD]\s*(?:([+-])\s*(\d+))?\s*$|^\s*([+-]?\d+)\s*$")


class _P(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class BodyPoints(_P):
    wounded_below: float = Field(gt=0, le=1)      # remaining share under which a unit is wounded
    wounded_penalty_dice: int = Field(ge=0)
    dead_at: int                                  # remaining Body Points at or below: dead


class WoundLevel(_P):
    name: str
    over: int | None = Field(default=None, ge=1)  # least damage over the resistance; None: by accumulation only
    penalty_dice: int = Field(default=0, ge=0)
    out: bool = False                             # out of the fight from this level


class Wounds(_P):
    resist: str = "physique"                      # the attribute rolled to resist damage
    armor_adds: bool = True                       # armor adds to the resistance total
    levels: list[WoundLevel] = Field(min_length=1)  # mildest first; the last is death

    @field_validator("levels")
    @classmethod
    def _levels(cls, levels: list[WoundLevel]) -> list[WoundLevel]:
        overs = [lv.over for lv in levels if lv.over is not None]
        if overs != sorted(set(overs)):
            raise ValueError("wound levels' `over` values must grow, mildest level first")
        if levels[0].over is None or levels[-1].over is None:
            raise ValueError("the first and the last wound level need an `over` value")
        return levels


class OpenD6Params(_P):
    wild_die: bool
    wild_one: Literal["complication", "remove_highest"]
    wild_die_on_damage: bool
    explosion_cutoff: float = Field(gt=0, lt=1e-3)
    passive_defense: int
    passive_bonus: bool
    passive_bonus_above: int = Field(ge=0)
    passive_bonus_per: int = Field(ge=1)
    passive_bonus_codes: list[str] = Field(default_factory=lambda: ["agility", "dodge"], min_length=1)
    full_defense_bonus: int
    min_difficulty: int
    multi_action_penalty: int = Field(ge=0)
    min_dice: int = Field(ge=0)
    range_modifiers: dict[str, int]
    range_applies_to_melee: bool = False           # a blow at arm's length has no range modifier
    cover_modifiers: dict[str, int | None]         # None: the target cannot be hit directly
    aim_dice_per_round: int = Field(ge=0)
    aim_max_dice: int = Field(ge=0)
    strength_damage_divisor: int = Field(ge=1)
    damage_bonus: bool
    damage_bonus_divisor: int = Field(ge=1)
    defense_skills: dict[str, str]                 # dodge/block/parry -> the skill rolled
    skill_attributes: dict[str, str]
    body_points: BodyPoints
    damage_system: Literal["body_points", "wounds"] = "body_points"
    wounds: Wounds | None = None
    blade_block: bool = True          # a bare-handed block of a bladed weapon takes its damage
    sharp_parry: bool = True          # a sharp weapon parrying a bare-handed blow hurts the attacker
    optional_rules: list[str] = Field(default_factory=list)   # params a scenario or resolve file may switch
    max_points_per_roll: int = Field(default=2, ge=1)          # Character Points one roll may take

    @model_validator(mode="after")
    def _options(self) -> OpenD6Params:
        if self.damage_system == "wounds" and self.wounds is None:
            raise ValueError("damage_system wounds needs a `wounds:` block (the wound levels)")
        unknown = [name for name in self.optional_rules
                   if name not in type(self).model_fields or name == "optional_rules"]
        if unknown:
            raise ValueError(f"optional_rules names no parameter: {', '.join(unknown)}")
        return self


@dataclass(frozen=True, slots=True)
class D6Code:
    """A die code: `dice`D+`pips`; `plus` marks a weapon that adds Strength Damage (+1D)."""

    dice: int
    pips: int = 0
    plus: bool = False

    @classmethod
    def parse(cls, text: str | int) -> D6Code:
        match = _CODE.match(str(text))
        if not match:
            raise ValueError(f"{text!r} is not a die code like 4D+2, 3D or +1D")
        if match.group(5) is not None:
            return cls(0, int(match.group(5)))
        pips = int(match.group(4) or 0) * (-1 if match.group(3) == "-" else 1)
        return cls(int(match.group(2)), pips, bool(match.group(1)))

    def add_dice(self, n: int, floor: int = 0) -> D6Code:
        return D6Code(max(floor, self.dice + n), self.pips, self.plus)

    def __str__(self) -> str:
        pips = f"{self.pips:+d}" if self.pips else ""
        return f"{'+' if self.plus else ''}{self.dice}D{pips}"


@dataclass(frozen=True, slots=True)
class D6Roll:
    name: str
    code: D6Code
    dice: tuple[int, ...]          # the ordinary dice (Character Point dice included)
    wild: tuple[int, ...]          # the Wild Die's chain: 6, 6, 3 ...
    total: int
    complication: bool = False
    removed: tuple[int, ...] = ()  # dice taken off by a Wild Die 1 (remove_highest)


@dataclass(frozen=True, slots=True)
class Fighter:
    name: str
    attributes: dict[str, str] = field(default_factory=dict)    # die codes: agility: 3D+1
    skills: dict[str, str] = field(default_factory=dict)        # die codes: marksmanship: 5D
    body_points: int = 20
    damage: int = 0                                             # Body Points lost (Wounds: the wound level, 0 unhurt)
    armor: str | int = 0                                        # a number or a die code


@dataclass(frozen=True, slots=True)
class Weapon:
    name: str
    skill: str
    damage: str                                                 # 4D, 3D+2, or +1D (Strength)
    sharp: bool = False                                         # a blade: sword, dagger
    unarmed: bool = False                                       # a fist or a kick


@dataclass(frozen=True, slots=True)
class Situation:
    actions: int = 1                        # actions the attacker declared this round
    aim_rounds: int = 0
    character_points: int = 0
    range: str = "short"
    cover: tuple[str, ...] = ()
    extra_difficulty: int = 0
    defense: DefenseChoice = "passive"
    full_defense: bool = False
    defense_actions: int = 1
    defender_character_points: int = 0
    defense_total: int | None = None        # an active defense rolled earlier this round
    melee: bool = False                     # a blow at arm's length, not an attack made at a distance
    extra_label: str = "other"              # what the log calls extra_difficulty
    defender_weapon: Weapon | None = None   # what the defender parries with


@dataclass(frozen=True, slots=True)
class Backlash:
    """Damage a block or parry deals beside the attack: to the blocker (a bare-handed block of a
    blade) or to the attacker (a sharp weapon parrying a bare-handed blow)."""

    victim: Literal["attacker", "defender"]
    reason: str
    damage: D6Roll
    armor: int
    resist: D6Roll | None
    applied: int
    after: int
    state: str


@dataclass(frozen=True, slots=True)
class _Injury:
    armor: int
    resist: D6Roll | None
    over: int
    applied: int
    after: int
    state: str


@dataclass(frozen=True, slots=True)
class Outcome:
    attack: D6Roll
    difficulty: int
    difficulty_parts: tuple[tuple[str, int], ...]
    defense: D6Roll | None
    hit: bool
    reason: str
    damage: D6Roll | None = None
    damage_bonus: int = 0
    armor: int = 0
    damage_applied: int = 0
    damage_after: int = 0
    state: str = "ok"
    resist: D6Roll | None = None            # Wounds: the Physique roll that resisted the damage
    over: int = 0                           # Wounds: damage over the resistance total
    backlash: Backlash | None = None


class OpenD6Rules:
    name = "opend6"
    Params = OpenD6Params

    def __init__(self, spec: RulesetSpec) -> None:
        self.spec = spec
        self.p = OpenD6Params.model_validate(spec.params)

    @staticmethod
    def option_problems(spec: RulesetSpec, options: dict[str, object]) -> list[tuple[str, str]]:
        """(option, message) for each option a scenario or resolve file may not switch, or sets
        to a value the ruleset refuses."""
        params = OpenD6Params.model_validate(spec.params)
        found = []
        for name in options:
            if name not in params.optional_rules:
                close = get_close_matches(str(name), params.optional_rules, 1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                found.append((str(name), f"unknown option {name!r}{hint}; known: "
                              f"{', '.join(params.optional_rules)}"))
        if not found:
            try:
                OpenD6Params.model_validate({**spec.params, **options})
            except ValidationError as error:
                for item in error.errors(include_url=False):
                    where = str(item["loc"][0]) if item["loc"] else ""
                    found.append((where, f"{where or 'options'}: {item['msg']}"))
        return found

    def with_options(self, options: dict[str, object]) -> OpenD6Rules:
        """These rules with some optional rules switched (names from `optional_rules`)."""
        problems = self.option_problems(self.spec, options)
        if problems:
            raise ValueError("; ".join(message for _, message in problems))
        if not options:
            return self
        data = self.spec.model_dump()
        data["params"] = {**data["params"], **options}
        return type(self)(RulesetSpec.model_validate(data))

    # --- die codes --------------------------------------------------------------------------

    def code_of(self, who: Fighter, skill: str) -> D6Code:
        """A skill's code, or its governing attribute's when the fighter lacks the skill."""
        if skill in who.skills:
            return D6Code.parse(who.skills[skill])
        return D6Code.parse(who.attributes.get(self.p.skill_attributes.get(skill, skill), "0D"))

    def roll_code(self, name: str, code: D6Code, roll: Roll, *, wild: bool = True,
                  extra_dice: int = 0) -> D6Roll:
        wild = wild and self.p.wild_die and code.dice > 0
        dice = [roll(name, 1, 6) for _ in range(code.dice - (1 if wild else 0) + extra_dice)]
        chain: list[int] = []
        if wild:
            chain.append(roll(f"{name}_wild", 1, 6))
            while chain[-1] == 6:
                chain.append(roll(f"{name}_wild", 1, 6))
        complication = wild and chain[0] == 1
        removed: tuple[int, ...] = ()
        total = sum(dice) + sum(chain) + code.pips
        if complication and self.p.wild_one == "remove_highest":
            removed = (1, max(dice)) if dice else (1,)
            total -= sum(removed)
        return D6Roll(name, code, tuple(dice), tuple(chain), total, complication, removed)

    def attack_code(self, who: Fighter, weapon: Weapon, sit: Situation) -> D6Code:
        """The skill, -1D per action beyond the first (and if wounded), +1D per round of aim (to +3D)."""
        penalty = self.p.multi_action_penalty * max(0, sit.actions - 1) + self.wound_penalty(who)
        aim = min(self.p.aim_max_dice, self.p.aim_dice_per_round * sit.aim_rounds)
        return self.code_of(who, weapon.skill).add_dice(aim - penalty, self.p.min_dice)

    def wound_penalty(self, who: Fighter) -> int:
        """Dice a wounded fighter loses on every action."""
        if self.wounds is not None:
            level = self.wound_level(who.damage)
            return level.penalty_dice if level is not None else 0
        hurt = self.state_for(who.damage, who) == "wounded"
        return self.p.body_points.wounded_penalty_dice if hurt else 0

    # --- the Wounds system (an option beside Body Points) --------------------------------------

    @property
    def wounds(self) -> Wounds | None:
        return self.p.wounds if self.p.damage_system == "wounds" else None

    def wound_level(self, index: int) -> WoundLevel | None:
        """The wound level at `index` (0: unhurt; past the last: the last, death)."""
        assert self.p.wounds is not None
        levels = self.p.wounds.levels
        return levels[min(index, len(levels)) - 1] if index > 0 else None

    def level_for(self, over: int) -> int:
        """The level (1-based index) that damage `over` the resistance total reaches; 0: none."""
        assert self.p.wounds is not None
        found = 0
        for index, level in enumerate(self.p.wounds.levels, 1):
            if level.over is not None and over >= level.over:
                found = index
        return found

    def wound_after(self, current: int, over: int) -> int:
        """The new level: the chart's, and a wound no worse than the one already taken makes it
        one level worse (CHOICE: the seed has no Damage chapter)."""
        assert self.p.wounds is not None
        new = self.level_for(over)
        if new == 0:
            return current
        if new <= current:
            new = current + 1
        return min(new, len(self.p.wounds.levels))

    def resist_code(self, who: Fighter) -> D6Code:
        assert self.p.wounds is not None
        return self.code_of(who, self.p.wounds.resist)

    def passive_defense(self, who: Fighter) -> int:
        """10, plus (optional rule) +1 per 2D of Agility or dodge above 4D, rounded up. "Dodge"
        is any skill that stands for dodging (`passive_bonus_codes`): the seed's own example
        gives 7D in acrobatics +2."""
        if not self.p.passive_bonus:
            return self.p.passive_defense
        best = max(self.code_of(who, name).dice for name in self.p.passive_bonus_codes)
        above = max(0, best - self.p.passive_bonus_above)
        return self.p.passive_defense + math.ceil(above / self.p.passive_bonus_per)

    def defense_code(self, who: Fighter, sit: Situation) -> D6Code:
        actions = 1 if sit.full_defense else sit.defense_actions
        penalty = self.p.multi_action_penalty * max(0, actions - 1) + self.wound_penalty(who)
        return self.code_of(who, self.p.defense_skills[sit.defense]).add_dice(-penalty, self.p.min_dice)

    def difficulty_mods(self, sit: Situation) -> list[tuple[str, int]]:
        if sit.range not in self.p.range_modifiers:
            raise ValueError(f"unknown range {sit.range!r}; known: {', '.join(self.p.range_modifiers)}")
        # "any other attack made at a distance depends on its range": a melee attack at arm's
        # length is made at no distance, so it takes no range modifier (unless the option
        # `range_applies_to_melee` says otherwise).
        mods = []
        if not sit.melee or self.p.range_applies_to_melee:
            mods.append((f"{sit.range.replace('_', ' ')} range", self.p.range_modifiers[sit.range]))
        for name in sit.cover:
            if name not in self.p.cover_modifiers:
                raise ValueError(f"unknown cover {name!r}; known: {', '.join(self.p.cover_modifiers)}")
            mods.append((name.replace("_", " "), self.p.cover_modifiers[name] or 0))
        if sit.extra_difficulty:
            mods.append((sit.extra_label, sit.extra_difficulty))
        return mods

    def blocked(self, sit: Situation) -> str | None:
        hidden = [name for name in sit.cover if self.p.cover_modifiers.get(name, 0) is None]
        return f"{hidden[0].replace('_', ' ')}: the target cannot be hit directly" if hidden else None

    def difficulty(self, base: int, mods: list[tuple[str, int]]) -> int:
        return max(self.p.min_difficulty, base + sum(v for _, v in mods))

    # --- damage -----------------------------------------------------------------------------

    def strength_damage(self, who: Fighter) -> int:
        """Physique's dice (pips dropped) / 2, rounded up."""
        return math.ceil(self.code_of(who, "physique").dice / self.p.strength_damage_divisor)

    def damage_code(self, who: Fighter, weapon: Weapon) -> D6Code:
        code = D6Code.parse(weapon.damage)
        if code.plus:
            return D6Code(code.dice + self.strength_damage(who), code.pips)
        return code

    def damage_bonus(self, total: int, difficulty: int) -> int:
        if not self.p.damage_bonus:
            return 0
        return math.ceil(max(0, total - difficulty) / self.p.damage_bonus_divisor)

    def state_for(self, damage: int, who: Fighter) -> str:
        """The body's condition: ok, wounded or dead (Wounds: the level's name)."""
        if self.wounds is not None:
            level = self.wound_level(damage)
            return "ok" if level is None else level.name
        left = who.body_points - damage
        if left <= self.p.body_points.dead_at:
            return "dead"
        return "wounded" if left < who.body_points * self.p.body_points.wounded_below else "ok"

    # --- one attack ---------------------------------------------------------------------------

    def defense_base(self, defender: Fighter, sit: Situation, roll: Roll) -> tuple[str, int, D6Roll | None]:
        if sit.defense == "passive":
            return "passive defense", self.passive_defense(defender), None
        bonus = self.p.full_defense_bonus if sit.full_defense else 0
        label = f"{'full ' if sit.full_defense else ''}{sit.defense}"
        if sit.defense_total is not None:
            return label, sit.defense_total + bonus, None
        rolled = self.roll_code("defense", self.defense_code(defender, sit), roll,
                                extra_dice=sit.defender_character_points)
        return label, rolled.total + bonus, rolled

    def attack(self, attacker: Fighter, defender: Fighter, weapon: Weapon, sit: Situation,
               roll: Roll) -> Outcome:
        label, base, defense = self.defense_base(defender, sit, roll)
        mods = self.difficulty_mods(sit)
        difficulty = self.difficulty(base, mods)
        parts = ((label, base), *mods)
        attack = self.roll_code("attack", self.attack_code(attacker, weapon, sit), roll,
                                extra_dice=sit.character_points)
        blocked = self.blocked(sit)
        before = self.state_for(defender.damage, defender)
        if blocked or attack.total < difficulty:
            reason = blocked or f"{attack.total} is below the difficulty {difficulty}"
            return Outcome(attack, difficulty, parts, defense, False, reason,
                           damage_after=defender.damage, state=before,
                           backlash=self.backlash(attacker, defender, weapon, sit, roll))
        damage = self.roll_code("damage", self.damage_code(attacker, weapon), roll,
                                wild=self.p.wild_die_on_damage)
        bonus = self.damage_bonus(attack.total, difficulty)
        reason = f"{attack.total} meets the difficulty {difficulty}"
        hurt = self.injure(defender, damage.total + bonus, roll)
        return Outcome(attack, difficulty, parts, defense, True, reason, damage, bonus, hurt.armor,
                       hurt.applied, hurt.after, hurt.state, hurt.resist, hurt.over)

    def injure(self, who: Fighter, total: int, roll: Roll, prefix: str = "") -> _Injury:
        """`total` damage against `who`: armor off Body Points, or (Wounds) a Physique roll (and
        armor) that resists it, the rest read off the wound levels."""
        armor = self.armor_roll(who, roll, f"{prefix}armor")
        if self.wounds is None:
            applied = max(0, total - armor)
            after = who.damage + applied
            return _Injury(armor, None, 0, applied, after, self.state_for(after, who))
        resist = self.roll_code(f"{prefix}resist", self.resist_code(who), roll)
        over = total - resist.total - (armor if self.wounds.armor_adds else 0)
        after = self.wound_after(who.damage, over)
        return _Injury(armor, resist, max(0, over), after - who.damage, after, self.state_for(after, who))

    def backlash(self, attacker: Fighter, defender: Fighter, weapon: Weapon, sit: Situation,
                 roll: Roll) -> Backlash | None:
        """After a successful block or parry (the attack missed): a bare-handed block of a bladed
        weapon takes the weapon's listed damage (no Strength Damage), unless the blocker wears
        armor; a sharp weapon that parries a bare-handed blow deals its listed damage (no
        Physique) to the attacker."""
        if not sit.melee:
            return None
        victim: Literal["attacker", "defender"]
        if (sit.defense == "block" and weapon.sharp and self.p.blade_block
                and D6Code.parse(defender.armor) == D6Code(0)):
            victim, hitter, listed = "defender", defender, weapon
            why = f"{defender.name} blocked the {weapon.name} bare-handed"
        elif (sit.defense == "parry" and weapon.unarmed and self.p.sharp_parry
              and sit.defender_weapon is not None and sit.defender_weapon.sharp):
            victim, hitter, listed = "attacker", attacker, sit.defender_weapon
            why = f"{attacker.name}'s bare-handed blow met the {listed.name}"
        else:
            return None
        code = D6Code.parse(listed.damage)
        damage = self.roll_code("backlash", D6Code(code.dice, code.pips), roll,
                                wild=self.p.wild_die_on_damage)
        hurt = self.injure(hitter, damage.total, roll, "backlash_")
        return Backlash(victim, why, damage, hurt.armor, hurt.resist, hurt.applied, hurt.after, hurt.state)

    def armor_roll(self, defender: Fighter, roll: Roll, name: str = "armor") -> int:
        code = D6Code.parse(defender.armor)
        if code.dice == 0:
            return code.pips
        return self.roll_code(name, code, roll, wild=False).total

    def initiative(self, who: Fighter, roll: Roll, skill: str = "perception") -> D6Roll:
        """Initiative, rolled every round (the example rolls Acumen, the fantasy Perception)."""
        return self.roll_code("initiative", self.code_of(who, skill), roll)

    def range_band(self, meters: float, ranges: tuple[int, int, int]) -> str | None:
        """Point blank (0-3 m), short, medium, long by the weapon's three range values."""
        if meters <= 3:
            return "point_blank"
        for band, limit in zip(("short", "medium", "long"), ranges, strict=True):
            if meters <= limit:
                return band
        return None
