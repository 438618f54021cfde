"""The `opend6` ruleset: OpenD6 (seed 002, "Combat").

Skills are die codes such as 4D+2: roll that many six-sided dice and add the pips. One die of
every roll is the Wild Die: a 6 is rolled again and added, as long as it shows 6; a 1 on its
first roll is a complication. An attack hits when its total meets the combat difficulty:
passive defense 10, or the defender's active defense roll (dodge, block, parry), or a full
defense roll + 10, modified by range (attacks made at a distance only) and cover, never below
3. Damage goes to Body Points.
Numbers: content/rulesets/opend6.yaml. Dice come through `roll(name, 1, 6)`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

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
    damage: int = 0                                             # Body Points already lost
    armor: str | int = 0                                        # a number or a die code


@dataclass(frozen=True, slots=True)
class Weapon:
    name: str
    skill: str
    damage: str                                                 # 4D, 3D+2, or +1D (Strength)


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


class OpenD6Rules:
    name = "opend6"
    Params = OpenD6Params

    def __init__(self, spec: RulesetSpec) -> None:
        self.spec = spec
        self.p = OpenD6Params.model_validate(spec.params)

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
        hurt = self.state_for(who.damage, who) == "wounded"
        return self.p.body_points.wounded_penalty_dice if hurt else 0

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
                           damage_after=defender.damage, state=before)
        damage = self.roll_code("damage", self.damage_code(attacker, weapon), roll,
                                wild=self.p.wild_die_on_damage)
        bonus = self.damage_bonus(attack.total, difficulty)
        armor = self.armor_roll(defender, roll)
        applied = max(0, damage.total + bonus - armor)
        after = defender.damage + applied
        return Outcome(attack, difficulty, parts, defense, True,
                       f"{attack.total} meets the difficulty {difficulty}", damage, bonus, armor,
                       applied, after, self.state_for(after, defender))

    def armor_roll(self, defender: Fighter, roll: Roll) -> int:
        code = D6Code.parse(defender.armor)
        if code.dice == 0:
            return code.pips
        return self.roll_code("armor", code, roll, wild=False).total

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
