"""Commands: what a player (person, program or test) asks the active unit to do.

Commands are frozen requests. `Battle.submit` either refuses one with a reason and changes
nothing, or carries it out and returns the events it caused. They serialise to plain dicts so a
save can replay them. At the table, `rolls` holds the faces typed in for the dice the command
rolled at the table, in the order they were rolled, so the command log alone replays it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any, ClassVar

Square = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Command:
    kind: ClassVar[str] = ""
    unit: str
    rolls: tuple[int, ...] = field(default=(), kw_only=True)   # faces typed at the table

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["kind"] = self.kind
        if self.rolls:
            data["rolls"] = list(self.rolls)
        else:
            del data["rolls"]
        return data


@dataclass(frozen=True, slots=True)
class Move(Command):
    """Walk along `path`: each square adjacent to the one before, the first next to the unit."""

    kind: ClassVar[str] = "move"
    path: tuple[Square, ...]


@dataclass(frozen=True, slots=True)
class ChangeStance(Command):
    """Stand, crouch or go prone; `drop` throws the unit flat quickly at an attack penalty."""

    kind: ClassVar[str] = "stance"
    stance: str
    drop: bool = False


@dataclass(frozen=True, slots=True)
class Attack(Command):
    """Aim to level `aim` (AP bought once per turn) and attack `target` with the drawn weapon."""

    kind: ClassVar[str] = "attack"
    target: str
    mode: str | None = None       # fire mode; None = the weapon's first
    location: str = "torso"
    aim: int = 0


@dataclass(frozen=True, slots=True)
class SetOverwatch(Command):
    """Watch a 45-degree cone facing `toward`; fire at the first enemy that moves into it.

    The reaction, chosen now: fire `mode` (None: the widest the held AP pay for) aimed to
    `aim`, only at the units in `targets` (empty: any enemy), only once the mover is within
    `within` squares (0: anywhere in the cone). With `ask` (one unit at a time only) the
    watcher's player is asked instead, at each step an enemy takes in the cone: which shot,
    or wait for a later step (a Respond command)."""

    kind: ClassVar[str] = "overwatch"
    toward: Square
    mode: str | None = None
    aim: int = 0
    targets: tuple[str, ...] = ()
    within: int = 0
    ask: bool = False


@dataclass(frozen=True, slots=True)
class Suppress(Command):
    """A full-round burst on a circle centred on `at`."""

    kind: ClassVar[str] = "suppress"
    at: Square


@dataclass(frozen=True, slots=True)
class Throw(Command):
    kind: ClassVar[str] = "throw"
    at: Square
    grenade: str


@dataclass(frozen=True, slots=True)
class Reload(Command):
    kind: ClassVar[str] = "reload"


@dataclass(frozen=True, slots=True)
class Draw(Command):
    """Draw the carried weapon at `weapon` (an index into the unit's weapons)."""

    kind: ClassVar[str] = "draw"
    weapon: int


@dataclass(frozen=True, slots=True)
class Revive(Command):
    """One Heal check on an adjacent downed ally: stabilise it, then bring it back at 1 HP."""

    kind: ClassVar[str] = "revive"
    target: str


@dataclass(frozen=True, slots=True)
class Lean(Command):
    """Lean out from behind total cover to see and shoot past it (`out`), or back behind it."""

    kind: ClassVar[str] = "lean"
    out: bool = True


@dataclass(frozen=True, slots=True)
class Defend(Command):
    """Take an active or full defense (the kinds the ruleset offers) until the unit's next turn."""

    kind: ClassVar[str] = "defend"
    defense: str


@dataclass(frozen=True, slots=True)
class ChooseDefense(Command):
    """Set the defense or reaction this unit uses whenever it is attacked ("auto": the best)."""

    kind: ClassVar[str] = "choose_defense"
    choice: str


@dataclass(frozen=True, slots=True)
class Declare(Command):
    """Declare how many actions the unit takes this round (OpenD6: -1D each beyond the first)."""

    kind: ClassVar[str] = "declare"
    actions: int


@dataclass(frozen=True, slots=True)
class Aim(Command):
    """Spend the whole round aiming at `target` (OpenD6: +1D a round of it, on the next shot)."""

    kind: ClassVar[str] = "aim"
    target: str


@dataclass(frozen=True, slots=True)
class SpendPoints(Command):
    """Spend Character Points: a die each on the unit's next roll this turn (OpenD6)."""

    kind: ClassVar[str] = "spend_points"
    points: int


@dataclass(frozen=True, slots=True)
class Unjam(Command):
    """Clear the jam of the weapon in hand (d20: Unjam Weapon, Two Actions)."""

    kind: ClassVar[str] = "unjam"


@dataclass(frozen=True, slots=True)
class RecoverItem(Command):
    """Pick up the item lying on `at` (the unit's square or one next to it)."""

    kind: ClassVar[str] = "recover_item"
    at: Square


@dataclass(frozen=True, slots=True)
class UseItem(Command):
    """Use a carried item of the kind `item` (a medical kit, a spare magazine)."""

    kind: ClassVar[str] = "use_item"
    item: str


@dataclass(frozen=True, slots=True)
class Jump(Command):
    """Jump over the square between the unit and `to` (a gap), landing on `to`."""

    kind: ClassVar[str] = "jump"
    to: Square


@dataclass(frozen=True, slots=True)
class Respond(Command):
    """The answer to a DefenseAsked (`unit`: the defender) or an OverwatchAsked (`unit`: the
    watcher); not the active unit's."""

    kind: ClassVar[str] = "respond"
    choice: str


@dataclass(frozen=True, slots=True)
class EndTurn(Command):
    kind: ClassVar[str] = "end_turn"


@dataclass(frozen=True, slots=True)
class Proceed(Command):
    """Under simultaneous orders: the active unit carries out its next order (or, with none
    left, ends its turn)."""

    kind: ClassVar[str] = "proceed"


FALLBACKS = ("skip", "hold", "nearest")   # an order that cannot be carried out: what then


@dataclass(frozen=True, slots=True)
class Order:
    """One order of a unit's queue for the round, and what to do if it cannot be carried out
    when its turn comes: `skip` it (go on with the next), `hold` (drop it and all after it),
    or `nearest` (an attack: fire at the nearest enemy in sight instead)."""

    command: Command
    fallback: str = "skip"

    def to_dict(self) -> dict[str, Any]:
        return {"command": self.command.to_dict(), "fallback": self.fallback}


@dataclass(frozen=True, slots=True)
class GiveOrders(Command):
    """Under simultaneous orders: a side's orders for the round, each unit its queue. `unit`
    is unused (""); `sequence`, for an ambushing side only, is the order its units act in."""

    kind: ClassVar[str] = "give_orders"
    unit: str = ""
    side: str = ""
    orders: tuple[tuple[str, tuple[Order, ...]], ...] = ()
    sequence: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "side": self.side,
                                "orders": [[uid, [o.to_dict() for o in queue]] for uid, queue in self.orders]}
        if self.sequence:
            data["sequence"] = list(self.sequence)
        return data


@dataclass(frozen=True, slots=True)
class GiveModifier(Command):
    """The game master's call: `unit`'s next attack roll gets `modifier` (0 takes it back).
    Given at any moment but while a defender chooses; not an action of the unit."""

    kind: ClassVar[str] = "give_modifier"
    modifier: int
    reason: str


@dataclass(frozen=True, slots=True)
class SetHealth(Command):
    """The game master's call: `unit` has `hp` left (the ruleset's HP, Durability or Body
    Points), whatever the rolls said. Given at any moment but while a defender chooses."""

    kind: ClassVar[str] = "set_health"
    hp: int
    reason: str


GM_COMMANDS = (GiveModifier, SetHealth)

COMMANDS: dict[str, type[Command]] = {
    cls.kind: cls
    for cls in (Move, ChangeStance, Attack, SetOverwatch, Suppress, Throw, Reload, Draw, Revive, Lean,
                Defend, ChooseDefense, Declare, Aim, SpendPoints, Respond, EndTurn, GiveModifier,
                SetHealth, Proceed, GiveOrders, Unjam, RecoverItem, UseItem, Jump)
}
# What a unit may be ordered to do while planning (the rest are not actions of a queue).
ORDERABLE = (Move, ChangeStance, Attack, SetOverwatch, Suppress, Throw, Reload, Draw, Revive, Lean)


def parse_shot(choice: str) -> tuple[str, int]:
    """A watcher's shot as a Respond names it: ("burst", 0) from "burst", ("single", 2) from
    "single+2"."""
    mode, _, aim = choice.partition("+")
    return mode, int(aim or 0)


def command_from_dict(data: dict[str, Any]) -> Command:
    """Rebuild a command from `to_dict` output; raises ValueError on anything malformed."""
    if not isinstance(data, dict) or data.get("kind") not in COMMANDS:
        raise ValueError(f"not a command: {data!r}")
    cls = COMMANDS[data["kind"]]
    if cls is GiveOrders:
        return _orders_from_dict(data)
    names = {f.name for f in fields(cls)}
    args = {k: v for k, v in data.items() if k != "kind"}
    if set(args) - names:
        raise ValueError(f"unknown fields for {cls.kind}: {sorted(set(args) - names)}")
    for key in ("path",):
        if key in args:
            args[key] = tuple(tuple(square) for square in args[key])
    for key in ("toward", "at", "targets", "to"):
        if key in args:
            args[key] = tuple(args[key])
    if "rolls" in args:
        rolls = args["rolls"]
        if not isinstance(rolls, list) or not all(type(r) is int for r in rolls):
            raise ValueError(f"typed rolls must be a list of whole numbers: {rolls!r}")
        args["rolls"] = tuple(rolls)
    return cls(**args)


def _orders_from_dict(data: dict[str, Any]) -> GiveOrders:
    if set(data) - {"kind", "side", "orders", "sequence"}:
        raise ValueError(f"unknown fields for give_orders: {sorted(set(data) - {'kind', 'side', 'orders', 'sequence'})}")
    try:
        orders = []
        for uid, queue in data["orders"]:
            made = []
            for item in queue:
                command = command_from_dict(item["command"])
                if not isinstance(command, ORDERABLE):
                    raise ValueError(f"a {command.kind} is not an order")
                made.append(Order(command, str(item.get("fallback", "skip"))))
            orders.append((str(uid), tuple(made)))
        return GiveOrders(side=str(data["side"]), orders=tuple(orders),
                          sequence=tuple(str(u) for u in data.get("sequence", ())))
    except (KeyError, TypeError) as why:
        raise ValueError(f"damaged orders: {why}") from None
