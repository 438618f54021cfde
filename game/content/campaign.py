"""Campaigns: a chain of scenarios in one YAML file, and the checks that make it playable.

A campaign file has `steps`; each step plays a scenario of the library, and its `on` mapping
says which step comes next by how the battle went for the player's side: `win`, `lose` or
`draw` (a missing `win` ends the campaign in victory, a missing `lose` in defeat, and a missing
`draw` follows `lose`). A branch may also be keyed by an objective id of the scenario, taken
when the player's side met that objective; such keys are checked against the scenario's
objectives. A target is a step id, or `victory` / `defeat` to end the campaign there.

A campaign must end: a chain of branches that comes back to a step already played (a cycle) is
refused, as is a step that no branch reaches. Every step is played under one ruleset, the first
step's, since the wounds and ammunition carried from battle to battle are counted in its terms.

The player's side in a later battle is the roster carried from the earlier ones: the
scenario's own members for that side are replaced by the survivors (see game/campaign.py),
deployed in the side's zone. `campaign_setup` builds such a battle's setup.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from pydantic import Field, model_validator

from game.content.problems import ContentError, Problem
from game.content.schema import (
    ArmorSpec,
    BattleSetup,
    CarriedUnit,
    Description,
    Ident,
    Name,
    SquadMember,
    Strict,
    UnitSpec,
    WeaponSpec,
)

if TYPE_CHECKING:
    from game.content.library import Library, Origin

OUTCOMES = ("win", "lose", "draw")
ENDINGS = ("victory", "defeat")
MAX_STEPS = 50


class StepSpec(Strict):
    id: Ident
    scenario: Ident = Field(description="a scenario id of the library")
    side: Ident | None = Field(default=None, description="the player's side, if not the campaign's")
    briefing: Description = ""
    on: dict[Ident, Ident] = Field(default_factory=dict)


class CampaignSpec(Strict):
    id: Ident
    name: Name
    description: Description = ""
    side: Ident = Field(description="the player's side id in every step's scenario")
    start: Ident | None = Field(default=None, description="the first step (default: the first listed)")
    downed: Literal["carry", "lose"] = "carry"
    """What becomes of a unit down but not dead when its battle ends: `carry` it on in the
    state the ruleset left it (down, to be revived by first aid where the rules have it), or
    `lose` it with the dead."""
    steps: list[StepSpec] = Field(min_length=1, max_length=MAX_STEPS)

    @model_validator(mode="after")
    def _start_is_a_step(self) -> CampaignSpec:
        if self.start is not None and self.start not in {step.id for step in self.steps}:
            raise ValueError(f"start {self.start!r} is not one of the steps")
        return self

    @property
    def first(self) -> str:
        return self.start if self.start is not None else self.steps[0].id

    def step(self, ident: str) -> StepSpec:
        return next(step for step in self.steps if step.id == ident)

    def side_of(self, step: StepSpec) -> str:
        return step.side if step.side is not None else self.side


CAMPAIGN_FIELDS = frozenset(CampaignSpec.model_fields) | frozenset(StepSpec.model_fields)
"""The keys a campaign file may use: an unknown key is compared with these for a suggestion."""


# --- outcomes and branches ------------------------------------------------------------------

def result_for(side: str, winner: str | None) -> str:
    """The player's side's result: win, lose or draw."""
    if winner is None:
        return "draw"
    return "win" if winner == side else "lose"


def next_of(step: StepSpec, result: str, met: Sequence[str] = ()) -> str:
    """The step after `step` (or `victory` / `defeat`) for `result` and the objectives met.

    An objective branch met is taken first, in the order written; then the result's own."""
    for key, target in step.on.items():
        if key not in OUTCOMES and key in met:
            return target
    if result in step.on:
        return step.on[result]
    if result == "draw" and "lose" in step.on:
        return step.on["lose"]
    return "victory" if result == "win" else "defeat"


def objective_ids(scenario: object, side: str) -> set[str]:
    """The objective ids a scenario gives `side` (none for a scenario without objectives)."""
    found = set()
    for item in getattr(scenario, "objectives", None) or ():
        owner = getattr(item, "side", None)
        ident = getattr(item, "id", None)
        if isinstance(ident, str) and owner in (None, side):
            found.add(ident)
    return found


# --- a campaign battle's setup ----------------------------------------------------------------

def campaign_setup(
    base: BattleSetup, side: str, members: Sequence[tuple[str, str]],
    units: Sequence[UnitSpec] = (), weapons: Sequence[WeaponSpec] = (),
    armor: Sequence[ArmorSpec] = (), carried: Sequence[CarriedUnit] = (),
) -> BattleSetup:
    """`base` with side `side` made of `members` ((unit id, name) each, in order) instead of its
    own, the roster's unit, weapon and armor templates added (they win over the scenario's of
    the same id) and each carried unit's state to be put on it after deployment."""
    sides = []
    for spec in base.scenario.sides:
        if spec.id == side:
            roster = [SquadMember(unit=unit, name=name) for unit, name in members]
            spec = spec.model_copy(update={"squad": None, "members": roster})
        sides.append(spec)
    scenario = base.scenario.model_copy(update={"sides": sides})

    def merged(own: Sequence, extra: Sequence) -> list:
        table = {item.id: item for item in own}
        table.update({item.id: item for item in extra})
        return list(table.values())

    used_squads = {spec.squad for spec in sides if spec.squad is not None}
    return base.model_copy(update={
        "scenario": scenario,
        "units": merged(base.units, units),
        "weapons": merged(base.weapons, weapons),
        "armor": merged(base.armor, armor),
        "squads": [squad for squad in base.squads if squad.id in used_squads],
        "carried": list(carried),
    })


def starting_roster(setup: BattleSetup, side: str) -> list[tuple[str, str]]:
    """(unit id, display name) of every unit the side deploys, in deployment order."""
    from game.content.deploy import deploy

    return [(d.unit, d.name) for d in deploy(setup) if d.side == side]


# --- checks ---------------------------------------------------------------------------------

def check_campaigns(library: Library) -> list[Problem]:
    problems: list[Problem] = []
    for ident in library.campaigns:
        problems += check_campaign(library, ident)
    return problems


def check_campaign(library: Library, ident: str) -> list[Problem]:
    """Every problem of one campaign: its scenarios, sides, branches and roster."""
    campaign: CampaignSpec = library.campaigns[ident]
    origin = library.origins[("campaign", ident)]
    problems: list[Problem] = []

    def at(loc: tuple, message: str, *, key: bool = False) -> None:
        problems.append(library.problem(origin, loc, message, key=key))

    ids = [step.id for step in campaign.steps]
    for index, step in enumerate(campaign.steps):
        if step.id in ENDINGS:
            at(("steps", index, "id"), f"{step.id!r} ends a campaign: a step needs another id")
        elif step.id in ids[:index]:
            at(("steps", index, "id"), f"step id {step.id!r} repeats")
    for index in range(len(campaign.steps)):
        problems += _step_problems(library, campaign, index)
    if problems:
        return problems
    _flow_problems(campaign, at)
    if not problems:
        _roster_problems(library, campaign, at)
    return problems


def _step_problems(library: Library, campaign: CampaignSpec, index: int) -> list[Problem]:
    from game.content.problems import suggest

    step = campaign.steps[index]
    here: list[Problem] = []
    ids = {item.id for item in campaign.steps}
    scenario = library.scenarios.get(step.scenario)
    if scenario is None:
        if ("scenario", step.scenario) not in library.broken:
            known = ", ".join(sorted(library.scenarios)) or "none"
            message = (f"unknown scenario {step.scenario!r}{suggest(step.scenario, library.scenarios)}"
                       f" (scenarios: {known})")
            here.append(_problem(library, campaign, ("steps", index, "scenario"), message))
        return here
    side = campaign.side_of(step)
    sides = [spec.id for spec in scenario.sides]
    if side not in sides:
        field = "side" if step.side is not None else "scenario"
        message = (f"scenario {step.scenario!r} has no side {side!r} for the player "
                   f"(its sides: {', '.join(sides)})")
        here.append(_problem(library, campaign, ("steps", index, field), message))
    objectives = objective_ids(scenario, side)
    for key, target in step.on.items():
        loc: tuple = ("steps", index, "on", key)
        if key not in OUTCOMES and key not in objectives:
            has = f"its objectives: {', '.join(sorted(objectives))}" if objectives else "it has none"
            message = (f"unknown outcome {key!r}: a branch is taken on win, lose or draw, or on "
                       f"an objective of scenario {step.scenario!r} ({has})")
            here.append(library.problem(_origin(library, campaign), loc, message, key=True))
        if target not in ids and target not in ENDINGS:
            message = (f"branch to unknown step {target!r}{suggest(target, ids)} "
                       f"(steps: {', '.join(sorted(ids))}; or victory, defeat)")
            here.append(_problem(library, campaign, loc, message))
    return here


def _origin(library: Library, campaign: CampaignSpec) -> Origin:
    return library.origins[("campaign", campaign.id)]


def _problem(library: Library, campaign: CampaignSpec, loc: tuple, message: str) -> Problem:
    return library.problem(_origin(library, campaign), loc, message)


def _flow_problems(campaign: CampaignSpec, at) -> None:
    """A cycle of branches is refused at the branch that closes it; an unreached step too."""
    index = {step.id: number for number, step in enumerate(campaign.steps)}
    state: dict[str, int] = {}          # 1: on the current path, 2: done

    def visit(ident: str) -> bool:
        state[ident] = 1
        step = campaign.step(ident)
        for key, target in step.on.items():
            if target in ENDINGS:
                continue
            if state.get(target) == 1:
                at(("steps", index[ident], "on", key),
                   f"branch back to step {target!r} makes a cycle: a campaign must end, so no "
                   "chain of branches may come back to a step")
                return False
            if target not in state and not visit(target):
                return False
        state[ident] = 2
        return True

    if not visit(campaign.first):
        return
    for step in campaign.steps:
        if step.id not in state:
            at(("steps", index[step.id], "id"),
               f"step {step.id!r} is never reached from the first step {campaign.first!r}")


def _roster_problems(library: Library, campaign: CampaignSpec, at) -> None:
    """Every step plays under the first step's ruleset and can deploy the whole roster."""
    from game.content.loader import load_setup

    index = {step.id: number for number, step in enumerate(campaign.steps)}
    first = campaign.step(campaign.first)
    try:
        opening = load_setup(first.scenario, library)
    except ContentError:
        return                                     # the scenario's own problems are reported
    roster = starting_roster(opening, campaign.side_of(first))
    templates = [u for u in opening.units if u.id in {unit for unit, _ in roster}]
    for step in campaign.steps:
        loc = ("steps", index[step.id], "scenario")
        try:
            base = load_setup(step.scenario, library)
        except ContentError:
            continue
        if base.ruleset.id != opening.ruleset.id:
            at(loc, f"scenario {step.scenario!r} is played under {base.ruleset.id!r}; every step "
               f"of a campaign is played under the first step's ruleset, {opening.ruleset.id!r}")
            continue
        setup = campaign_setup(base, campaign.side_of(step), roster, templates,
                               opening.weapons, opening.armor)
        try:
            starting_roster(setup, campaign.side_of(step))
        except ContentError as error:
            reasons = "; ".join(problem.message for problem in error.problems)
            at(loc, f"the {len(roster)} units the campaign starts with cannot be deployed in "
               f"scenario {step.scenario!r}: {reasons}")
