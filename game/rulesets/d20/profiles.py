"""The fields of a d20 `rules: {d20: ...}` block. Names of reactions, sizes and attack types
are checked against the ruleset's params when a scenario is (game/content/validate.py)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from game.content.schema import Ident
from game.rulesets.tabletop import profiles as shared


class WeaponProfile(shared.WeaponProfile):
    damage_type: Ident = "piercing"  # slashing, piercing, concussive, rending, fire, aether...
    style: Literal["melee", "finesse", "ranged", "magic"] | None = None
    """None: melee for melee weapons, ranged for firearms."""
    crit_range: int = Field(default=20, ge=2, le=20)  # criticals on crit_range..20
    advanced: bool = False           # proficiency class
    handgun: bool = False            # +2 within 5 ft
    two_handed: bool = False         # -4 with a two-handed ranged weapon within 5 ft
    attack_types: list[Ident] | None = None
    """The attack types this weapon allows; None: every one its style allows."""
    jams_on: int = Field(default=0, ge=0, le=19)
    """A natural hit roll this low or lower jams the weapon until it is unjammed (0: never)."""


class ArmorProfile(shared.ArmorProfile):
    armor_rating: int = Field(default=0, ge=-20, le=20)   # added to the unit's armor_rating
    resistances: list[Ident] = Field(default_factory=list)   # damage types halved
    weaknesses: list[Ident] = Field(default_factory=list)    # damage types doubled


class UnitProfile(shared.UnitProfile):
    reactions: list[Ident] = Field(default_factory=list)  # dodge, parry, riposte...
    resistances: list[Ident] = Field(default_factory=list)   # damage types halved
    weaknesses: list[Ident] = Field(default_factory=list)    # damage types doubled
    size: Ident = "medium"           # a size of the ruleset's params
    abilities: list[Ident] = Field(default_factory=list)
    """Skills of the ruleset's params `abilities`: grace_and_finesse, combat_prowess."""
