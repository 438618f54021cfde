"""Helpers for the ruleset tests: bundled ruleset specs, fixed rolls and random rolls."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable
from pathlib import Path

import yaml

from game.content.schema import RulesetSpec

RULESETS = Path(__file__).resolve().parents[2] / "content" / "rulesets"


def spec(ruleset_id: str) -> RulesetSpec:
    text = (RULESETS / f"{ruleset_id}.yaml").read_text(encoding="utf-8")
    return RulesetSpec.model_validate(yaml.safe_load(text))


def with_rules(spec, **update):
    """A copy of a content spec (unit, weapon, armor) with some fields replaced, validated."""
    return type(spec).model_validate({**spec.model_dump(), **update})


class Fixed:
    """A Roll that hands out fixed faces by name, in order; any unlisted roll is an error."""

    def __init__(self, **faces: int | Iterable[int]) -> None:
        self.faces = {name: deque([v] if isinstance(v, int) else v) for name, v in faces.items()}
        self.asked: list[str] = []

    def __call__(self, name: str, low: int, high: int) -> int:
        self.asked.append(name)
        queue = self.faces.get(name)
        if not queue:
            raise AssertionError(f"no fixed face left for roll {name!r}")
        face = queue.popleft()
        assert low <= face <= high, (name, face, low, high)
        return face

    def left(self) -> dict[str, list[int]]:
        return {name: list(q) for name, q in self.faces.items() if q}


def random_roll(seed: int = 1234) -> Callable[[str, int, int], int]:
    """A fast Roll drawing from one fixed-seed random.Random (for the simulations)."""
    rng = random.Random(seed)
    randint = rng.randint
    return lambda name, low, high: randint(low, high)


def play_out_and_replay(fight, commands: int = 600) -> None:
    """Let two simple players finish `fight` (no refused command allowed), then check that its
    save replays to the same position."""
    from game.ai.simple import SimplePlayer
    from game.core.commands import EndTurn
    from game.rulesets import load_battle
    from game.core.events import Refused

    players = {side: SimplePlayer(side) for side in fight.session.sides}
    for _ in range(commands):
        if fight.session.over:
            break
        uid = fight.session.active
        result = fight.submit(players[fight.session.side_of(uid)].next_command(fight))
        if isinstance(result, Refused):
            result = fight.submit(EndTurn(uid))
        assert not isinstance(result, Refused), result
    assert fight.session.over
    state = fight.state()
    fight.close()
    again = load_battle(state)
    assert again.digest() == state["digest"]
    again.close()
