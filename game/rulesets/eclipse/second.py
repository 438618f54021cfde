"""The `eclipse2` ruleset: Eclipse Phase, second edition (seed 000, "Resolving Combat").

Opposed d100 tests, roll-under. A successful roll of 33+ is a superior success, 66+ two; each
adds +1d6 DV. Doubles that succeed are criticals, which beat any higher roll and double the DV.
Armor (energy or kinetic) is subtracted, halved by armor-piercing attacks. Every full Wound
Threshold of damage in one attack is a wound. Numbers: content/rulesets/eclipse2.yaml.
"""

from __future__ import annotations

from pydantic import Field

from game.content.schema import RulesetSpec
from game.core.dice import DiceCode
from game.rulesets.eclipse.core import (D100, DamagePlan, EclipseParams, EclipseRules, Situation,
                                       Weapon, half_up)


class Eclipse2Params(EclipseParams):
    superior_thresholds: list[int] = Field(min_length=1)   # a success at or above each: +1
    superior_damage: str                                    # dice per superior success
    critical_multiplier: int = Field(ge=1)
    armor_piercing_divisor: int = Field(ge=1)
    charge_damage: str | None = None


class Eclipse2Rules(EclipseRules):
    name = "eclipse2"
    Params = Eclipse2Params

    def __init__(self, spec: RulesetSpec) -> None:
        self.spec = spec
        self.p: Eclipse2Params = Eclipse2Params.model_validate(spec.params)

    def grade(self, roll: int, target: int, success: bool) -> tuple[int, int]:
        if not success:
            return 0, 0
        return sum(1 for t in self.p.superior_thresholds if roll >= t), roll

    def damage_plan(self, attack: D100, weapon: Weapon, sit: Situation) -> DamagePlan:
        """Weapon DV, burst dice, +1d6 per superior success; a critical doubles the total."""
        code = DiceCode.parse(weapon.damage)
        dice: list[tuple[str, DiceCode]] = [("weapon", DiceCode(code.count, code.sides))]
        if sit.burst and weapon.burst:
            dice.append(("burst", DiceCode.parse(weapon.burst)))
        if "charge" in sit.attacker_modifiers and self.p.charge_damage:
            dice.append(("charge", DiceCode.parse(self.p.charge_damage)))
        if attack.superior:
            extra = DiceCode.parse(self.p.superior_damage)
            label = f"{attack.superior} superior success{'es' if attack.superior > 1 else ''}"
            dice.append((label, DiceCode(extra.count * attack.superior, extra.sides)))
        multiplier = self.p.critical_multiplier if attack.critical else 1
        return DamagePlan(tuple(dice), code.bonus, multiplier, False)

    def armor_value(self, armor: int, weapon: Weapon) -> int:
        """Armor-piercing attacks halve the armor (rounded normally)."""
        return half_up(armor, self.p.armor_piercing_divisor) if weapon.armor_piercing else armor
