"""Pydantic models of every content document: what a YAML file may say, and nothing more.

Every model forbids unknown keys, so a typo in a content file is reported rather than ignored.
Cross-references (a unit naming a weapon, a scenario naming a map) are checked by the loader,
which knows the whole library; these models check shape, types and ranges.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    ValidationInfo,
    field_validator,
    model_serializer,
    model_validator,
)

from game.content.text import check_glyph, check_name, check_text

DamageType = Literal["ballistic", "energy", "shock", "thermal", "edged", "blunt"]
Ident = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=48)]
DICE_RE = re.compile(r"^(\d{1,2})d(\d{1,3})([+-]\d{1,3})?$")
Name = Annotated[str, AfterValidator(check_name)]
"""A name shown to players: one line, no control characters, at most NAME_MAX characters."""
Description = Annotated[str, AfterValidator(check_text)]
Glyph = Annotated[str, Field(min_length=1, max_length=1, description="one character"),
                  AfterValidator(check_glyph)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


MAX_DICE = 10
MAX_SIDES = 100
MAX_ROF = 20
MAX_ATTACK_TOTAL = 1000
"""Exact odds enumerate every total. At most MAX_DICE dice of at most MAX_SIDES faces, a rate of
fire of at most MAX_ROF, and at most MAX_ATTACK_TOTAL for the dice of one attack's every hit
(count x faces x rof) keep each preview well under a second (measurements in
docs/PERFORMANCE.md). A ruleset adds bounds of its own on its `rules:` blocks
(Ruleset.content_problems: d20's full-auto attack)."""


def dice_total(value: str) -> int:
    """The highest a dice code's dice can roll, bonus aside (2d6+1 -> 12); 0 if not dice."""
    match = DICE_RE.match(value)
    return int(match.group(1)) * int(match.group(2)) if match else 0


def check_dice(value: str) -> str:
    """A dice code like 2d6, 3d12+2 or 5d20: 1 to MAX_DICE dice of 2 to MAX_SIDES faces."""
    match = DICE_RE.match(value)
    if not match or int(match.group(1)) < 1 or int(match.group(2)) < 2:
        raise ValueError(f"{value!r} is not a dice code like 2d6 or 3d12+2")
    if int(match.group(1)) > MAX_DICE or int(match.group(2)) > MAX_SIDES:
        raise ValueError(f"{value!r}: at most {MAX_DICE} dice of at most {MAX_SIDES} faces")
    return value


DiceCode = Annotated[str, Field(min_length=3, max_length=12)]

# OpenD6 die codes: 4D, 3D+2, 2D-1; a weapon's "+1D" adds Strength Damage. Checked here with a
# regex of its own, since game.rulesets.opend6 (which parses them, D6Code) imports this module.
D6_CODE_RE = re.compile(r"^(\+)?(\d{1,2})D(?:\s*([+-])\s*(\d{1,2}))?$", re.IGNORECASE)
PLAIN_INT_RE = re.compile(r"^[+-]?\d{1,4}$")


def d6_pips(value: str, *, plus: bool = False) -> int:
    """A die code's value in pips (one die is three pips): 3D+1 -> 10, 4D -> 12, 2D+2 -> 8."""
    match = D6_CODE_RE.match(value.strip())
    if not match or (match.group(1) and not plus):
        example = "3D+1, 4D or +1D" if plus else "3D+1 or 4D"
        raise ValueError(f"{value!r} is not a die code like {example}")
    pips = int(match.group(4) or 0) * (-1 if match.group(3) == "-" else 1)
    return int(match.group(2)) * 3 + pips


def check_d6(value: str, *, plus: bool = False) -> str:
    """A die code like 4D+2 (with `plus`, also +1D), or a plain number; kept as written."""
    if PLAIN_INT_RE.match(value.strip()):
        return value
    d6_pips(value, plus=plus)
    return value


def stat_value(value: Any) -> Any:
    """A unit's stat: a number, or an OpenD6 die code stored as pips (3D+1 -> 10)."""
    if isinstance(value, str):
        text = value.strip()
        if PLAIN_INT_RE.match(text):
            return int(text)
        try:
            return d6_pips(text)
        except ValueError:
            message = f"{value!r} is neither a number nor a die code like 3D+1 or 4D"
            raise ValueError(message) from None
    return value


Stat = Annotated[int, BeforeValidator(stat_value), Field(ge=-100, le=1000)]


# --- terrain ---------------------------------------------------------------------------------

class TerrainSpec(Strict):
    id: Ident
    name: Name
    glyph: Glyph
    walkable: bool = True
    rough: bool = False
    blocks_sight: bool = False
    cover: Literal["none", "half", "full"] = "none"
    concealment: bool = False
    elevation: int = Field(default=0, ge=0, le=10)
    """How high the ground stands (0: level); rulesets with a superior-position rule read it."""
    visibility: Literal["clear", "minor", "major"] = "clear"
    """Impaired sight in the square (dim light, smoke, dark); read by rulesets that modify for it."""
    color: str = "white"


# --- weapons and armor -----------------------------------------------------------------------

class FireMode(Strict):
    name: Ident
    ap: int = Field(ge=1, le=60)
    rof: int = Field(default=1, ge=1, le=100)


class WeaponSpec(Strict):
    id: Ident
    name: Name
    kind: Literal["firearm", "melee", "grenade"]
    skill: Literal["aim", "melee", "unarmed", "demolitions"] = "aim"
    damage: DiceCode
    damage_type: DamageType = "ballistic"
    accuracy: int = Field(default=0, ge=-10, le=10)
    aim_max: int = Field(default=0, ge=0, le=10)
    aim_ap: int = Field(
        default=0, ge=0, le=60, validate_default=True, description="AP to reach aim_max"
    )
    range: int = Field(default=1, ge=1, le=200, description="squares; beyond it attacks take a penalty")
    spread: int = Field(default=1, ge=1, le=20)
    magazine: int = Field(default=0, ge=0, le=500)
    reload_ap: int = Field(default=0, ge=0, le=60)
    draw_ap: int = Field(default=1, ge=0, le=60)
    modes: list[FireMode] = Field(default_factory=list, validate_default=True)
    rules: dict[Ident, dict[str, Any]] = Field(default_factory=dict)
    """The weapon under other rulesets, by engine name (eclipse2, eclipse1, opend6, d20); each
    block is checked by that engine's ruleset (game/rulesets/<name>/profiles.py)."""

    @field_validator("damage")
    @classmethod
    def _dice(cls, value: str) -> str:
        return check_dice(value)

    @field_validator("aim_ap")
    @classmethod
    def _aim_costs_ap(cls, value: int, info: ValidationInfo) -> int:
        if value == 0 and info.data.get("aim_max", 0) > 0:
            raise ValueError("aim_ap must be at least 1 when aim_max is above 0")
        return value

    @field_validator("modes")
    @classmethod
    def _modes_fit_kind(cls, modes: list[FireMode], info: ValidationInfo) -> list[FireMode]:
        names = [mode.name for mode in modes]
        repeated = sorted({name for name in names if names.count(name) > 1})
        if repeated:
            raise ValueError(f"mode names repeat: {', '.join(repeated)}")
        kind = info.data.get("kind")
        needed = {"melee": "strike", "grenade": "throw"}.get(kind or "")
        if needed and needed not in names:
            raise ValueError(f"a {kind} weapon needs a mode named {needed!r}")
        if kind == "firearm" and not modes:
            raise ValueError("a firearm needs at least one mode, e.g. {name: single, ap: 3}")
        if any(mode.rof > MAX_ROF for mode in modes):
            raise ValueError(f"a mode's rof is at most {MAX_ROF}")
        return modes

    @model_validator(mode="after")
    def _attack_total_bounded(self) -> WeaponSpec:
        """One attack's dice, every hit counted, stay small enough for exact odds."""
        rof = max((mode.rof for mode in self.modes), default=1)
        total = dice_total(self.damage) * rof
        if total > MAX_ATTACK_TOTAL:
            raise ValueError(f"damage {self.damage} at rof {rof} can roll {total} in one attack; "
                             f"at most {MAX_ATTACK_TOTAL} (fewer or smaller dice, or a lower rof)")
        return self


class ArmorSpec(Strict):
    id: Ident
    name: Name
    resist: dict[DamageType, Annotated[int, Field(ge=0, le=200)]] = Field(default_factory=dict)
    rules: dict[Ident, dict[str, Any]] = Field(default_factory=dict)
    """The armor under other rulesets, by engine name; none: no armor under that ruleset. Each
    block is checked by that engine's ruleset (game/rulesets/<name>/profiles.py)."""


# --- units and squads ------------------------------------------------------------------------

class CarriedWeapon(Strict):
    weapon: Ident
    spare_magazines: int = Field(default=2, ge=0, le=50)


class UnitSpec(Strict):
    id: Ident
    name: Name
    ap: int = Field(ge=1, le=100)
    hp: int = Field(ge=1, le=1000)
    morale: int = Field(default=5, ge=0, le=100)
    sight: int = Field(default=20, ge=1, le=60)
    attributes: dict[Ident, Annotated[int, Field(ge=-10, le=100)]] = Field(default_factory=dict)
    skills: dict[Ident, Annotated[int, Field(ge=0, le=100)]] = Field(default_factory=dict)
    abilities: dict[Ident, Annotated[int, Field(ge=1, le=5)]] = Field(default_factory=dict)
    weapons: list[CarriedWeapon] = Field(default_factory=list)
    armor: Ident | None = None
    grenades: dict[Ident, Annotated[int, Field(ge=0, le=20)]] = Field(default_factory=dict)
    rules: dict[Ident, dict[str, Any]] = Field(default_factory=dict)
    """The unit under other rulesets, by engine name (eclipse2, eclipse1, opend6, d20); each
    block is checked by that engine's ruleset (game/rulesets/<name>/profiles.py)."""


class SquadMember(Strict):
    unit: Ident
    name: Name | None = None
    count: int = Field(default=1, ge=1, le=50)
    at: tuple[int, int] | None = Field(default=None, description="[x, y]; [0, 0] is top-left")

    @field_validator("at")
    @classmethod
    def _one_unit_per_square(
        cls, at: tuple[int, int] | None, info: ValidationInfo
    ) -> tuple[int, int] | None:
        if at is not None and info.data.get("count", 1) > 1:
            raise ValueError("a member placed with `at` stands for one unit: use count 1")
        return at


class SquadSpec(Strict):
    id: Ident
    name: Name
    members: list[SquadMember] = Field(min_length=1)


# --- maps ------------------------------------------------------------------------------------

class LegendEntry(Strict):
    terrain: Ident
    zone: Ident | None = None




ZoneRect = Annotated[
    tuple[Annotated[int, Field(ge=0, le=511)], Annotated[int, Field(ge=0, le=511)],
          Annotated[int, Field(ge=1, le=512)], Annotated[int, Field(ge=1, le=512)]],
    Field(description="[x, y, width, height] in squares, from the top-left corner"),
]


class MapSpec(Strict):
    id: Ident
    name: Name
    description: Description = ""
    legend: dict[Glyph, LegendEntry] = Field(default_factory=dict)
    rows: list[str] = Field(min_length=2, max_length=512)
    zones: dict[Ident, list[ZoneRect]] = Field(
        default_factory=dict, description="zones as rectangles, besides the legend's zone glyphs")

    @field_validator("rows", mode="before")
    @classmethod
    def _block_of_rows(cls, value: Any) -> Any:
        """Rows may be written as one block of text (`rows: |`), one row per line."""
        if isinstance(value, str):
            return value.splitlines()
        return value


# --- scenarios -------------------------------------------------------------------------------

MAP_PATH_RE = re.compile(r"^[^\x00]+\.(ya?ml|tmj|tmx)$")


def check_map_ref(value: str) -> str:
    """A bundled map id (`depot`) or a path to a map file, relative to the scenario file."""
    if re.match(r"^[a-z][a-z0-9_]*$", value) and len(value) <= 48:
        return value
    if not MAP_PATH_RE.match(value):
        raise ValueError(
            f"{value!r} is neither a map id (like depot) nor a path ending in .yaml, "
            ".tmj or .tmx"
        )
    if value.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", value):
        raise ValueError(f"{value!r}: write the map path relative to the scenario file")
    return value


MapRef = Annotated[str, Field(min_length=1, max_length=400), AfterValidator(check_map_ref)]
ScenarioMap = Annotated[
    Annotated[MapSpec, Tag("inline")] | Annotated[MapRef, Tag("ref")],
    Discriminator(lambda value: "inline" if isinstance(value, (dict, MapSpec)) else "ref"),
]


class PlaySpec(Strict):
    """How a side plays when a computer plays it: the scenario's story, not the player's skill
    (every level follows it)."""

    posture: Literal["patrol", "press", "hold"] = Field(
        default="patrol", description="patrol: look for the enemy; press: go for it, never wait "
        "for it to come; hold: stay by the side's own zone and fight from there")
    aggression: float = Field(default=0.5, ge=0.0, le=1.0,
                              description="how hard it closes in (0.5: as the game plays)")
    caution: float = Field(default=0.5, ge=0.0, le=1.0,
                           description="how much the harm it may take weighs (0.5: as the game plays)")


class SideSpec(Strict):
    id: Ident
    name: Name
    squad: Ident | None = None
    members: list[SquadMember] = Field(default_factory=list)
    zone: Ident
    ambush: bool = False
    play: PlaySpec = Field(default_factory=PlaySpec)

    @model_validator(mode="after")
    def _has_units(self) -> SideSpec:
        if self.squad is None and not self.members:
            raise ValueError("a side needs a squad, members, or both")
        return self


class VictorySpec(Strict):
    type: Literal["eliminate", "reach"] = "eliminate"
    side: Ident | None = Field(default=None, description="for reach: the side that must reach the zone")
    zone: Ident | None = Field(default=None, description="for reach: the objective zone")
    max_rounds: int = Field(default=40, ge=1, le=1000)
    on_timeout: Ident | Literal["draw"] = "draw"


ObjectiveKind = Literal["eliminate", "reach", "extract", "hold", "protect", "escort", "kill",
                       "survive"]
_OBJECTIVE_NEEDS: dict[str, tuple[str, ...]] = {
    "eliminate": (), "reach": ("zone",), "extract": ("zone",), "hold": ("zone", "rounds"),
    "protect": ("unit",), "escort": ("unit", "zone"), "kill": ("unit",), "survive": ("rounds",),
}


class ObjectiveSpec(Strict):
    """One side's objective (docs/CONTENT.md, Objectives). `unit` is a unit's display name in
    the battle (a member's `name`); `zone` a zone of the map."""

    id: Ident | None = Field(default=None, description="for triggers; default: type_side")
    side: Ident
    type: ObjectiveKind
    zone: Ident | None = None
    unit: Name | None = None
    count: int = Field(default=1, ge=1, le=100, description="reach, extract: how many units")
    rounds: int | None = Field(default=None, ge=1, le=1000, description="hold, survive")
    decides: bool = Field(default=True, description="false: met, it only fires triggers")
    text: Description = ""

    @model_validator(mode="after")
    def _has_what_it_needs(self) -> ObjectiveSpec:
        needs = _OBJECTIVE_NEEDS[self.type]
        for key in ("zone", "unit", "rounds"):
            if key in needs and getattr(self, key) is None:
                raise ValueError(f"a {self.type!r} objective needs `{key}`")
            if key not in needs and getattr(self, key) is not None:
                raise ValueError(f"a {self.type!r} objective has no `{key}`")
        return self


class TriggerSpec(Strict):
    """When a reinforcement arrives or a message is shown: exactly one of `round` (at the start
    of that round), `objective` (an objective id, when met), `seen` (when a unit of that side is
    first seen by another side) or `entered` (when a unit, of side `by` if given, stands in that
    zone)."""

    round: int | None = Field(default=None, ge=1, le=1000)
    objective: Ident | None = None
    seen: Ident | None = None
    entered: Ident | None = None
    by: Ident | None = None

    @model_validator(mode="after")
    def _one_trigger(self) -> TriggerSpec:
        given = [k for k in ("round", "objective", "seen", "entered") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError("a trigger names exactly one of round, objective, seen, entered")
        if self.by is not None and self.entered is None:
            raise ValueError("`by` goes with `entered`")
        return self


class ReinforcementSpec(Strict):
    side: Ident
    zone: Ident
    when: TriggerSpec
    members: list[SquadMember] = Field(min_length=1)
    message: Description = ""

    @field_validator("members")
    @classmethod
    def _no_at(cls, members: list[SquadMember]) -> list[SquadMember]:
        if any(member.at is not None for member in members):
            raise ValueError("reinforcements enter by their zone: no `at`")
        return members


class EventSpec(Strict):
    when: TriggerSpec
    message: Description = Field(min_length=1)
    side: Ident | None = Field(default=None, description="the side told; default: every side")


class FloorItemSpec(Strict):
    """An item lying on the map when the battle begins, for a unit to pick up (Recover Item)
    and use (Use Item): one of the item kinds of the scenario's ruleset (d20: `params.items`)."""

    item: Ident
    at: tuple[int, int] = Field(description="[x, y]; [0, 0] is top-left")


class ScenarioSpec(Strict):
    id: Ident
    name: Name
    description: Description = ""
    ruleset: Ident = "skirmish"
    map: ScenarioMap = Field(description="a map id, a path to a map file, or a map written out")
    sides: list[SideSpec] = Field(min_length=2, max_length=4)
    victory: VictorySpec = Field(default_factory=VictorySpec)
    lighting: Literal["clear", "minor", "major"] = "clear"
    """Impaired sight over the whole map (dim light, dark); rulesets that modify for it read it."""
    objectives: list[ObjectiveSpec] = Field(default_factory=list, max_length=32)
    reinforcements: list[ReinforcementSpec] = Field(default_factory=list, max_length=32)
    events: list[EventSpec] = Field(default_factory=list, max_length=64)

    def all_objectives(self) -> list[ObjectiveSpec]:
        """The scenario's objectives, each with its id; an old `victory:` block (no
        `objectives:`) becomes objectives: eliminate for every side, and with `type: reach`
        the reach of `victory.zone` by `victory.side` first."""
        found = list(self.objectives)
        if not found:
            if self.victory.type == "reach" and self.victory.side and self.victory.zone:
                found.append(ObjectiveSpec(side=self.victory.side, type="reach",
                                           zone=self.victory.zone))
            found += [ObjectiveSpec(side=side.id, type="eliminate") for side in self.sides]
        named, seen = [], set()
        for objective in found:
            ident = objective.id or f"{objective.type}_{objective.side}"
            base, number = ident, 2
            while ident in seen:
                ident, number = f"{base}_{number}", number + 1
            seen.add(ident)
            named.append(objective if objective.id == ident
                         else objective.model_copy(update={"id": ident}))
        return named
    weapons: list[WeaponSpec] = Field(default_factory=list)
    armor: list[ArmorSpec] = Field(default_factory=list)
    units: list[UnitSpec] = Field(default_factory=list)
    squads: list[SquadSpec] = Field(default_factory=list)
    options: dict[Ident, dict[Ident, Any]] = Field(
        default_factory=dict, description="optional rules switched, by ruleset id: {opend6: {damage_system: wounds}}")
    items: list[FloorItemSpec] = Field(
        default_factory=list, max_length=64,
        description="items lying on the map (the scenario ruleset's item kinds); a ruleset "
                    "without that kind of item leaves them out")

    @model_serializer(mode="wrap")
    def _without_empty_items(self, handler: Any) -> Any:
        """No `items` key when there are none: saves of scenarios without items read as ever."""
        data = handler(self)
        if isinstance(data, dict) and not data.get("items"):
            data.pop("items", None)
        return data


# --- rulesets --------------------------------------------------------------------------------

class RulesetSpec(Strict):
    """The outer shape of a ruleset file. `params` is checked by the ruleset's own model."""

    id: Ident
    name: Name
    engine: Ident
    description: Description = ""
    unit_attributes: list[Ident] = Field(default_factory=list, description="every unit must have these")
    unit_skills: list[Ident] = Field(default_factory=list, description="every unit must have these")
    params: dict = Field(default_factory=dict)
    tactical: dict = Field(default_factory=dict)
    """Grid-play numbers of a ruleset other than skirmish; checked by the engine."""


# --- a battle's whole content, self-contained (what a save embeds) --------------------------

class CarriedUnit(Strict):
    """A unit that comes into a battle as an earlier battle of its campaign left it (see
    game/campaign.py): its wounds, ammunition and condition, put on it once it is deployed."""

    uid: str = Field(max_length=60, description="the deployed unit's id, e.g. jensen-2")
    hp: int = Field(ge=-10000, le=10000)
    state: Literal["ok", "unconscious", "dying"] = "ok"
    stabilized: bool = False
    weapons: list[tuple[Annotated[int, Field(ge=0, le=500)], Annotated[int, Field(ge=0, le=50)]]] = \
        Field(default_factory=list, description="(rounds loaded, spare magazines) per weapon")
    grenades: dict[Ident, Annotated[int, Field(ge=0, le=20)]] = Field(default_factory=dict)
    wounds: int = Field(default=0, ge=0, le=1000)
    armor_loss: int = Field(default=0, ge=0, le=1000)


class BattleSetup(Strict):
    """Everything one battle needs, resolved from a library: no reference left dangling."""

    scenario: ScenarioSpec
    map: MapSpec
    ruleset: RulesetSpec
    terrain: list[TerrainSpec]
    weapons: list[WeaponSpec]
    armor: list[ArmorSpec]
    units: list[UnitSpec]
    squads: list[SquadSpec] = Field(default_factory=list)
    carried: list[CarriedUnit] = Field(default_factory=list)
    """Units of a campaign's battle that carry an earlier battle's state; none in a battle of
    its own, and then left out of the setup as saved, so such saves are as they always were."""

    @model_serializer(mode="wrap")
    def _without_empty_carried(self, handler: Any) -> Any:
        data = handler(self)
        if isinstance(data, dict) and not data.get("carried"):
            data.pop("carried", None)
        return data
