"""The parts every resolve file shares: which ruleset, a title, a seed and fixed rolls."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from game.content.schema import Description

RollValues = int | list[int]


class In(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Header(In):
    ruleset: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=48)]
    title: Description | None = None         # no control characters: it is printed
    seed: int | None = Field(default=None, ge=0)
    rolls: dict[str, RollValues] = Field(default_factory=dict)

    def fixed_rolls(self) -> dict[str, list[int]]:
        return {name: [v] if isinstance(v, int) else list(v) for name, v in self.rolls.items()}


class Invalid(ValueError):
    """A problem found after validation, at a key path of the file."""

    def __init__(self, loc: tuple[Any, ...], message: str) -> None:
        self.loc = loc
        super().__init__(message)


def pairs(values: dict[str, int]) -> tuple[tuple[str, int], ...]:
    return tuple((name.replace("_", " "), value) for name, value in values.items())
