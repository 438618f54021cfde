"""Every ruleset a battle can be played under, by the engine name its ruleset file gives.

A ruleset is one package here: its dice core, its rules on the grid, its exact odds and its
side of the referee's calculator. Adding one is a package and a line in RULESETS.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel


from game.content.schema import BattleSetup, RulesetSpec
from game.core.dice import Dice
from game.core.engine import Battle
from game.core.ruleset import Ruleset
from game.rulesets.d20.grid import D20Grid
from game.rulesets.eclipse.grid import Eclipse1Grid, Eclipse2Grid
from game.rulesets.opend6.grid import OpenD6Grid
from game.rulesets.skirmish.grid import SkirmishGrid

RULESETS: dict[str, type[Ruleset]] = {
    "skirmish": SkirmishGrid,
    "eclipse2": Eclipse2Grid,
    "eclipse1": Eclipse1Grid,
    "opend6": OpenD6Grid,
    "d20": D20Grid,
}


class UnknownRuleset(ValueError):
    pass


def ruleset_class(engine: str) -> type[Ruleset] | None:
    return RULESETS.get(engine)


def file_blocks(engine: str) -> dict[str, type[BaseModel]]:
    """The blocks a ruleset file of `engine` must have checked, with their models; {} for an
    engine no ruleset plays."""
    cls = RULESETS.get(engine)
    return cls.file_blocks() if cls is not None else {}


def needs_profiles(engine: str) -> bool:
    """Whether units and weapons need a `rules: {engine: ...}` block to be played under
    `engine` (an engine no ruleset plays: as the tabletop rulesets do)."""
    cls = RULESETS.get(engine)
    return cls.profiles if cls is not None else True


def profile_model(engine: str, kind: str) -> type[BaseModel] | None:
    """The model of a `kind` ("weapon", "armor", "unit") item's `rules: {engine: ...}` block;
    None for an engine no ruleset plays, or one that reads the item's own stats."""
    cls = RULESETS.get(engine)
    return cls.profile_models().get(kind) if cls is not None else None


def health_name(spec: RulesetSpec) -> str:
    """What the ruleset calls what damage takes off (HP, Durability left, Body Points)."""
    cls = RULESETS.get(spec.engine)
    return cls.health_name if cls is not None else "HP"


def find_ruleset(spec: RulesetSpec) -> Ruleset:
    cls = ruleset_class(spec.engine)
    if cls is None:
        known = ", ".join(sorted(RULESETS))
        raise UnknownRuleset(f"ruleset {spec.id!r} names engine {spec.engine!r}; known engines: {known}")
    return cls(spec)


def new_battle(setup: BattleSetup, seed: int, *, dice: Dice | None = None,
               table: tuple[str, ...] = (), opening_rolls: tuple[int, ...] = (),
               asking: tuple[str, ...] = ()) -> Battle:
    """A battle of `setup`, played under the ruleset its ruleset file names; `table` names the
    sides whose dice are typed in (see Battle)."""
    return Battle(setup, seed, find_ruleset(setup.ruleset), dice=dice, table=table,
                  opening_rolls=opening_rolls, asking=asking)


def load_battle(state: dict[str, Any]) -> Battle:
    """A saved battle (Battle.state()) rebuilt; ValueError when it does not fit."""
    return Battle.from_state(state, find_ruleset)


__all__ = ["RULESETS", "UnknownRuleset", "find_ruleset", "load_battle", "new_battle", "file_blocks", "needs_profiles",
           "profile_model", "ruleset_class"]
