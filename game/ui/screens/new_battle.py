"""Setting up a battle: scenario, ruleset, who plays each side, and the seed.

A side is played by a person, by the computer, or at the table (a person gives its orders and
its dice are rolled by hand and typed in). A computer side's dice are rolled by the app, or, if
the game master says so, asked of the table like the others.

Choices are radio sets and buttons rather than drop-down Selects: they work the same with keys
and mouse and show every option at once.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import partial

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Footer, Input, Label, OptionList, RadioButton, RadioSet, Static
from textual.widgets.option_list import Option

from game.content.loader import TURNS, with_turns
from game.content.problems import ContentError
from game.content.schema import BattleSetup, ScenarioSpec
from game.content.text import name_problem
from game.rulesets import ruleset_class
from game.ui.glyphs import plain
from game.ui.match import Seat
from game.ui.players import computer_levels, default_level
from game.ui.screens.base import GameScreen
from game.ui.widgets.choices import Choices, Radio, Radios
from game.ui.widgets.problem import Problem

MAX_SIDES = 4
KIND_LABELS = {"human": "Person", "computer": "Computer", "table": "At the table"}
ROLLS_LABELS = {"app": "App rolls", "table": "Asks rolls"}


@dataclass
class FormChoices:
    """What the form was last started with, offered again when it opens next (in this run of
    the app): the scenario, solo or hot-seat, the computer's difficulty, and each ruleset's way
    of taking turns."""

    scenario: str | None = None
    solo: bool = True
    level: str | None = None
    turns: dict[str, str] = field(default_factory=dict)     # ruleset id -> way


class Column(VerticalScroll, can_focus=False):
    """One half of the form; it scrolls when the terminal is short, Tab skips it."""


class NewBattle(GameScreen):
    """A form; Start (Ctrl+S or the button) builds the battle and hands it to the app."""

    BINDINGS = [Binding("escape", "back", "Back"), Binding("ctrl+s", "start", "Start"),
                Binding("ctrl+g", "start(True)", "Set up the encounter")]
    AUTO_FOCUS = "#scenarios"

    def __init__(self, library, problem: str = "", choices: FormChoices | None = None) -> None:
        super().__init__()
        self.library = library
        self.problem = problem
        self.choices = choices if choices is not None else FormChoices()
        self.levels = computer_levels()
        self.rulesets = sorted((r for r in library.rulesets.values() if ruleset_class(r.engine)),
                               key=lambda r: r.id)
        self.sides: list[tuple[str, str]] = []        # (side id, side name) of the shown rows
        self.kinds = ["human"] * MAX_SIDES
        self.npc_rolls = ["app"] * MAX_SIDES      # a computer side: who rolls its dice
        self.rows_for: str | None = None
        self.ruleset_choice: str | None = None
        self.scenario_choice: str | None = None
        self.path_scenario: ScenarioSpec | None = None   # the scenario last loaded by its path

    def compose(self) -> ComposeResult:
        scenarios = sorted(self.library.scenarios.values(), key=lambda s: s.name)
        yield Problem(self.problem, id="new-problem")
        with Horizontal(id="new-battle"):
            with Column(id="new-left"):
                yield Label("Scenario", classes="first")
                options = [Option(plain(f"{s.name} ({len(s.sides)} sides, "
                                        f"{self._ruleset_name(s.ruleset)}){self._mod(s.id)}"),
                                  id=s.id) for s in scenarios]
                yield Choices(*options, id="scenarios")
                yield Static("", id="scenario-about", markup=False)
                notes = self._notes(getattr(self.library, "notices", []))
                yield Static(notes.strip(), id="mod-notes", markup=False)
                yield Input(placeholder="or a scenario file path + Enter", id="scenario-path")
                yield Label("Ruleset")
                with Radios(id="ruleset"):
                    for index, spec in enumerate(self.rulesets):
                        yield Radio(plain(spec.name), value=index == 0,
                                          id=f"ruleset-{spec.id}")
                yield Label("Seed (blank: random)")
                yield Input(placeholder="random", id="seed", restrict=r"[0-9]*", max_length=12)
            with Column(id="new-right"):
                yield Label("Mode", classes="first")
                with Radios(id="mode"):
                    solo = bool(self.levels) and self.choices.solo
                    yield Radio("Solo against the computer", value=solo,
                                      disabled=not self.levels, id="solo")
                    yield Radio("Hot-seat with friends", value=not solo, id="hotseat")
                yield Label("Turns: all orders at once, or unit by unit", id="turns-label")
                with Radios(id="turns"):
                    yield Radio("Simultaneous", id="turns-simultaneous")
                    yield Radio("One at a time", value=True, id="turns-sequential")
                if self.levels:
                    yield Label("Computer difficulty")
                    level = (self.choices.level if self.choices.level in self.levels
                             else default_level(self.levels))
                    with Radios(id="level"):
                        for name in self.levels:
                            yield Radio(name, value=name == level, id=f"level-{name}")
                else:
                    yield Problem("No computer players are installed: people play every side.")
                yield Label("Sides (Enter: Person / Computer / At the table)")
                with Vertical(id="side-rows"):
                    for index in range(MAX_SIDES):     # shown as the scenario needs; never rebuilt
                        with Vertical(classes="side-row", id=f"row-{index}"):
                            with Horizontal(classes="side-head"):   # who plays it, below
                                yield Static("", classes="side-name", id=f"side-{index}", markup=False)
                                yield Button("Person", id=f"kind-{index}", classes="side-kind")
                            with Horizontal(classes="side-seat"):
                                yield Button(ROLLS_LABELS["app"], id=f"rolls-{index}", classes="side-rolls",
                                             tooltip="Who rolls this computer side's dice: the app, "
                                                     "or the table (every roll asked for)")
                                yield Input(f"Player {index + 1}", id=f"name-{index}", max_length=24,
                                            classes="side-player")
                with Horizontal(classes="dialog-buttons"):
                    yield Button("Start", id="start", variant="primary")
                    yield Button("Back", id="back")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#mod-notes").display = bool(getattr(self.library, "notices", []))
        for options in self.query("#scenarios").results(OptionList):
            if options.option_count:
                last = self.choices.scenario
                known = last is not None and last in self.library.scenarios
                options.highlighted = options.get_option_index(last) if known else 0

    # --- reacting to the form ---------------------------------------------------------------

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if self.closing():
            return
        scenario = self.library.scenarios.get(event.option.id or "")
        if scenario is not None:
            path = self.query_one("#scenario-path", Input)
            if path.value:                       # the list is chosen again over a typed path
                path.value = ""
                self.path_scenario = None
            self.query_one("#scenario-about", Static).update(scenario.description or "")
            self._pick_ruleset(scenario.ruleset, scenario.id)
            self._show_rows([(s.id, s.name) for s in scenario.sides], key=scenario.id)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if self.closing():
            return
        event.stop()
        self.query_one("#scenario-path", Input).value = ""
        self.focus_next()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if self.closing():
            return
        event.stop()
        if event.input.id == "scenario-path" and event.value.strip():
            notices: list = []
            setup = self._load(event.value.strip(), notices=notices)
            if setup is not None:
                self._say("")
                self.path_scenario = setup.scenario
                self.query_one("#scenario-about", Static).update(
                    f"{setup.scenario.name}: {setup.scenario.description}" + self._notes(
                        [n for n in notices if n not in getattr(self.library, "notices", [])]))
                self._pick_ruleset(setup.ruleset.id, event.value.strip())
                self._show_rows([(s.id, s.name) for s in setup.scenario.sides], key=event.value)
        elif event.input.id == "seed":
            self.action_start()

    def on_radio_set_changed(self, event: RadioSet.Changed) -> None:
        if self.closing():
            return
        if event.radio_set.id == "mode":
            self._apply_mode()
        elif event.radio_set.id == "ruleset" and event.pressed.id:
            self.ruleset_choice = event.pressed.id.split("-", 1)[1]
            self._show_turns()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if self.closing():
            return
        event.stop()
        ident = event.button.id or ""
        if ident == "start":
            self.action_start()
        elif ident == "back":
            self.action_back()
        elif ident.startswith("kind-"):
            index = int(ident.removeprefix("kind-"))
            cycle = ["human", "computer", "table"] if self.levels else ["human", "table"]
            kind = self.kinds[index]
            new = cycle[(cycle.index(kind) + 1) % len(cycle)] if kind in cycle else "human"
            typed = self.query_one(f"#name-{index}", Input).value.strip()
            defaults = {"You", "Computer", f"Player {index + 1}", ""}
            self._set_kind(index, new, None if typed not in defaults else
                           "Computer" if new == "computer" else f"Player {index + 1}")
        elif ident.startswith("rolls-"):
            index = int(ident.removeprefix("rolls-"))
            self.npc_rolls[index] = "app" if self.npc_rolls[index] == "table" else "table"
            event.button.label = ROLLS_LABELS[self.npc_rolls[index]]

    def _mod(self, scenario_id: str) -> str:
        """' (mod)' after a scenario a mod (--content) brought, none after a bundled one."""
        origin = self.library.origins.get(("scenario", scenario_id))
        bundled = getattr(self.library, "bundled", None)
        return " (mod)" if bundled and origin is not None and origin.file not in bundled else ""

    @staticmethod
    def _notes(notices: list) -> str:
        """What a mod replaced of the bundled content, one line each."""
        return "".join(f"\nMod: {notice.message} ({notice.file})" for notice in notices)

    def _ruleset_name(self, ident: str) -> str:
        spec = self.library.rulesets.get(ident)
        return spec.name if spec else ident

    def _pick_ruleset(self, own: str, scenario: str) -> None:
        """Select the scenario's ruleset; grey out those its units have no stats for."""
        from game.content.loader import playable_rulesets
        playable = set(playable_rulesets(self.library, scenario))
        radio_set = self.query_one("#ruleset", RadioSet)
        # Set every button at once, without the set's change messages: several scenarios
        # highlighted in quick succession would otherwise leave a stale button pressed.
        with radio_set.prevent(RadioButton.Changed):
            for spec in self.rulesets:
                button = self.query_one(f"#ruleset-{spec.id}", RadioButton)
                note = " (the scenario's)" if spec.id == own else (
                    "" if spec.id in playable else " (no stats for it)")
                button.label = plain(spec.name + note)
                button.disabled = spec.id not in playable and spec.id != own
                button.value = spec.id == own
                if spec.id == own:
                    radio_set._pressed_button = button     # what the set reports as pressed
        self.ruleset_choice = own
        self.scenario_choice = scenario
        self._show_turns()

    def _turns_default(self) -> str | None:
        """How the chosen ruleset plays a round ("simultaneous" or "sequential"): as the
        scenario's options for it say, else as the player chose for the ruleset the last time,
        else as its file says; None for a ruleset without the choice."""
        spec = self.library.rulesets.get(self.ruleset_choice or "")
        if spec is None or "turns" not in spec.params:
            return None
        scenario = self.library.scenarios.get(self.scenario_choice or "") or self.path_scenario
        options = scenario.options.get(spec.id, {}) if scenario is not None else {}
        if "turns" in options:                           # the scenario's own way
            return str(options["turns"])
        return self.choices.turns.get(spec.id, str(spec.params["turns"]))   # or the last chosen

    def _show_turns(self) -> None:
        """The Turns choice, for a ruleset that has it, set to that ruleset's own way."""
        turns = self._turns_default()
        shown = turns is not None
        self.query_one("#turns-label").display = shown
        radio_set = self.query_one("#turns", RadioSet)
        radio_set.display = shown
        if not shown:
            return
        with radio_set.prevent(RadioButton.Changed):
            for way in ("simultaneous", "sequential"):
                button = self.query_one(f"#turns-{way}", RadioButton)
                button.value = way == turns
                if way == turns:
                    radio_set._pressed_button = button

    def _show_rows(self, sides: list[tuple[str, str]], key: str) -> None:
        if key == self.rows_for:
            return
        self.rows_for, self.sides = key, sides[:MAX_SIDES]
        for index in range(MAX_SIDES):
            self.query_one(f"#row-{index}").display = index < len(self.sides)
            if index < len(self.sides):
                self.query_one(f"#side-{index}", Static).update(self.sides[index][1][:22])
        self._apply_mode()

    def _set_kind(self, index: int, kind: str, name: str | None = None) -> None:
        self.kinds[index] = kind
        self.query_one(f"#kind-{index}", Button).label = KIND_LABELS[kind]
        self.query_one(f"#rolls-{index}", Button).display = kind == "computer"
        if name is not None:
            self.query_one(f"#name-{index}", Input).value = name

    def _apply_mode(self) -> None:
        """Solo: the first side is the player's, the computer has the rest. Hot-seat: people."""
        solo = bool(self.levels) and self.query_one("#solo", RadioButton).value
        for index in range(len(self.sides)):
            if not solo:
                self._set_kind(index, "human", f"Player {index + 1}")
            elif index == 0:
                self._set_kind(index, "human", "You")
            else:
                self._set_kind(index, "computer", "Computer")

    # --- starting -----------------------------------------------------------------------------

    def _say(self, text: str) -> None:
        self.query_one("#new-problem", Problem).update(text)


    def _load(self, source: str, ruleset: str | None = None,
              notices: list | None = None) -> BattleSetup | None:
        from game.content.loader import load_setup
        try:
            return load_setup(source, self.library, ruleset=ruleset, notices=notices)
        except ContentError as error:
            self._say(f"This scenario cannot be played:\n{error}")
        except OSError as error:
            self._say(f"Cannot read {source}: {error.strerror or error}")
        return None

    def _chosen(self, radio_set: str) -> str | None:
        pressed = self.query_one(f"#{radio_set}", RadioSet).pressed_button
        return pressed.id.split("-", 1)[1] if pressed is not None and pressed.id else None

    def _seats(self, setup: BattleSetup) -> dict[str, Seat] | None:
        ids = [side.id for side in setup.scenario.sides]
        if ids != [ident for ident, _ in self.sides]:
            self._show_rows([(s.id, s.name) for s in setup.scenario.sides], key=setup.scenario.id)
            self._say("The sides changed: check who plays each, then Start again.")
            return None
        level = self._chosen("level") if self.levels else None
        seats = {}
        for index, ident in enumerate(ids):
            human = self.kinds[index] != "computer" or level is None
            name = self.query_one(f"#name-{index}", Input).value.strip() or f"Player {index + 1}"
            problem = name_problem(name)
            if human and problem:
                self._say(f"The name of the player of {self.sides[index][1]}: {problem}.")
                return None
            rolls = "table" if self.kinds[index] == "table" else (
                self.npc_rolls[index] if not human else "app")
            seats[ident] = Seat(ident, human, name if human else f"Computer ({level})",
                                None if human else level, rolls)
        if not any(seat.human for seat in seats.values()):
            self._say("At least one side must be played by a person or at the table.")
            return None
        return seats

    def action_start(self, set_up: bool = False) -> None:
        """Start the battle; with `set_up`, place its units by hand first (screens/setup.py)."""
        path = self.query_one("#scenario-path", Input).value.strip()
        highlighted = self.query_one("#scenarios", OptionList).highlighted_option
        source = path or (highlighted.id if highlighted else None)
        if not source:
            self._say("Pick a scenario, or give the path of a scenario file.")
            return
        ruleset = self.ruleset_choice
        setup = self._load(source, ruleset if ruleset in self.library.rulesets else None)
        if setup is None:
            return
        seats = self._seats(setup)
        if seats is None:
            return
        setup = self._with_turns(setup)
        self._remember(None if path else source, setup)
        text = self.query_one("#seed", Input).value.strip()
        seed = int(text) if text.isdigit() else random.SystemRandom().randrange(1, 2**31)
        if set_up:
            from game.ui.screens.setup import SetupScreen
            self.app.push_screen(SetupScreen(self.library, setup, seed, seats))
            return
        self.app.run_worker(partial(self.app.begin_battle, setup, seed, seats), exclusive=True,
                            group="begin")

    def _remember(self, scenario: str | None, setup: BattleSetup) -> None:
        """Keep the form's choices for the next time it opens."""
        choices = self.choices
        if scenario is not None:
            choices.scenario = scenario
        choices.solo = bool(self.levels) and self.query_one("#solo", RadioButton).value
        if self.levels:
            choices.level = self._chosen("level")
        turns = self._chosen("turns")
        own = "turns" in setup.scenario.options.get(setup.ruleset.id, {})   # the scenario's way
        if self.query_one("#turns").display and turns in TURNS and not own:
            choices.turns[setup.ruleset.id] = turns

    def _with_turns(self, setup: BattleSetup) -> BattleSetup:
        """The setup with the Turns choice as the ruleset's option `turns` (rulesets that have
        it; the choice is shown only for them)."""
        if "turns" not in setup.ruleset.params or not self.query_one("#turns").display:
            return setup
        turns = self._chosen("turns")
        return with_turns(setup, turns) if turns in TURNS else setup

    def action_back(self) -> None:
        self.dismiss()
