"""The fields of an OpenD6 `rules: {opend6: ...}` block. Die codes are checked here with the
content's regex; the core (core.py, D6Code) parses them."""

from __future__ import annotations

from pydantic import Field, field_validator

from game.content.schema import Ident, check_d6
from game.rulesets.tabletop import profiles as shared


class WeaponProfile(shared.WeaponProfile):
    skill: Ident | None = None       # the attack skill; none: the kind's (marksmanship, melee...)
    ranges: tuple[int, int, int] | None = None   # short/medium/long limits in meters
    sharp: bool = False              # a blade: a bare-handed block takes its damage, a parry hurts fists

    @field_validator("ranges")
    @classmethod
    def _ranges_grow(cls, value: tuple[int, int, int] | None) -> tuple[int, int, int] | None:
        if value is not None and not 0 < value[0] <= value[1] <= value[2]:
            raise ValueError("ranges are [short, medium, long] in meters: positive, each at least "
                             "the one before")
        return value


class ArmorProfile(shared.ArmorProfile):
    armor: int | str = 0             # a number or a die code like 1D+1, kept as written

    @field_validator("armor")
    @classmethod
    def _armor_value(cls, value: int | str) -> int | str:
        if isinstance(value, int):
            if value < 0:
                raise ValueError("armor is a number of 0 or more, or a die code like 1D+1")
            return value
        return check_d6(value)


class UnitProfile(shared.UnitProfile):
    character_points: int = Field(default=0, ge=0, le=100)   # spent a die each on a roll, once a battle
