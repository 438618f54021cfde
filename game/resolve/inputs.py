"""The parts every resolve file shares: which ruleset, what it resolves, a title, a seed and
fixed rolls; and how a ruleset's side reports problems found after validation."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo

from game.content.problems import suggest
from game.content.schema import Description

if TYPE_CHECKING:
    from game.content.loader import Library

RollValues = int | list[int]


class In(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Header(In):
    ruleset: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=48)]
    action: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=48)] = "attack"
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


class Invalids(ValueError):
    """Every problem a ruleset's side found after validation, reported together."""

    def __init__(self, found: list[Invalid]) -> None:
        self.found = found
        super().__init__("; ".join(str(f) for f in found))


class Checker:
    """Collects problems so that a file's every problem is reported in one run."""

    def __init__(self) -> None:
        self.found: list[Invalid] = []

    def add(self, loc: tuple[Any, ...], message: str) -> None:
        self.found.append(Invalid(loc, message))

    def done(self) -> None:
        if self.found:
            raise Invalids(self.found)


class Action(NamedTuple):
    """One thing a ruleset's side of the calculator resolves (`action:` in the file)."""

    Model: type[BaseModel]
    resolve: Callable[..., Any]      # (rules, data, NamedRolls, Library) -> Report
    odds: Callable[..., Any]         # (rules, data, Library) -> Report


def unknown(kind: str, name: object, known: Iterable[str]) -> str:
    """"unknown unit 'holis' (did you mean 'hollis'?)", or the known names when few."""
    names = sorted(known)
    text = f"unknown {kind} {name!r}{suggest(name, names)}"
    return f"{text}; known: {', '.join(names)}" if 0 < len(names) <= 12 else text


def context_library(info: ValidationInfo) -> Library | None:
    """The content library a validation was given (None when validated without one)."""
    context = info.context
    return context.get("library") if isinstance(context, dict) else None


def context_rules(info: ValidationInfo) -> Any:
    context = info.context
    return context.get("rules") if isinstance(context, dict) else None


def pairs(values: dict[str, int]) -> tuple[tuple[str, int], ...]:
    return tuple((name.replace("_", " "), value) for name, value in values.items())
