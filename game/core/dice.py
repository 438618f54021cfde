"""One seeded random source per battle, with results that tests can force.

Every die the engine rolls goes through `Dice.roll`, so a battle replays exactly from its seed,
and a test can queue the faces it wants (`dice.force(4, 5)`) to reproduce a worked example.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections import deque
from dataclasses import dataclass
from functools import lru_cache

_CODE = re.compile(r"^(\d+)d(\d+)([+-]\d+)?$")


@dataclass(frozen=True, slots=True)
class DiceCode:
    """A dice expression such as 3d12 or 2d6+1."""

    count: int
    sides: int
    bonus: int = 0

    @classmethod
    def parse(cls, text: str) -> DiceCode:
        return _parse(text)

    def __str__(self) -> str:
        bonus = f"{self.bonus:+d}" if self.bonus else ""
        return f"{self.count}d{self.sides}{bonus}"


@lru_cache(maxsize=1024)
def _parse(text: str) -> DiceCode:
    match = _CODE.match(text.strip())
    if not match:
        raise ValueError(f"{text!r} is not a dice code like 2d6")
    return DiceCode(int(match.group(1)), int(match.group(2)), int(match.group(3) or 0))


class Dice:
    """Seeded dice. Forced faces, when queued, are used before any random one."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._rng = random.Random(seed)
        self._forced: deque[int] = deque()
        self.rolled = 0           # dice rolled so far (forced ones too): undo asks if any were

    def force(self, *faces: int) -> None:
        """Queue faces for the next rolls, in order (for tests and worked examples)."""
        self._forced.extend(faces)

    @property
    def forced_left(self) -> int:
        return len(self._forced)

    def fingerprint(self) -> str:
        """A short digest of the generator's state: equal for dice that will roll alike."""
        return hashlib.sha256(repr(self._rng.getstate()).encode()).hexdigest()[:16]

    def roll(self, sides: int) -> int:
        self.rolled += 1
        if self._forced:
            face = self._forced.popleft()
            if not 1 <= face <= sides:
                raise ValueError(f"forced face {face} does not fit a d{sides}")
            return face
        return self._rng.randint(1, sides)

    def roll_code(self, code: DiceCode) -> tuple[int, ...]:
        return tuple(self.roll(code.sides) for _ in range(code.count))
