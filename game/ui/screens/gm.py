"""The game master's view (`G` on the battle screen): every unit in initiative order with its
state in its ruleset's words, the ruleset's modifier table, and the calls the rules texts leave
to the game master: a modifier for a unit's next attack roll, and its health set by hand.

It shows every unit, seen or not: it is the game master's. The calls are engine commands
(game/core/commands.py: GiveModifier, SetHealth), so they go into the log and the save; a
refusal is shown here with its reason. Up/Down pick a unit; `m` and `h` go to the two fields.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Input, OptionList, Static
from textual.widgets.option_list import Option

from game.core.commands import Command, GiveModifier, SetHealth
from game.core.events import Event, Refused
from game.core.queries import (health_bounds, initiative_order, modifier_example, modifier_table,
                               unit_sheet)
from game.ui.glyphs import plain
from game.ui.match import Match
from game.ui.screens.base import GameScreen
from game.ui.widgets.problem import Problem

_CALL = re.compile(r"^\s*([+-]?\d+)\s*(.*)$")

Submit = Callable[[Command], "list[Event] | Refused"]


def parse_call(text: str) -> tuple[int, str] | str:
    """`+2 high ground` -> (2, "high ground"); a message saying what is wrong otherwise."""
    found = _CALL.match(text)
    if not found:
        return "Start with a number, then the reason: e.g. +2 high ground."
    if len(found.group(1).lstrip("+-")) > 6:
        return "That number is too large."
    return int(found.group(1)), found.group(2).strip()


class GmPanel(GameScreen[None]):
    BINDINGS = [Binding("escape,G,shift+g", "close", "Back to the battle"),
                Binding("m", "field('gm-modifier')", "Modifier"),
                Binding("h", "field('gm-health')", "Set health")]
    AUTO_FOCUS = "#gm-units"

    def __init__(self, match: Match, submit: Submit, unit: str | None = None) -> None:
        """`unit`: the one chosen at first (the active unit, or the one being planned)."""
        super().__init__()
        self.match = match
        self.submit = submit
        self.chosen: str | None = unit or match.battle.session.active

    def compose(self) -> ComposeResult:
        ruleset = self.match.battle.session.setup.ruleset.name
        yield Static(plain(f"The game master's view: {ruleset}, round {self.match.battle.session.round}"
                           " (every unit, seen or not)"), classes="screen-title", markup=False)
        yield Problem("", id="gm-problem")
        yield Static("", id="gm-done", markup=False)
        with Horizontal(id="gm-body"):
            with Vertical(id="gm-left"):
                yield Static("Initiative order", classes="first")
                yield OptionList(id="gm-units")
                yield Static("Modifier for the unit's next attack roll (+N or -N, then why; "
                             "0 takes it back)")
                yield Input(placeholder=modifier_example(self.match.battle), id="gm-modifier",
                            max_length=70)
                yield Static("", id="gm-health-label")
                yield Input(id="gm-health", max_length=70)
            with VerticalScroll(id="gm-right"):
                yield Static("", id="gm-sheet", markup=False)
                yield Static("", id="gm-table", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        super().on_mount()
        self.refresh_units()
        table = modifier_table(self.match.battle)
        lines = ["Modifier table:"] + [f"  {name}: {value}" for name, value in table]
        self.query_one("#gm-table", Static).update(
            Text("\n".join(lines) if table else "These rules list no situational modifiers."))

    # --- drawing ---------------------------------------------------------------------------------

    def refresh_units(self) -> None:
        battle = self.match.battle
        names = battle.names()
        options = self.query_one("#gm-units", OptionList)
        order = initiative_order(battle)
        options.clear_options()
        for number, uid in enumerate(order, 1):
            sheet = unit_sheet(battle, uid)
            mark = ">" if sheet.active else " "
            measure = health_bounds(battle, uid)[0]
            shown = dict(sheet.rows)
            body = f"{measure} {shown.get(measure, '?')}"
            if shown.get("State", "ok") != "ok":
                body += f", {shown['State']}"
            given = f" [GM {sheet.modifier[0]:+d}]" if sheet.modifier else ""
            options.add_option(Option(plain(f"{mark}{number:>2}. {sheet.name} ({names.get(sheet.side, sheet.side)})"
                                            f": {body}{given}"), id=uid))
        if self.chosen not in order and order:
            self.chosen = order[0]
        if self.chosen in order:
            options.highlighted = order.index(self.chosen)
        self.show_sheet()

    def show_sheet(self) -> None:
        uid = self.chosen
        if uid is None:
            return
        battle = self.match.battle
        sheet = unit_sheet(battle, uid)
        lines = [f"{sheet.name} ({battle.names().get(sheet.side, sheet.side)})"
                 + (": its turn" if sheet.active else "")]
        lines += [f"  {label}: {value}" for label, value in sheet.rows]
        if sheet.modifier:
            lines.append(f"  Next attack roll: {sheet.modifier[0]:+d} ({sheet.modifier[1]})")
        self.query_one("#gm-sheet", Static).update(Text("\n".join(lines) + "\n"))
        name, low, high = health_bounds(battle, uid)
        self.query_one("#gm-health-label", Static).update(
            plain(f"{sheet.name}'s {name} set by hand ({low} to {high}), then why"))
        example = max(low, min(high, high * 3 // 4))
        self.query_one("#gm-health", Input).placeholder = f"{example} fell down the stairs"

    # --- reacting ----------------------------------------------------------------------------

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if self.closing():
            return
        if event.option.id:
            self.chosen = event.option.id
            self.show_sheet()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if self.closing():
            return
        event.stop()
        uid = self.chosen
        if uid is None:
            return
        call = parse_call(event.value)
        if isinstance(call, str):
            self.say(call)
            return
        number, reason = call
        command: Command = (GiveModifier(uid, number, reason) if event.input.id == "gm-modifier"
                            else SetHealth(uid, number, reason))
        result = self.submit(command)
        if isinstance(result, Refused):
            self.say(f"Not possible: {result.reason}")
            return
        self.say("")
        told = " ".join(self.match.tell(e) for e in result)
        self.query_one("#gm-done", Static).update(f"Done (in the log): {told}" if told else "")
        event.input.value = ""
        self.refresh_units()
        self.query_one("#gm-units", OptionList).focus()

    def say(self, text: str) -> None:
        self.query_one("#gm-problem", Problem).update(text)
        if text:
            self.query_one("#gm-done", Static).update("")

    def action_field(self, ident: str) -> None:
        self.query_one(f"#{ident}", Input).focus()

    def action_close(self) -> None:
        self.dismiss(None)
