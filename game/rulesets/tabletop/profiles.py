"""What every tabletop ruleset's `rules:` blocks share: a weapon's damage, a unit's hit points,
attributes and skills. Each ruleset's own models (game/rulesets/<name>/profiles.py) add the
fields it reads; every model forbids the others, so a key a ruleset never reads is reported.
"""

from __future__ import annotations

from pydantic import Field, field_validator

from game.content.schema import D6_CODE_RE, DICE_RE, Ident, Stat, Strict, check_dice


class WeaponProfile(Strict):
    """A weapon's numbers under one ruleset (its `rules: {engine: ...}` block)."""

    damage: str = Field(min_length=2, max_length=16)
    """Eclipse/d20: dice like 2d10, 1d8+1; OpenD6: a die code like 4D, 3D+2, or +1D (adds Strength
    Damage). Either form is accepted here; the engine checks the one its ruleset needs."""

    @field_validator("damage")
    @classmethod
    def _damage_code(cls, value: str) -> str:
        if DICE_RE.match(value):
            return check_dice(value)
        if D6_CODE_RE.match(value.strip()):
            return value
        raise ValueError(f"{value!r} is neither dice like 2d10 or 1d8+1 nor a die code like 4D, "
                         "3D+2 or +1D")


class ArmorProfile(Strict):
    """An armor's numbers under one ruleset; no block: no armor under that ruleset."""


class UnitProfile(Strict):
    """A unit's numbers under one ruleset (its `rules: {engine: ...}` block)."""

    hp: int = Field(ge=1, le=1000)   # Durability (Eclipse), Body Points (OpenD6), hit points (d20)
    attributes: dict[Ident, Stat] = Field(default_factory=dict)
    """OpenD6 die codes written "3D+1" are stored as pips: dice * 3 + pips (3D+1 -> 10)."""
    skills: dict[Ident, Stat] = Field(default_factory=dict)   # the same conversion
