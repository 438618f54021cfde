"""The `eclipse1` ruleset: Eclipse Phase, first edition (seed 001, "Combat").

Opposed d100 tests, roll-under. An excellent success (margin of success 30+) adds +5 DV, 60+
adds +10. The margin is read off the die by default (later printings); the first printing's
target - roll is a ruleset option. An attacker's critical is armor-defeating; a defender's
critical earns a benefit the engine may grant. Armor Penetration lowers the armor; ranged
defense is Fray / 2 rounded down; psi defense WIL x 2. Numbers: content/rulesets/eclipse1.yaml.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from game.content.schema import RulesetSpec
from game.core.dice import DiceCode
from game.rulesets.eclipse.core import (D100, DamagePlan, EclipseParams, EclipseRules, Outcome,
                                       Situation, Weapon)


class Excellent(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    mos: int = Field(ge=1)
    dv: int


class Eclipse1Params(EclipseParams):
    margin_of_success: Literal["die", "target_minus_roll"]
    excellent: list[Excellent]
    armor_defeating_critical: bool


class Eclipse1Rules(EclipseRules):
    name = "eclipse1"
    Params = Eclipse1Params

    def __init__(self, spec: RulesetSpec) -> None:
        self.spec = spec
        self.p: Eclipse1Params = Eclipse1Params.model_validate(spec.params)

    def grade(self, roll: int, target: int, success: bool) -> tuple[int, int]:
        if not success:
            return 0, 0
        if self.p.margin_of_success == "die":
            return 0, roll
        return 0, max(0, target - roll)

    def excellent_bonus(self, mos: int) -> int:
        """The DV an excellent success adds: the best row the margin reaches."""
        reached = [row.dv for row in self.p.excellent if mos >= row.mos]
        return max(reached, default=0)

    def damage_plan(self, attack: D100, weapon: Weapon, sit: Situation) -> DamagePlan:
        code = DiceCode.parse(weapon.damage)
        bonus = code.bonus + self.excellent_bonus(attack.mos)
        ignored = self.p.armor_defeating_critical and attack.critical
        return DamagePlan((("weapon", DiceCode(code.count, code.sides)),), bonus, 1, ignored)

    def armor_value(self, armor: int, weapon: Weapon) -> int:
        """Armor Penetration (written -4 or 4) takes that much off the armor."""
        return max(0, armor - abs(weapon.armor_penetration))

    def called_shot_lands(self, attack: D100) -> bool:
        """CHOICE: the first edition's called shots need an excellent success."""
        return attack.mos >= min((row.mos for row in self.p.excellent), default=0)

    @staticmethod
    def defender_benefit(outcome: Outcome) -> bool:
        """A defender's critical success earns a benefit (cover, superior position...)."""
        return bool(outcome.defense_test and outcome.defense_test.critical and not outcome.hit)
