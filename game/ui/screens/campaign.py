"""Campaigns in the app: choosing one to start or continue, and the briefing between battles.

The briefing shows how the last battle went, the survivors with their hit points and
ammunition as the campaign state holds them (game.campaign), and the next battle. Nothing is
worked out here: every number is the state's.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Footer, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from game.campaign import CampaignState, load_campaign, read_campaign, reopen, start_campaign
from game.content.campaign import CampaignSpec
from game.content.problems import ContentError
from game.content.text import printable
from game.saves import SaveError, SaveInfo, list_campaign_saves
from game.ui.glyphs import plain
from game.ui.screens.base import GameModal, GameScreen
from game.ui.widgets.choices import Choices
from game.ui.widgets.problem import Problem

RESULT_WORDS = {"win": "won", "lose": "lost", "draw": "drawn"}


@dataclass
class CampaignRun:
    """A campaign the app is playing: its file, its library and where it stands."""

    campaign: CampaignSpec
    library: Any
    state: CampaignState
    save_name: str | None = None      # the campaign save it continues, if any
    match: Any = None                 # the Match of its battle being played


def describe_campaign_save(info: SaveInfo) -> str:
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(info.modified))
    if not info.ok:
        return f"{info.name}  ({when})  cannot be loaded: {info.problem}"
    summary = info.summary or {}
    name = summary.get("campaign", "?")
    battles = summary.get("battles", 0)
    ending = summary.get("ending")
    where = f"ended in {ending}" if ending else f"{battles} battle{'s' if battles != 1 else ''} fought"
    return f"{info.name}  ({when})  {name}, {where}"


class CampaignMenu(GameModal[CampaignRun | None]):
    """Start a bundled campaign or a campaign file, or continue a campaign save. Dismissed with
    the campaign run, or None. A broken save is shown, never changed."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]
    AUTO_FOCUS = "#campaigns, #campaign-path"

    def __init__(self, library: Any, folder: Path | None) -> None:
        super().__init__()
        self.library = library
        self.folder = folder

    def compose(self) -> ComposeResult:
        saves = list_campaign_saves(self.folder) if self.folder else []
        options = [Option(plain(f"Start: {spec.name}"), id=f"start:{ident}")
                   for ident, spec in sorted(self.library.campaigns.items())]
        finished = [info for info in saves if info.ok and (info.summary or {}).get("ending")]
        going = [info for info in saves if info not in finished]
        for heading, group in (("Continue a saved campaign", going),
                               ("Finished campaigns: see how they ended", finished)):
            if group:
                options.append(Option(heading, disabled=True))
                options += [Option(plain("  " + describe_campaign_save(info)),
                                   id=f"continue:{info.path}", disabled=not info.ok) for info in group]
        with Vertical(classes="dialog wide", id="campaign-menu"):
            yield Label("Campaign", classes="dialog-title")
            if options:
                yield Choices(*options, id="campaigns")
            else:
                yield Static("No campaign is bundled, and none is saved.")
            yield Input(placeholder="…or the path of a campaign file, then Enter",
                        id="campaign-path")
            yield Problem(id="campaign-problem")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Cancel", id="cancel")
        yield Footer()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        choice = event.option.id or ""
        kind, _, what = choice.partition(":")
        if kind == "start":
            self._start(what)
        elif kind == "continue":
            self._continue(what)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.value.strip():
            self._start(str(Path(event.value.strip()).expanduser()))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)

    def _say(self, text: str) -> None:
        self.query_one("#campaign-problem", Problem).update(text)

    def _start(self, source: str) -> None:
        try:
            if source in self.library.campaigns:
                campaign, library = self.library.campaigns[source], self.library
            else:
                campaign, library = load_campaign(source)
        except ContentError as error:
            self._say(str(error))
            return
        state = start_campaign(campaign, library, random.SystemRandom().randrange(1, 2**31))
        self.dismiss(CampaignRun(campaign, library, state))

    def _continue(self, path: str) -> None:
        try:
            state = read_campaign(self.folder or Path("."), path)
            campaign, library = reopen(state)
        except (SaveError, ValueError) as error:
            self._say(f"{error}\nThe file was left as it was.")
            return
        self.dismiss(CampaignRun(campaign, library, state, save_name=Path(path).stem))


def survivors_table(state: CampaignState) -> Table:
    """Each survivor's hit points, condition and ammunition, as the campaign state holds them."""
    weapons = {weapon.id: weapon for weapon in state.weapons}
    table = Table(box=None, header_style="bold", pad_edge=False, padding=(0, 1))
    for column in ("Unit", "HP", "Condition", "Ammunition", "Grenades"):
        table.add_column(column, justify="right" if column == "HP" else "left")
    for member in state.roster:
        ammo = []
        for ident, (loaded, spare) in zip(member.weapon_ids, member.weapons, strict=False):
            weapon = weapons.get(ident)
            if weapon is not None and weapon.magazine > 0:
                ammo.append(f"{weapon.name} {loaded}/{weapon.magazine} +{spare}")
        grenades = ", ".join(f"{weapons[g].name if g in weapons else g} x{n}"
                             for g, n in member.grenades.items() if n > 0) or "-"
        condition = member.state if member.state != "ok" else (
            "fit" if member.hp >= member.max_hp else "wounded")
        table.add_row(printable(member.name), f"{member.hp}/{member.max_hp}", condition,
                      printable("; ".join(ammo) or "-"), printable(grenades))
    return table


class Briefing(GameScreen[str]):
    """Between battles: the last outcome, the survivors and the next battle. Dismissed with
    'fight' (play the next battle), 'menu' or 'quit'."""

    BINDINGS = [Binding("f,enter", "fight", "Fight the next battle"),
                Binding("m,escape", "dismiss('menu')", "Main menu"),
                Binding("q", "dismiss('quit')", "Quit")]

    def __init__(self, run: CampaignRun, level: str = "normal") -> None:
        super().__init__()
        self.run = run
        self.level = level

    def compose(self) -> ComposeResult:
        state, campaign = self.run.state, self.run.campaign
        with Center():
            with VerticalScroll(id="briefing"):
                yield Label(plain(f"Campaign: {campaign.name}"), id="briefing-title")
                if not state.history and campaign.description:
                    yield Static(plain(campaign.description), classes="briefing-text")
                if state.history:
                    record = state.history[-1]
                    line = (f"Battle {len(state.history)}, {record.name}: "
                            f"{RESULT_WORDS[record.result]} ({record.reason}, round {record.rounds}).")
                    yield Static(plain(line), id="briefing-outcome")
                    if record.lost:
                        yield Static(plain(f"Lost: {', '.join(record.lost)}."), id="briefing-lost")
                    yield Label("Survivors", classes="briefing-heading")
                    if state.roster:
                        yield Static(survivors_table(state), id="briefing-roster")
                    else:
                        yield Static("No one.", id="briefing-roster")
                if state.over:
                    ending = ("Victory: the campaign is won." if state.ending == "victory"
                              else "Defeat: the campaign is lost.")
                    yield Label(ending, id="briefing-ending")
                else:
                    yield from self._next_battle()
                with Horizontal(classes="dialog-buttons"):
                    if not state.over:
                        yield Button("Fight", id="fight", variant="primary")
                    yield Button("Main menu", id="menu")
                    yield Button("Quit", id="quit")
        yield Footer()

    def _next_battle(self) -> ComposeResult:
        state, campaign = self.run.state, self.run.campaign
        assert state.step is not None
        step = campaign.step(state.step)
        scenario = self.run.library.scenarios.get(step.scenario)
        yield Label("Next battle", classes="briefing-heading")
        name = scenario.name if scenario is not None else step.scenario
        yield Static(plain(name), id="briefing-next")
        for text in (scenario.description if scenario is not None else "", step.briefing):
            if text:
                yield Static(plain(text), classes="briefing-text")
        side = campaign.side_of(step)
        names = [spec.name for spec in scenario.sides if spec.id == side] if scenario else []
        if names:
            yield Static(plain(f"You play {names[0]}; the computer ({self.level}) plays the "
                               "other side."), classes="briefing-text")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "fight":
            self.action_fight()
        else:
            self.dismiss(event.button.id)

    def action_fight(self) -> None:
        if not self.run.state.over:
            self.dismiss("fight")
