"""The numbers of the `skirmish` ruleset, as validated from content/rulesets/skirmish.yaml."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class _P(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Movement(_P):
    straight: int = Field(ge=1)
    diagonal: int = Field(ge=1)
    rough_extra: int = Field(ge=0)
    corner_cutting: bool
    run_fraction: float = Field(gt=0, le=1)


class StanceAP(_P):
    stand_crouch: int = Field(ge=0)
    crouch_prone: int = Field(ge=0)
    stand_prone: int = Field(ge=0)
    drop_flat: int = Field(ge=0)


class AttackPenalties(_P):
    running: int
    rough_walk: int
    dropped_flat: int


class HitLocation(_P):
    modifier: int
    damage_multiplier: float = Field(gt=0, le=10)


class Unarmed(_P):
    damage: str
    damage_type: str
    ap: int = Field(ge=1)


class Overwatch(_P):
    cone_degrees: float = Field(gt=0, le=360)
    cost_fraction: float = Field(gt=0, lt=1)


class Riposte(_P):
    against: list[Literal["melee", "unarmed", "firearm"]]
    reach: int = Field(ge=1)


class LeanAP(_P):
    out_ap: int = Field(ge=0)
    back_ap: int = Field(ge=0)


class Suppression(_P):
    diameter_by_rank: dict[int, int]


class Grenade(_P):
    scatter_die: int = Field(ge=2)
    scatter_cap_fraction: float = Field(gt=0, le=1)
    ring_dice_drop: int = Field(ge=1)


class MoraleRow(_P):
    min: int = Field(ge=0)
    modifier: int


class Revive(_P):
    ap: int = Field(ge=1)
    stabilize_ds: int
    revive_ds: int
    fail_step: int = Field(ge=0)
    revived_hp: int = Field(ge=1)


class SkirmishParams(_P):
    die: int = Field(ge=2)
    # How a round is played: every unit's orders chosen at once, then carried out in
    # initiative order (the text's), or one unit at a time. A file that does not say (a save
    # made before the choice existed) plays one unit at a time.
    turns: Literal["simultaneous", "sequential"] = "sequential"
    movement: Movement
    stance_ap: StanceAP
    attack_penalties: AttackPenalties
    stance_aim_bonus: dict[Literal["stand", "crouch", "prone"], int]
    beyond_range: int
    hit_locations: dict[str, HitLocation]
    cover_dodge_bonus: dict[Literal["none", "half", "full"], int]
    concealment_attack_penalty: int
    quick_aim_divisor: int = Field(ge=1)
    unarmed: Unarmed
    melee_defense_with_skill: bool
    hits: Literal["margin_over_spread"]
    overwatch: Overwatch
    riposte: Riposte
    total_cover: list[Literal["half", "full"]]
    lean: LeanAP
    suppression: Suppression
    grenade: Grenade
    square_meters: float = Field(gt=0)
    morale_table: list[MoraleRow] = Field(min_length=1)
    morale_transfer: float = Field(ge=0, le=1)
    revive: Revive
    dying_loss_per_round: int = Field(ge=0)
    reload_resets_aim: bool
    skill_attributes: dict[str, str] = Field(default_factory=lambda: {
        "aim": "dexterity", "melee": "strength", "unarmed": "strength", "dodge": "agility",
        "willpower": "intelligence", "heal": "intelligence", "demolitions": "dexterity"})
