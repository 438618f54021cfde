"""Rolls for the calculator: fixed by name in the file, otherwise drawn from a seed.

Every ruleset core asks for its dice as `roll(name, lowest, highest)`; NamedRolls answers with
the next fixed value listed under that name (`rolls: {attack: 69, damage: [7, 5, 5]}`), or a
seeded random one, and remembers every roll so the output can show and replay them.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager

from game.core.dice import Dice


class RollError(ValueError):
    """A fixed roll that the die it was asked for cannot show."""

    def __init__(self, name: str, value: int, low: int, high: int) -> None:
        self.name = name
        super().__init__(f"fixed roll {value} cannot come up on this die ({low} to {high})")


class NamedRolls:
    def __init__(self, fixed: dict[str, list[int]], seed: int) -> None:
        self.fixed = {name: deque(values) for name, values in fixed.items()}
        self.seed = seed
        self._rng = random.Random(seed)
        self.made: list[tuple[str, int, bool]] = []        # (name, value, was it fixed?)

    def __call__(self, name: str, low: int, high: int) -> int:
        queue = self.fixed.get(name)
        if queue:
            value = queue.popleft()
            if not low <= value <= high:
                raise RollError(name, value, low, high)
            self.made.append((name, value, True))
            return value
        value = self._rng.randint(low, high)
        self.made.append((name, value, False))
        return value

    def unused(self) -> dict[str, list[int]]:
        return {name: list(queue) for name, queue in self.fixed.items() if queue}

    def by_name(self) -> dict[str, list[int]]:
        out: dict[str, list[int]] = {}
        for name, value, _ in self.made:
            out.setdefault(name, []).append(value)
        return out


class NamedDice(Dice):
    """Dice for SkirmishRules (which rolls `dice.roll(sides)`), drawing from NamedRolls."""

    def __init__(self, rolls: NamedRolls) -> None:
        super().__init__(rolls.seed)
        self.rolls = rolls
        self.current = "roll"
        self.following: list[str] = []

    def roll(self, sides: int, what: str = "roll", by: str | None = None, first: int = 1) -> int:
        name = self.current
        if self.following:
            self.current = self.following.pop(0)
        return self.rolls(name, 1, sides)

    @contextmanager
    def named_each(self, *names: str) -> Iterator[NamedDice]:
        """Successive rolls take successive names (the last one keeps on): one engine call that
        rolls Willpower then Dodge names each roll."""
        previous, following = self.current, self.following
        self.current, self.following = names[0], list(names[1:])
        try:
            yield self
        finally:
            self.current, self.following = previous, following

    @contextmanager
    def named(self, name: str) -> Iterator[NamedDice]:
        previous, self.current = self.current, name
        try:
            yield self
        finally:
            self.current = previous
