"""What the engine and a ruleset say to each other: the value types the engine hands over.

The engine's systems gather ruleset-neutral facts (who attacks, range, cover, stance, AP spent
on aim) into these values; the battle's ruleset (one package under game/rulesets) turns them
into dice and an outcome.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.content.schema import FireMode, WeaponSpec


@dataclass(frozen=True, slots=True)
class Combatant:
    """The numbers of one side of an attack, read from a unit's components."""

    attributes: dict[str, int]
    skills: dict[str, int]
    abilities: dict[str, int]
    morale_modifier: int


@dataclass(frozen=True, slots=True)
class AttackSituation:
    """Ruleset-neutral facts about one attack, gathered by the attack system."""

    weapon: WeaponSpec
    mode: FireMode
    aim_level: int
    stance: str
    location: str
    distance: int
    cover: str
    concealed: bool
    running: bool
    moved_rough: bool
    dropped_flat: bool
    melee: bool
    suppression: bool = False


@dataclass(frozen=True, slots=True)
class DamageRoll:
    rolls: tuple[int, ...]
    rolled: int
    resisted: int
    taken: int
