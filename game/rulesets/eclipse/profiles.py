"""The fields of an Eclipse Phase `rules: {eclipse2: ...}` or `{eclipse1: ...}` block.

Both editions read a weapon's skill, damage and armor type; the second edition adds
armor-piercing and burst dice, the first armor penetration. Each model also answers the
other edition's field with its neutral value, so the grid reads either the same way.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, field_validator

from game.content.schema import Ident, check_dice
from game.rulesets.tabletop import profiles as shared


Size = Literal["very_small", "small", "medium", "large", "very_large"]


class WeaponProfile(shared.WeaponProfile):
    skill: Ident | None = None       # the attack skill: guns, melee, kinesics...
    armor: Literal["kinetic", "energy"] = "kinetic"   # which armor value applies
    hands: int = Field(default=1, ge=1, le=2)   # 2: a two-handed weapon


class Weapon2Profile(WeaponProfile):
    armor_piercing: bool = False     # halves the armor
    burst: str | None = None         # extra dice when fired in bursts (1d10)
    armor_penetration: ClassVar[int] = 0

    @field_validator("burst")
    @classmethod
    def _burst_dice(cls, value: str | None) -> str | None:
        return None if value is None else check_dice(value)


class Weapon1Profile(WeaponProfile):
    armor_penetration: int = Field(default=0, ge=0, le=100)   # taken off the armor
    armor_piercing: ClassVar[bool] = False
    burst: ClassVar[str | None] = None


class ArmorProfile(shared.ArmorProfile):
    kinetic: int = Field(default=0, ge=0, le=100)
    energy: int = Field(default=0, ge=0, le=100)


class UnitProfile(shared.UnitProfile):
    death_rating: int = Field(default=0, ge=0, le=2000)   # 0: the ruleset's default
    size: Size = "medium"            # very_small (mouse), small (child), large (car), very_large
    hands: int = Field(default=2, ge=1, le=2)   # hands free to wield a weapon (1: a shield, a lost arm)
