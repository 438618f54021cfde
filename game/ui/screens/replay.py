"""Watching a battle again: the board and the log, step by step, through one side's eyes.

The screen draws a `game.replay.Replay` with the battle screen's own widgets (the map, the unit
and turn cards, the log). Each step is one command of the saved log. A side's view shows that
side's fog of war and only the events it saw (`seen_by`); the all-seeing view, offered once the
battle is over, shows every unit and every event. An unfinished battle is shown only through
its person's side (`game.replay.open_views`). Nothing here decides a rule: the replay
rebuilds the battle through the engine, and what is drawn comes from the engine's queries.
"""

from __future__ import annotations


import numpy as np
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.timer import Timer
from textual.widgets import Footer, Static

from game.core.queries import UnitInfo, own_cones, units_known_to
from game.replay import Replay, log_lines, seen
from game.ui.board import Scene, TerrainLook
from game.ui.cards import turn_card
from game.ui.match import Match, Seat
from game.ui.picture import take_picture
from game.ui.scene import board_scene
from game.ui.screens.base import GameScreen
from game.ui.widgets.map_view import MapView
from game.ui.widgets.panels import CombatLog, SidePanel, TurnCard, UnitCard

Square = tuple[int, int]
SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0)      # steps a second
DEFAULT_SPEED = 2
LOG_EVENTS = 400                              # events told when the log is rebuilt


class ReplayScreen(GameScreen[None]):
    """Dismissed with None when the player leaves; closes its replay."""

    AUTO_FOCUS = None
    BINDINGS = [
        Binding("space", "play", "Play/pause"),
        Binding("right,n", "step(1)", "Step"),
        Binding("left,b", "step(-1)", "Back"),
        Binding("plus,equals_sign", "speed(1)", "Speed", key_display="+/-"),
        Binding("minus", "speed(-1)", "Slower", show=False),
        Binding("v", "view", "View"),
        Binding("home", "seek(0)", "Start", show=False),
        Binding("end", "seek(-1)", "End", show=False),
        Binding("pageup", "log_scroll(-1)", "Log up", show=False),
        Binding("pagedown", "log_scroll(1)", "Log down", show=False),
        Binding("escape,q", "leave", "Leave"),
    ]

    def __init__(self, replay: Replay, views: list[str | None] | None = None) -> None:
        """`views`: those the person may watch (`game.replay.open_views`), the first shown
        first; every one by default."""
        super().__init__()
        self.replay = replay
        self.views = views or replay.views()
        self.view = self.views[-1] if replay.over and None in self.views else self.views[0]
        self.speed = DEFAULT_SPEED
        self.playing = False
        self._timer: Timer | None = None
        self.match = self._new_match()
        self.look = TerrainLook.of(replay.battle.session.grid, replay.setup)
        self.status_line = Static(id="status", markup=False)
        self.map = MapView(self.look, id="map")
        self.unit_card = UnitCard(self.match, id="unit-card")
        self.turn_card = TurnCard(id="turn-card", markup=False)
        self.log_view = CombatLog(self.match, id="log")
        self.known: dict[Square, UnitInfo] = {}     # the units drawn, by square

    def compose(self) -> ComposeResult:
        yield self.status_line
        with Horizontal(id="battle-main"):
            yield self.map
            with SidePanel(id="side"):
                yield self.unit_card
                yield self.turn_card
        yield self.log_view
        yield Footer()

    def on_mount(self) -> None:
        super().on_mount()
        self.show(rebuild_log=True)

    def on_unmount(self) -> None:
        self._stop()
        self.replay.close()

    # --- the battle the screen shows ------------------------------------------------------------

    def _new_match(self) -> Match:
        """A match around the replay's battle as it is now, its events so far recorded (the
        suppression circles drawn come from them)."""
        replay = self.replay
        seats = {side: Seat(side, True, replay.name(side)) for side in replay.sides}
        match = Match(replay.battle, seats)
        for step in replay.steps[1: replay.position + 1]:
            match.record(list(step.events))
        self._recorded = replay.position
        return match

    def _catch_up(self) -> None:
        """The match follows the replay: a new one after going back, else the new steps."""
        replay = self.replay
        if self.match.battle is not replay.battle or self._recorded > replay.position:
            self.match = self._new_match()
            self.unit_card.match = self.match
            self.log_view.match = self.match
            return
        for step in replay.steps[self._recorded + 1: replay.position + 1]:
            self.match.record(list(step.events))
        self._recorded = replay.position

    def show(self, *, rebuild_log: bool = False, told: int | None = None) -> None:
        """Draw the battle after the current step; tell the log the steps after `told` (or
        the whole log again)."""
        if self.replay.battle.session.closed:
            return
        self._catch_up()
        match, view = self.match, self.view
        if view is None:
            scene, known = everything(match)
        else:
            picture = take_picture(match, view, None, False)
            scene, known = picture.scene.with_overlay(picture.standing, None), picture.known
        self.known = known
        self.map.show(scene)
        acting = self._acting()
        if acting is not None:
            self.map.keep_in_view(acting[0])
        self._show_card()
        self.turn_card.card = turn_card(match, view or match.sides[0])
        if rebuild_log or told is None:
            self._rebuild_log()
        else:
            events = [e for step in self.replay.steps[told + 1: self.replay.position + 1]
                      for e in step.events]
            self.log_view.tell(log_lines(seen(events, view), self.replay.name, self.replay.measure))
        self.status_line.update(self.status())

    def _acting(self) -> tuple[Square, UnitInfo] | None:
        """The unit of the step's command, or else the unit whose turn it is, where the view
        sees it."""
        command = self.replay.step.command
        for uid in (command.unit if command is not None else None, self.match.active_uid):
            for square, info in self.known.items():
                if uid is not None and info.uid == uid:
                    return square, info
        return None

    def _show_card(self) -> None:
        """The card of the unit whose turn the status line names (the step's unit once the
        battle is over), or why there is none: the view does not see it."""
        session, view = self.match.battle.session, self.view
        command = self.replay.step.command
        uid = command.unit if session.over and command is not None else session.active
        info = next((info for info in self.known.values() if info.uid == uid), None)
        if info is not None:
            self.unit_card.unit = (info, view is None or info.side == view)
            return
        self.unit_card.unit = None
        if uid is not None:
            self.unit_card.update(f"{self.match.name(uid)}'s turn:\nout of "
                                  f"{self.view_name(view)}'s sight.", layout=True)

    def _rebuild_log(self) -> None:
        self.log_view.clear()
        events = seen(self.replay.events_until(), self.view)[-LOG_EVENTS:]
        self.log_view.tell(log_lines(events, self.replay.name, self.replay.measure))

    def status(self) -> Text:
        """Step N of M, the round, the view, the speed, then whose turn (cut first when narrow)."""
        replay, session = self.replay, self.match.battle.session
        parts = [f"Step {replay.position} of {replay.total}", f"round {session.round}",
                 f"view: {self.view_name(self.view)}",
                 f"{speed_words(SPEEDS[self.speed])}, {'playing' if self.playing else 'paused'}"]
        if session.over:
            parts.append(f"the end: {self._outcome()}")
        elif session.active is not None:
            parts.append(f"{self.match.name(session.active)}'s turn")
        return Text(" · ".join(parts))

    def _outcome(self) -> str:
        winner = self.match.battle.session.winner
        return "a draw" if winner is None else f"{self.replay.name(winner)} wins"

    def view_name(self, view: str | None) -> str:
        return "everything" if view is None else self.replay.name(view)

    # --- keys -----------------------------------------------------------------------------------

    def action_play(self) -> None:
        if self.playing:
            self._stop()
        else:
            if self.replay.at_end:
                self._go(0)                  # from the start again
            self._start()
        self.status_line.update(self.status())

    def action_step(self, direction: int) -> None:
        self._stop()
        if direction > 0:
            told = self.replay.position
            if self.replay.forward() is None:
                self.notify("The end of the battle's log.", timeout=2)
            self.show(told=told)
        else:
            if self.replay.position == 0:
                self.notify("The start of the battle.", timeout=2)
                return
            self._go(self.replay.position - 1)

    def action_seek(self, number: int) -> None:
        self._stop()
        self._go(self.replay.total if number < 0 else number)

    def action_speed(self, step: int) -> None:
        self.speed = max(0, min(len(SPEEDS) - 1, self.speed + step))
        if self.playing:
            self._stop()
            self._start()
        self.status_line.update(self.status())

    def action_view(self) -> None:
        if len(self.views) == 1:
            self.notify(f"Only {self.view_name(self.view)}'s view: the battle is not over.",
                        timeout=3)
            return
        index = (self.views.index(self.view) + 1) % len(self.views)
        self.view = self.views[index]
        self.show(rebuild_log=True)

    def action_log_scroll(self, direction: int) -> None:
        self.log_view.page(direction)

    def action_leave(self) -> None:
        self._stop()
        self.dismiss(None)

    # --- playing --------------------------------------------------------------------------------

    def _go(self, number: int) -> None:
        self.replay.seek(number)
        self.show(rebuild_log=True)

    def _start(self) -> None:
        self.playing = True
        self._timer = self.set_interval(1 / SPEEDS[self.speed], self._tick)

    def _stop(self) -> None:
        self.playing = False
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _tick(self) -> None:
        if self.closing() or self.replay.battle.session.closed:
            self._stop()
            return
        told = self.replay.position
        if self.replay.forward() is None:
            self._stop()
        self.show(told=told)


def speed_words(speed: float) -> str:
    return f"{speed:g} step{'' if speed == 1 else 's'}/s"


def everything(match: Match) -> tuple[Scene, dict[Square, UnitInfo]]:
    """The whole board, every unit on it, every overwatch cone and suppressed area."""
    battle = match.battle
    known = {info.square: info for side in match.sides for info in units_known_to(battle, side)
             if info.side == side and info.square is not None}
    scene = board_scene(match, match.sides[0], list(known.values()))
    tints: dict[Square, str] = {}
    for side in match.sides:
        for squares in own_cones(battle, side).values():
            tints.update((square, "cone") for square in squares)
    for at, diameter, _ in match.suppressions.values():
        tints.update((square, "suppressed") for square in battle.session.grid.disc(at, diameter))
    full = np.ones_like(scene.visible)
    return Scene(scene.terrain, full, full, scene.units, tints), known
