"""Whose turn it is on the battle screen, and what the screen does about it.

`TurnFlow` belongs to the battle screen (it holds a reference to it). A person's side: select
its unit (after a handoff screen when another person played before). A computer's side: ask its
player for commands in a worker thread, submit each on the app's thread and show it at a
readable pace (Space skips). The end: the game-over screen.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING


from game.core import events as ev
from game.core.commands import EndTurn, Respond
from game.core.events import Event, Refused
from game.saves import SaveError, write_save
from game.ui import players
from game.ui.scene import with_unit_at
from game.ui.screens.game_over import GameOver
from game.ui.screens.handoff import Handoff, Summary, summary_lines

if TYPE_CHECKING:
    from game.ui.screens.battle import BattleScreen

MAX_COMMANDS_PER_TURN = 80        # a computer player that never ends its turn is stopped
STEP_PACE = 0.3                   # a replayed step takes this share of the pause between commands
AUTOSAVE_NAME = "autosave"
SUMMARY_LINES = 60


class TurnFlow:
    def __init__(self, screen: BattleScreen) -> None:
        self.screen = screen
        self.match = screen.match
        self.cover: Handoff | None = None          # the handoff screen hiding the board
        self.next_viewer: str | None = None
        self.skip_event = asyncio.Event()
        self.ended = False
        self.handoff_due = len(self.match.humans) > 1     # hot-seat opens with a handoff
        self.started = False
        self.last_active: str | None = None

    def begin(self) -> None:
        """Called once the screen is drawn: autosave round one, then play."""
        screen = self.screen
        if not screen.alive():
            return
        self.started = True
        screen.map.keep_in_view(screen.cursor)     # a big map opens on the viewer's units
        if any(isinstance(e, ev.RoundStarted) for e in self.match.history):
            self.autosave()
        self.next_turn()

    def took_effect(self, events: list[Event], logged: bool = False) -> None:
        """Show a command's events: the log, the board, the autosave of a new round."""
        if not logged:
            self.screen.write_log(events)
        if any(isinstance(e, ev.RoundStarted) for e in events) and not self.match.over:
            self.autosave()
        self.screen.refresh_state()

    def next_turn(self) -> None:
        match, screen = self.match, self.screen
        if not screen.alive():
            return
        if match.over:
            self.finish()
            return
        side = match.active_side
        if side is None:
            return
        if not match.is_human(side):
            if len(match.humans) > 1 and self.cover is None:
                self.hide_board(Handoff(f"{match.name(side)} (computer) is playing…", waiting=True))
            self.computer_turn()
            return
        if self.cover is not None or (len(match.humans) > 1
                                      and (side != screen.viewer or self.handoff_due)):
            self.hand_to(side)
            return
        if self.fresh_orders():                 # a new unit: select it, cursor on it
            screen.select_active()
            screen.action_home()
        else:                                   # the same unit goes on: keep its target
            screen.refresh_state()
        screen.refresh_bindings()

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
        self.cover = cover
        self.screen.app.push_screen(cover, callback=self.after_handoff)
        self.screen.refresh_bindings()

    def hand_to(self, side: str) -> None:
        player, team = self.match.seats[side].name, self.match.name(side)
        who = f"{player}, who plays {team}" if player != team else f"the player of {team}"
        text = f"{team}: your turn.\n\nPass the keyboard to {who}.\nEveryone else, look away."
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
        if screen.alive():
            screen.refresh_state()
            self.next_turn()

    async def _play_computer_sides(self) -> None:
        match = self.match
        turn_key, count = None, 0
        while not match.over and not match.is_human(match.active_side) and self.screen.alive():
            uid = match.active_uid
            key = (match.battle.session.round, uid)
            count = count + 1 if key == turn_key else 1
            turn_key = key
            command = await self._think(uid) if count <= MAX_COMMANDS_PER_TURN else EndTurn(uid)
            if not self.screen.alive() or match.active_uid != uid:
                return
            result = match.submit(command)
            if isinstance(result, Refused):
                self.screen.say(f"(The computer tried something not allowed: {result.reason})")
                result = match.submit(EndTurn(uid))
                if isinstance(result, Refused):
                    return
            self.screen.write_log(result)
            await self.replay_moves(result)
            self.took_effect(result, logged=True)
            if match.battle.pending is not None:
                await self._defense_from_a_person()
            await self.pause()

    async def _think(self, uid: str):
        """The computer player's next command; a broken player ends the unit's turn."""
        match = self.match
        try:
            return await players.think(match.computer(match.active_side), match.battle)
        except Exception as error:          # a broken player must not stop the game
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
        result = match.submit(Respond(defender, choice))
        if not isinstance(result, Refused):
            self.screen.write_log(result)
            self.took_effect(result, logged=True)

    async def replay_moves(self, events: list[Event]) -> None:
        """Walk a computer's unit square by square, as far as the watching side saw it."""
        screen = self.screen
        steps = [e for e in events if isinstance(e, ev.Moved) and screen.viewer in e.seen_by]
        for step in steps[:-1]:
            if (not screen.alive() or self.skip_event.is_set() or self.cover is not None
                    or screen.picture is None):
                return
            origin = next(e.start for e in steps if e.unit == step.unit)
            scene = with_unit_at(screen.picture.scene, self.match, step.unit, origin, step.end)
            screen.map.show(scene)
            await self.pause(STEP_PACE)

    async def pause(self, share: float = 1.0) -> None:
        delay = getattr(self.screen.app, "computer_delay", 0.0) * share
        if self.cover is not None or delay <= 0 or self.skip_event.is_set():
            await asyncio.sleep(0)
            return
        try:
            await asyncio.wait_for(self.skip_event.wait(), timeout=delay)
        except TimeoutError:
            pass

    # --- the end, and saving --------------------------------------------------------------------

    def finish(self) -> None:
        if self.ended:
            return
        self.ended = True
        self.screen.refresh_bindings()
        if self.cover is not None:
            cover, self.cover = self.cover, None
            cover.dismiss(None)
        app = self.screen.app
        app.push_screen(GameOver(self.match), callback=app.after_game_over)

    def autosave(self) -> None:
        folder = getattr(self.screen.app, "save_folder", None)
        if folder is None:
            return
        try:
            write_save(folder, AUTOSAVE_NAME, self.match.state())
        except SaveError as error:
            self.screen.notify(str(error), title="Autosave failed", severity="warning",
                               timeout=5, markup=False)
