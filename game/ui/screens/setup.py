"""Setting up an encounter before the battle (the new-battle screen's "Set up the encounter"):
the game master puts each unit on any free square it can stand on, zones or not, adds units
from unit files (player characters written in the ruleset's own terms, their `rules:` blocks),
writes the encounter as a scenario file for next time, and starts the battle.

Keys: the arrows move the cursor, Enter picks up the unit under it and puts it down again, Tab
goes to the next unit, `a` adds a unit from a file, `w` writes the scenario file, Ctrl+S starts
the battle, Escape puts a held unit back (or goes back). A click on the map moves the cursor and
picks up or puts down. What is allowed is deployment's rule (game.content.deploy): the battle
is built from the scenario with every unit written out at its square, so the battle, its save
and the scenario file agree.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.geometry import Region
from textual.containers import Horizontal, ScrollableContainer, Vertical
from textual.widgets import Footer, Input, Static

from game.content.deploy import deploy, display_names, pinned, square_problem
from game.content.encounter import EncounterError, units_in_file, with_unit, write_scenario
from game.content.maps import parse_map
from game.content.schema import BattleSetup, UnitSpec
from game.rulesets import find_ruleset
from game.ui.glyphs import plain, side_color, side_letter
from game.ui.screens.base import GameScreen
from game.ui.screens.dialogs import Choice
from game.ui.widgets.problem import Problem

Square = tuple[int, int]
HELP = ("Arrows: cursor  Enter: pick up / put down  Tab: next unit  a: add a unit from a file  "
        "w: write the scenario file  Ctrl+S: start the battle  Esc: back")


class Board(Static):
    """The map as text, two columns a square; a click reports its square."""

    def on_click(self, event: events.Click) -> None:
        screen = self.screen
        if isinstance(screen, SetupScreen):
            screen.clicked((event.x // 2, event.y))


class SetupScreen(GameScreen[None]):
    AUTO_FOCUS = None
    BINDINGS = [
        Binding("up", "cursor(0,-1)", "Up", show=False),
        Binding("down", "cursor(0,1)", "Down", show=False),
        Binding("left", "cursor(-1,0)", "Left", show=False),
        Binding("right", "cursor(1,0)", "Right", show=False),
        Binding("enter", "pick", "Pick up / put down"),
        Binding("tab", "next_unit", "Next unit"),
        Binding("a", "ask('add')", "Add a unit"),
        Binding("w", "ask('write')", "Write scenario"),
        Binding("ctrl+s", "start", "Start the battle"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self, library: Any, setup: BattleSetup, seed: int, seats: dict[str, Any]) -> None:
        super().__init__()
        self.library, self.setup, self.seed, self.seats = library, setup, seed, seats
        terrain = {item.id: item for item in setup.terrain}
        self.parsed = parse_map(setup.map, terrain)
        self.glyphs = {item.id: item.glyph for item in setup.terrain}
        placed = deploy(setup)
        index_of = {side.id: n for n, side in enumerate(setup.scenario.sides)}
        self.sides = [index_of[d.side] for d in placed]
        self.units = [d.unit for d in placed]
        self.bases = [d.name for d in placed]
        self.squares: list[Square | None] = [(d.x, d.y) for d in placed]
        self.extra: list[tuple[int, str]] = []        # units added from files: (side, unit id)
        self.chosen = 0
        self.held: int | None = None                  # the unit picked up
        self.held_from: Square | None = None          # where it was (Escape puts it back)
        self.cursor: Square = self.squares[0] or (0, 0)
        self.asking: str | None = None                # "add" or "write": what the input is for

    def compose(self) -> ComposeResult:
        yield Static(plain(f"Set up the encounter: {self.setup.scenario.name} "
                           f"({self.setup.ruleset.name})"), classes="screen-title", markup=False)
        yield Problem("", id="setup-problem")
        with Horizontal(id="setup-body"):
            # not focusable: the arrows move the cursor, and the map scrolls to follow it
            with ScrollableContainer(id="setup-map", can_focus=False):
                yield Board("", id="setup-board", markup=False)
            with Vertical(id="setup-side"):
                yield Static("", id="setup-units", markup=False)
        yield Input(id="setup-path", disabled=True)        # enabled only while asking
        yield Static(HELP, id="setup-help", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#setup-path", Input).display = False
        self.redraw()

    # --- what is where ------------------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        return display_names(self.bases)

    def taken(self, leave: int | None = None) -> dict[Square, str]:
        names = self.names
        return {square: names[n] for n, square in enumerate(self.squares)
                if square is not None and n != leave}

    def at(self, square: Square) -> int | None:
        return next((n for n, sq in enumerate(self.squares) if sq == square and n != self.held), None)

    def say(self, text: str) -> None:
        self.query_one("#setup-problem", Problem).update(text)

    # --- drawing ------------------------------------------------------------------------------

    def redraw(self) -> None:
        board = Text(no_wrap=True)
        where = {sq: n for n, sq in enumerate(self.squares) if sq is not None and n != self.held}
        for y in range(self.parsed.height):
            for x in range(self.parsed.width):
                n = where.get((x, y))
                if (x, y) == self.cursor and self.held is not None:
                    n = self.held
                style = "reverse" if (x, y) == self.cursor else ""
                if n is None:
                    glyph = self.glyphs.get(self.parsed.terrain_at(x, y), "?")
                    board.append(f"{glyph} ", style=style or "dim")
                else:
                    mark = "bold " + side_color(self.sides[n]) + (" reverse" if style else "")
                    board.append(f"{side_letter(self.sides[n])}{self.names[n][:1]}", style=mark)
            board.append("\n")
        self.query_one("#setup-board", Board).update(board)
        self.query_one("#setup-units", Static).update(self.roster())

    def roster(self) -> Text:
        text = Text()
        names, scenario = self.names, self.setup.scenario
        under = self.at(self.cursor)
        text.append(f"Cursor at [{self.cursor[0]}, {self.cursor[1]}]"
                    + (f": {names[under]}" if under is not None else "") + "\n\n", style="bold")
        for index, side in enumerate(scenario.sides):
            text.append(f"{side_letter(index)} {side.name}\n", style=f"bold {side_color(index)}")
            for n, name in enumerate(names):
                if self.sides[n] != index:
                    continue
                mark = ">" if n == self.chosen else " "
                square = self.squares[n]
                where = ("held" if n == self.held else
                         f"[{square[0]}, {square[1]}]" if square else "not placed")
                text.append(f"{mark} {name}: {where}\n", style="bold" if n == self.chosen else "")
        return text

    # --- keys and mouse -----------------------------------------------------------------------

    def action_cursor(self, dx: int, dy: int) -> None:
        x = min(max(0, self.cursor[0] + dx), self.parsed.width - 1)
        y = min(max(0, self.cursor[1] + dy), self.parsed.height - 1)
        self.cursor = (x, y)
        self.redraw()
        self.query_one("#setup-map", ScrollableContainer).scroll_to_region(
            Region(x * 2, y, 2, 1), animate=False)

    def clicked(self, square: Square) -> None:
        if not self.parsed.inside(*square) or self.asking:
            return
        self.cursor = square
        self.action_pick()

    def action_pick(self) -> None:
        """Pick up the unit under the cursor, or put the held one down on it."""
        if self.held is None:
            n = self.at(self.cursor)
            if n is None:
                self.say("No unit on this square: Tab goes to the next unit.")
                self.redraw()
                return
            self.held, self.held_from, self.chosen = n, self.squares[n], n
            self.squares[n] = None
            self.say(f"Holding {self.names[n]}: move the cursor, Enter puts it down "
                     "(Escape puts it back).")
        else:
            n = self.held
            problem = square_problem(self.setup, self.names[n], self.cursor, self.taken(leave=n))
            if problem is not None:
                self.say(f"Not there: {problem}.")
                return
            self.squares[n], self.held, self.held_from = self.cursor, None, None
            self.say(f"{self.names[n]} is at [{self.cursor[0]}, {self.cursor[1]}].")
        self.redraw()

    def action_next_unit(self) -> None:
        if self.held is not None:
            self.say(f"Put {self.names[self.held]} down first (or Escape to put it back).")
            return
        placed = [n for n, square in enumerate(self.squares) if square is not None]
        if not placed:
            return
        self.chosen = next((n for n in placed if n > self.chosen), placed[0])
        square = self.squares[self.chosen]
        assert square is not None
        self.cursor = square
        self.say("")
        self.redraw()

    def action_back(self) -> None:
        if self.asking:
            self.close_input()
            return
        if self.held is not None:
            n = self.held
            self.squares[n], self.held = self.held_from, None
            if self.held_from is None:              # a unit just added: it goes again
                self.drop_added(n)
            self.say("")
            self.redraw()
            return
        self.dismiss(None)

    def drop_added(self, n: int) -> None:
        first_extra = len(self.units) - len(self.extra)
        del self.extra[n - first_extra]
        for listing in (self.sides, self.units, self.bases, self.squares):
            del listing[n]
        self.chosen = 0

    # --- the path input: adding a unit, writing the scenario ----------------------------------

    def action_ask(self, what: str) -> None:
        if self.held is not None:
            self.say(f"Put {self.names[self.held]} down first.")
            return
        self.asking = what
        field = self.query_one("#setup-path", Input)
        field.placeholder = ("a unit file's path (its units have `rules:` for these rules), Enter"
                             if what == "add" else "the scenario file to write, e.g. ambush.yaml, Enter")
        field.value = ""
        field.display, field.disabled = True, False
        field.focus()

    def close_input(self) -> None:
        self.asking = None
        field = self.query_one("#setup-path", Input)
        field.display, field.disabled = False, True
        self.set_focus(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if self.closing():
            return
        event.stop()
        what, path = self.asking, event.value.strip()
        if not path:
            self.say("Give a file's path (Escape: never mind).")
            return
        if what == "write":
            self.write(path)
        elif what == "add":
            self.add_from(path)

    def write(self, path: str) -> None:
        setup = self.pinned_setup()
        if setup is None:
            return
        try:
            loaded = write_scenario(setup, self.library, path)
        except EncounterError as error:
            self.say(f"Not written: {error}")
            return
        self.close_input()
        self.say(f"Written: {path} (scenario {loaded.scenario.id!r}); the New battle screen "
                 "loads it from its path.")

    def add_from(self, path: str) -> None:
        try:
            units, scope = units_in_file(path, self.library)
        except EncounterError as error:
            self.say(f"Cannot add: {error}")
            return
        self.close_input()
        if len(units) == 1:
            self.ask_side(scope, units[0])
            return
        choices = [(f"u-{n}", unit.name) for n, unit in enumerate(units[:8])]

        def chosen(answer: str | None) -> None:
            if answer and answer.startswith("u-"):
                self.ask_side(scope, units[int(answer[2:])])
        self.app.push_screen(Choice("Which unit?", f"{path} defines {len(units)} units.",
                                    [*choices, ("cancel", "Cancel")]), callback=chosen)

    def ask_side(self, scope: Any, unit: UnitSpec) -> None:
        try:
            find_ruleset(self.setup.ruleset).unit_body(unit)
        except ValueError as error:
            self.say(f"Cannot add {unit.name}: {error}.")
            return
        sides = self.setup.scenario.sides
        choices = [(f"s-{n}", side.name) for n, side in enumerate(sides)]
        self.app.push_screen(Choice(f"Add {unit.name} to which side?", "", [*choices, ("cancel", "Cancel")]),
                             callback=partial(self.add_to_side, scope, unit))

    def add_to_side(self, scope: Any, unit: UnitSpec, answer: str | None) -> None:
        if not answer or not answer.startswith("s-"):
            return
        side = int(answer[2:])
        try:
            self.setup = with_unit(self.setup, scope, unit)
        except EncounterError as error:
            self.say(f"Cannot add {unit.name}: {error}.")
            return
        self.extra.append((side, unit.id))
        self.sides.append(side)
        self.units.append(unit.id)
        self.bases.append(unit.name)
        self.squares.append(None)
        n = len(self.units) - 1
        self.held, self.held_from, self.chosen = n, None, n
        self.say(f"Holding {self.names[n]}: move the cursor, Enter puts it down.")
        self.redraw()

    # --- the battle ---------------------------------------------------------------------------

    def pinned_setup(self) -> BattleSetup | None:
        """The setup with every unit at its square; None (and why, said) while one is held."""
        if self.held is not None:
            self.say(f"Put {self.names[self.held]} down first.")
            return None
        squares = [square for square in self.squares if square is not None]
        return pinned(self.setup, squares, self.extra)

    def action_start(self) -> None:
        if self.asking:
            return
        setup = self.pinned_setup()
        if setup is None:
            return
        self.app.run_worker(partial(self.app.begin_battle, setup, self.seed, self.seats),
                            exclusive=True, group="begin")
