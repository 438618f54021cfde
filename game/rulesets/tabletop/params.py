"""The tactical-layer numbers of a ruleset other than `skirmish`: its `tactical:` block.

Every ruleset plays on the same grid, with Action Points, movement, stances and overwatch. A
ruleset decides what its turn buys, and these numbers say it in AP: a d20 turn is two Actions
(2 AP), an Eclipse Phase turn one complex action (1 AP) with movement on top, an OpenD6 turn the
actions a unit declares. Moving costs squares out of a move allowance; a move action (if the
ruleset has one) buys more of it.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class _P(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Speed(_P):
    """Squares: base + attribute // divisor (the attribute from the unit's stats for this ruleset)."""

    base: int = Field(ge=0)
    attribute: str | None = None
    divisor: int = Field(default=1, ge=1)

    def squares(self, attributes: dict[str, int]) -> int:
        extra = attributes.get(self.attribute, 0) // self.divisor if self.attribute else 0
        return max(0, self.base + extra)


class Movement(_P):
    ap: int = Field(ge=0, description="AP one move action costs; 0: no move actions")
    speed: Speed = Speed(base=0)                 # squares one move action buys
    free: Speed = Speed(base=0)                  # squares every turn gives without an action
    split: bool = True                           # False: another action ends the move in hand
    full_move_beyond: Speed | None = None        # more squares than this in a turn: a full move
    diagonal: int = Field(default=1, ge=1)       # squares of allowance a diagonal step uses
    rough_extra: int = Field(default=1, ge=0)
    corner_cutting: bool = False


class StanceAP(_P):
    stand_crouch: int = Field(ge=0)
    crouch_prone: int = Field(ge=0)
    stand_prone: int = Field(ge=0)
    drop_flat: int = Field(ge=0)


class Overwatch(_P):
    cone_degrees: float = Field(gt=0, le=360)
    ap: int = Field(ge=0, description="AP spent to start watching; the rest is held for the shot")


class HitLocation(_P):
    modifier: int = 0
    damage_multiplier: float = 1.0


class Unarmed(_P):
    ap: int = Field(ge=1)
    profile: dict = Field(default_factory=dict, description="the ruleset's weapon numbers for a punch")
    damage: str = "1d3"                # the skirmish-shaped stand-in the engine builds
    damage_type: str = "blunt"


class RangeBand(_P):
    """A range band: distances up to `meters`, or up to `weapon_range` times the weapon's range.
    A band with neither catches everything farther."""

    name: str
    meters: float | None = None
    weapon_range: float | None = None


class Initiative(_P):
    """d`die` + the sum of `attributes`, divided by `divisor` (rounded down)."""

    die: int = Field(ge=2)
    attributes: list[str] = Field(default_factory=list)
    divisor: int = Field(default=1, ge=1)


class TacticalParams(_P):
    actions: int = Field(ge=1, le=20, description="AP a unit has each turn")
    max_actions: int | None = Field(default=None, ge=1, le=20,
                                    description="most actions a unit may declare in a turn (OpenD6)")
    ap_name: str = "AP"
    square_meters: float = Field(gt=0)
    movement: Movement
    stance_ap: StanceAP
    attack_ap: int = Field(default=1, ge=0)
    reload_ap: int = Field(ge=0)
    draw_ap: int = Field(ge=0)
    overwatch: Overwatch
    defend: dict[str, int] = Field(default_factory=dict, description="defense kind -> AP")
    attacks_per_turn: int | None = Field(default=None, ge=1)
    unarmed: Unarmed
    morale_transfer: float = Field(default=0.5, ge=0, le=1)
    initiative: Initiative | None = None
    range_bands: list[RangeBand] = Field(default_factory=list)
    cover_modifiers: dict[str, str] = Field(default_factory=dict,
                                            description="half/full cover, concealed -> a modifier name")
    hit_locations: dict[str, HitLocation] = Field(default_factory=lambda: {"torso": HitLocation()})
    dying_loss_per_round: int = 0
    reload_resets_aim: bool = True
