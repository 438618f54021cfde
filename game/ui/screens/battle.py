"""The battle screen: the map, the side panel, the action bar and the combat log.

It holds a reference to the match and UI-only state (cursor, selection, the attack being
previewed). Everything it shows comes from the engine's queries and events; everything the
player does becomes a command (see `orders.Orders`); turns and handoffs are in `flow.TurnFlow`.
"""

from __future__ import annotations

from dataclasses import replace

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Footer, RichLog, Static

from game.core.narrate import tell
from game.core.queries import (UnitInfo, explored_squares, opportunity_attacks, preview_attack,
                               reach)
from game.ui import players
from game.ui.actions import action_items
from game.ui.board import TerrainLook
from game.ui.cards import action_line, target_card, turn_card, unit_card
from game.ui.match import Match
from game.ui.scene import board_scene, danger_squares, known_units, standing_tints
from game.ui.screens.base import GameScreen
from game.ui.screens.flow import TurnFlow
from game.ui.screens.orders import Orders
from game.ui.widgets.map_view import MapView

Square = tuple[int, int]
GAME_ACTIONS = {"act", "fire", "target", "mode", "aim", "location", "stance", "overwatch",
                "suppress", "throw", "reload", "draw", "revive", "defend", "declare", "reaction",
                "end_turn"}


class SidePanel(VerticalScroll, can_focus=False):
    """The selected unit (or the target), the initiative order and morale."""


class CombatLog(RichLog, can_focus=False):
    """Every roll and modifier in words; Page Up / Page Down scroll it."""


class BattleScreen(Orders, TurnFlow, GameScreen):
    AUTO_FOCUS = None              # every key goes to the screen's bindings
    BINDINGS = [
        Binding("up,k", "cursor(0,-1)", "Up", show=False),
        Binding("down,j", "cursor(0,1)", "Down", show=False),
        Binding("left,h", "cursor(-1,0)", "Left", show=False),
        Binding("right,l", "cursor(1,0)", "Right", show=False),
        Binding("enter", "act", "Act", show=False),
        Binding("tab", "target(1)", "Target"),
        Binding("shift+tab", "target(-1)", "Prev target", show=False),
        Binding("f", "fire", "Fire"),
        Binding("m", "mode", "Mode", show=False),
        Binding("plus,equals_sign", "aim(1)", "Aim+", show=False),
        Binding("minus", "aim(-1)", "Aim-", show=False),
        Binding("t", "location", "Location", show=False),
        Binding("escape", "cancel", "Cancel", show=False),
        Binding("s", "stance('stand')", "Stand", show=False),
        Binding("c", "stance('crouch')", "Crouch", show=False),
        Binding("p", "stance('prone')", "Prone", show=False),
        Binding("d", "stance('prone',True)", "Drop flat", show=False),
        Binding("o", "overwatch", "Overwatch", show=False),
        Binding("x", "suppress", "Suppress", show=False),
        Binding("g", "throw", "Throw", show=False),
        Binding("r", "reload", "Reload", show=False),
        Binding("w", "draw", "Draw", show=False),
        Binding("v", "revive", "Revive", show=False),
        Binding("u", "defend", "Defend", show=False),
        Binding("n", "declare", "Declare", show=False),
        Binding("y", "reaction", "When attacked", show=False),
        Binding("e", "end_turn", "End turn"),
        Binding("full_stop", "home", "Active unit", show=False),
        Binding("space", "skip", "Skip", show=False),
        Binding("pageup", "log_scroll(-1)", "Log up", show=False),
        Binding("pagedown", "log_scroll(1)", "Log down", show=False),
        Binding("ctrl+s", "save", "Save"),
        Binding("ctrl+o", "app.load", "Load", show=False),
        Binding("q", "leave", "Menu"),
    ]

    def __init__(self, match: Match) -> None:
        super().__init__()
        self.match = match
        session = match.battle.session
        self.look = TerrainLook.of(session.grid, session.setup)
        active = match.active_side
        self.viewer: str = active if match.is_human(active) else match.humans[0]
        self.cursor: Square = self._first_square(match) or (0, 0)
        self.selected: str | None = None
        self.target: str | None = None
        self.mode: str | None = None
        self.aim = 0
        self.location = "torso"
        self.busy = False
        self.turn_side: str | None = match.active_side
        self.known: dict[Square, UnitInfo] = {}
        self.reach_of = None
        self.standing: dict[Square, str] = {}
        self.danger: set[Square] = set()
        self.items: list | None = None
        self._shown: dict[str, object] = {}
        self.ready = False                 # keys wait until the screen is mounted
        # The widgets, kept from the start: a late callback never has to find them by query.
        self.map = MapView(self.look, id="map")
        self.parts = {name: Static(id=name, markup=False)
                      for name in ("status", "unit-card", "target-card", "turn-card", "actions")}
        self.log_view = CombatLog(id="log", wrap=True, max_lines=2000)
        self.init_flow()

    def _first_square(self, match: Match) -> Square | None:
        """Where the cursor starts: on the active unit if it is the viewer's, else on the
        viewer's first unit (never on a unit of the other side, which it may not see)."""
        session = match.battle.session
        if match.active_side == self.viewer:
            return match.position(match.active_uid)
        own = [uid for uid in session.order if match.side_of(uid) == self.viewer
               and match.is_up(uid)]
        return match.position(own[0]) if own else None

    def compose(self) -> ComposeResult:
        yield self.parts["status"]
        with Horizontal(id="battle-main"):
            yield self.map
            with SidePanel(id="side"):
                yield self.parts["unit-card"]
                yield self.parts["target-card"]
                yield self.parts["turn-card"]
        yield self.parts["actions"]
        yield self.log_view
        yield Footer()

    def on_mount(self) -> None:
        self.rebuild_log()
        self.ready = True
        self.refresh_state()
        self.call_after_refresh(self.begin)

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if not self.ready:
            return None
        if action in GAME_ACTIONS and (not self.my_turn() or self.too_small()):
            return None
        return True

    def too_small(self) -> bool:
        """The terminal is under 80x24: the board is covered, so orders wait."""
        return self.has_class("-narrow") or self.has_class("-short")

    # --- drawing ----------------------------------------------------------------------------

    def refresh_state(self) -> None:
        """Redraw after the battle changed (or another side took the seat).

        Never while a computer player reads the battle in its thread: the battle's esper world
        is shared by the process. The worker redraws as soon as the player has answered.
        """
        if not self.ready or not self.alive() or players.busy():
            return
        match = self.match
        self.turn_side = match.active_side
        known = known_units(match, self.viewer)
        self.known = {info.square: info for info in known if info.square is not None}
        if self.target is not None and not any(i.uid == self.target for i in known):
            self.target = None
        self.base = board_scene(match, self.viewer, known)
        self.reach_of = None
        squares = None
        if self.my_turn() and self.selected == match.active_uid:
            self.reach_of = reach(match.battle, self.selected)
            squares = self.reach_of.squares()
        self.standing = standing_tints(match, self.viewer, squares)
        self.danger = danger_squares(match, self.viewer)
        self.items = None
        if self.my_turn():
            self.items = action_items(match, match.active_uid, move_cost=None, mode=self.mode,
                                      aim=self.aim, has_target=bool(self.enemies()),
                                      revive_target=self.revive_target() is not None)
        self.redraw()
        self.update_panels()

    def hover_path(self) -> list[Square]:
        if self.reach_of is None or self.target is not None or self.cursor in self.known:
            return []
        return self.reach_of.path_to(self.cursor) or []

    def redraw(self) -> None:
        """Redraw what depends on the cursor: the path, the target, the panels."""
        if not self.ready or not self.alive():
            return
        tints = self.standing
        path = self.hover_path()
        target_square = self.target_square()
        if path or target_square:
            tints = dict(tints)
            for square in path:
                tints[square] = "danger" if square in self.danger else "path"
            if target_square:
                tints[target_square] = "target"
        self.map.show(self.base.with_overlay(tints, self.cursor))
        self.update_status(path)
        self.update_actions()
        self.show("target-card", self.target_text(), layout=True)
        self.parts["target-card"].display = self.target is not None
        self.parts["unit-card"].display = self.target is None

    def show(self, name: str, content, layout: bool = False) -> None:
        """Update a Static only when what it shows changed (updates cost a repaint)."""
        if self._shown.get(name) != content:
            self._shown[name] = content
            self.parts[name].update(content, layout=layout)

    def target_square(self) -> Square | None:
        for square, info in self.known.items():
            if info.uid == self.target:
                return square
        return None

    def update_status(self, path: list[Square]) -> None:
        match, session = self.match, self.match.battle.session
        x, y = self.cursor
        parts = [f"Round {session.round}"]
        active = match.active_uid
        if active is not None:
            who = match.name(active)
            computer = "" if match.is_human(self.turn_side) else " (computer)"
            parts.append(f"{who}'s turn{computer}")
        if self.busy:
            parts.append("Space: skip")
        where = f"({x},{y}) "
        if explored_squares(match.battle, self.viewer)[y, x]:
            where += f"{self.look.names[int(session.grid.terrain[y, x])]}"
            cover = session.grid.cover_at(x, y)
            if cover != "none":
                where += f", {cover} cover"
        else:
            where += "unexplored"
        unit = self.known.get(self.cursor)
        if unit is not None:
            where += f": {unit.name}"
        parts.append(where)
        if path and self.reach_of is not None:
            cost = self.reach_of.cost(self.cursor)
            text = f"path {cost} AP"
            if any(square in self.danger for square in path):
                text += " - ENTERS OVERWATCH"
            provoked = opportunity_attacks(match.battle, active, path) if active else []
            if provoked:
                names = ", ".join(match.name(enemy) for enemy, _ in provoked)
                text += f" - ATTACK OF OPPORTUNITY from {names}"
            parts.append(text)
        self.show("status", " · ".join(parts))

    def update_panels(self) -> None:
        match = self.match
        info = None
        for shown in (self.selected, match.active_uid):     # the selected unit gone: the active
            info = next((i for i in self.known.values() if i.uid == shown), None)
            if info is not None:
                break
        card = unit_card(match, info, own=info.side == self.viewer) if info else ""
        self.show("unit-card", card, layout=True)
        self.show("turn-card", turn_card(match, self.viewer), layout=True)

    def target_text(self):
        if self.target is None or not self.my_turn():
            return ""
        match = self.match
        active = match.active_uid
        preview = preview_attack(match.battle, active, self.target, self.mode, self.location,
                                 self.aim)
        if not preview:
            why = f"{match.name(self.target)}\n\n{preview.reason}\n\n"
            return Text(why + "[Tab] next  [Esc] back")
        session = match.battle.session
        distance = session.grid.distance(match.position(active), match.position(self.target))
        return target_card(match, preview, self.location, distance)

    def update_actions(self) -> None:
        """The action bar; only the move's cost follows the cursor."""
        match = self.match
        if not self.my_turn() or not self.items:
            side = self.turn_side
            self.show("actions", "" if side is None else f"{match.name(side)} is playing…")
            return
        cost = None
        if self.reach_of is not None and not self.hover_blocked():
            cost = self.reach_of.cost(self.cursor)
        move = self.items[0]
        items = [replace(move, cost=cost, enabled=cost is not None), *self.items[1:]]
        self.show("actions", action_line(items))

    def hover_blocked(self) -> bool:
        return self.cursor in self.known or self.target is not None

    def rebuild_log(self) -> None:
        log = self.log_view
        log.clear()
        events = self.match.seen_by(self.viewer)
        for line in tell(events, self.match.tell, self.match.name):
            log.write(line)
        if not events:
            session = self.match.battle.session
            log.write(f"{session.setup.scenario.name}, round {session.round}: the battle goes on.")

    def write_log(self, events) -> None:
        log = self.log_view
        seen = [event for event in events if self.viewer in event.seen_by]
        for line in tell(seen, self.match.tell, self.match.name):
            log.write(line)

    def say(self, text: str) -> None:
        self.log_view.write(text)

    def action_log_scroll(self, direction: int) -> None:
        log = self.log_view
        log.scroll_relative(y=direction * max(1, log.size.height - 1), animate=False)
