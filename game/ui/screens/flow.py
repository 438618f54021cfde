"""Whose turn it is on the battle screen, and what the screen does about it.

`TurnFlow` belongs to the battle screen (it holds a reference to it). A person's side: select
its unit (after a handoff screen when another person played before). A computer's side: ask its
player for commands in a worker thread, submit each on the app's thread and show it at a
readable pace (Space skips): the view follows the unit that acts, its walk is drawn square by
square, its shots, throws and suppressive fire for a moment, as far as the watching side saw
them. The end: the board stays with a closing line until a key, then the game-over screen.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING


from game.core import events as ev
from game.core.commands import Command, EndTurn, GiveOrders, Proceed, Respond
from game.core.events import Event, Refused
from game.saves import SaveError, write_autosave
from game.ui import players
from game.ui.picture import Witness, effects_of
from game.ui.scene import with_unit_at
from game.ui.screens.game_over import GameOver
from game.ui.screens.handoff import Handoff, Summary, summary_lines
from game.ui.screens.log import FullLog
from game.ui.screens.roll_prompt import TAKEN_BACK, submit_at_table

if TYPE_CHECKING:
    from game.ui.screens.battle import BattleScreen

MAX_COMMANDS_PER_TURN = 80        # a computer player that never ends its turn is stopped
STEP_PACE = 0.3                   # a replayed step takes this share of the pause between commands
EFFECT_PACE = 1.0                 # a replayed shot, throw or blast: this share
FLASH_SECONDS = 0.8               # how long a shot's line, a blast or an area stays drawn
SUMMARY_LINES = 60
PACES = (0.25, 0.5, 1.0, 2.0, 4.0)  # orders carried out: the pause between steps, times the app's


class TurnFlow:
    def __init__(self, screen: BattleScreen) -> None:
        self.screen = screen
        self.match = screen.match
        self.cover: Handoff | None = None          # the handoff screen hiding the board
        self.next_viewer: str | None = None
        self.skip_event = asyncio.Event()
        self.ended = False
        self.handoff_due = self.match.hot_seat     # hot-seat opens with a handoff
        self.started = False
        self.last_active: str | None = None
        self.flash_seconds = FLASH_SECONDS
        self.result_shown = False                  # the game-over screen was asked for
        # Simultaneous orders carried out: the app proceeds on its own, at a pace (< and >),
        # paused (Space), or the rest of the round at once (Enter).
        self.playing = False
        self.pace = PACES.index(1.0)
        self.resume = asyncio.Event()
        self.resume.set()

    def begin(self) -> None:
        """Called once the screen is drawn: autosave round one, then play."""
        screen = self.screen
        if not screen.alive():
            return
        self.started = True
        screen.map.keep_in_view(screen.cursor)     # a big map opens on the viewer's units
        if any(isinstance(e, ev.RoundStarted) for e in self.match.history) \
                and not self.match.loaded:       # a loaded position is on disk already
            self.autosave()
        self.next_turn()

    def took_effect(self, events: list[Event], logged: bool = False) -> None:
        """Show a command's events: the log, the board, the autosave of a new round."""
        screen = self.screen
        drawn = {}
        if not logged:
            screen.write_log(events)
            if screen.picture is not None and screen.alive():   # a person's order: draw it
                drawn = effects_of(self.match, screen.picture, events)
        if any(isinstance(e, ev.RoundStarted) for e in events) and not self.match.over:
            self.autosave()
        screen.refresh_state()
        if drawn and screen.alive():
            screen.map.flash(drawn, self.flash_seconds)

    def next_turn(self) -> None:
        match, screen = self.match, self.screen
        if not screen.alive():
            return
        if match.over:
            self.finish()
            return
        question = match.battle.watch_question
        if question is not None:                # a move waits on a watcher's player
            watching = match.side_of(question[0])
            if match.hot_seat and (watching != screen.viewer or self.cover is not None):
                self.hand_to(watching, watch=True)
                return
            screen.app.push_screen(screen.orders.watch_prompt(), callback=screen.orders.after_watch)
            return
        if match.carrying_out:                  # the units carry out their orders by themselves
            if match.hot_seat and self.cover is None:
                self.hide_board(Handoff(f"Round {match.battle.session.round} is being carried "
                                        "out…", waiting=True))
            self.computer_turn()
            return
        side = match.acting_side
        if side is None:
            return
        if not match.is_human(side):
            if match.hot_seat and self.cover is None:
                doing = "planning" if match.planning else "playing"
                # "The computer is playing for Raiders": the verb fits a side of any name
                self.hide_board(Handoff(f"The computer is {doing} for {match.name(side)}…", waiting=True))
            self.computer_turn()
            return
        if self.cover is None and side != screen.viewer and match.at_one_table(side, screen.viewer):
            screen.viewer = side                # the table's next side: no one looks away
        if self.cover is not None or (match.hot_seat
                                      and (side != screen.viewer or self.handoff_due)):
            self.hand_to(side)
            return
        if match.planning:
            if screen.viewer != side:
                screen.viewer = side
            screen.begin_plan(side)
            return
        if self.fresh_orders():                 # a new unit: select it, cursor on it
            screen.select_active()
            screen.action_home()
        else:                                   # the same unit goes on: keep its target
            screen.refresh_state()
        screen.refresh_bindings()

    def give_orders(self) -> None:
        """Give the planning side's orders (`GiveOrders`); the next side plans, or the round is
        carried out."""
        screen = self.screen
        plan = screen.plan
        if plan is None or not screen.alive():
            return
        result = self.match.submit(plan.command())
        if isinstance(result, Refused):
            screen.notify(result.reason, title="Not possible", severity="warning", timeout=6,
                          markup=False)
            return
        screen.end_plan()
        screen.forget_attack()
        self.last_active = None
        self.took_effect(result)
        self.next_turn()

    def fresh_orders(self) -> bool:
        """A new unit's turn: forget the last unit's target, fire mode, aim and hit location."""
        if self.match.active_uid == self.last_active:
            return False
        self.last_active = self.match.active_uid
        self.screen.forget_attack()
        return True

    # --- hot-seat -----------------------------------------------------------------------------

    def hide_board(self, cover: Handoff) -> None:
        if not self.handoff_due:                # its player looked: what follows is news later
            self.match.take_unseen(self.screen.viewer)
        app = self.screen.app
        if isinstance(app.screen, FullLog):     # its player's log must not outlast the handoff
            app.screen.dismiss(None)
        self.cover = cover
        self.screen.app.push_screen(cover, callback=self.after_handoff)
        self.screen.refresh_bindings()

    def hand_to(self, side: str, watch: bool = False) -> None:
        """Cover the board and ask for the keyboard to go to `side`'s player: for its turn or
        orders, or (`watch`) to choose what a unit of its on overwatch does."""
        player, team = self.match.seats[side].name, self.match.name(side)
        who = f"{player}, who plays {team}" if player != team else f"the player of {team}"
        turn = (f"your orders for round {self.match.battle.session.round}"
                if self.match.planning else "your turn")
        if watch:
            turn = "an enemy steps into your overwatch"
        text = f"{team}: {turn}.\n\nPass the keyboard to {who}.\nEveryone else, look away."
        self.next_viewer = side
        if self.cover is None:
            self.hide_board(Handoff(text))
        else:
            self.cover.ready(text)

    def after_handoff(self, _result: object = None) -> None:
        screen, match = self.screen, self.match
        self.cover = None
        if not screen.alive():
            return
        self.handoff_due = False
        side = self.next_viewer
        if side is None or match.over:
            self.next_turn()
            return
        self.next_viewer = None
        screen.viewer = side                    # its log: what this side saw
        if match.battle.watch_question is not None:
            self.next_turn()                    # the question put to this side's player
            return
        if match.planning and match.acting_side == side:
            screen.begin_plan(side)
        else:
            self.fresh_orders()
            screen.select_active()
            screen.action_home()
            screen.refresh_bindings()
        lines = summary_lines(match, side, match.take_unseen(side))
        if len(lines) > SUMMARY_LINES:
            lines = [f"… {len(lines) - SUMMARY_LINES} earlier lines are in the log.",
                     *lines[-SUMMARY_LINES:]]
        title = f"{match.seats[side].name}: what {match.name(side)} saw"    # shown as plain text
        screen.app.push_screen(Summary(title, lines))

    # --- computer sides -----------------------------------------------------------------------

    def skip(self) -> None:
        self.skip_event.set()

    def computer_turn(self) -> None:
        self.screen.run_worker(self._computer_turn, exclusive=True, group="computer")

    async def _computer_turn(self) -> None:
        screen = self.screen
        screen.busy = True
        self.skip_event.clear()
        try:
            await self._play_computer_sides()
        finally:
            screen.busy = False
            self.end_playback()
        if screen.alive():
            screen.refresh_state()
            screen.redraw()                     # "Space: skip" leaves the status line
            self.next_turn()

    async def _play_computer_sides(self) -> None:
        """Play while the battle waits for a computer side, or carries out simultaneous orders
        (the app proceeds for every side, a person's too); stop when a person is to act."""
        match = self.match
        turn_key, count = None, 0
        while not match.over and self.screen.alive():
            carrying_out = match.carrying_out
            side = match.acting_side
            if not carrying_out and (side is None or match.is_human(side)):
                return
            uid = match.active_uid
            key = (match.battle.session.round, uid)
            count = count + 1 if key == turn_key else 1
            turn_key = key
            if carrying_out and uid is None:
                return
            if carrying_out and not self.playing:     # the round's orders begin: shown
                self.playing = True                   # (a Space pressed before skips nothing)
                self.skip_event.clear()
                self.screen.refresh_bindings()
                self.screen.redraw()                  # the playback keys on the status line
                await self.resume.wait()        # paused: Space goes on
                if not self.screen.alive() or match.active_uid != uid:
                    return
            if uid is not None and count == 1 and self.follow(uid):
                await self.pause(STEP_PACE)     # who acts, before what it does
            if carrying_out and uid is not None:
                command: Command = Proceed(uid) if count <= MAX_COMMANDS_PER_TURN else EndTurn(uid)
            elif count <= MAX_COMMANDS_PER_TURN:
                command = await self._think(uid)
            else:
                command = EndTurn(uid) if uid is not None else GiveOrders(side=side or "")
            if carrying_out and not self.resume.is_set():   # paused while it was shown
                await self.resume.wait()
            if not self.screen.alive() or match.active_uid != uid:
                return
            result = await self._submit(command)
            if result == Refused(TAKEN_BACK) and uid is not None:
                result = await self._submit(EndTurn(uid))    # the table would not roll: turn over
            if isinstance(result, Refused):
                self.screen.say(f"(The computer tried something not allowed: {result.reason})")
                fallback = EndTurn(uid) if uid is not None else GiveOrders(side=side or "")
                result = match.submit(fallback)
                if isinstance(result, Refused):
                    return
            self.screen.write_log(result)
            await self.replay(result)
            self.took_effect(result, logged=True)
            if match.battle.pending is not None:
                await self._defense_from_a_person()
            while match.battle.watch_question is not None and self.screen.alive():
                await self._watch_from_a_person()
            if self.playing and not match.carrying_out:    # the round is done: plan the next
                self.end_playback()
                if match.over or match.is_human(match.acting_side):
                    continue
            await self.pause()

    async def _submit(self, command: Command) -> list[Event] | Refused:
        """Submit a command; at the table, ask for the dice it rolls there."""
        if not self.match.battle.table:
            return self.match.submit(command)
        return await submit_at_table(self.screen.app, self.match.submit, command)

    async def _think(self, uid: str | None):
        """The computer player's next command; a broken player ends the unit's turn."""
        match = self.match
        side = match.acting_side
        try:
            return await players.think(match.computer(side or ""), match.battle)
        except Exception as error:          # a broken player must not stop the game
            if uid is None:
                self.screen.say(f"The computer player failed ({error}); "
                                f"{match.name(side)} gives no orders.")
                return GiveOrders(side=side or "")
            self.screen.say(f"The computer player failed ({error}); "
                            f"{match.name(uid)} ends the turn.")
            return EndTurn(uid)

    async def _defense_from_a_person(self) -> None:
        """A computer's attack waits for a person's choice of defense: ask, then go on."""
        match = self.match
        defender, _, choices = match.battle.pending
        answer = None
        if match.is_human(match.side_of(defender)):
            prompt = self.screen.orders.defense_prompt()
            answer = await self.screen.app.push_screen_wait(prompt)
        choice = answer.split("-", 1)[1] if answer else choices[0]
        result = await self._submit(Respond(defender, choice))
        while result == Refused(TAKEN_BACK) and self.screen.alive():   # the attack waits on it
            result = await self._submit(Respond(defender, choice))
        if not isinstance(result, Refused):
            self.screen.write_log(result)
            await self.replay(result)
            self.took_effect(result, logged=True)

    async def _watch_from_a_person(self) -> None:
        """A computer's move waits on a person's overwatch that asks: ask, then go on (a
        computer's own watch never asks; should one, it fires its first shot)."""
        match = self.match
        watcher, _, _, choices = match.battle.watch_question
        side = match.side_of(watcher)
        if match.is_human(side):
            if match.hot_seat and side != self.screen.viewer:     # over the computer's cover
                await self.screen.app.push_screen_wait(Handoff(
                    f"{match.name(side)}: an enemy steps into your overwatch.\n\nPass the "
                    f"keyboard to {match.seats[side].name}.\nEveryone else, look away."))
                self.screen.viewer = side
            answer = await self.screen.app.push_screen_wait(self.screen.orders.watch_prompt())
            command = self.screen.orders.watch_answer(answer)
        else:
            command = Respond(watcher, choices[0])
        result = await self._submit(command)
        if not isinstance(result, Refused):
            self.screen.write_log(result)
            await self.replay(result)
            self.took_effect(result, logged=True)

    def follow(self, uid: str | None) -> bool:
        """Scroll the map to a unit about to act, if the watching side sees it."""
        screen = self.screen
        if self.cover is not None or screen.picture is None or not screen.alive():
            return False
        square = screen.picture.square_of(uid)
        if square is None:
            return False
        screen.map.keep_in_view(square)
        return True

    def showing(self) -> bool:
        screen = self.screen
        return (screen.alive() and not self.skip_event.is_set() and self.cover is None
                and screen.picture is not None)

    async def replay(self, events: list[Event]) -> None:
        """Show a computer's command as far as the watching side saw it, one thing at a time,
        the view following: its unit walked square by square, each shot (its line, its target
        hit or missed), throw (its flight), blast (its rings) and suppressed area for a moment.
        Drawn from the events; the board itself is redrawn from the battle afterwards."""
        screen = self.screen
        if not self.showing() or screen.picture is None:
            return
        witness = Witness(self.match, screen.picture)
        start = screen.map.base                 # the board before the command, with the cursor
        seen = [e for e in events if screen.viewer in e.seen_by]
        steps = [e for e in seen if isinstance(e, ev.Moved)]
        origins: dict[str, tuple[int, int]] = {}
        for step in steps:
            origins.setdefault(step.unit, step.start)
        for event in seen:
            if not self.showing():
                return
            if isinstance(event, ev.Moved):
                witness.moved(event)
                scene = with_unit_at(start, self.match, event.unit, origins[event.unit],
                                     event.end)
                screen.map.show(scene)
                if scene.visible[event.end[1], event.end[0]]:
                    screen.map.keep_in_view(event.end)
                if event is not steps[-1]:
                    await self.pause(STEP_PACE)
                continue
            shown = witness.effects(event)
            if shown is not None:
                drawn, view = shown
                screen.map.flash(drawn, self.flash_seconds)
                if not screen.map.keep_in_view(*view):      # too far apart: from, then to
                    screen.map.keep_in_view(view[0])
                    await self.pause(STEP_PACE)
                    screen.map.keep_in_view(view[-1])
                await self.pause(EFFECT_PACE)

    # --- orders carried out: the pace, pausing, skipping the round ----------------------------

    def end_playback(self) -> None:
        if self.playing:
            self.playing = False
            self.resume.set()
            if self.screen.alive():
                self.screen.refresh_bindings()
                self.screen.redraw()

    def toggle_pause(self) -> None:
        if not self.playing:
            return
        if self.resume.is_set():
            self.resume.clear()
        else:
            self.resume.set()
        self.screen.redraw()

    def skip_round(self) -> None:
        """Enter while orders are carried out: the rest of the round at once."""
        if self.playing:
            self.skip_event.set()
            self.resume.set()
            self.screen.redraw()

    def change_pace(self, step: int) -> None:
        self.pace = max(0, min(len(PACES) - 1, self.pace + step))
        self.screen.redraw()

    def playback_note(self) -> str:
        """What the status line says while orders are carried out."""
        if not self.playing:
            return ""
        if self.skip_event.is_set():
            return "Skipping to the round's end"
        pace = f"Pace x{1 / PACES[self.pace]:g} (< >)"
        if not self.resume.is_set():
            return f"PAUSED: Space goes on · {pace}"
        return f"{pace} · Space: pause · Enter: skip round"

    async def pause(self, share: float = 1.0) -> None:
        delay = getattr(self.screen.app, "computer_delay", 0.0) * share
        if self.playing:
            delay *= PACES[self.pace]
        if self.cover is not None or delay <= 0 or self.skip_event.is_set():
            await asyncio.sleep(0)
            return
        try:
            await asyncio.wait_for(self.skip_event.wait(), timeout=delay)
        except TimeoutError:
            pass

    # --- the end, and saving --------------------------------------------------------------------

    def finish(self) -> None:
        """The battle is over: the board and the last lines of the log stay, with a closing
        line, until the player asks for the result (`show_result`)."""
        if self.ended:
            return
        self.ended = True
        screen = self.screen
        if self.cover is not None:
            cover, self.cover = self.cover, None
            cover.dismiss(None)
        screen.refresh_state()
        screen.refresh_bindings()
        session = self.match.battle.session
        if session.winner is None:
            headline = "The battle ends in a draw"
        else:
            headline = f"Victory: {self.match.name(session.winner)}"
        screen.show_ending(f"{headline}. Press Enter to see the result.")

    def show_result(self) -> None:
        """The game-over screen, once the player has looked at the board."""
        if not self.ended or self.result_shown or not self.screen.alive():
            return
        self.result_shown = True
        app = self.screen.app
        app.push_screen(GameOver(self.match), callback=app.after_game_over)

    def autosave(self) -> None:
        folder = getattr(self.screen.app, "save_folder", None)
        if folder is None:
            return
        session = self.match.battle.session
        try:
            write_autosave(folder, session.setup.scenario.id, self.match.battle_id, session.round,
                           self.match.state())
        except SaveError as error:
            self.screen.notify(str(error), title="Autosave failed", severity="warning",
                               timeout=5, markup=False)
