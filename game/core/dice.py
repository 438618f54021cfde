"""One seeded random source per battle, with results that tests can force or players type in.

Every die the engine rolls goes through `Dice.roll`, so a battle replays exactly from its seed,
and a test can queue the faces it wants (`dice.force(4, 5)`) to reproduce a worked example.

At the table, the dice of some units are rolled by people: a roll names what it is for and who
rolls it (`roll(10, "attack", by="red-1")`, or the unit set by `with dice.by(uid)`), `at_table`
says whether that unit's dice are typed in, and such a roll takes the next typed face
(`dice.typed`) or, when none is left, raises RollNeeded naming the die it wants. Inside an
attack (`with dice.facing(attacker, target)`) a request names both, so the table hears whom a
defense is against; with `probing` on, a roll with no face left is answered 1 until a roll of
another kind or another dice code comes, so the request can say how many dice are wanted at once.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
import re
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
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


@dataclass(frozen=True, slots=True)
class RollRequest:
    """A die to be rolled at the table: who rolls it, what for, and the faces it can show
    (`first` to `first + sides - 1`: a d100 read 00 to 99 has first 0). A d10 (or d100) read
    1 to 10 takes a 0 as its 10, as most such dice are marked 0 to 9."""

    unit: str
    what: str
    sides: int
    first: int = 1
    attacker: str = ""     # inside an attack (or an ambush: `deed`): who makes it, at whom
    target: str = ""
    deed: str = "attack"
    count: int = 1         # dice of this kind wanted in a row (a pool, or one per hit)
    then: str = ""         # what the same unit rolls for right after them ("attack_wild")

    def same_kind(self, other: RollRequest) -> bool:
        return (self.unit, self.what, self.sides) == (other.unit, other.what, other.sides)

    @property
    def last(self) -> int:
        return self.first + self.sides - 1

    @property
    def zero_is_top(self) -> bool:
        """Whether a typed 0 is read as the die's highest face (a d10 marked 0 to 9)."""
        return self.first == 1 and self.sides in (10, 100)

    def die(self) -> str:
        return f"d{self.sides}"

    def faces(self) -> str:
        """The faces it takes, as a prompt says them: "1 to 10; a 0 reads 10"."""
        zero = f"; a 0 reads {self.last}" if self.zero_is_top else ""
        return f"{self.first} to {self.last}{zero}"

    def refusal(self, value: int) -> str | None:
        """Why `value` cannot be this die's face, or None if it can."""
        if self.first <= value <= self.last or (value == 0 and self.zero_is_top):
            return None
        return f"{value} cannot come up on a {self.die()}: it shows {self.faces()}"

    def face(self, value: int) -> int:
        """A typed face (refusal None) as the die's face from 1 to `sides`."""
        return self.sides if value == 0 and self.zero_is_top else value - self.first + 1


class RollNeeded(Exception):
    """A roll made at the table found no typed face left. Raised out of the engine: whatever
    was being carried out must be thrown away (Battle.submit runs it on a copy first)."""

    def __init__(self, request: RollRequest, typed: int) -> None:
        super().__init__(f"{request.unit}: roll a {request.die()} for {request.what}")
        self.request = request
        self.typed = typed        # typed faces used before this roll
        self.wanted: object = None  # the battle's RollWanted for it, when a battle could not open


class BadRoll(ValueError):
    """A typed face that the die it was used for cannot show."""

    def __init__(self, why: str, request: RollRequest, typed: int) -> None:
        super().__init__(why)
        self.why = why
        self.request = request
        self.typed = typed        # typed faces used before the bad one
        self.wanted: object = None  # the battle's RollWanted for it, when a battle could not open


class Dice:
    """Seeded dice. Forced faces, when queued, are used before any random one; at the table,
    typed faces before the generator."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._rng = random.Random(seed)
        self._forced: deque[int] = deque()
        self.rolled = 0           # dice rolled so far (forced ones too): undo asks if any were
        # At the table: given the unit named as rolling (None when no roll site named one), the
        # unit whose die is typed in, or None when the dice roll it.
        self.at_table: Callable[[str | None], str | None] | None = None
        self.typed: deque[int] = deque()
        self.typed_used = 0
        self.roller: str | None = None     # who rolls when a roll site does not say
        self.scene: tuple[str, str, str] = ("", "", "attack")  # (attacker, target, deed)
        self.probing = False                # count the dice of a kind wanted at once (see above)
        self.probed: RollRequest | None = None

    @contextmanager
    def facing(self, attacker: str, target: str, deed: str = "attack") -> Iterator[Dice]:
        """The rolls made inside belong to `attacker`'s `deed` (an attack, an ambush) on `target`."""
        previous, self.scene = self.scene, (attacker, target, deed)
        try:
            yield self
        finally:
            self.scene = previous

    @contextmanager
    def by(self, unit: str | None) -> Iterator[Dice]:
        """The rolls made inside are `unit`'s (unless a roll names another)."""
        previous, self.roller = self.roller, unit
        try:
            yield self
        finally:
            self.roller = previous

    def type_in(self, faces: tuple[int, ...] | list[int]) -> None:
        """Faces typed at the table, for the rolls to come, in order."""
        self.typed = deque(faces)
        self.typed_used = 0

    def force(self, *faces: int) -> None:
        """Queue faces for the next rolls, in order (for tests and worked examples)."""
        self._forced.extend(faces)

    @property
    def forced_left(self) -> int:
        return len(self._forced)

    def fingerprint(self) -> str:
        """A short digest of the generator's state: equal for dice that will roll alike."""
        return hashlib.sha256(repr(self._rng.getstate()).encode()).hexdigest()[:16]

    def roll(self, sides: int, what: str = "roll", by: str | None = None, first: int = 1) -> int:
        """A face from 1 to `sides`. `what` and `by` name the roll and who makes it; `first` is
        how a typed face is read (a d100 typed 00 to 99 has first 0)."""
        self.rolled += 1
        if self._forced:
            face = self._forced.popleft()
            if not 1 <= face <= sides:
                raise ValueError(f"forced face {face} does not fit a d{sides}")
            return face
        if self.at_table is not None:
            unit = self.at_table(by if by is not None else self.roller)
            if unit is not None:
                return self._typed(RollRequest(unit, what, sides, first, *self.scene))
        return self._rng.randint(1, sides)

    def _typed(self, request: RollRequest) -> int:
        if self.probed is not None:
            if not self.probed.same_kind(request):
                then = request.what if request.unit == self.probed.unit else ""
                raise RollNeeded(dataclasses.replace(self.probed, then=then), self.typed_used)
            self.probed = dataclasses.replace(self.probed, count=self.probed.count + 1)
            return 1
        if not self.typed:
            if self.probing:
                self.probed = request
                return 1
            raise RollNeeded(request, self.typed_used)
        value = self.typed.popleft()
        why = request.refusal(value)
        if why is not None:
            raise BadRoll(why, request, self.typed_used)
        self.typed_used += 1
        return request.face(value)

    def roll_code(self, code: DiceCode, what: str = "roll", by: str | None = None) -> tuple[int, ...]:
        """The dice of one code; at the table they are asked for together, as one pool (the
        next hit's dice are another: whether they are rolled depends on these)."""
        if self.probed is not None:
            raise RollNeeded(self.probed, self.typed_used)
        return tuple(self.roll(code.sides, what, by) for _ in range(code.count))
