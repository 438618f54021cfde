"""Playing battles at the table in tests: every die asked for is answered from a list."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

from game.core.commands import Command, EndTurn, GiveOrders
from game.core.dice import RollNeeded
from game.core.engine import Battle
from game.core.events import Event, Refused, RollWanted
from game.rulesets import new_battle


@dataclasses.dataclass
class TableRun:
    battle: Battle
    events: list[Event]
    commands: list[Command]            # as given, without typed faces
    faces: list[int]                   # every face typed, as the die reads (d100: 0 to 99)
    raw: list[int]                     # the same, as forced faces (1 to sides)
    asked: list[RollWanted]


def open_at_table(setup, seed: int, table: tuple[str, ...], answer: Callable[[RollWanted | None, int, int], int],
                  run: TableRun | None = None) -> tuple[Battle, list[int], list[int]]:
    """A battle whose opening rolls are typed in: (battle, typed faces, the same as raw faces)."""
    typed: list[int] = []
    raw: list[int] = []
    while True:
        try:
            battle = new_battle(setup, seed, table=table, opening_rolls=tuple(typed))
            return battle, typed, raw
        except RollNeeded as need:
            r = need.request
            face = answer(None, r.first, r.first + r.sides - 1)
            typed.append(face)
            raw.append(face - r.first + 1)


def submit_typed(battle: Battle, command: Command, answer: Callable[[RollWanted, int, int], int],
                 run: TableRun) -> list[Event] | Refused:
    """Submit `command`, typing a face for every die asked for, until it is carried out."""
    rolls: tuple[int, ...] = ()
    while True:
        result = battle.submit(dataclasses.replace(command, rolls=rolls))
        if not isinstance(result, RollWanted):
            return result
        assert result.typed == rolls
        face = answer(result, result.first, result.last)
        run.asked.append(result)
        run.faces.append(face)
        run.raw.append(face - result.first + 1)
        rolls = rolls + (face,)


def random_answers(seed: int) -> Callable[[RollWanted | None, int, int], int]:
    rng = random.Random(seed)
    return lambda wanted, low, high: rng.randint(low, high)


def play_at_table(setup, seed: int, players: dict, *, table: tuple[str, ...] | None = None,
                  answer_seed: int = 7, limit: int = 80) -> TableRun:
    """A battle between computer players with every die of the `table` sides (default: all)
    typed in from a seeded list; stops after `limit` commands."""
    sides = tuple(s.id for s in setup.scenario.sides) if table is None else table
    answer = random_answers(answer_seed)
    battle, typed, raw = open_at_table(setup, seed, sides, answer)
    run = TableRun(battle, list(battle.opening), [], list(typed), list(raw), [])
    s = battle.session
    while not s.over and len(run.commands) < limit:
        uid, side = s.active, s.acting_side
        command = players[side].next_command(battle)
        result = submit_typed(battle, command, answer, run)
        if isinstance(result, Refused):
            command = GiveOrders(side=side) if s.planning else EndTurn(uid)
            result = submit_typed(battle, command, answer, run)
            assert not isinstance(result, Refused), result.reason
        run.commands.append(command)
        run.events.extend(result)
    return run


def opened(setup, faces: tuple[int, ...], table: tuple[str, ...] | None = None, seed: int = 1,
           asking: tuple[str, ...] = ()) -> Battle:
    """A battle at the table whose opening rolls are `faces` (as the dice read), all used."""
    sides = tuple(s.id for s in setup.scenario.sides) if table is None else table
    battle = new_battle(setup, seed, table=sides, opening_rolls=faces, asking=asking)
    assert battle.opening_rolls == faces, "every opening face is used"
    return battle


def typed(battle: Battle, command: Command, faces: tuple[int, ...]) -> tuple[list[Event], list[str]]:
    """Carry out `command`, typing `faces` one by one as they are asked for: (its events, the
    prompts). Every face must be asked for, and the command carried out after the last."""
    prompts: list[str] = []
    for n in range(len(faces) + 1):
        result = battle.submit(dataclasses.replace(command, rolls=faces[:n]))
        if isinstance(result, RollWanted):
            assert n < len(faces), f"one more die asked for: {result.reason}"
            assert result.refusal(faces[n]) is None, result.refusal(faces[n])
            prompts.append(result.reason)
            continue
        assert not isinstance(result, Refused), result.reason
        assert n == len(faces), f"carried out after {n} of {len(faces)} faces"
        return result, prompts
    raise AssertionError("unreachable")
