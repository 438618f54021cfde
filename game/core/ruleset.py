"""What the engine and a ruleset say to each other: the value types the engine hands over.

The engine's systems gather ruleset-neutral facts (who attacks, range, cover, stance, AP spent
on aim) into these values; the battle's ruleset (one package under game/rulesets) turns them
into dice and an outcome.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel

from game.content.schema import FireMode, RulesetSpec, UnitSpec, WeaponSpec
from game.core import components as c
from game.core.events import AttackResolved, Check
from game.core.grid import MoveCosts, Reach
from game.core.illegal import Illegal

if TYPE_CHECKING:
    from game.core.session import Session

Square = tuple[int, int]


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
    extra: tuple[tuple[str, int], ...] = ()     # the game master's modifier (game/core/gm.py)


@dataclass(frozen=True, slots=True)
class DamageRoll:
    rolls: tuple[int, ...]
    rolled: int
    resisted: int
    taken: int


@dataclass(frozen=True, slots=True)
class Harm:
    """What an area action (a grenade's blast, suppressive fire) may do to one unit, exactly."""

    uid: str
    caught: float               # P(the unit is in the blast or the suppressed area)
    hit: float                  # P(it takes damage dice: every blast that catches it; a failed Dodge)
    pinned: float               # P(it ends pinned by the fire) (0 for a blast)
    expected_damage: float      # HP it loses on average, after armor
    down: float                 # P(it goes down; for a unit already down, P(it dies))


@dataclass(frozen=True, slots=True)
class ThrowOdds:
    """A throw before it is made: where it may land, the blast at the aimed square, and the
    harm to each unit the side knows of."""

    grenade: str
    at: Square
    ap_cost: int
    radius: int                                   # the last ring the blast reaches
    landings: tuple[tuple[Square, float], ...]    # each square it may land on, likeliest first
    rings: dict[Square, int]                      # square -> ring, for a landing on `at`
    harms: tuple[Harm, ...]                       # units with a chance to be caught


@dataclass(frozen=True, slots=True)
class SuppressOdds:
    """Suppressive fire before it is fired: the circle and the units the side knows in it."""

    at: Square
    diameter: int
    ap_cost: int
    area: tuple[Square, ...]
    attack_modifier: int                          # added to the one attack die
    harms: tuple[Harm, ...]


# --- the interface --------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class HitZone:
    modifier: int = 0
    damage_multiplier: float = 1.0


@dataclass(frozen=True, slots=True)
class Fists:
    damage: str = "1d3"
    damage_type: str = "blunt"
    ap: int = 1


@dataclass(frozen=True, slots=True)
class ExtraAction:
    """An action a ruleset offers beyond the shared ones (OpenD6: aim over rounds, Character
    Points): its key and words for the action bar, its AP, and the command it gives, or why not."""

    key: str
    label: str
    cost: int | None
    command: Any | None           # the Command to submit; None when it cannot be taken now
    why: str = ""                 # why it cannot (greyed in the bar)
    needs_target: bool = False    # asked again with the chosen target before it is taken
    needs_square: bool = False    # asked again with the square under the cursor (a jump's landing)
    odds: str = ""                # asked with a square: what it takes there and its chance, in words


@dataclass(frozen=True, slots=True)
class FloorItem:
    """An item lying on a square (d20: for Recover Item), as the board and the look text show it."""

    at: Square
    item: str                     # its kind (the ruleset's own id)
    name: str
    glyph: str


@dataclass(frozen=True, slots=True)
class Cone:
    cone_degrees: float = 90.0


@dataclass(frozen=True, slots=True)
class EngineNumbers:
    """The numbers the engine's shared systems read from a ruleset (`Ruleset.p`). A ruleset's
    own params model carries these fields among its others; these are the neutral values."""

    unarmed: Fists = Fists()
    hit_locations: dict[str, HitZone] = field(default_factory=lambda: {"torso": HitZone()})
    overwatch: Cone = Cone()
    square_meters: float = 1.0
    morale_transfer: float = 0.0
    dying_loss_per_round: int = 0
    reload_resets_aim: bool = True


class Ruleset:
    """The one interface every ruleset implements. Every hook has a neutral default, so the
    engine never asks which ruleset it has: a ruleset overrides what its text says.

    The engine's systems call these hooks (game/core/systems); the app and the computer
    players only ask queries (game/core/queries.py), which call them too. Hooks that take the
    session may read and, where their docstring says so, change the battle; the others are pure.
    """

    name = "neutral"
    # The models of the ruleset file's blocks (see `file_blocks`); None: no `params` block.
    Params: ClassVar[type[BaseModel] | None] = None
    # Whether units and weapons need a `rules: {engine: ...}` block (their numbers under this
    # ruleset), or are played with their own stats.
    profiles: ClassVar[bool] = False
    # The models of a weapon's, an armor's and a unit's `rules: {engine: ...}` block under this
    # ruleset (see `profile_models`); None: the ruleset reads the item's own stats.
    WeaponProfile: ClassVar[type[BaseModel] | None] = None
    ArmorProfile: ClassVar[type[BaseModel] | None] = None
    UnitProfile: ClassVar[type[BaseModel] | None] = None
    # The ruleset's side of the referee's calculator (game/resolve): a module with `Model`,
    # `rules_for`, `resolve` and `odds`; None where it has none.
    calculator: ClassVar[Any] = None
    spec: RulesetSpec
    p: Any = EngineNumbers()
    move_costs = MoveCosts(1, 1, 0, False)
    ap_name = "AP"
    reroll_initiative = False           # rolled again at the start of every round
    simultaneous = False                # orders chosen at once each round (game.core.orders)
    max_actions = 0                     # most actions a unit may declare in a turn (0: none)
    defense_choices: tuple[str, ...] = ()
    # What the ruleset has beyond move, stance, attack, overwatch, reload and draw, for the
    # app and the computer players to offer: "aim" (bought with AP, with hit locations),
    # "grenades", "suppression", "first_aid" (their systems come from `actions()`),
    # "declared_actions", "move_actions" (a turn buys whole moves), "opposed_checks".
    supports: frozenset[str] = frozenset()

    def __init__(self, spec: RulesetSpec) -> None:
        self.spec = spec

    @classmethod
    def file_blocks(cls) -> dict[str, type[BaseModel]]:
        """The blocks of a ruleset file this ruleset reads, each with the model that checks it
        when content is loaded."""
        return {"params": cls.Params} if cls.Params is not None else {}

    @classmethod
    def profile_models(cls) -> dict[str, type[BaseModel]]:
        """The model that checks each kind's `rules: {engine: ...}` block ("weapon", "armor",
        "unit") when content is loaded, and that the ruleset reads it through."""
        models = {"weapon": cls.WeaponProfile, "armor": cls.ArmorProfile, "unit": cls.UnitProfile}
        return {kind: model for kind, model in models.items() if model is not None}

    @classmethod
    def option_problems(cls, spec: RulesetSpec, options: dict[str, Any]) -> list[tuple[str, str]]:
        """(option, message) for each optional rule a scenario's `options:` may not switch under
        this ruleset (its name or its value); a ruleset without optional rules refuses them all."""
        return [(name, f"the {spec.name} rules have no optional rule {name!r} to switch") for name in options]

    @classmethod
    def content_problems(cls, kind: str, item: Any, block: Any) -> list[tuple[tuple[str, ...], str]]:
        """What this ruleset refuses in a content item's (`kind`: weapon, armor, unit) valid
        `rules` block beyond its model: (key under the block, message) pairs."""
        return []

    def actions(self) -> dict[type, Callable[[Session, Any], None]]:
        """Systems for the ruleset's own commands (Throw, Suppress, Revive...), by type."""
        return {}

    # --- content ----------------------------------------------------------------------------

    def weapon_view(self, weapon: WeaponSpec) -> WeaponSpec:
        """The weapon as the shared systems see it under this ruleset (costs in its AP)."""
        return weapon

    def unit_body(self, spec: UnitSpec) -> tuple[dict[str, int], dict[str, int], int, int]:
        """(attributes, skills, hp, AP per turn) of a unit under this ruleset."""
        return dict(spec.attributes), dict(spec.skills), spec.hp, spec.ap

    def unit_components(self) -> list[Any]:
        """Extra components a unit carries under this ruleset (wounds, a move allowance)."""
        return []

    def unarmed_weapon(self) -> WeaponSpec:
        """A punch or kick: the ruleset's numbers, not a content weapon."""
        fists = self.p.unarmed
        return WeaponSpec.model_construct(
            id="unarmed", name="Unarmed", kind="melee", skill="unarmed", damage=fists.damage,
            damage_type=fists.damage_type, accuracy=0, aim_max=0, aim_ap=0, range=1, spread=1,
            magazine=0, reload_ap=0, draw_ap=0, modes=[FireMode(name="unarmed", ap=fists.ap)])

    # --- costs ------------------------------------------------------------------------------

    def stance_cost(self, old: str, new: str, drop: bool) -> int:
        return 0

    def stance_cost_now(self, session: Session, uid: str, old: str, new: str, drop: bool) -> int:
        """What the change costs this unit now, in its turn so far (a ruleset may limit free
        actions a turn); `stance_cost` is the price on its own."""
        return self.stance_cost(old, new, drop)

    def aim_cost(self, weapon: WeaponSpec, level: int, quick_aim: bool) -> int:
        return 0

    def overwatch_cost(self, per_turn: int) -> int:
        return per_turn // 2

    def is_running(self, move_ap: int, ap_per_turn: int) -> bool:
        return False

    def state_for(self, hp: int, constitution: int) -> str:
        return "ok" if hp > 0 else "unconscious"

    def morale_modifier(self, percent: float) -> int:
        """Modifier to a side's rolls when its morale is at `percent` of its start."""
        return 0

    def extra_actions(self, session: Session, uid: str, target: str | None,
                      square: Square | None = None) -> list[ExtraAction]:
        """The ruleset's own actions for `uid` now (at `target`, where one is chosen; toward
        `square`, the one under the cursor, for those that need one)."""
        return []

    def not_offered(self, session: Session, uid: str, key: str) -> str | None:
        """Why the ruleset's own action under `key` is not among `extra_actions` for `uid`
        now (d20: no jammed weapon, no item in reach); None where the rules have no such key."""
        return None

    def floor_items(self, session: Session) -> list[FloorItem]:
        """The items lying on the map (none here: only d20 has items to pick up)."""
        return []

    def defense_costs(self, session: Session, uid: str) -> dict[str, int]:
        """AP of each active or full defense the ruleset offers `uid` now."""
        return {}

    def suppression_diameter(self, session: Session, uid: str) -> int:
        """Squares across the area `uid`'s suppressive fire would pin (0: it has none)."""
        return 0

    def blast_radius(self, session: Session, grenade: str) -> int:
        """The last ring of squares around the landing that `grenade`'s blast reaches."""
        return 0

    def throw_outcomes(self, session: Session, uid: str, grenade: str, at: Square,
                       squares: list[Square]) -> list[tuple[float, dict[Square, str]]]:
        """Where a throw by `uid` at `at` may land, with each landing's chance and the damage
        dice that reach each of `squares` (none here: no grenades)."""
        return []

    def preview_throw(self, session: Session, uid: str, grenade: str, at: Square,
                      uids: list[str]) -> ThrowOdds:
        """`uid`'s throw of `grenade` at `at`, before it is made, and its harm to each of `uids`;
        Illegal with the reason the throw would be refused."""
        raise Illegal("These rules have no grenades.")

    def preview_suppress(self, session: Session, uid: str, at: Square,
                         uids: list[str]) -> SuppressOdds:
        """`uid`'s suppressive fire on `at`, before it is fired, and its harm to each of `uids`;
        Illegal with the reason it would be refused."""
        raise Illegal("These rules have no suppressive fire.")

    def revivable(self, session: Session, uid: str) -> list[str]:
        """The fallen allies `uid` could give first aid to now (none here)."""
        return []

    def revive_odds(self, session: Session, uid: str, target: str) -> tuple[float, str] | None:
        """The chance of `uid`'s next first-aid check on `target`, and its stage (None: none)."""
        return None

    def special_costs(self, session: Session, uid: str) -> dict[str, int | None]:
        """AP of the ruleset's own actions for `uid` now: suppress, throw, revive (None: none)."""
        return {"suppress": None, "throw": None, "revive": None}

    # --- the turn ---------------------------------------------------------------------------

    def initiative(self, session: Session, uid: str) -> tuple[Check, tuple[int, ...]]:
        """One unit's initiative roll, and what breaks ties (higher first)."""
        return Check.of("initiative", (), []), ()

    def start_round(self, session: Session) -> None:
        """Round bookkeeping (reactions come back)."""

    def begin_turn(self, session: Session, uid: str) -> str | None:
        """Open a turn; a reason the unit cannot act, or None."""
        return None

    def turn_started(self, session: Session, uid: str) -> None:
        """After the turn has been announced (a pinned unit tries to break free)."""

    def end_turn(self, session: Session, uid: str) -> None:
        """Close a turn."""

    def can_still_act(self, session: Session, uid: str) -> bool:
        """With no AP left, can the unit still do something (walk its free move)?"""
        return False

    def after_action(self, session: Session, uid: str, command: Any) -> None:
        """After any action but a move (or a free choice)."""

    # --- movement ---------------------------------------------------------------------------

    def path_price(self, session: Session, uid: str, steps: list[int]) -> int:
        """AP of a whole path from the cost of each step, without changing anything."""
        return sum(steps)

    def step_price(self, session: Session, uid: str, cost: int, *, commit: bool) -> int:
        """AP one step of `cost` takes now (and, with `commit`, the unit's allowance spent)."""
        return cost

    def full_move_beyond(self, session: Session, uid: str) -> int | None:
        """Squares a unit may walk in a turn before it has made a full move (None: no limit)."""
        return None

    def on_step(self, session: Session, uid: str, start: Square, step: Square) -> None:
        """`uid` is about to step from `start` to `step` (d20: attacks of opportunity)."""

    def provokers(self, session: Session, uid: str, start: Square, step: Square) -> list[Any]:
        """The reactions a step would draw, as planned attacks (none here)."""
        return []

    def reach_budget(self, session: Session, uid: str, most: int | None) -> int:
        """How far `uid` could still walk, in the units of `move_costs`."""
        budget = session.get(uid, c.ActionPoints).current
        return budget if most is None else max(0, min(budget, most))

    def price_reach(self, session: Session, uid: str, found: Reach) -> Reach:
        """The reach with each square's price in AP (the search already priced it here)."""
        return found

    # --- attacks ----------------------------------------------------------------------------

    def check_attack(self, session: Session, plan: Any) -> None:
        """Refuse, before anything changes, what this ruleset cannot allow (Illegal)."""

    def strike(self, session: Session, plan: Any, reaction: bool) -> AttackResolved:
        """Roll the attack and apply what it does. AP are spent by the caller."""
        raise Illegal(f"The {self.spec.name} rules have no attacks.")

    def preview(self, session: Session, plan: Any, reaction: bool = False) -> dict[str, Any]:
        """Exact odds of an attack, changing nothing: the fields of queries.AttackPreview
        (attack_modifiers, defense_modifiers, hit_chance, hits, damage_per_hit,
        expected_damage; aim and how if the ruleset has them). `reaction`: made out of the
        attacker's turn (an overwatch shot), as `strike` is told."""
        raise Illegal(f"The {self.spec.name} rules have no attacks.")

    def asks(self, session: Session, plan: Any) -> tuple[str, ...]:
        """The choices to put to the defender's player before this attack, or () to go on."""
        return ()

    # --- defenses and choices ---------------------------------------------------------------

    def defend(self, session: Session, uid: str, kind: str) -> None:
        raise Illegal(f"The {self.spec.name} rules have no active or full defense.")

    def standing_choices(self) -> tuple[str, ...]:
        """What ChooseDefense accepts (none here)."""
        return ()

    def choose_defense(self, session: Session, uid: str, choice: str) -> None:
        raise Illegal(f"The {self.spec.name} rules have no defense choices.")

    def declare(self, session: Session, uid: str, actions: int) -> None:
        raise Illegal(f"The {self.spec.name} rules have no declared actions.")

    # Total cover: rulesets where a unit can be wholly hidden behind cover set `screens` and
    # answer `screened`; sight (game/core/systems/sight.py) asks it both ways between two units.
    screens: ClassVar[bool] = False

    def screened(self, session: Session, uid: str, looker: Square) -> bool:
        """Whether `uid` is hidden from a unit standing on `looker` (and cannot see it)."""
        return False

    def lean_option(self, session: Session, uid: str) -> tuple[bool, int, str] | None:
        """(True to lean out or False to lean back, its AP, why it cannot be done now or ""),
        or None under rules without leaning."""
        return None

    def leaning(self, session: Session, uid: str) -> Session | None:
        """A what-if copy of the battle's state with `uid` leant out (`Session.what_if`), or None
        under rules without leaning."""
        return None

    def statuses(self, session: Session, uid: str) -> list[str]:
        """Words for the unit panel beyond overwatch, pinned and stabilized."""
        return []

    # --- the game master's table --------------------------------------------------------------

    health_name = "HP"                  # what the ruleset calls what Health.hp counts
    health_short = "HP"                 # the same, as the unit card's few letters say it
    modifier_example = "+2 high ground"  # a game master's modifier at this ruleset's scale

    def unit_sheet(self, session: Session, uid: str) -> list[tuple[str, str]]:
        """The unit's state in the ruleset's own terms, as (label, value) rows for the game
        master's panel."""
        health, ap = session.get(uid, c.Health), session.get(uid, c.ActionPoints)
        rows = [(self.health_name, f"{health.hp}/{health.max_hp}"), ("State", health.state),
                (self.ap_name, f"{ap.current}/{ap.per_turn}"),
                ("Stance", session.get(uid, c.Posture).stance)]
        words = self.statuses(session, uid)
        if words:
            rows.append(("Statuses", ", ".join(words)))
        return rows

    def modifier_table(self) -> list[tuple[str, str]]:
        """The situational modifiers the ruleset's text lists, as (name, value) rows."""
        return []

    def health_bounds(self, session: Session, uid: str) -> tuple[int, int]:
        """The lowest and highest `Health.hp` the game master may set for `uid`."""
        health = session.get(uid, c.Health)
        return -health.max_hp, health.max_hp

    def state_at(self, session: Session, uid: str, hp: int) -> str:
        """The condition (Health.state) `uid` is in with `hp` left, set by hand."""
        return self.state_for(hp, session.get(uid, c.Health).constitution)
