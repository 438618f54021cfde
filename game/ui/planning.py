"""Planning simultaneous orders on the battle screen: one side's queues while its player
chooses them, and the card that lists the selected unit's.

`Plan` keeps each unit's queue of `Order`s until the side gives them all at once
(`GiveOrders`). Every price and problem comes from the engine: `orders.rehearse` checks a
queue from the round's start, `queries.as_planned` is the battle as the unit will stand once
its queue is carried out, and `PlannedMatch` is the match seen from there, so the screen's
usual previews (reach, path cost, hit chance) answer for the planned position. Nothing here
decides a rule.
"""

from __future__ import annotations

import json
import textwrap

from rich.text import Text

from game.core.commands import (GiveOrders, Attack, ChangeStance, Command, Draw, Lean, Move,
                                Order, Reload, Revive, SetOverwatch, Suppress, Throw,
                                command_from_dict)
from game.core.engine import Battle
from game.core.orders import Step, orderable, rehearse
from game.core.queries import as_planned, unit_info
from game.ui.cards import CARD_WIDTH
from game.ui.match import Match

FALLBACK_CYCLE = ("skip", "hold", "nearest")
FALLBACK_WORDS = {"skip": "if not possible: skip it",
                  "hold": "if not possible: hold (no more orders)",
                  "nearest": "if not possible: fire at the nearest enemy"}


class PlannedMatch(Match):
    """The match as seen by the unit whose orders are being planned: its battle is the copy in
    which that unit stands where its queued orders leave it (`queries.as_planned`), and that
    unit is the one acting. Read only: nothing is ever submitted to it."""

    def __init__(self, match: Match, view: Battle, actor: str) -> None:   # noqa: D107
        self.__dict__.update(match.__dict__)        # seats, names, history: the match's own
        self.battle = view
        self.actor = actor
        self.real = match

    @property
    def active_uid(self) -> str | None:
        return self.actor

    @property
    def dirty(self) -> bool:
        return self.real.dirty


class Plan:
    """One side's orders for the round while its player gives them."""

    def __init__(self, match: Match, side: str) -> None:
        self.match, self.side = match, side
        session = match.battle.session
        session.use()
        self.round = session.round
        self.queues: dict[str, list[Order]] = {uid: [] for uid in session.order
                                               if session.side_of(uid) == side
                                               and orderable(session, uid)}
        self._steps: dict[str, list[Step]] = {}
        self._view: tuple[str, int, PlannedMatch] | None = None   # (unit, queue length, view)
        # An ambushing side sets the order its units act in, in the places they hold.
        self.ambush = any(spec.id == side and spec.ambush for spec in session.setup.scenario.sides)
        self.initiative = [uid for uid in session.order if session.side_of(uid) == side]
        self.sequence = list(self.initiative)
        self.dropped = 0          # orders of a saved draft that no longer fit
        self.dropped_from: list[tuple[str, int]] = []    # (unit, the first order left out)
        self._restore()

    def _restore(self) -> None:
        """Take back the orders the side had planned this round when the battle was saved;
        any that would now be refused is left out (and counted in `dropped`)."""
        draft = self.match.draft
        if not (isinstance(draft, dict) and draft.get("side") == self.side
                and draft.get("round") == self.round):
            return
        try:
            given = command_from_dict(draft["orders"])
        except (KeyError, TypeError, ValueError):
            return
        if not isinstance(given, GiveOrders) or given.side != self.side:
            return
        if sorted(given.sequence) == sorted(self.initiative) and self.ambush:
            self.sequence = list(given.sequence)       # first: who acts before whom
        for uid, queue in given.orders:
            for order in queue:
                if self.add(uid, order.command):
                    self.dropped += len(queue) - queue.index(order)
                    self.dropped_from.append((uid, queue.index(order) + 1))
                    break
                self.queues[uid][-1] = order                  # its fallback too
        self._remember()

    def _remember(self) -> None:
        """The match keeps the side's orders as planned so far, for a save (none while nothing
        is planned: a plan just begun leaves nothing unsaved)."""
        command = self.command()
        if not any(queue for _, queue in command.orders) and not command.sequence:
            self.match.draft = None
            return
        draft = {"side": self.side, "round": self.round, "orders": command.to_dict()}
        self.match.draft = json.loads(json.dumps(draft))      # as a save holds it

    def units(self) -> list[str]:
        return list(self.queues)

    def queue(self, uid: str) -> list[Order]:
        return self.queues.get(uid, [])

    def steps(self, uid: str) -> list[Step]:
        """The unit's queue as rehearsed from the round's start (cached until it changes)."""
        if uid not in self._steps:
            queue = self.queue(uid)
            self._steps[uid] = self._rehearse(uid, queue) if queue else []
        return self._steps[uid]

    def _rehearse(self, uid: str, queue: list[Order]) -> list[Step]:
        """`queue` rehearsed after the orders of the friends that act before `uid`."""
        return rehearse(self.match.battle.session, uid, queue, self.queues, self._sequence())

    def _sequence(self) -> list[str]:
        return self.sequence if self.ambush else []

    def add(self, uid: str, command: Command) -> str:
        """Queue `command` as `uid`'s next order; "" or why it would be refused (then it is
        not queued)."""
        if uid not in self.queues:
            return f"{self.match.name(uid)} cannot be given orders this round."
        fallback = "skip"
        trial = [*self.queues[uid], Order(command, fallback)]
        steps = self._rehearse(uid, trial)
        if len(steps) < len(trial) or steps[-1].problem:
            return steps[-1].problem if steps else "Not possible."
        self.queues[uid] = trial
        self._changed(uid, steps)
        return ""

    def pop(self, uid: str) -> Order | None:
        """Take back the unit's last order."""
        queue = self.queues.get(uid)
        if not queue:
            return None
        order = queue.pop()
        self._changed(uid)
        return order

    def cycle_fallback(self, uid: str) -> str | None:
        """The next fallback of the unit's last order (only an attack may fire at the nearest
        enemy instead); the new one, or None without an order."""
        queue = self.queues.get(uid)
        if not queue:
            return None
        last = queue[-1]
        # only an attack at a named enemy may turn to the nearest (one without is that already)
        choices = [f for f in FALLBACK_CYCLE
                   if f != "nearest" or (isinstance(last.command, Attack) and last.command.target)]
        fallback = choices[(choices.index(last.fallback) + 1) % len(choices)] \
            if last.fallback in choices else choices[0]
        queue[-1] = Order(last.command, fallback)
        self._changed(uid)
        return fallback

    def _changed(self, uid: str, steps: list[Step] | None = None) -> None:
        self._steps.clear()          # a friend's orders change what those after it can do
        if steps is not None:
            self._steps[uid] = steps
        self._close_view()
        self._remember()

    def view(self, uid: str) -> PlannedMatch:
        """The match as `uid` will stand once its queued orders are carried out."""
        length = len(self.queue(uid))
        if self._view is not None and self._view[:2] == (uid, length):
            return self._view[2]
        self._close_view()
        view = PlannedMatch(self.match, as_planned(self.match.battle, uid, self.queue(uid),
                                                   self.queues, self._sequence()), uid)
        self._view = (uid, length, view)
        return view

    def _close_view(self) -> None:
        if self._view is not None:
            self._view[2].battle.close()
            self._view = None
        session = self.match.battle.session
        if not session.closed:     # a screen closed late must not bring back a closed world
            session.use()

    def close(self) -> None:
        self._close_view()

    def trail(self, uid: str) -> list[tuple[int, int]]:
        """The squares the unit's queued moves walk, from where it stands at the round's start
        (empty without a move)."""
        paths = [order.command.path for order in self.queue(uid) if isinstance(order.command, Move)]
        start = self.match.position(uid)
        if not paths or start is None:
            return []
        return [start, *(square for path in paths for square in path)]

    def failing(self) -> dict[str, tuple[int, str]]:
        """The units whose queues would now be refused (a friend acting before them was given
        an order that stands in their way): unit -> (the order's number, why)."""
        out = {}
        for uid, queue in self.queues.items():
            steps = self.steps(uid) if queue else []
            if steps and steps[-1].problem:
                out[uid] = (len(steps), steps[-1].problem)
        return out

    def unplanned(self) -> list[str]:
        """The side's units given no order yet."""
        return [uid for uid, queue in self.queues.items() if not queue]

    def move_in_sequence(self, uid: str, step: int) -> bool:
        """An ambushing side: `uid` acts one place earlier (-1) or later (+1) among its side's
        units; False where it cannot (not an ambush, or already first or last)."""
        if not self.ambush or uid not in self.sequence:
            return False
        index = self.sequence.index(uid)
        other = index + step
        if not 0 <= other < len(self.sequence):
            return False
        self.sequence[index], self.sequence[other] = self.sequence[other], self.sequence[index]
        self._steps.clear()          # who goes first changes what the others can do
        self._close_view()
        self._remember()
        return True

    def command(self) -> GiveOrders:
        sequence = tuple(self.sequence) if self.sequence != self.initiative else ()
        return GiveOrders(side=self.side, orders=tuple((uid, tuple(queue))
                                                       for uid, queue in self.queues.items()),
                          sequence=sequence)


def order_words(match: Match, order: Order) -> str:
    """An order in a few words: "move to (4,2)", "fire burst at Trooper, aim 1"."""
    cmd = order.command
    if isinstance(cmd, Move):
        return f"move to ({cmd.path[-1][0]},{cmd.path[-1][1]})" if cmd.path else "move"
    if isinstance(cmd, ChangeStance):
        return ("drop " if cmd.drop else "") + cmd.stance
    if isinstance(cmd, Attack):
        target = match.name(cmd.target) if cmd.target else "the nearest enemy"
        mode = f" {cmd.mode}" if cmd.mode else ""
        aim = f", aim {cmd.aim}" if cmd.aim else ""
        return f"fire{mode} at {target}{aim}"
    if isinstance(cmd, SetOverwatch):
        mode = cmd.mode or "the widest fire mode its AP pay for"
        aim = f", aim {cmd.aim}" if cmd.aim else ""
        only = f", only at {', '.join(match.name(t) for t in cmd.targets)}" if cmd.targets else ""
        within = f", within {cmd.within} sq" if cmd.within else ""
        return f"overwatch to ({cmd.toward[0]},{cmd.toward[1]}): {mode}{aim}{only}{within}"
    if isinstance(cmd, Suppress):
        return f"suppress ({cmd.at[0]},{cmd.at[1]})"
    if isinstance(cmd, Throw):
        return f"throw {match.name(cmd.grenade)} at ({cmd.at[0]},{cmd.at[1]})"
    if isinstance(cmd, Reload):
        return "reload"
    if isinstance(cmd, Draw):
        carried = unit_info(match.battle, cmd.unit).weapons
        weapon = carried[cmd.weapon] if 0 <= cmd.weapon < len(carried) else ""
        return f"draw the {match.name(weapon)}" if weapon else "draw another weapon"
    if isinstance(cmd, Revive):
        return f"first aid to {match.name(cmd.target)}"
    if isinstance(cmd, Lean):
        return "lean out" if cmd.out else "lean back"
    return cmd.kind.replace("_", " ")


def queue_card(match: Match, plan: Plan, uid: str) -> Text:
    """The card of the unit being planned: its orders with their AP and the AP left, each
    order's fallback, any problem, and where the previews are taken from."""
    name = match.name(uid)
    given = len(plan.units()) - len(plan.unplanned())
    text = Text()
    text.append(f"Orders: {name}\n", style="bold")
    text.append(f"{given} of {len(plan.units())} units have orders\n", style="grey70")
    if plan.ambush and uid in plan.sequence:
        place = plan.sequence.index(uid) + 1
        text.append(_wrapped(f"Ambush: acts {place} of {len(plan.sequence)} of its side "
                             "(< > to change)"), style="grey70")
    queue, steps = plan.queue(uid), plan.steps(uid)
    if not queue:
        text.append("No orders yet: the keys add\nthem here.\n", style="italic")
    for number, order in enumerate(queue, 1):
        step = steps[number - 1] if number <= len(steps) else None
        text.append(_wrapped(f"{number}. {order_words(match, order)}"))
        if step is not None and not step.problem:
            text.append(f"   {step.ap_cost} AP, {step.ap_left} left\n", style="cyan")
        elif step is not None:
            text.append(_wrapped(f"   {step.problem}"), style="bold red")
        text.append(_wrapped(f"   {FALLBACK_WORDS.get(order.fallback, order.fallback)}"),
                    style="grey70")
    if queue:
        where = f"after its {len(queue)} order{'s' if len(queue) > 1 else ''}"
        text.append(f"Previews: from where {name} will stand {where}.\n", style="italic yellow")
    else:
        text.append(f"Previews: from where {name} stands at the round's start.\n",
                    style="italic yellow")
    text.append("Bksp remove · F fallback", style="grey70")
    return text


def _wrapped(line: str) -> str:
    """A line of the card wrapped to the side panel, its further lines indented under it."""
    return "\n".join(textwrap.wrap(line, CARD_WIDTH, subsequent_indent="   ")) + "\n"
