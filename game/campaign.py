"""A campaign being played: where it stands, what its survivors carry, and how it goes on.

    load_campaign(id or path)            -> (CampaignSpec, Library)   ContentError if not
    start_campaign(campaign, seed)       -> CampaignState             before its first battle
    battle_setup(state, campaign, lib)   -> BattleSetup               the next battle's
    after_battle(state, campaign, session) -> CampaignState           the outcome taken in
    play_campaign(...)                   -> CampaignState             computer against computer

The roster is the player's side as the last battle left it: each unit's template, name, hit
points, condition (as the ruleset left it: ok, unconscious or dying), ammunition, grenades
and wounds. The dead are left out of it, and so are the downed when the campaign says
`downed: lose`. The state is plain data (a pydantic model), saved between battles by
game.saves as a campaign save; it holds the roster's templates, so a roster does not depend on
the scenario it came from.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from game.content.campaign import CampaignSpec, campaign_setup, next_of, result_for
from game.content.library import Library
from game.content.problems import ContentError, Problem
from game.content.schema import ArmorSpec, BattleSetup, CarriedUnit, UnitSpec, WeaponSpec
from game.core import components as c
from game.core.objectives import statuses
from game.core.session import Session

ENDING_WORDS = {"victory": "Victory", "defeat": "Defeat"}


class _Plain(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RosterMember(_Plain):
    unit: str = Field(max_length=48)
    name: str = Field(max_length=80)
    hp: int
    max_hp: int
    state: Literal["ok", "unconscious", "dying"] = "ok"
    stabilized: bool = False
    weapons: list[tuple[int, int]] = Field(default_factory=list)
    """(rounds loaded, spare magazines) per weapon, in the unit's order."""
    weapon_ids: list[str] = Field(default_factory=list)
    grenades: dict[str, int] = Field(default_factory=dict)
    wounds: int = 0
    armor_loss: int = 0


class BattleRecord(_Plain):
    step: str
    scenario: str
    name: str
    result: Literal["win", "lose", "draw"]
    reason: str
    rounds: int
    lost: list[str] = Field(default_factory=list)
    """Names of the side's units that did not come out of it (the dead, or the downed when
    the campaign leaves them behind)."""


class CampaignState(_Plain):
    campaign: str = Field(max_length=48)
    name: str = Field(max_length=200)
    source: str | None = None
    """The campaign file's path when it is not bundled content."""
    step: str | None
    """The step to play next; None once the campaign has ended."""
    ending: Literal["victory", "defeat"] | None = None
    seed: int
    roster: list[RosterMember] = Field(default_factory=list)
    units: list[UnitSpec] = Field(default_factory=list)
    weapons: list[WeaponSpec] = Field(default_factory=list)
    armor: list[ArmorSpec] = Field(default_factory=list)
    history: list[BattleRecord] = Field(default_factory=list)
    summary: dict[str, str | int | bool | None] | None = None
    """What the load screen shows of a save (written by save_campaign; never read back)."""

    @property
    def over(self) -> bool:
        return self.step is None


class CampaignStateError(ValueError):
    """A campaign save whose state does not fit its campaign."""


# --- loading --------------------------------------------------------------------------------

def load_campaign(campaign: str | Path, library: Library | None = None,
                  ) -> tuple[CampaignSpec, Library]:
    """A campaign by id (bundled, or in `library`) or by its file's path. A file's campaign is
    read with the YAML files beside it (its own scenarios, units, maps). Raises ContentError."""
    from game.content.loader import load_library

    path = Path(campaign)
    if isinstance(campaign, str) and library is not None and campaign in library.campaigns:
        return library.campaigns[campaign], library
    if path.suffix in (".yaml", ".yml") or path.is_file():
        if not path.is_file():
            raise ContentError([Problem(str(path), None, None, "", "no such file")])
        library = load_library([path.parent])
        resolved = path.resolve()
        for (kind, ident), origin in library.origins.items():
            if kind == "campaign" and Path(origin.file).resolve() == resolved:
                return library.campaigns[ident], library
        message = "not a campaign (a campaign has `steps`)"
        raise ContentError([Problem(str(path), None, None, "", message)])
    library = library if library is not None else load_library()
    if str(campaign) in library.campaigns:
        return library.campaigns[str(campaign)], library
    known = ", ".join(sorted(library.campaigns)) or "none"
    message = f"no campaign with this id, and no such file (campaigns: {known})"
    raise ContentError([Problem(str(campaign), None, None, "", message)])


def source_of(campaign: CampaignSpec, library: Library) -> str | None:
    """The campaign's file when it is not bundled content (None for a bundled one)."""
    from game.content.loader import bundled_content_dir

    file = Path(library.source("campaign", campaign.id)).resolve()
    bundled = bundled_content_dir().resolve()
    return None if bundled in file.parents else str(file)


def reopen(state: CampaignState) -> tuple[CampaignSpec, Library]:
    """The campaign of a saved state, loaded again; CampaignStateError when it no longer fits."""
    try:
        campaign, library = load_campaign(state.source or state.campaign)
    except ContentError as error:
        raise CampaignStateError(f"its campaign {state.campaign!r} does not load:\n{error}") from None
    if campaign.id != state.campaign:
        raise CampaignStateError(f"{state.source} now holds campaign {campaign.id!r}, "
                                 f"not {state.campaign!r}")
    if state.step is not None and state.step not in {step.id for step in campaign.steps}:
        raise CampaignStateError(f"campaign {campaign.id!r} has no step {state.step!r} any more")
    return campaign, library


def state_from_dict(data: object) -> CampaignState:
    """A saved campaign state checked; CampaignStateError saying what is wrong."""
    try:
        return CampaignState.model_validate(data)
    except ValidationError as error:
        first = error.errors(include_url=False)[0]
        where = ".".join(str(part) for part in first["loc"]) or "the state"
        raise CampaignStateError(f"the campaign state is damaged ({where}: {first['msg']})") from None


# --- playing --------------------------------------------------------------------------------

def start_campaign(campaign: CampaignSpec, library: Library, seed: int) -> CampaignState:
    return CampaignState(campaign=campaign.id, name=campaign.name,
                         source=source_of(campaign, library), step=campaign.first, seed=seed)


def battle_seed(state: CampaignState) -> int:
    """Each battle of a campaign has a seed of its own: the campaign's, plus battles so far."""
    return state.seed + len(state.history)


def battle_setup(state: CampaignState, campaign: CampaignSpec, library: Library) -> BattleSetup:
    """The setup of the state's next battle: the scenario as written for the first battle; for
    a later one, the player's side made of the roster, each unit as it was left."""
    from game.content.loader import load_setup

    if state.step is None:
        raise CampaignStateError("the campaign is over: there is no next battle")
    step = campaign.step(state.step)
    base = load_setup(step.scenario, library)
    if not state.history:
        return base
    side = campaign.side_of(step)
    carried = [
        CarriedUnit(uid=f"{side}-{number}", hp=member.hp, state=member.state,
                    stabilized=member.stabilized, weapons=member.weapons,
                    grenades=member.grenades, wounds=member.wounds, armor_loss=member.armor_loss)
        for number, member in enumerate(state.roster, start=1)
    ]
    members = [(member.unit, member.name) for member in state.roster]
    return campaign_setup(base, side, members, state.units, state.weapons, state.armor, carried)


def roster_of(session: Session, side: str, downed: str) -> tuple[list[RosterMember], list[str]]:
    """The side's units that go on (in deployment order) and the names of those that do not."""
    session.use()
    kept, lost = [], []
    for uid, unit in session.units():
        if unit.side != side:
            continue
        health = session.get(uid, c.Health)
        if health.state == "dead" or (health.state != "ok" and downed == "lose"):
            lost.append(unit.name)
            continue
        loadout = session.get(uid, c.Loadout)
        condition = session.get(uid, c.Condition) if session.has(uid, c.Condition) else None
        kept.append(RosterMember(
            unit=unit.template, name=unit.name, hp=health.hp, max_hp=health.max_hp,
            state=health.state, stabilized=health.stabilized,
            weapons=[(w.ammo, w.spare) for w in loadout.weapons],
            weapon_ids=[w.weapon for w in loadout.weapons], grenades=dict(loadout.grenades),
            wounds=condition.wounds if condition else 0,
            armor_loss=condition.armor_loss if condition else 0))
    return kept, lost


def after_battle(state: CampaignState, campaign: CampaignSpec, session: Session,
                 met: tuple[str, ...] = ()) -> CampaignState:
    """The campaign once the state's current battle (played in `session`) has ended: its
    record, the roster it leaves and the step its outcome branches to. `met`: the ids of the
    objectives the player's side met, where the scenario has objectives."""
    if state.step is None or not session.over:
        raise CampaignStateError("only a finished battle of a campaign going on can be taken in")
    step = campaign.step(state.step)
    side = campaign.side_of(step)
    result = result_for(side, session.winner)
    roster, lost = roster_of(session, side, campaign.downed)
    setup = session.setup
    used = {member.unit for member in roster}
    units = [u for u in setup.units if u.id in used]
    weapon_ids = {w.weapon for u in units for w in u.weapons} | {g for u in units for g in u.grenades}
    armor_ids = {u.armor for u in units if u.armor is not None}
    record = BattleRecord(step=step.id, scenario=setup.scenario.id, name=setup.scenario.name,
                          result=result, reason=session.end_reason, rounds=session.round,
                          lost=lost)
    if not met:                            # the objectives the side met, where it has any
        met = tuple(o.id for o in statuses(session) if o.side == side and o.state == "met")
    target = next_of(step, result, met)
    ending: str | None = None
    if target in ENDING_WORDS:
        ending = target
    elif not any(member.state == "ok" for member in roster):
        ending = "defeat"                  # no one left standing to fight the next battle
    return state.model_copy(update={
        "step": None if ending else target,
        "ending": ending,
        "roster": roster,
        "units": units,
        "weapons": [w for w in setup.weapons if w.id in weapon_ids],
        "armor": [a for a in setup.armor if a.id in armor_ids],
        "history": [*state.history, record],
    })


def play_campaign(campaign: CampaignSpec, library: Library, ai: str, vs: str | None, seed: int,
                  *, state: CampaignState | None = None,
                  on_battle: Callable[[CampaignState], None] | None = None,
                  max_commands: int = 20000) -> CampaignState:
    """Play the campaign (or the rest of `state`'s) to its end, computer against computer: `ai`
    plays the player's side, `vs` (default: `ai`) the others. `on_battle` is told the state
    after each battle (to save it, say)."""
    from game.ai import make_player

    state = state if state is not None else start_campaign(campaign, library, seed)
    while state.step is not None:
        setup = battle_setup(state, campaign, library)
        side = campaign.side_of(campaign.step(state.step))
        players = {spec.id: make_player(ai if spec.id == side else (vs or ai), spec.id,
                                        battle_seed(state))
                   for spec in setup.scenario.sides}
        state = fight(state, campaign, setup, players, max_commands)
        if on_battle is not None:
            on_battle(state)
    return state


def fight(state: CampaignState, campaign: CampaignSpec, setup: BattleSetup,
          players: Mapping[str, object], max_commands: int = 20000) -> CampaignState:
    """One battle of the campaign between computer players, taken in once it has ended."""
    from game.core.commands import EndTurn, GiveOrders
    from game.core.events import Refused
    from game.rulesets import new_battle

    with new_battle(setup, battle_seed(state)) as battle:
        session = battle.session
        commands = 0
        while not session.over and commands < max_commands:
            uid, side = session.active, session.acting_side
            command = players[side].next_command(battle)  # type: ignore[attr-defined]
            commands += 1
            if isinstance(battle.submit(command), Refused):
                battle.submit(GiveOrders(side=side or "") if session.planning else EndTurn(uid or ""))
        if not session.over:
            raise CampaignStateError(f"the battle of step {state.step!r} did not end within "
                                     f"{max_commands} commands")
        return after_battle(state, campaign, session)


# --- saving ---------------------------------------------------------------------------------

def save_name(state: CampaignState) -> str:
    """The campaign save a campaign keeps between its battles: one per campaign."""
    return f"campaign-{state.campaign}"


def save_campaign(folder: Path, state: CampaignState, name: str | None = None) -> Path:
    """Write the state as a campaign save (game.saves); SaveError if it cannot be."""
    from game.saves import write_campaign_save

    data = state.model_dump(mode="json")
    data["summary"] = {"campaign": state.name, "battles": len(state.history),
                       "step": state.step, "ending": state.ending,
                       "survivors": len(state.roster)}
    return write_campaign_save(folder, name or save_name(state), data)


def read_campaign(folder: Path, name_or_path: str | Path) -> CampaignState:
    """A campaign save's state; SaveError if the file is not one or is damaged (never changed)."""
    from game.saves import SaveError, read_campaign_save

    data = read_campaign_save(folder, name_or_path)
    try:
        return state_from_dict(data)
    except CampaignStateError as error:
        reason = str(error)
        raise SaveError(f"Cannot load campaign save {name_or_path}: {reason}.", reason) from None
