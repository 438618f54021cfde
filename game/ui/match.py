"""A battle as the app plays it: the engine's Battle plus who sits at each side.

No rule lives here. The match remembers what the app needs beyond the battle: the seats
(person or computer, names), every event so far (for each side's log and catch-up summary),
suppression areas seen (to draw them), and whether the battle changed since it was saved.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import asdict, dataclass
from typing import Any

from game.content.text import name_problem
from game.core import events as ev
from game.core.commands import Command, GiveOrders
from game.core.engine import Battle
from game.rulesets import load_battle
from game.core.events import Event, Refused
from game.core.narrate import describe

Square = tuple[int, int]
HISTORY_LIMIT = 5000
BATTLE_ID = re.compile(r"[0-9a-f]{1,16}")


@dataclass(frozen=True, slots=True)
class Seat:
    side: str
    human: bool
    name: str                   # the player's name, or the computer level's
    level: str | None = None    # computer level (a name from game.ai.PLAYERS)
    rolls: str = "app"          # "table": its dice are rolled by people and typed in

    @property
    def at_table(self) -> bool:
        return self.rolls == "table"


def table_sides(seats: dict[str, Seat]) -> tuple[str, ...]:
    """The sides whose dice are typed in, for Battle's `table`."""
    return tuple(side for side, seat in seats.items() if seat.at_table)


class Match:
    def __init__(self, battle: Battle, seats: dict[str, Seat], battle_id: str | None = None) -> None:
        self.battle = battle
        self.seats = seats
        self.battle_id = battle_id or secrets.token_hex(3)     # names this battle's autosaves
        self.loaded = False      # from a save: its first command gives it its own battle id
        self.memories: dict[str, Any] = {}     # side -> a loaded computer player's memory
        session = battle.session
        self.sides: list[str] = list(session.sides)
        self.history: list[Event] = list(battle.opening)
        self.unseen: dict[str, list[Event]] = {side: [] for side in self.sides}
        self.suppressions: dict[str, tuple[Square, int, tuple[str, ...]]] = {}
        self.saved_commands = len(battle.commands)
        # The orders a side is planning and has not given yet (`planning.Plan` keeps it up to
        # date): saved with the battle so a save made while planning loses none of them.
        self.draft: dict[str, Any] | None = None
        self.saved_draft: dict[str, Any] | None = None
        self.computers: dict[str, Any] = {}
        self._names = battle.names()
        for side in self.humans:
            self.unseen[side] = [e for e in self.history if side in e.seen_by]

    # --- who is who ---------------------------------------------------------------------------

    def name(self, ident: str | None) -> str:
        if ident is None:
            return "nobody"
        if ident not in self._names and ident in self.battle.session.entities:
            self._names = self.battle.names()        # reinforcements joined the battle
        return self._names.get(ident, str(ident))

    def side_index(self, side: str) -> int:
        return self.sides.index(side) if side in self.sides else 0

    @property
    def humans(self) -> list[str]:
        return [side for side in self.sides if self.seats[side].human]

    @property
    def hot_seat(self) -> bool:
        """People take the keyboard in turn: each side a person plays away from the table, and
        the table (its sides all played at one screen, by its game master) as one."""
        apart = [side for side in self.humans if not self.seats[side].at_table]
        return len(apart) + any(self.seats[side].at_table for side in self.humans) > 1

    def at_one_table(self, side: str | None, other: str | None) -> bool:
        """Both sides are played by people at the table: no handoff between them."""
        return (side is not None and other is not None and self.is_human(side)
                and self.is_human(other) and self.seats[side].at_table and self.seats[other].at_table)

    @property
    def active_uid(self) -> str | None:
        return self.battle.session.active

    @property
    def active_side(self) -> str | None:
        uid = self.active_uid
        return self.side_of(uid) if uid is not None else None

    @property
    def acting_side(self) -> str | None:
        """The side the battle waits for: while a round is planned (simultaneous orders), the
        first still to give its orders, else the active unit's."""
        return self.battle.session.acting_side

    @property
    def planning(self) -> bool:
        """A round's orders are being chosen (simultaneous orders)."""
        return bool(self.battle.session.planning) and not self.over

    @property
    def carrying_out(self) -> bool:
        """Simultaneous orders being carried out: the units act on their own (`Proceed`)."""
        session = self.battle.session
        return session.rules.simultaneous and not session.planning and not self.over

    # The session reads its esper world, which is process-wide: make it current before each read
    # (another battle, or a computer player's scratch battle, may have switched it).

    def side_of(self, uid: str) -> str:
        self.battle.session.use()
        return self.battle.session.side_of(uid)

    def position(self, uid: str | None) -> Square | None:
        if uid is None:
            return None
        self.battle.session.use()
        return self.battle.session.position(uid)

    def is_up(self, uid: str) -> bool:
        self.battle.session.use()
        return self.battle.session.is_up(uid)

    @property
    def over(self) -> bool:
        return self.battle.session.over

    def is_human(self, side: str | None) -> bool:
        return side is not None and self.seats[side].human

    @property
    def dirty(self) -> bool:
        return len(self.battle.commands) != self.saved_commands or self.draft != self.saved_draft

    def mark_saved(self) -> None:
        self.saved_commands, self.saved_draft = len(self.battle.commands), self.draft

    # --- playing ------------------------------------------------------------------------------

    def submit(self, command: Command) -> list[Event] | Refused:
        result = self.battle.submit(command)
        if isinstance(result, Refused):
            return result
        if self.loaded:          # played on from a save: its own autosaves, not the original's
            self.loaded, self.battle_id = False, secrets.token_hex(3)
        if isinstance(command, GiveOrders):
            self.draft = self.saved_draft = None         # given: now part of the battle
        self.record(result)
        return result

    def undo(self) -> list[Event] | Refused:
        """Take back the last command if the engine allows it (`Battle.undo`); its events leave
        the history and what people have not seen yet."""
        result = self.battle.undo()
        if isinstance(result, Refused):
            return result
        gone = {id(event) for event in result}
        self.history = [e for e in self.history if id(e) not in gone]
        for side, events in self.unseen.items():
            self.unseen[side] = [e for e in events if id(e) not in gone]
        return result

    def record(self, events: list[Event]) -> None:
        self.history.extend(events)
        if len(self.history) > HISTORY_LIMIT:
            del self.history[: len(self.history) - HISTORY_LIMIT]
        for side in self.humans:              # only people are told what they missed
            self.unseen[side].extend(e for e in events if side in e.seen_by)
        for event in events:
            self._track_suppression(event)

    def _track_suppression(self, event: Event) -> None:
        if isinstance(event, ev.SuppressionFired):
            self.suppressions[event.unit] = (event.at, event.diameter, event.seen_by)
        elif isinstance(event, ev.TurnStarted | ev.TurnSkipped):
            self.suppressions.pop(event.unit, None)
        elif isinstance(event, ev.HealthChanged) and event.state not in ("stabilized", "revived"):
            self.suppressions.pop(event.unit, None)

    def seen_by(self, side: str, limit: int = 300) -> list[Event]:
        seen = [e for e in self.history if side in e.seen_by]
        return seen[-limit:]

    def take_unseen(self, side: str) -> list[Event]:
        """What `side` saw happen since its player last looked away from the board."""
        events, self.unseen[side] = self.unseen[side], []
        return events

    def tell(self, event: Event) -> str:
        try:
            return describe(event, self.name, self.battle.session.rules.health_name)
        except Exception:           # a new event kind must never break the log
            return event.kind.replace("_", " ")

    def computer(self, side: str) -> Any:
        from game.ui.players import make_computer

        if side not in self.computers:
            seat = self.seats[side]
            seed = self.battle.session.seed + 7919 * (self.side_index(side) + 1)
            player = make_computer(seat.level or "simple", side, seed)
            memory = self.memories.get(side)
            if memory is not None:
                try:
                    player.restore(memory, self.battle)
                except (ValueError, TypeError, KeyError, AttributeError):
                    player = make_computer(seat.level or "simple", side, seed)    # starts afresh
            self.computers[side] = player
        return self.computers[side]

    def computer_memories(self) -> dict[str, Any]:
        """side -> what its computer player carries between commands (`player.memory()`), for
        every computer side: its player's now, or the memory it was loaded with."""
        out: dict[str, Any] = {}
        for side in self.sides:
            seat = self.seats[side]
            if seat.human:
                continue
            player = self.computers.get(side)
            memory = self.memories.get(side)
            if player is not None and hasattr(player, "memory"):
                memory = player.memory()
            if memory is not None:
                out[side] = {"level": seat.level, "memory": memory}
        return out

    # --- saving -------------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """The battle's state, plus the seats so a loaded battle knows who plays what."""
        state = self.battle.state()
        state["seats"] = {side: asdict(seat) for side, seat in self.seats.items()}
        state["battle_id"] = self.battle_id
        state["computers"] = self.computer_memories()
        if self.draft is not None:
            state["draft"] = self.draft
        return state

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> Match:
        """Raises ValueError with a reason a player can read."""
        battle = load_battle(state)
        sides = battle.session.sides
        seats: dict[str, Seat] = {}
        saved = state.get("seats")
        for index, side in enumerate(sides):
            data = saved.get(side) if isinstance(saved, dict) else None
            try:
                seats[side] = Seat(side=side, human=bool(data["human"]), name=str(data["name"]),
                                   level=data.get("level"),
                                   rolls="table" if side in battle.table else "app")
            except (TypeError, KeyError, AttributeError):
                seats[side] = Seat(side, True, f"Player {index + 1}")
            problem = name_problem(seats[side].name)
            if problem:
                battle.close()
                raise ValueError(f"the name of the player of side {side!r} cannot be shown: "
                                 f"{problem}")
        if not any(seat.human for seat in seats.values()):
            first = sides[0]
            seats[first] = Seat(first, True, "Player 1")
        battle_id = state.get("battle_id")
        if not (isinstance(battle_id, str) and BATTLE_ID.fullmatch(battle_id)):
            battle_id = None         # an older save: its autosaves get a new name
        match = cls(battle, seats, battle_id)
        match.loaded = True
        computers = state.get("computers")          # older saves have none: memory starts empty
        for side, saved_mind in (computers.items() if isinstance(computers, dict) else ()):
            seat = seats.get(side)
            if (seat is not None and not seat.human and isinstance(saved_mind, dict)
                    and saved_mind.get("level") == seat.level):
                match.memories[side] = saved_mind.get("memory")
        draft = state.get("draft")          # checked order by order when its side plans again
        if isinstance(draft, dict):
            match.draft = match.saved_draft = draft
        match.history = battle.replayed[-HISTORY_LIMIT:]     # the log picks up where it was
        for event in battle.replayed:
            match._track_suppression(event)
        match.unseen = {side: [] for side in sides}
        return match

    def close(self) -> None:
        self.battle.close()
