"""Components: plain data attached to unit entities in the battle's esper world.

They hold no rules. Systems (game.core.systems) and the ruleset read and change them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

STANCES = ("stand", "crouch", "prone")


@dataclass(slots=True)
class Unit:
    uid: str          # stable id, e.g. "olea-2"; esper ids are not kept across saves
    name: str
    template: str
    side: str


@dataclass(slots=True)
class Position:
    x: int
    y: int


@dataclass(slots=True)
class Left:
    """The unit left the battle by an exit zone: off the map, safe and out of the fight."""

    zone: str
    round: int


@dataclass(slots=True)
class ActionPoints:
    current: int
    per_turn: int
    debt: int = 0     # AP still owed by an action longer than a whole turn


@dataclass(slots=True)
class Posture:
    stance: str = "stand"


@dataclass(slots=True)
class Health:
    hp: int
    max_hp: int
    constitution: int
    state: str = "ok"                 # ok | unconscious | dying | dead
    stabilized: bool = False          # the first Heal check has succeeded
    heal_ds: dict[str, int] = field(default_factory=dict)   # stage -> current difficulty

    @property
    def up(self) -> bool:
        return self.state == "ok"


@dataclass(slots=True)
class Stats:
    attributes: dict[str, int]
    skills: dict[str, int]
    abilities: dict[str, int]
    sight: int
    morale: int


@dataclass(slots=True)
class WeaponState:
    weapon: str       # weapon id
    ammo: int
    spare: int        # spare magazines


@dataclass(slots=True)
class Loadout:
    weapons: list[WeaponState]
    active: int = 0
    drawn: bool = True
    grenades: dict[str, int] = field(default_factory=dict)

    @property
    def current(self) -> WeaponState | None:
        if not self.drawn or not self.weapons:
            return None
        return self.weapons[self.active]


@dataclass(slots=True)
class Armor:
    armor: str | None
    resist: dict[str, int]


@dataclass(slots=True)
class TurnState:
    """What this unit has done in its current turn: it changes attack modifiers."""

    aim_level: int = 0
    move_ap: int = 0
    moved_rough: bool = False
    dropped_flat: bool = False


@dataclass(slots=True)
class Overwatch:
    target: tuple[int, int]   # the point the 45-degree cone faces
    held_ap: int


@dataclass(slots=True)
class WatchReaction:
    """The reaction a watching unit chose when it set its overwatch (none: the widest mode
    the held AP pay for, unaimed, at the first enemy into the cone)."""

    mode: str | None
    aim: int
    targets: tuple[str, ...]     # fire only at these units (empty: any enemy)
    within: int                  # only once the mover is this close (0: anywhere in the cone)
    ask: bool = False            # ask the watcher's player at each step into the cone


@dataclass(slots=True)
class WatchQuestion:
    """A move halted while a watcher's player chooses the reaction (one unit at a time: the
    skirmish text's "action of their choice" at "a point of his choosing")."""

    unit: str                    # the watcher
    mover: str
    at: tuple[int, int]          # the square the mover stepped onto
    choices: tuple[str, ...]     # fire modes ("burst", aimed "single+2"), "wait", "pass"
    path: tuple[tuple[int, int], ...] = ()   # the rest of the move, walked after the answer


@dataclass(slots=True)
class Suppressed:
    by: str                   # uid of the suppressor
    attack_total: int         # the suppressor's Aim roll, to beat when breaking out
    weapon: str


@dataclass(slots=True)
class Situational:
    """A modifier the game master gave a unit's next attack roll, and why."""

    modifier: int
    reason: str


# --- used only under the tabletop rulesets (game/rulesets/tabletop) -------------------------

@dataclass(slots=True)
class Tempo:
    """What a unit's turn has bought so far, in the ruleset's own economy."""

    move_left: int = 0        # squares left in the move in hand
    moved: int = 0            # squares moved this turn
    attacks: int = 0          # attacks made this turn
    actions: int = 0          # actions declared (OpenD6) or taken this turn
    full_move: bool = False   # Eclipse Phase: moved beyond the base move this turn


@dataclass(slots=True)
class Condition:
    """Wounds, statuses and standing choices: a body and mind under a tabletop ruleset."""

    wounds: int = 0
    statuses: dict[str, int] = field(default_factory=dict)   # status -> turns left (0: until cured)
    armor_loss: int = 0
    standing: str = "auto"    # the defense or reaction this unit uses when attacked
    reacted_round: int = 0    # the round of its last reaction (d20: one a round)
    held: int = 0             # actions held from its last turn (d20: +1 to reactions each)
    exposed: int = 0          # to be hit, until its next turn (d20 berserk, stunned...)
    aim_target: str = ""      # OpenD6: the unit it has aimed at ...
    aim_rounds: int = 0       # ... for this many uninterrupted rounds ...
    aim_round: int = 0        # ... the last of them this round
    points_spent: int = 0     # OpenD6: Character Points spent this battle
    points_armed: int = 0     # ... of them on its next roll this turn


@dataclass(slots=True)
class Guard:
    """An active defense that lasts until the unit's next turn."""

    kind: str                 # full | dodge | block | parry | defensive_stance
    total: int | None = None  # a rolled defense (OpenD6), or None for a flat bonus
    bonus: int = 0
