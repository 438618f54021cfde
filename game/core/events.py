"""Events: the facts a command caused, with every die and modifier involved.

Events are the only thing the app draws from and the only thing a log prints. Each carries the
sides that could see it happen (`seen_by`), so a side's log and its fog of war agree.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

Square = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Check:
    """One roll: the dice, each named modifier, and the total."""

    name: str
    rolls: tuple[int, ...]
    modifiers: tuple[tuple[str, int], ...]
    total: int

    @classmethod
    def of(cls, name: str, rolls: tuple[int, ...], modifiers: list[tuple[str, int]]) -> Check:
        kept = tuple((label, value) for label, value in modifiers if value)
        return cls(name, rolls, kept, sum(rolls) + sum(value for _, value in kept))

    def describe(self) -> str:
        parts = ["+".join(str(r) for r in self.rolls) if self.rolls else "0"]
        for label, value in self.modifiers:
            parts.append(f"{'+' if value >= 0 else '-'} {abs(value)} {label}")
        return f"{' '.join(parts)} = {self.total}"

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "rolls": list(self.rolls),
                "modifiers": [list(m) for m in self.modifiers], "total": self.total}


@dataclass(frozen=True, slots=True)
class Event:
    kind: ClassVar[str] = ""
    seen_by: tuple[str, ...] = field(default=(), kw_only=True)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            value = getattr(self, f.name)
            data[f.name] = _plain(value)
        return data


def _plain(value: Any) -> Any:
    if isinstance(value, Check):
        return value.to_dict()
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


# --- the flow of battle --------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class BattleStarted(Event):
    kind: ClassVar[str] = "battle_started"
    scenario: str
    ruleset: str
    seed: int
    sides: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class InitiativeRolled(Event):
    kind: ClassVar[str] = "initiative_rolled"
    unit: str
    check: Check | None          # None for an ambusher placed by its side
    ambusher: bool


@dataclass(frozen=True, slots=True)
class InitiativeOrder(Event):
    kind: ClassVar[str] = "initiative_order"
    order: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    kind: ClassVar[str] = "round_started"
    round: int


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    kind: ClassVar[str] = "turn_started"
    unit: str
    side: str
    round: int
    ap: int
    debt: int


@dataclass(frozen=True, slots=True)
class PlanningStarted(Event):
    """Simultaneous orders: the round's planning opens; `sides` give their orders."""

    kind: ClassVar[str] = "planning_started"
    round: int
    sides: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class OrdersGiven(Event):
    """A side has given its orders for the round (how many units have any; not what they are)."""

    kind: ClassVar[str] = "orders_given"
    side: str
    units: int


@dataclass(frozen=True, slots=True)
class OrderLost(Event):
    """An order that could not be carried out when the unit's turn came, and what the unit did
    instead: `then` is "skip" (on to its next order), "hold" (no more orders this round) or
    "nearest" (fires at `instead`, the nearest enemy in sight)."""

    kind: ClassVar[str] = "order_lost"
    unit: str
    order: str            # the order's kind ("move", "attack", ...)
    target: str           # the unit it named, or ""
    reason: str
    then: str
    instead: str = ""
    orders: int = 1       # with the like attacks right after it, lost for the same reason


@dataclass(frozen=True, slots=True)
class OrderUntriggered(Event):
    """A conditional order whose condition had not come when the unit's turn reached it: an
    attack at no one in particular ("fire on sight") with no enemy in sight. Nothing is spent;
    `orders` counts it with the like orders right after it, which wait on the same condition
    and are dropped with it. Not a lost order: it did what it said."""

    kind: ClassVar[str] = "order_untriggered"
    unit: str
    order: str            # the order's kind ("attack")
    reason: str
    orders: int = 1


@dataclass(frozen=True, slots=True)
class TurnUnseen(Event):
    """A unit's turn begins where a side cannot see it: that side learns only that it acts."""

    kind: ClassVar[str] = "turn_unseen"
    unit: str
    side: str
    round: int


@dataclass(frozen=True, slots=True)
class TurnSkipped(Event):
    kind: ClassVar[str] = "turn_skipped"
    unit: str
    reason: str


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    kind: ClassVar[str] = "turn_ended"
    unit: str


@dataclass(frozen=True, slots=True)
class BattleEnded(Event):
    kind: ClassVar[str] = "battle_ended"
    winner: str | None           # a side id, or None for a draw
    reason: str


# --- objectives, reinforcements and scripted messages ---------------------------------------

@dataclass(frozen=True, slots=True)
class ObjectiveChanged(Event):
    """An objective was met or failed (or a zone's hold was broken)."""

    kind: ClassVar[str] = "objective_changed"
    objective: str
    side: str
    state: str                   # met | failed
    detail: str


@dataclass(frozen=True, slots=True)
class UnitLeft(Event):
    """A unit left the battle by an exit zone (it is safe, out of the fight)."""

    kind: ClassVar[str] = "unit_left"
    unit: str
    zone: str


@dataclass(frozen=True, slots=True)
class Reinforced(Event):
    kind: ClassVar[str] = "reinforced"
    side: str
    zone: str
    units: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Announced(Event):
    """A scenario's scripted message."""

    kind: ClassVar[str] = "announced"
    message: str


# --- movement and posture ------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Moved(Event):
    kind: ClassVar[str] = "moved"
    unit: str
    start: Square
    end: Square
    ap_cost: int
    ap_left: int
    rough: bool


@dataclass(frozen=True, slots=True)
class MoveStopped(Event):
    kind: ClassVar[str] = "move_stopped"
    unit: str
    at: Square
    reason: str


@dataclass(frozen=True, slots=True)
class StanceChanged(Event):
    kind: ClassVar[str] = "stance_changed"
    unit: str
    old: str
    new: str
    ap_cost: int
    forced: bool = False


@dataclass(frozen=True, slots=True)
class WeaponDrawn(Event):
    kind: ClassVar[str] = "weapon_drawn"
    unit: str
    weapon: str
    ap_cost: int


@dataclass(frozen=True, slots=True)
class Reloaded(Event):
    kind: ClassVar[str] = "reloaded"
    unit: str
    weapon: str
    ammo: int
    spare: int
    ap_cost: int


# --- attacks and their consequences --------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Aimed(Event):
    kind: ClassVar[str] = "aimed"
    unit: str
    level: int
    ap_cost: int


@dataclass(frozen=True, slots=True)
class PointsSpent(Event):
    """Character Points spent on the unit's next roll this turn (a die each)."""

    kind: ClassVar[str] = "points_spent"
    unit: str
    points: int
    left: int


@dataclass(frozen=True, slots=True)
class AttackResolved(Event):
    kind: ClassVar[str] = "attack_resolved"
    attacker: str
    target: str
    weapon: str
    mode: str
    location: str
    attack: Check
    defense: Check
    hit: bool
    hits: int
    ap_cost: int
    ammo_used: int
    reaction: bool = False
    detail: str = ""             # the ruleset's own account of the roll, where a sum does not tell it


@dataclass(frozen=True, slots=True)
class Damaged(Event):
    kind: ClassVar[str] = "damaged"
    unit: str
    source: str                  # uid of the attacker, or "bleeding"
    rolls: tuple[int, ...]
    rolled: int                  # after location multiplier, before armor
    damage_type: str
    resisted: int
    taken: int
    hp_before: int
    hp_after: int


@dataclass(frozen=True, slots=True)
class HealthChanged(Event):
    """A unit's condition changed: knocked_out, dying, dead, stabilized or revived."""

    kind: ClassVar[str] = "health_changed"
    unit: str
    state: str
    hp: int
    cause: str


@dataclass(frozen=True, slots=True)
class Leaned(Event):
    """A unit leans out from behind total cover, or back behind it (`out` False; ap_cost 0 when
    a step ended the lean)."""

    kind: ClassVar[str] = "leaned"
    unit: str
    out: bool
    ap_cost: int


@dataclass(frozen=True, slots=True)
class HealAttempted(Event):
    kind: ClassVar[str] = "heal_attempted"
    healer: str
    target: str
    stage: str                   # stabilize | revive
    check: Check
    difficulty: int
    success: bool
    ap_cost: int


@dataclass(frozen=True, slots=True)
class MoraleChanged(Event):
    kind: ClassVar[str] = "morale_changed"
    side: str
    before: float
    after: float
    percent: int
    modifier: int
    cause: str


# --- special actions -----------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class OverwatchSet(Event):
    kind: ClassVar[str] = "overwatch_set"
    unit: str
    toward: Square
    ap_cost: int
    held_ap: int
    asks: bool = False           # the watcher's player is asked at each step into the cone
    within: int = 0              # only once the enemy is this near (0: anywhere in the cone)


@dataclass(frozen=True, slots=True)
class OverwatchTriggered(Event):
    kind: ClassVar[str] = "overwatch_triggered"
    unit: str
    mover: str
    at: Square


@dataclass(frozen=True, slots=True)
class OverwatchAsked(Event):
    """A mover stepped into a cone whose watcher's player chooses the reaction (Respond)."""

    kind: ClassVar[str] = "overwatch_asked"
    unit: str                    # the watcher
    mover: str
    at: Square
    choices: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class OverwatchHeld(Event):
    """The watcher lets the mover's step go by: `until` "next step" or "move over"."""

    kind: ClassVar[str] = "overwatch_held"
    unit: str
    mover: str
    until: str


@dataclass(frozen=True, slots=True)
class OverwatchEnded(Event):
    kind: ClassVar[str] = "overwatch_ended"
    unit: str
    reason: str


@dataclass(frozen=True, slots=True)
class SuppressionFired(Event):
    kind: ClassVar[str] = "suppression_fired"
    unit: str
    at: Square
    diameter: int
    attack: Check
    ammo_used: int
    ap_cost: int


@dataclass(frozen=True, slots=True)
class SuppressionDodged(Event):
    kind: ClassVar[str] = "suppression_dodged"
    unit: str
    by: str
    dodge: Check
    hit: bool


@dataclass(frozen=True, slots=True)
class SuppressionTested(Event):
    """At the start of its turn a pinned unit tries to break out: Willpower, then Dodge."""

    kind: ClassVar[str] = "suppression_tested"
    unit: str
    by: str
    willpower: Check
    dodge: Check | None
    against: int
    broken: bool


@dataclass(frozen=True, slots=True)
class SuppressionEnded(Event):
    kind: ClassVar[str] = "suppression_ended"
    unit: str
    reason: str


@dataclass(frozen=True, slots=True)
class GrenadeThrown(Event):
    kind: ClassVar[str] = "grenade_thrown"
    unit: str
    grenade: str
    target: Square
    check: Check
    difficulty: int
    landed: Square
    scatter_roll: int | None
    scatter_distance: int
    ap_cost: int


@dataclass(frozen=True, slots=True)
class Exploded(Event):
    kind: ClassVar[str] = "exploded"
    at: Square
    grenade: str
    rolls: tuple[int, ...]
    damage_type: str
    radius: int


# --- rulesets other than `skirmish` --------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Defended(Event):
    """A unit takes an active or full defense, which lasts until its next turn."""

    kind: ClassVar[str] = "defended"
    unit: str
    defense: str
    check: Check | None          # a rolled defense (OpenD6), or None for a flat bonus
    bonus: int
    ap_cost: int


@dataclass(frozen=True, slots=True)
class DefenseAsked(Event):
    """An attack waits for its defender's player to choose a defense (a Respond command)."""

    kind: ClassVar[str] = "defense_asked"
    unit: str                    # the defender
    attacker: str
    weapon: str
    choices: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DefenseChosen(Event):
    kind: ClassVar[str] = "defense_chosen"
    unit: str
    choice: str


@dataclass(frozen=True, slots=True)
class ActionsDeclared(Event):
    kind: ClassVar[str] = "actions_declared"
    unit: str
    actions: int
    penalty: int                 # dice off every action this round


@dataclass(frozen=True, slots=True)
class StatusChanged(Event):
    """A status (bleeding, stunned, wounded...) starts, ticks or ends."""

    kind: ClassVar[str] = "status_changed"
    unit: str
    status: str
    turns: int                   # turns left; 0 once it has ended
    detail: str
    lasting: bool = False        # it lasts until healed (turns is then 0 and it has not ended)


@dataclass(frozen=True, slots=True)
class ActionTaken(Event):
    """A ruleset's own action and what came of it (d20: unjam a weapon, recover or use an
    item, jump), with the test it rolled, if any."""

    kind: ClassVar[str] = "action_taken"
    unit: str
    action: str                  # unjam, recover_item, use_item, jump
    ap_cost: int
    detail: str                  # what happened, in words ("clears the jam of the Harrow LMG")
    check: Check | None = None
    success: bool = True


@dataclass(frozen=True, slots=True)
class ModifierGiven(Event):
    """The game master gave a unit's next attack roll a modifier (0: took one back)."""

    kind: ClassVar[str] = "modifier_given"
    unit: str
    modifier: int
    reason: str


@dataclass(frozen=True, slots=True)
class HealthSet(Event):
    """The game master set a unit's HP (its Durability left, its Body Points) by hand."""

    kind: ClassVar[str] = "health_set"
    unit: str
    hp_before: int
    hp_after: int
    reason: str
    measure: str = "HP"          # what the ruleset calls it: HP, Durability left, Body Points


@dataclass(frozen=True, slots=True)
class Refused:
    """A command the engine would not carry out, and why. Nothing changed."""

    reason: str

    def __bool__(self) -> bool:
        return False


@dataclass(frozen=True, slots=True)
class RollWanted(Refused):
    """At the table: the command needs a die rolled by a person. Nothing changed; give the
    command again with the faces typed so far (`typed`) and this one (`Command.rolls`). With a
    `problem`, the face typed after `typed` did not fit this die, and was not taken."""

    unit: str = ""            # who rolls
    name: str = ""            # their display name
    what: str = ""            # what the roll is for ("attack", "defense", "attack_wild", ...)
    sides: int = 0
    first: int = 1            # the lowest face as read (a d100 read 00 to 99: 0)
    typed: tuple[int, ...] = ()
    problem: str = ""         # why the face typed after `typed` was refused, if it was
    count: int = 1            # dice of this kind wanted in a row (a pool, or one per hit)
    then: str = ""            # what the same unit rolls for right after ("attack_wild")

    @property
    def last(self) -> int:
        return self.first + self.sides - 1

    def refusal(self, value: int) -> str | None:
        """Why `value` cannot be this die's face, or None if it can."""
        return self._request().refusal(value)

    def faces(self) -> str:
        """The faces the die takes, as said to the table: "1 to 10; a 0 reads 10"."""
        return self._request().faces()

    def _request(self) -> Any:
        from game.core.dice import RollRequest
        return RollRequest(self.unit, self.what, self.sides, self.first)
