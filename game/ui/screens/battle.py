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

from game.core.commands import Attack, ChangeStance, Command, EndTurn, Lean, Reload, SetOverwatch
from game.core.events import Announced, Refused
from game.core.queries import explored_squares, lean_option, preview_attack
from game.ui.actions import ActionItem, action_items
from game.ui.area import AreaAim, area_card, area_odds, area_tints
from game.ui.board import TerrainLook
from game.ui.cards import turn_card
from game.ui.objectives import objectives_card
from game.ui.match import Match
from game.ui.planning import FALLBACK_WORDS, Plan, order_words, queue_card
from game.ui.picture import (Picture, enemies, first_square, odds_of, revive_target, status_of,
                             take_picture)
from game.ui.screens.base import GameScreen
from game.ui.screens.dialogs import Choice
from game.ui.screens.flow import TurnFlow
from game.ui.screens.log import FullLog
from game.ui.screens.orders import Orders
from game.ui.widgets.map_view import MapView
from game.ui.widgets.panels import (ActionBar, AreaCard, CombatLog, ObjectivesCard, QueueCard,
                                    SidePanel, StatusLine, TargetCard, TurnCard, UnitCard)

Square = tuple[int, int]
LOG_ROWS = 5            # the log's height (with its top border) when nothing gives it more
LOG_STEP = 5            # `]` and `[` grow and shrink it by this much
MAP_ROWS_LEFT = 5       # the map keeps at least this many rows however tall the log grows
MAIN_ROWS = 16          # the map and side panel keep this many rows before the log takes more
FIXED_ROWS = 5          # the status line, the action bar and the footer
GAME_ACTIONS = {"act", "fire", "target", "mode", "aim", "location", "stance", "overwatch",
                "suppress", "throw", "reload", "draw", "revive", "defend", "declare", "reaction", "lean",
                "extra", "end_turn", "undo"}
PLANNING_ACTIONS = {"next_unit", "give_orders", "drop_order", "fallback", "sequence"}
PLAYBACK_ACTIONS = {"playback_pause", "playback_skip", "pace"}
NOT_WHILE_PLANNING = {"end_turn", "target", "defend", "declare", "reaction", "extra"}


class BattleScreen(GameScreen):
    AUTO_FOCUS = None              # every key goes to the screen's bindings
    BINDINGS = [
        Binding("up,k", "cursor(0,-1)", "Up", show=False),
        Binding("down,j", "cursor(0,1)", "Down", show=False),
        Binding("left,h", "cursor(-1,0)", "Left", show=False),
        Binding("right,l", "cursor(1,0)", "Right", show=False),
        Binding("enter", "playback_skip", "Skip the round"),
        Binding("enter", "act", "Act", show=False),
        Binding("tab", "next_unit(1)", "Next unit"),
        Binding("shift+tab", "next_unit(-1)", "Prev unit", show=False),
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
        Binding("O,shift+o", "overwatch(True)", "Overwatch near", show=False),
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
        Binding("R,shift+r", "extra('R')", "Unjam", show=False),
        Binding("T,shift+t", "extra('T')", "Pick up", show=False),
        Binding("U,shift+u", "extra('U')", "Use item", show=False),
        Binding("J,shift+j", "extra('J')", "Jump", show=False),
        Binding("e", "give_orders", "Give orders"),
        Binding("backspace", "drop_order", "Remove order", show=False),
        Binding("F,shift+f", "fallback", "Fallback", show=False),
        Binding("e", "end_turn", "End turn"),
        Binding("z", "undo", "Undo", show=False),
        Binding("full_stop", "home", "Active unit", show=False),
        Binding("space", "playback_pause", "Pause"),
        Binding("greater_than_sign", "pace(-1)", "Faster"),
        Binding("less_than_sign", "pace(1)", "Slower"),
        Binding("less_than_sign", "sequence(-1)", "Acts earlier", show=False),
        Binding("greater_than_sign", "sequence(1)", "Acts later", show=False),
        Binding("space", "skip", "Skip", show=False),
        Binding("pageup", "log_scroll(-1)", "Log up", show=False),
        Binding("pagedown", "log_scroll(1)", "Log down", show=False),
        Binding("end", "log_end", "Log: follow", show=False),
        Binding("shift+up,ctrl+up", "side_scroll(-1)", "Cards up", show=False),
        Binding("shift+down,ctrl+down", "side_scroll(1)", "Cards down", show=False),
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
        active = match.acting_side
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
        self.plan: Plan | None = None              # the viewer's orders while it plans a round
        self.queue_card = QueueCard(id="queue-card", markup=False)

    def compose(self) -> ComposeResult:
        yield self.status_line
        with Horizontal(id="battle-main"):
            yield self.map
            with SidePanel(id="side"):
                yield self.queue_card              # first: while planning it matters most
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
        if action in GAME_ACTIONS and self.match.over:    # no orders once it is over
            return False
        if action == "gm_view" and not self.my_turn():    # never while a computer plays
            return None
        # False hides a key from the footer (None greys it): these belong to one phase.
        if action in PLAYBACK_ACTIONS:
            return self.flow.playing and self.alive()
        if action in GAME_ACTIONS and self.match.carrying_out:
            return False                 # the round plays by itself: only its own keys show
        if action in PLANNING_ACTIONS:
            return self.planning_now() and not self.too_small()
        if action in NOT_WHILE_PLANNING and self.match.planning:
            return False
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
        """The viewer's player gives orders now: its unit's turn, or its side's planning."""
        match = self.match
        if not (self.flow.started and not self.busy and self.alive() and not match.over
                and self.flow.cover is None and match.is_human(self.viewer)):
            return False
        if match.planning:
            return (self.plan is not None and self.plan.side == self.viewer
                    and match.acting_side == self.viewer)
        if match.carrying_out:
            return False
        return match.active_side == self.viewer

    def planning_now(self) -> bool:
        """The viewer's player is choosing its side's orders for the round."""
        return self.plan is not None and self.match.planning and self.my_turn()

    @property
    def actor(self) -> str | None:
        """The unit the order keys give orders to: the one being planned, or the active one."""
        if self.plan is not None and self.selected in self.plan.queues and self.match.planning:
            return self.selected
        return self.match.active_uid

    @property
    def acting(self) -> Match:
        """The match the previews ask: while planning, as the unit being planned will stand
        after its queued orders (`planning.PlannedMatch`); else the match itself."""
        uid = self.actor
        if self.plan is not None and uid in self.plan.queues and self.match.planning:
            return self.plan.view(uid)
        return self.match

    # --- the battle changed -----------------------------------------------------------------

    def refresh_state(self) -> None:
        """Ask the engine again after the battle changed (or another side took the seat).

        Safe while a computer player thinks in its thread: it only reads the battle (its what-ifs
        are copies, game.core.queries.standing_at), and so do the queries asked here.
        """
        if not self.ready or not self.alive():
            return
        picture = take_picture(self.acting, self.viewer, self.selected, self.my_turn())
        if self.target is not None and picture.info(self.target) is None:
            self.target = None
        uid = self.actor
        if self.plan is not None and uid in self.plan.queues and self.match.planning:
            trail = self.plan.trail(uid)           # where its queued moves walk, from its start
            picture.standing = {**picture.standing, **{square: "path" for square in trail}}
        self.picture = picture

    def watch_picture(self, picture: Picture | None) -> None:
        if picture is None:
            return
        self.items = self._action_items(picture)
        self.redraw()
        info = picture.info(self.selected) or picture.info(self.match.active_uid)
        self.unit_card.unit = (info, info.side == self.viewer) if info else None
        self.turn_card.card = turn_card(self.match, self.viewer)
        self.show_queue()

    def show_queue(self) -> None:
        """The card of the unit being planned (only while the viewer plans)."""
        uid = self.actor
        if self.plan is not None and uid in self.plan.queues and self.planning_now():
            self.queue_card.card = queue_card(self.match, self.plan, uid)
        else:
            self.queue_card.card = None
        self.fit_queue()

    def fit_queue(self) -> None:
        """The orders card gives way to the odds while an attack or an area is aimed."""
        self.queue_card.display = (self.queue_card.card is not None and self.target is None
                                   and self.area is None)
        self.objectives_card.card = objectives_card(self.match)

    def _action_items(self, picture: Picture) -> list[ActionItem]:
        if not self.my_turn():
            return []
        match = self.acting
        uid = match.active_uid
        if uid is None:
            return []
        items = action_items(match, uid, move_cost=None, mode=self.mode,
                             aim=self.aim, has_target=bool(enemies(match, picture)),
                             revive_target=revive_target(match, picture, self.cursor) is not None)
        if self.planning_now():              # e gives the side's orders instead of ending a turn
            items = [replace(item, label="give orders") if item.key == "e" else item
                     for item in items]
        return items

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
        acting = self.acting
        if self.area is not None and self.my_turn():
            odds = area_odds(acting, self.area, self.cursor)
            explored = explored_squares(self.match.battle, picture.viewer)
            scene = scene.with_overlay({**scene.tints, **area_tints(odds, explored)}, self.cursor)
            card = area_card(acting, self.area, odds, len(self.orders.grenades()))
        self.area_card.card = card
        self.unit_card.display = self.target is None and card is None
        self.fit_queue()
        self.map.show(scene)
        self.status_line.status = status_of(acting, picture, self.look, self.cursor, path,
                                             self.busy, self.flow.playback_note())
        self.action_bar.playing = self._who_plays(picture)
        self.action_bar.items = tuple(self._priced_items(picture))
        shot = (odds_of(acting, self.target, self.mode, self.location, self.aim)
                if self.target is not None and self.my_turn() else None)
        if shot is not None and self.planning_now():
            shot = replace(shot, planning=True)
        self.target_card.odds = shot

    def _who_plays(self, picture: Picture) -> str:
        """The action bar when the viewer has no orders to give."""
        match = self.match
        if match.carrying_out:
            return (f"Round {match.battle.session.round}: the orders are carried out, unit by "
                    "unit in initiative order…")
        side = match.acting_side if match.planning else picture.turn_side
        if side is None:
            return ""
        return f"{match.name(side)}: {'planning' if match.planning else 'playing'}…"

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

    def action_side_scroll(self, direction: int) -> None:
        """Scroll the cards beside the map (a long queue of orders, a unit card below it)."""
        side = self.query_one("#side")
        side.scroll_to(y=side.scroll_y + direction * max(1, side.size.height // 2), animate=False)

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

        if self.match.hot_seat and not self.match.seats[self.viewer].at_table:
            self.say("The game master's view shows every unit, seen or not: not for a player "
                     "of a hot-seat battle, who sees only what their side sees.")
            return

        def after(_: None) -> None:
            if self.alive():
                self.flow.next_turn()          # a call may have ended a turn or the battle
        self.app.push_screen(GmPanel(self.match, self.gm_call, self.actor), callback=after)

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
        self.refresh_bindings()

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
        square = self.acting.position(self.selected or self.actor)
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
        """Select the active unit (a new turn: ask the battle again even if it was); while
        planning, the unit being planned, or the side's first."""
        uid = self.match.active_uid
        if self.plan is not None and self.match.planning:
            units = self.plan.units()
            uid = self.selected if self.selected in units else (units[0] if units else None)
        if self.selected == uid:
            self.refresh_state()
        self.selected = uid

    def aim_at(self, uid: str) -> None:
        self.area = None
        self.target = uid
        self.selected = self.actor
        square = self.target_square()
        if square is not None:
            self.move_cursor_to(square)

    def action_target(self, step: int) -> None:
        uids = [i.uid for i in enemies(self.acting, self.picture)] if self.picture else []
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
        elif self.selected != self.actor:
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
        if self.actor is not None:
            self.orders.play(ChangeStance(self.actor, stance, drop))

    def action_overwatch(self, near: bool = False) -> None:
        """o: overwatch facing the cursor. While planning, its reaction is chosen too: the fire
        mode and aim set with m and +/-, only at the target if there is one, and with O only
        once the enemy is as near as the cursor. One unit at a time, the player is asked at
        each step an enemy takes into the cone (with O, once it is as near as the cursor)."""
        uid = self.actor
        if uid is None:
            return
        here = self.acting.position(uid)
        if self.cursor == here:
            self.notify("Put the cursor where the unit should watch, then press o.", timeout=3)
            return
        if here is None:
            return
        within = self.match.battle.session.grid.distance(here, self.cursor) if near else 0
        if not self.planning_now():
            self.orders.play(SetOverwatch(uid, self.cursor, within=within, ask=True))
            return
        mode = self.mode
        if mode is None and self.aim:             # aimed: the mode it aims is named
            weapon = self.orders.held_weapon()
            mode = weapon.modes[0].name if weapon and weapon.modes else None
        targets = (self.target,) if self.target is not None else ()
        self.orders.play(SetOverwatch(uid, self.cursor, mode, self.aim, targets, within))

    def action_suppress(self) -> None:
        self.orders.suppress()

    def action_throw(self) -> None:
        self.orders.throw()

    def action_reload(self) -> None:
        if self.actor is not None:
            self.orders.play(Reload(self.actor))

    def action_lean(self) -> None:
        uid = self.actor
        if uid is None:
            return
        lean = lean_option(self.acting.battle, uid)
        if lean is None:
            self.orders.play(Lean(uid))      # refused with the rules' reason
        else:
            self.orders.play(Lean(uid, out=lean[0]))

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
        if self.actor is not None:
            self.orders.play(EndTurn(self.actor))

    def action_undo(self) -> None:
        """Take back the last move or change of stance; the engine decides if it may be, and
        the log says why not. Only a person's own orders, on their turn (the palette too)."""
        if not self.my_turn():
            return
        if self.planning_now():                  # while planning: the last order goes
            self.action_drop_order()
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

    # --- planning simultaneous orders -------------------------------------------------------

    def begin_plan(self, side: str) -> None:
        """The viewer's side plans the round: a fresh set of queues (unless it is planning this
        round already), its first unit selected."""
        session = self.match.battle.session
        if self.plan is None or self.plan.side != side or self.plan.round != session.round:
            self.end_plan()
            self.plan = Plan(self.match, side)
            if self.plan.dropped:
                whose = ", ".join(f"{self.match.name(uid)}'s from order {number}"
                                  for uid, number in self.plan.dropped_from)
                self.say(f"{self.plan.dropped} of the orders planned before the save would now "
                         f"be refused; they are left out ({whose}).")
            self.forget_attack()
            self.selected = None
        self.select_active()
        self.action_home()
        self.refresh_bindings()

    def end_plan(self) -> None:
        if self.plan is not None:
            self.plan.close()
            self.plan = None

    def on_unmount(self) -> None:
        self.end_plan()

    def action_next_unit(self, step: int) -> None:
        """Tab while planning: the side's next unit."""
        if self.plan is None:
            return
        units = self.plan.units()
        if not units:
            return
        index = (units.index(self.selected) + step) if self.selected in units else 0
        self.forget_attack()
        self.selected = units[index % len(units)]
        self.action_home()

    def planned(self, command: Command) -> None:
        """An order key while planning: the order joins its unit's queue, or the rehearsal's
        reason it would be refused is shown."""
        if self.plan is None:
            return
        unseen = None
        if isinstance(command, Attack) and command.target:      # from where it will stand
            unseen = preview_attack(self.acting.battle, command.unit, command.target, command.mode,
                                    command.location, command.aim)
        failing = self.plan.failing()
        problem = self.plan.add(command.unit, command)
        if problem:
            self.notify(problem, title="Not possible", severity="warning", timeout=4,
                        markup=False)
            return
        for friend, (number, why) in self.plan.failing().items():
            if failing.get(friend) != (number, why):
                self.notify(f"{self.match.name(friend)} acts later this round, and its order "
                            f"{number} would now be refused: {why}", timeout=6, markup=False)
        if isinstance(unseen, Refused) and isinstance(command, Attack):
            self.notify(f"Ordered, but as things stand: {unseen.reason} It fires only if "
                        f"{self.match.name(command.target)} is in its sight when its turn comes "
                        "(F: what it does if not).", timeout=6, markup=False)
        self.area, self.target = None, None
        self.refresh_state()

    def action_drop_order(self) -> None:
        uid = self.actor
        if self.plan is None or uid is None:
            return
        order = self.plan.pop(uid)
        if order is None:
            self.notify(f"{self.match.name(uid)} has no orders to remove.", timeout=2,
                        markup=False)
            return
        self.notify(f"Removed: {order_words(self.match, order)}.", timeout=2, markup=False)
        self.refresh_state()

    def action_fallback(self) -> None:
        uid = self.actor
        if self.plan is None or uid is None:
            return
        fallback = self.plan.cycle_fallback(uid)
        if fallback is None:
            self.notify("Give an order first; F then says what happens if it cannot be "
                        "carried out.", timeout=3)
            return
        self.show_queue()
        if not self.queue_card.display:           # the odds or an area hide the orders card
            self.notify(f"{self.match.name(uid)}'s last order, {FALLBACK_WORDS[fallback]}.",
                        timeout=3, markup=False)

    def action_sequence(self, step: int) -> None:
        """< and > while an ambushing side plans: the unit acts earlier or later among its
        side's units."""
        uid = self.actor
        if self.plan is None or uid is None:
            return
        if not self.plan.ambush:
            self.notify("Only an ambushing side sets the order its units act in.", timeout=3)
            return
        if self.plan.move_in_sequence(uid, step):
            self.show_queue()

    def action_give_orders(self) -> None:
        """e while planning: give the side's orders, after asking if some unit has none."""
        plan = self.plan
        if plan is None or not self.planning_now():
            return
        idle = plan.unplanned()
        if not idle:
            self.flow.give_orders()
            return
        names = ", ".join(self.match.name(uid) for uid in idle)
        body = (f"{names} {'has' if len(idle) == 1 else 'have'} no orders and will do "
                "nothing this round.")

        def chosen(answer: str | None) -> None:
            if answer == "give" and self.alive() and self.plan is plan:
                self.flow.give_orders()
        self.app.push_screen(Choice("Give the orders?", body,
                                    [("cancel", "Keep planning"), ("give", "Give the orders")]),
                             callback=chosen)

    def action_playback_pause(self) -> None:
        self.flow.toggle_pause()

    def action_playback_skip(self) -> None:
        self.flow.skip_round()

    def action_pace(self, step: int) -> None:
        self.flow.change_pace(step)

    def action_save(self) -> None:
        if self.busy:
            self.notify("Wait until the round's orders are carried out." if self.match.carrying_out
                        else "Wait until the computer has played.", timeout=3)
            return
        self.app.save_match()

    def action_leave(self) -> None:
        self.app.leave_battle()
