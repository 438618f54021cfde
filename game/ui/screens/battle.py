"""The battle screen: the map, the side panel, the action bar and the combat log.

One screen of small widgets (`widgets.map_view`, `widgets.panels`), each drawing what the screen
hands it. The screen's own state is UI state only, as reactive attributes: the cursor, the
selected unit, the target and the attack being previewed (fire mode, aim, hit location), the
side whose player looks, whether a computer is playing. Each `watch_` method redraws what its
change needs. What the battle looks like to that side comes from the engine's queries as a
`Picture`, taken again after every change of the battle (`refresh_state`).

Every order becomes a command (`orders.Orders`); turns, computer players and the hot-seat
handoff are `flow.TurnFlow`'s.
"""

from __future__ import annotations

from dataclasses import replace

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.reactive import var
from textual.widgets import Footer, Static

from game.core.commands import ChangeStance, EndTurn, Lean, Reload, SetOverwatch
from game.core.events import Announced, Refused
from game.core.queries import explored_squares, lean_option
from game.ui.actions import ActionItem, action_items
from game.ui.area import AreaAim, area_card, area_odds, area_tints
from game.ui.board import TerrainLook
from game.ui.cards import turn_card
from game.ui.objectives import objectives_card
from game.ui.match import Match
from game.ui.picture import (Picture, enemies, first_square, odds_of, revive_target, status_of,
                             take_picture)
from game.ui.screens.base import GameScreen
from game.ui.screens.flow import TurnFlow
from game.ui.screens.log import FullLog
from game.ui.screens.orders import Orders
from game.ui.widgets.map_view import MapView
from game.ui.widgets.panels import (ActionBar, AreaCard, CombatLog, ObjectivesCard, SidePanel,
                                    StatusLine, TargetCard, TurnCard, UnitCard)

Square = tuple[int, int]
LOG_ROWS = 5            # the log's height (with its top border) when nothing gives it more
LOG_STEP = 5            # `]` and `[` grow and shrink it by this much
MAP_ROWS_LEFT = 5       # the map keeps at least this many rows however tall the log grows
MAIN_ROWS = 16          # the map and side panel keep this many rows before the log takes more
FIXED_ROWS = 5          # the status line, the action bar and the footer
GAME_ACTIONS = {"act", "fire", "target", "mode", "aim", "location", "stance", "overwatch",
                "suppress", "throw", "reload", "draw", "revive", "defend", "declare", "reaction", "lean",
                "extra", "end_turn", "undo"}


class BattleScreen(GameScreen):
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
        Binding("i", "lean", "Lean", show=False),
        Binding("w", "draw", "Draw", show=False),
        Binding("v", "revive", "Revive", show=False),
        Binding("u", "defend", "Defend", show=False),
        Binding("n", "declare", "Declare", show=False),
        Binding("y", "reaction", "When attacked", show=False),
        Binding("a", "extra('a')", "Aim (rounds)", show=False),
        Binding("b", "extra('b')", "Character Point", show=False),
        Binding("e", "end_turn", "End turn"),
        Binding("z", "undo", "Undo", show=False),
        Binding("full_stop", "home", "Active unit", show=False),
        Binding("space", "skip", "Skip", show=False),
        Binding("pageup", "log_scroll(-1)", "Log up", show=False),
        Binding("pagedown", "log_scroll(1)", "Log down", show=False),
        Binding("end", "log_end", "Log: follow", show=False),
        Binding("right_square_bracket", "log_size(1)", "Log taller", show=False),
        Binding("left_square_bracket", "log_size(-1)", "Log shorter", show=False),
        Binding("L,shift+l", "full_log", "Log"),
        Binding("G,shift+g", "gm_view", "GM", show=False),
        Binding("ctrl+s", "save", "Save"),
        Binding("ctrl+o", "app.load", "Load", show=False),
        Binding("q", "leave", "Menu"),
    ]

    cursor: var[Square] = var((0, 0))
    selected: var[str | None] = var(None)       # the own unit whose card is shown
    target: var[str | None] = var(None)         # the enemy whose odds are shown
    mode: var[str | None] = var(None)           # fire mode, aim and hit location of the attack
    aim: var[int] = var(0)
    location: var[str] = var("torso")
    viewer: var[str] = var("", always_update=True)     # the side whose player looks
    busy: var[bool] = var(False, bindings=True)     # a computer side is playing
    picture: var[Picture | None] = var(None)    # the battle as the viewer knows it
    area: var[AreaAim | None] = var(None)       # a grenade or suppressive fire being aimed

    def __init__(self, match: Match) -> None:
        super().__init__()
        self.match = match
        session = match.battle.session
        self.look = TerrainLook.of(session.grid, session.setup)
        active = match.active_side
        self.set_reactive(BattleScreen.viewer,
                          active if match.is_human(active) else match.humans[0])
        self.set_reactive(BattleScreen.cursor, first_square(match, self.viewer) or (0, 0))
        self.items: list[ActionItem] = []          # the action bar, but for the move's cost
        self.ready = False                         # keys wait until the screen is mounted
        self.flow = TurnFlow(self)
        self.orders = Orders(self)
        # The widgets, kept from the start: a late callback never has to find them by query.
        self.map = MapView(self.look, id="map")
        self.status_line = StatusLine(id="status", markup=False)
        self.unit_card = UnitCard(match, id="unit-card")
        self.target_card = TargetCard(match, id="target-card")
        self.area_card = AreaCard(id="area-card", markup=False)
        self.turn_card = TurnCard(id="turn-card", markup=False)
        self.objectives_card = ObjectivesCard(id="objectives-card", markup=False)
        self.action_bar = ActionBar(id="actions", markup=False)
        self.log_view = CombatLog(match, id="log")
        self.ending = Static(id="ending", markup=False)    # the closing line, once it is over
        self.log_growth = 0                        # rows `]` added to the log (`[` takes off)

    def compose(self) -> ComposeResult:
        yield self.status_line
        with Horizontal(id="battle-main"):
            yield self.map
            with SidePanel(id="side"):
                yield self.unit_card.data_bind(BattleScreen.target)
                yield self.target_card.data_bind(BattleScreen.target)
                yield self.area_card
                yield self.turn_card
                yield self.objectives_card
        yield self.action_bar
        yield self.ending
        yield self.log_view
        yield Footer()

    def on_mount(self) -> None:
        self.fit_log()
        self.rebuild_log()
        self.ready = True
        self.refresh_state()
        self.call_after_refresh(self.flow.begin)

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if not self.ready:
            return None
        if action == "act" and self.flow.ended:       # Enter: the result, once it is over
            return True
        if action == "gm_view" and not self.my_turn():    # never while a computer plays
            return None
        if action in GAME_ACTIONS and (not self.my_turn() or self.too_small()):
            return None
        return True

    def too_small(self) -> bool:
        """The terminal is under 80x24: the board is covered, so orders wait."""
        return self.has_class("-narrow") or self.has_class("-short")

    def alive(self) -> bool:
        """Still on the screen stack, its widgets composed (`ready`) and not being removed, with
        an open battle (callbacks may outlive all of these; a burst of keys makes it likely)."""
        return (self in self.app.screen_stack and self.ready and self.is_attached
                and not (self._closing or self._pruning)
                and not self.match.battle.session.closed)

    def my_turn(self) -> bool:
        match = self.match
        return (self.flow.started and not self.busy and self.alive() and not match.over
                and self.flow.cover is None
                and match.active_side == self.viewer and match.is_human(self.viewer))

    # --- the battle changed -----------------------------------------------------------------

    def refresh_state(self) -> None:
        """Ask the engine again after the battle changed (or another side took the seat).

        Safe while a computer player thinks in its thread: it only reads the battle (its what-ifs
        are copies, game.core.queries.standing_at), and so do the queries asked here.
        """
        if not self.ready or not self.alive():
            return
        picture = take_picture(self.match, self.viewer, self.selected, self.my_turn())
        if self.target is not None and picture.info(self.target) is None:
            self.target = None
        self.picture = picture

    def watch_picture(self, picture: Picture | None) -> None:
        if picture is None:
            return
        self.items = self._action_items(picture)
        self.redraw()
        info = picture.info(self.selected) or picture.info(self.match.active_uid)
        self.unit_card.unit = (info, info.side == self.viewer) if info else None
        self.turn_card.card = turn_card(self.match, self.viewer)
        self.objectives_card.card = objectives_card(self.match)

    def _action_items(self, picture: Picture) -> list[ActionItem]:
        if not self.my_turn():
            return []
        match = self.match
        return action_items(match, match.active_uid, move_cost=None, mode=self.mode,
                            aim=self.aim, has_target=bool(enemies(match, picture)),
                            revive_target=revive_target(match, picture, self.cursor) is not None)

    # --- UI state changed -------------------------------------------------------------------

    def watch_cursor(self, square: Square) -> None:
        if not self.ready:
            return
        if self.target is not None and self.target_square() != square:
            self.target = None
        self.map.keep_in_view(square)
        self.redraw()

    def watch_target(self) -> None:
        self.redraw()

    def watch_area(self) -> None:
        self.redraw()

    def watch_selected(self) -> None:
        self.refresh_state()

    def _attack_changed(self) -> None:
        """The attack's mode, aim or hit location: its odds and the action bar's prices."""
        if self.picture is not None and self.ready:
            self.items = self._action_items(self.picture)
            self.redraw()

    watch_mode = watch_aim = watch_location = _attack_changed

    def watch_viewer(self) -> None:
        if self.ready:
            self.rebuild_log()

    # --- drawing ----------------------------------------------------------------------------

    def redraw(self) -> None:
        """Redraw what depends on the cursor and the target: the map's overlays, the status
        line, the action bar and the target's odds."""
        picture = self.picture
        if not self.ready or not self.alive() or picture is None:
            return
        path = self.hover_path()
        scene = picture.scene_with(path, self.target_square(), self.cursor)
        card = None
        if self.area is not None and self.my_turn():
            odds = area_odds(self.match, self.area, self.cursor)
            explored = explored_squares(self.match.battle, picture.viewer)
            scene = scene.with_overlay({**scene.tints, **area_tints(odds, explored)}, self.cursor)
            card = area_card(self.match, self.area, odds, len(self.orders.grenades()))
        self.area_card.card = card
        self.unit_card.display = self.target is None and card is None
        self.map.show(scene)
        self.status_line.status = status_of(self.match, picture, self.look, self.cursor, path,
                                             self.busy)
        self.action_bar.playing = self.match.name(picture.turn_side) if picture.turn_side else ""
        self.action_bar.items = tuple(self._priced_items(picture))
        self.target_card.odds = (odds_of(self.match, self.target, self.mode, self.location,
                                         self.aim)
                                 if self.target is not None and self.my_turn() else None)

    def _priced_items(self, picture: Picture) -> list[ActionItem]:
        """The action bar; only the move's cost follows the cursor."""
        if not self.my_turn() or not self.items:
            return []
        cost = None
        if picture.reach is not None and not self.hover_blocked():
            cost = picture.reach.cost(self.cursor)
        move = self.items[0]
        return [replace(move, cost=cost, enabled=cost is not None), *self.items[1:]]

    def hover_path(self) -> list[Square]:
        picture = self.picture
        if picture is None or picture.reach is None or self.hover_blocked():
            return []
        return picture.reach.path_to(self.cursor) or []

    def hover_blocked(self) -> bool:
        return self.target is not None or self.area is not None or (self.picture is not None
                                           and self.cursor in self.picture.known)

    def target_square(self) -> Square | None:
        return self.picture.square_of(self.target) if self.picture else None

    def rebuild_log(self) -> None:
        """The log from the viewer's events only (a new player took the seat)."""
        self.log_view.rebuild(self.viewer)

    def write_log(self, events) -> None:
        self.log_view.tell_events(events, self.viewer)
        for event in events:                  # the scenario's messages also show as a notice
            if isinstance(event, Announced) and self.viewer in event.seen_by:
                self.notify(event.message, title="Message", timeout=8)

    def say(self, text: str) -> None:
        self.log_view.tell([text])

    def action_log_scroll(self, direction: int) -> None:
        self.log_view.page(direction)

    def action_log_end(self) -> None:
        self.log_view.follow()

    def action_log_size(self, step: int) -> None:
        self.log_growth += step * LOG_STEP
        self.fit_log()

    def action_full_log(self) -> None:
        self.app.push_screen(FullLog(self.match, self.viewer, lambda: self.viewer))

    def action_gm_view(self) -> None:
        """G: the game master's view, and the calls the rules leave to the game master."""
        from game.ui.screens.gm import GmPanel

        def after(_: None) -> None:
            if self.alive():
                self.flow.next_turn()          # a call may have ended a turn or the battle
        self.app.push_screen(GmPanel(self.match, self.gm_call), callback=after)

    def gm_call(self, command):
        """Submit one of the game master's calls; its events go to the log as any order's."""
        result = self.match.submit(command)
        if not isinstance(result, Refused):
            self.flow.took_effect(result)
        return result

    def on_resize(self) -> None:
        self.fit_log()

    def fit_log(self) -> None:
        """The log's height: the rows the map would leave empty (a small map), plus what `]`
        added, minus what `[` took off; the map keeps a few rows whatever happens."""
        height = self.size.height or self.app.size.height
        room = height - FIXED_ROWS                # the map and the log share this
        grid = self.match.battle.session.grid
        map_width = (self.size.width or self.app.size.width) - 32 - 1
        map_rows = grid.height + (1 if grid.width * 2 > map_width else 0)
        natural = max(LOG_ROWS, room - max(map_rows, MAIN_ROWS))
        most = max(LOG_ROWS, room - MAP_ROWS_LEFT)
        rows = max(LOG_ROWS, min(most, natural + self.log_growth))
        self.log_growth = rows - natural          # pressing past either end changes nothing
        self.log_view.styles.height = rows

    def show_ending(self, text: str) -> None:
        """The battle is over: say so in place of the action bar, and in the log."""
        self.ending.update(text)
        self.action_bar.display = False
        self.ending.display = True
        self.say(text)

    # --- the cursor and the attack being previewed ------------------------------------------

    def move_cursor_to(self, square: Square) -> None:
        if not self.ready or not self.alive():
            return
        grid = self.match.battle.session.grid
        square = (max(0, min(grid.width - 1, square[0])), max(0, min(grid.height - 1, square[1])))
        if square == self.cursor:
            self.map.keep_in_view(square)      # it may have started out of view
        self.cursor = square

    def action_cursor(self, dx: int, dy: int) -> None:
        self.move_cursor_to((self.cursor[0] + dx, self.cursor[1] + dy))

    def action_home(self) -> None:
        if not self.alive() or self.busy:
            return
        square = self.match.position(self.selected or self.match.active_uid)
        if square is not None:
            self.move_cursor_to(square)

    def on_map_view_hovered(self, message: MapView.Hovered) -> None:
        self.move_cursor_to(message.square)

    def on_map_view_clicked(self, message: MapView.Clicked) -> None:
        self.move_cursor_to(message.square)
        if message.button == 1 and self.my_turn():
            self.action_act()

    def action_act(self) -> None:
        """Enter: target the enemy under the cursor, select an own unit, or walk there; once
        the battle is over, the result."""
        if self.flow.ended:
            self.flow.show_result()
            return
        self.orders.act()

    def select_active(self) -> None:
        """Select the active unit (a new turn: ask the battle again even if it was)."""
        if self.selected == self.match.active_uid:
            self.refresh_state()
        self.selected = self.match.active_uid

    def aim_at(self, uid: str) -> None:
        self.area = None
        self.target = uid
        self.selected = self.match.active_uid
        square = self.target_square()
        if square is not None:
            self.move_cursor_to(square)

    def action_target(self, step: int) -> None:
        uids = [i.uid for i in enemies(self.match, self.picture)] if self.picture else []
        if not uids:
            self.notify("No enemy in sight.", timeout=2)
            return
        index = (uids.index(self.target) + step) if self.target in uids else 0
        self.aim_at(uids[index % len(uids)])

    def action_cancel(self) -> None:
        """Escape: stop aiming (the cursor stays where it is), or select the active unit."""
        if self.area is not None:
            self.area = None
        elif self.target is not None:
            self.target = None
        elif self.selected != self.match.active_uid:
            self.select_active()

    def action_mode(self) -> None:
        if self.area is not None:
            self.orders.next_grenade()
            return
        weapon = self.orders.held_weapon()
        names = [m.name for m in weapon.modes] if weapon else ["unarmed"]
        current = names.index(self.mode) if self.mode in names else 0
        self.mode = names[(current + 1) % len(names)]

    def action_aim(self, step: int) -> None:
        weapon = self.orders.held_weapon()
        self.aim = max(0, min(weapon.aim_max if weapon else 0, self.aim + step))

    def action_location(self) -> None:
        locations = list(self.match.battle.session.rules.p.hit_locations) or ["torso"]
        current = locations.index(self.location) if self.location in locations else 0
        self.location = locations[(current + 1) % len(locations)]

    def forget_attack(self) -> None:
        """A new unit's turn: no target, fire mode, aim or hit location of the last one."""
        self.target, self.mode, self.aim, self.location = None, None, 0, "torso"
        self.area = None

    # --- orders -----------------------------------------------------------------------------

    def action_fire(self) -> None:
        self.orders.fire()

    def action_stance(self, stance: str, drop: bool = False) -> None:
        self.orders.play(ChangeStance(self.match.active_uid, stance, drop))

    def action_overwatch(self) -> None:
        if self.cursor == self.match.position(self.match.active_uid):
            self.notify("Put the cursor where the unit should watch, then press o.", timeout=3)
            return
        self.orders.play(SetOverwatch(self.match.active_uid, self.cursor))

    def action_suppress(self) -> None:
        self.orders.suppress()

    def action_throw(self) -> None:
        self.orders.throw()

    def action_reload(self) -> None:
        self.orders.play(Reload(self.match.active_uid))

    def action_lean(self) -> None:
        lean = lean_option(self.match.battle, self.match.active_uid)
        if lean is None:
            self.orders.play(Lean(self.match.active_uid))      # refused with the rules' reason
        else:
            self.orders.play(Lean(self.match.active_uid, out=lean[0]))

    def action_draw(self) -> None:
        self.orders.draw()

    def action_revive(self) -> None:
        self.orders.revive()

    def action_defend(self) -> None:
        self.orders.defend()

    def action_declare(self) -> None:
        self.orders.declare()

    def action_reaction(self) -> None:
        self.orders.reaction()

    def action_extra(self, key: str) -> None:
        self.orders.extra(key)

    def action_end_turn(self) -> None:
        self.orders.play(EndTurn(self.match.active_uid))

    def action_undo(self) -> None:
        """Take back the last move or change of stance; the engine decides if it may be, and
        the log says why not. Only a person's own orders, on their turn (the palette too)."""
        if not self.my_turn():
            return
        result = self.match.undo()
        if isinstance(result, Refused):
            self.say(result.reason)
            self.notify(result.reason, title="Not possible", severity="warning", timeout=4,
                        markup=False)
            return
        what = "move" if any(e.kind == "moved" for e in result) else "change of stance"
        self.say(f"Undone: {self.match.name(self.match.active_uid)}'s {what}.")
        self.refresh_state()
        self.action_home()

    def action_skip(self) -> None:
        self.flow.skip()

    def action_save(self) -> None:
        if self.busy:
            self.notify("Wait until the computer has played.", timeout=3)
            return
        self.app.save_match()

    def action_leave(self) -> None:
        self.app.leave_battle()
