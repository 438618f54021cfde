"""Watching a battle again, from the command log its save holds.

A battle is decided by its setup, its seed and its commands (`Battle.state()`), so a replay
rebuilds it command by command: step 0 is the battle as it began (its opening events), step N
the battle after its Nth command. Going back rebuilds the battle from the nearest checkpoint
(a copy of the battle kept every CHECKPOINT_EVERY steps) up to the step before. The whole log is replayed once when the replay is made, so a save whose commands no
longer apply (or that does not reach its saved position) is refused before anything is shown.

Nothing here draws: the app's Replay screen and `skirmish replay --text` read it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.content.problems import ContentError
from game.content.schema import BattleSetup
from game.core.commands import Command, command_from_dict
from game.core.dice import BadRoll, RollNeeded
from game.core.engine import STATE_FORMAT, Battle
from game.core.events import Event, Refused, TurnUnseen
from game.core.narrate import describe, tell


CHECKPOINT_EVERY = 50      # steps between the copies of the battle kept to go back from


class ReplayError(ValueError):
    """Why a battle cannot be replayed, as a sentence for the player."""


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a replay: the command given (None for the opening) and what it caused."""

    number: int
    command: Command | None
    events: tuple[Event, ...]


class Replay:
    """A battle watched again from its start. Close it (or use it as a context manager)."""

    def __init__(self, setup: BattleSetup, seed: int, commands: Sequence[Command], *,
                 digest: str | None = None,
                 rules_for: Callable[[Any], Any] | None = None,
                 table: tuple[str, ...] = (), opening_rolls: tuple[int, ...] = (),
                 asking: tuple[str, ...] = ()) -> None:
        """Replay every command once to check the log, keeping each step's events; raises
        ReplayError when a command is refused or the end is not the `digest` it should be."""
        if rules_for is None:
            from game.rulesets import find_ruleset
            rules_for = find_ruleset
        self.setup = setup
        self.seed = seed
        self.commands: tuple[Command, ...] = tuple(commands)
        self._rules_for = rules_for
        self.table, self.opening_rolls = tuple(table), tuple(opening_rolls)   # dice typed in
        self.asking = tuple(asking)
        battle = self._new_battle()
        steps = [Step(0, None, tuple(battle.opening))]
        try:
            for number, command in enumerate(self.commands, 1):
                if battle.session.over:
                    raise ReplayError(f"command {number} of {len(self.commands)} comes after "
                                      "the end of the battle")
                result = battle.replay(command)
                if isinstance(result, Refused):
                    raise ReplayError(f"command {number} of {len(self.commands)} no longer "
                                      f"applies: {result.reason}")
                steps.append(Step(number, command, tuple(result)))
            if digest is not None and digest != battle.digest():
                raise ReplayError("replaying its commands does not give the saved position")
            session = battle.session
            self.final_digest = battle.digest()
            self.over = session.over
            self.winner = session.winner
            self.rounds = session.round
            self.names = battle.names()
            self.sides: list[str] = list(session.sides)
        finally:
            battle.close()
        self.steps: tuple[Step, ...] = tuple(steps)
        self.battle = self._new_battle()
        self.position = 0
        self.checkpoints: dict[int, Battle] = {}     # step -> a copy of the battle after it

    # --- making one ---------------------------------------------------------------------------

    @classmethod
    def from_state(cls, state: Any) -> Replay:
        """A replay of a saved battle (`Battle.state()`); ReplayError says why not."""
        if not isinstance(state, dict) or state.get("format") != STATE_FORMAT:
            raise ReplayError("the battle state has an unknown format")
        try:
            setup = BattleSetup.model_validate(state["setup"])
            seed = state["seed"]
            if not isinstance(seed, int) or isinstance(seed, bool):
                raise ValueError(f"its seed {seed!r} is not a whole number")
            log = state["commands"]
            if not isinstance(log, list):
                raise ValueError("its command log is not a list")
            commands = [command_from_dict(entry) for entry in log]
            table = tuple(str(side) for side in state.get("table", ()))
            opening = tuple(int(face) for face in state.get("opening_rolls", ()))
            asking = tuple(str(side) for side in state.get("asking", ()))
        except KeyError as missing:
            raise ReplayError(f"the battle state is damaged: it has no {missing.args[0]!r}") \
                from None
        except (TypeError, ValueError) as why:
            raise ReplayError(f"the battle state is damaged: {why}") from None
        digest = state.get("digest")
        try:
            return cls(setup, seed, commands, digest=digest if isinstance(digest, str) else None,
                       table=table, opening_rolls=opening, asking=asking)
        except ReplayError:
            raise
        except ContentError as error:
            raise ReplayError(f"its battle content does not load:\n{error}") from None
        except KeyError as error:
            raise ReplayError(f"it names {error.args[0]!r}, which its own content does not "
                              "define") from None
        except (ValueError, TypeError, LookupError) as error:
            raise ReplayError(str(error) or type(error).__name__) from None
        except Exception as error:      # a hand-made file may hold anything: say, never crash
            raise ReplayError(f"replaying it failed ({type(error).__name__}: {error})") from None

    @classmethod
    def from_save(cls, folder: Path, name_or_path: str | Path) -> Replay:
        """A replay of the save `name_or_path` (a name in `folder`, or a path)."""
        from game.saves import SaveError, read_save
        try:
            state = read_save(folder, name_or_path)
        except SaveError as error:
            raise ReplayError(str(error)) from None
        try:
            return cls.from_state(state)
        except ReplayError as error:
            raise ReplayError(f"Cannot replay save {name_or_path}: {str(error).rstrip('.')}.") \
                from None

    def _new_battle(self) -> Battle:
        try:
            return Battle(self.setup, self.seed, self._rules_for(self.setup.ruleset),
                          table=self.table, opening_rolls=self.opening_rolls, asking=self.asking)
        except (RollNeeded, BadRoll) as why:
            raise ReplayError(f"its opening rolls do not fit: {why}") from None

    # --- moving through it ----------------------------------------------------------------------

    @property
    def total(self) -> int:
        """How many steps after the opening: one per command of the log."""
        return len(self.commands)

    @property
    def at_end(self) -> bool:
        return self.position >= self.total

    @property
    def step(self) -> Step:
        """The step just shown: the opening, or the command last carried out."""
        return self.steps[self.position]

    def forward(self) -> Step | None:
        """Carry out the next command; the step it makes, or None at the end. Every
        CHECKPOINT_EVERY steps a copy of the battle is kept to go back from."""
        if self.at_end:
            return None
        number = self.position + 1
        result = self.battle.replay(self.commands[number - 1])
        if isinstance(result, Refused):       # the log was checked when the replay was made
            raise ReplayError(f"command {number} no longer applies: {result.reason}")
        self.position = number
        if number % CHECKPOINT_EVERY == 0 and number not in self.checkpoints:
            try:
                self.checkpoints[number] = self.battle.copy()
            except RuntimeError:              # cannot be copied: going back replays it all
                pass
            self.battle.session.use()
        return self.steps[number]

    def back(self) -> Step | None:
        """The battle one step earlier (rebuilt from the nearest checkpoint before it, else
        from the start); None at the start."""
        if self.position == 0:
            return None
        self.seek(self.position - 1)
        return self.step

    def seek(self, number: int) -> Step:
        """The battle after command `number` (0: as it began), from wherever it is now."""
        number = max(0, min(self.total, number))
        if number < self.position:
            self.battle.close()
            kept = max((step for step in self.checkpoints if step <= number), default=0)
            if kept:
                self.battle = self.checkpoints[kept].copy()
                self.position = kept
            else:
                self.battle = self._new_battle()
                self.position = 0
        while self.position < number:
            self.forward()
        return self.step

    def walk(self) -> Iterator[tuple[Step, Battle]]:
        """From the start: each step and the battle right after it (the battle object changes
        only when the replay goes back)."""
        self.seek(0)
        yield self.step, self.battle
        while self.forward() is not None:
            yield self.step, self.battle

    def events_until(self, number: int | None = None) -> list[Event]:
        """Every event from the opening to step `number` (default: the current one)."""
        last = self.position if number is None else number
        return [event for step in self.steps[: last + 1] for event in step.events]

    def views(self) -> list[str | None]:
        """Whose eyes the battle can be watched through: each side, and everything (None) once
        the battle is over."""
        return [*self.sides, *([None] if self.over else [])]

    def name(self, ident: str | None) -> str:
        return "nobody" if ident is None else self.names.get(ident, str(ident))

    @property
    def measure(self) -> str:
        """What the battle's ruleset calls what damage takes off."""
        return self.battle.session.rules.health_name

    def close(self) -> None:
        self.battle.close()
        for kept in self.checkpoints.values():
            kept.close()
        self.checkpoints.clear()

    def __enter__(self) -> Replay:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def human_sides(replay: Replay, state: Any) -> list[str]:
    """The sides a person played in the save `state` (its seats), in the battle's order."""
    seats = state.get("seats") if isinstance(state, dict) else None
    if not isinstance(seats, dict):
        return []
    return [side for side in replay.sides
            if isinstance(seats.get(side), dict) and seats[side].get("human") is True]


def open_views(replay: Replay, state: Any) -> tuple[list[str | None], str]:
    """The views a person opening the save `state` may watch, and why there are none.

    A finished battle: every side's and everything. An unfinished one is still being played,
    so whoever opens it sees only what a player of it saw: with one person, that person's side;
    with two or more (hot-seat) the one opening it could be any of them, so none until it ends.
    A save without seats: its first side."""
    if replay.over:
        return replay.views(), ""
    humans = human_sides(replay, state)
    if len(humans) >= 2:
        return [], ("The battle is not over, and more than one person plays it: it can be "
                    "replayed once it has ended (no player may watch another's side).")
    return [humans[0] if humans else replay.sides[0]], ""


def seen(events: Sequence[Event], view: str | None) -> list[Event]:
    """The events a side saw (`view`), or every event the all-seeing log tells (None)."""
    if view is None:
        return [event for event in events if not isinstance(event, TurnUnseen)]
    return [event for event in events if view in event.seen_by]


def log_lines(events: Sequence[Event], name: Callable[[str], str], measure: str = "HP") -> list[str]:
    """The log's lines for `events`, in the words `skirmish sim` and the app use (`measure`:
    what the ruleset calls what damage takes off)."""
    def line(event: Event) -> str:
        try:
            return describe(event, name, measure)
        except Exception:           # a new event kind must never break the replay
            return event.kind.replace("_", " ")
    return tell(events, line, name)
