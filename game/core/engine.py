"""The engine's front door: `Battle.submit(command)` returns events, or `Refused(reason)`.

The app, the computer players and the tests all play through this class. A refused command
changes nothing: every system checks legality before it changes or rolls anything.

At the table (`table`: the sides whose dice people roll) a command is first carried out on a
copy of the battle, replayed from its command log, with the faces typed in so far
(`Command.rolls`). If it needs one more, the copy is thrown away and `submit` returns RollWanted
naming the die; once the typed faces are enough, the command is carried out here with exactly
those faces, and the command log holds them for the replay.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
from dataclasses import asdict, dataclass
from collections.abc import Callable
from typing import Any

import esper

from game.content.schema import BattleSetup, RulesetSpec
from game.core import components as c
from game.core.commands import (GM_COMMANDS, Aim, Attack, ChangeStance, ChooseDefense, Command,
                                Declare, Defend, Draw, EndTurn, GiveOrders, Jump, Lean, Move, Order,
                                Proceed, RecoverItem, Reload, Respond, Revive, SetOverwatch,
                                SpendPoints, Suppress, Throw, Unjam, UseItem, command_from_dict)
from game.core.dice import BadRoll, Dice, RollNeeded
from game.core.events import (DefenseAsked, Event, Moved, OrderLost, OrderUntriggered, Refused,
                              RollWanted, StanceChanged)
from game.core.illegal import Illegal
from game.core import gm, orders
from game.core.session import Session
from game.core.systems import attack, loadout, movement, overwatch, turns

STATE_FORMAT = 1


def _attack(session: Session, cmd: Attack) -> None:
    plan = attack.plan_attack(session, cmd.unit, cmd.target, cmd.mode, cmd.location, cmd.aim)
    attack.spend(session, cmd.unit, plan.ap_cost)
    choices = session.rules.asks(session, plan)
    if choices:                   # the defender's player chooses first (a Respond command)
        session.pending = (plan, choices)
        session.emit(DefenseAsked(plan.target, plan.attacker, plan.weapon.id, choices),
                     session.position(plan.attacker), session.position(plan.target),
                     to=(session.side_of(plan.attacker), session.side_of(plan.target)))
        return
    attack.carry_out(session, plan)


def _respond(session: Session, cmd: Respond) -> None:
    if session.watch_question is not None:     # a watcher's player chooses its reaction
        movement.answer_watch(session, cmd)
        return
    assert session.pending is not None, "a Respond is only carried out while an attack waits"
    plan, choices = session.pending
    if cmd.choice not in choices:
        raise Illegal(f"{cmd.choice!r} is not one of the choices: {', '.join(choices)}.")
    condition = session.get(plan.target, c.Condition)
    session.pending = None
    condition.standing = cmd.choice           # this attack only; the unit keeps asking
    try:
        attack.carry_out(session, plan)
    finally:
        condition.standing = "ask"


def _defend(session: Session, cmd: Defend) -> None:
    session.rules.defend(session, cmd.unit, cmd.defense)


def _choose_defense(session: Session, cmd: ChooseDefense) -> None:
    session.rules.choose_defense(session, cmd.unit, cmd.choice)


def _declare(session: Session, cmd: Declare) -> None:
    session.rules.declare(session, cmd.unit, cmd.actions)


def _not_here(what: str) -> Callable[[Session, Any], None]:
    def refuse(session: Session, cmd: Any) -> None:
        raise Illegal(f"The {session.setup.ruleset.name} rules have no {what}.")
    return refuse


HANDLERS: dict[type, Callable[[Session, Any], None]] = {
    Move: movement.move,
    ChangeStance: movement.change_stance,
    Attack: _attack,
    SetOverwatch: overwatch.set_overwatch,
    Reload: loadout.reload,
    Draw: loadout.draw,
    Defend: _defend,
    ChooseDefense: _choose_defense,
    Declare: _declare,
    Respond: _respond,
}
FREE = (ChooseDefense, Declare, SpendPoints)     # commands that are not actions of their own
UNDOABLE = (Move, ChangeStance)
NOTHING_TO_UNDO = "there is nothing to undo this turn"


@dataclass
class _Before:
    """The battle as it was before an undoable command: what such a command can change (the
    unit's own components, its side's sight, whose turn it is), and the command's events."""

    command: Command
    turn: tuple[int, int, bool]
    parts: dict[type, Any]
    count: Any
    explored: Any
    views: dict[str, Any]
    seen: set[str]
    events: list[Event] = dataclasses.field(default_factory=list)
    mission: Any = None          # the objectives' state (a silent trigger may have fired)


# Commands only some rulesets have (their `actions()`), and what a refusal calls them.
RULESET_ACTIONS: dict[type, str] = {Throw: "grenades", Suppress: "suppressive fire",
                                    Revive: "first aid on the battlefield", Lean: "leaning out from cover",
                                    Aim: "aiming over rounds", SpendPoints: "Character Points",
                                    Unjam: "jammed weapons to clear", RecoverItem: "items on the floor",
                                    UseItem: "usable items", Jump: "jumps over gaps"}


ORDERS_FLOW = (GiveOrders, Proceed)     # simultaneous orders: planning and carrying out


def _named(command: Command) -> str:
    """The unit an order names (its target), or ""."""
    target = getattr(command, "target", "")
    return target if isinstance(target, str) else ""


# A roll's deed, as its prompt says it: (what the one making it is doing, what the other meets)
DEEDS = {"attack": ("attacking", "attack"), "ambush": ("sneaking up on", "stealth")}


def words(what: str) -> str:
    """What a roll is for, as a prompt says it: "attack_wild" -> "the attack (Wild Die)"."""
    wild = what.endswith("_wild")
    text = what.removesuffix("_wild").replace("_", " ")
    return f"the {text}" + (" (Wild Die)" if wild else "")


class Battle:
    """A battle in progress. Close it (or use it as a context manager) to free its world."""

    def __init__(self, setup: BattleSetup, seed: int, rules: Any, *, dice: Dice | None = None,
                 table: tuple[str, ...] | frozenset[str] = (), opening_rolls: tuple[int, ...] = (),
                 asking: tuple[str, ...] | frozenset[str] = ()) -> None:
        """`rules` plays the setup's ruleset (game.rulesets makes it from the registry); `dice`
        lets a test queue forced faces before initiative is rolled. `table` names the sides
        whose dice are typed in; `opening_rolls` are the faces typed for the opening rolls
        (initiative): without enough, the constructor raises RollNeeded (its `wanted` says
        which die). The units of the `asking` sides start with their defense set to "ask" where
        the ruleset has a choice to ask (a table's players choose each time)."""
        self.session = Session(setup, seed, rules, dice)
        self.table = frozenset(table)
        self._replaying = False             # from_state: the log's typed faces are taken as they are
        self.commands: list[Command] = []
        if self.table:
            unknown = self.table - set(self.session.sides)
            if unknown:
                self.session.close()
                raise ValueError(f"no such side to play at the table: {', '.join(sorted(unknown))}")
            self.session.dice.at_table = self._at_table
            self.session.dice.type_in(opening_rolls)
        dice = self.session.dice
        try:
            dice.probing = bool(self.table)     # a pool of initiative dice is asked at once
            self.opening: list[Event] = self._run(lambda: turns.start_battle(self.session))
            if dice.probed is not None:
                raise RollNeeded(dice.probed, dice.typed_used)
        except (RollNeeded, BadRoll) as need:
            need.wanted = self.wanted(need, tuple(opening_rolls))
            self.session.close()
            raise
        finally:
            dice.probing = False
        self.opening_rolls = tuple(opening_rolls[:self.session.dice.typed_used])
        self.asking = frozenset(asking) & set(self.session.sides)
        if self.asking and "ask" in rules.standing_choices():
            for uid, unit in self.session.units():
                if unit.side in self.asking and self.session.has(uid, c.Condition):
                    self.session.get(uid, c.Condition).standing = "ask"
        self.replayed: list[Event] = []     # after from_state: every event the replay gave
        self._undo: list[_Before] = []      # the undoable commands of the turn so far, last last
        self._no_undo = NOTHING_TO_UNDO     # why the command before them cannot be undone

    # --- playing ------------------------------------------------------------------------------

    def submit(self, command: Command) -> list[Event] | Refused:
        s = self.session
        if s.closed:
            return Refused("This battle has been closed.")
        if s.over:
            return Refused("The battle is over.")
        known = (type(command) in HANDLERS or type(command) in RULESET_ACTIONS
                 or type(command) in gm.HANDLERS or isinstance(command, (EndTurn, *ORDERS_FLOW)))
        if not isinstance(command, Command) or not known:
            return Refused(f"Not a command: {command!r}.")
        if isinstance(command, GM_COMMANDS):      # the game master's, whoever's turn it is
            if s.pending is not None:
                return Refused("An attack is waiting for its defender's choice: "
                               "give the game master's call after it.")
            if s.watch_question is not None:
                return Refused("A move is waiting for a watcher's choice: "
                               "give the game master's call after it.")
            return self._carry(command)
        if isinstance(command, GiveOrders) or s.planning:
            if not isinstance(command, GiveOrders):
                waiting = "; ".join(s.side_names[side] for side in s.planning)
                return Refused(f"The round's orders are being chosen: waiting for {waiting}.")
            if not s.planning:
                return Refused("Orders are given only while a round is planned.")
            return self._carry(command)
        if s.pending is not None or s.watch_question is not None or isinstance(command, Respond):
            return self._answer(command)
        if s.rules.simultaneous != isinstance(command, Proceed) and not isinstance(command, EndTurn):
            s.use()
            if isinstance(command, Proceed):
                return Refused("Only under simultaneous orders do units carry out orders.")
            who = s.get(command.unit, c.Unit).name if command.unit in s.entities else repr(command.unit)
            return Refused(f"Under simultaneous orders {who} carries out the orders given while "
                           "planning: proceed, and give new orders next round.")
        if command.unit != s.active:
            s.use()
            assert s.active is not None, "a battle that is not over has a unit whose turn it is"
            who = s.get(s.active, c.Unit).name
            other = s.get(command.unit, c.Unit).name if command.unit in s.entities else repr(command.unit)
            return Refused(f"It is {who}'s turn, not {other}'s.")
        return self._carry(command)

    def replay(self, command: Command) -> list[Event] | Refused:
        """Submit a command of a kept log: its typed faces are taken as they are (not tried on
        a replica first); if they do not fit, it is refused, and the battle should be closed."""
        self._replaying = True
        try:
            return self.submit(command)
        finally:
            self._replaying = False

    def _carry(self, command: Command, *, tried: bool = False) -> list[Event] | Refused:
        """Carry out a command that may be given now; keep it for the replay if it took.
        `tried`: its typed faces are known to be what it needs (a replay)."""
        if command.rolls and not self.table:
            return Refused("Dice are typed in only for sides that play at the table.")
        if self.table and not (tried or self._replaying):
            fitted = self._try_at_table(command)
            if isinstance(fitted, Refused):
                return fitted
            command = fitted
        if self.table:
            self.session.dice.type_in(command.rolls)
        before, rolled = self._before(command), self.session.dice.rolled
        try:
            events = self._run(lambda: self._dispatch(command))
        except Illegal as why:
            return Refused(str(why))
        except (RollNeeded, BadRoll) as why:   # only a replay gets here: its log does not fit
            return Refused(f"its typed rolls do not fit: {why}")
        self.commands.append(command)
        self._note_undo(command, before, events, rolled)
        return events

    # --- at the table -------------------------------------------------------------------------

    def _at_table(self, roller: str | None) -> str | None:
        """The unit whose die is typed in, if `roller` (or, unnamed, the active unit) plays at
        the table."""
        s = self.session
        unit = roller if roller is not None else s.active
        if unit is None or unit not in s.entities:
            return None
        return unit if s.side_of(unit) in self.table else None

    def _try_at_table(self, command: Command) -> Command | Refused:
        """The command with just the typed faces it uses, after carrying it out on a copy;
        RollWanted if it needs another, Refused if it cannot be carried out."""
        copy_ = self._replica()
        dice = copy_.session.dice
        try:
            try:
                dice.type_in(command.rolls)
                dice.probing = True
                copy_._run(lambda: copy_._dispatch(command))
                if dice.probed is not None:
                    raise RollNeeded(dice.probed, dice.typed_used)
            except Illegal as why:
                if dice.probed is not None:     # reached only with faces the table has not typed
                    return self.wanted(RollNeeded(dice.probed, dice.typed_used), command.rolls)
                return Refused(str(why))
            except (RollNeeded, BadRoll) as need:
                return self.wanted(need, command.rolls)
            used = dice.typed_used
        finally:
            copy_.close()
            self.session.use()
        return dataclasses.replace(command, rolls=tuple(command.rolls[:used]))

    def _replica(self) -> Battle:
        """A new battle with this one's setup, seed, table and commands: the same position."""
        s = self.session
        other = Battle(s.setup, s.seed, type(s.rules)(s.setup.ruleset), table=self.table,
                       opening_rolls=self.opening_rolls, asking=self.asking)
        for command in self.commands:
            result = other._carry(command, tried=True)
            assert not isinstance(result, Refused), f"a kept command replays: {result}"
        return other

    def wanted(self, need: RollNeeded | BadRoll, typed: tuple[int, ...]) -> RollWanted:
        """The die a RollNeeded or BadRoll asks for, as the table is asked for it."""
        r = need.request
        problem = f"{need.why}." if isinstance(need, BadRoll) else ""
        dice = f"{r.count}d{r.sides}" if r.count > 1 else f"a d{r.sides}"
        if r.then == f"{r.what}_wild":
            dice += " and the Wild Die"
        who, against = self._name(r.unit), ""
        doing, done = DEEDS.get(r.deed, (r.deed, r.deed))
        if r.unit == r.target:
            against = f" against {self._name(r.attacker)}'s {done}"
        elif r.unit == r.attacker:
            who += f", {doing} {self._name(r.target)}"
        return RollWanted(f"{who}: roll {dice} for {words(r.what)}{against}",
                          r.unit, self._name(r.unit), r.what, r.sides, r.first,
                          tuple(typed[:need.typed]), problem, r.count, r.then)

    def _name(self, uid: str) -> str:
        return self.session.get(uid, c.Unit).name if uid in self.session.entities else uid

    # --- undo ---------------------------------------------------------------------------------
    # A move or a change of stance that revealed nothing (no enemy seen that was not seen
    # before, no square seen for the first time) and rolled no dice can be taken back, as long
    # as the unit's turn goes on: the state it changed is put back as it was, and the command
    # leaves the command log. Anything else draws a line undo does not cross.

    def undo_refusal(self) -> str | None:
        """Why the last command cannot be undone now, or None if it can."""
        s = self.session
        if (self._undo and not s.over and s.pending is None and s.watch_question is None
                and s.active == self._undo[-1].command.unit):
            return None
        if not self.commands or self.commands[-1].unit != s.active or s.over:
            return NOTHING_TO_UNDO
        return self._no_undo

    def undo(self) -> list[Event] | Refused:
        """Take back the last command; its events, or Refused with the reason it cannot be."""
        reason = self.undo_refusal()
        if reason is not None:
            return Refused(f"Cannot undo: {reason}.")
        s = self.session
        s.use()
        before = self._undo.pop()
        uid = before.command.unit
        now = s._parts[uid]
        for kind in [kind for kind in now if kind not in before.parts]:
            s.remove(uid, kind)
        for kind, old in before.parts.items():
            if kind in now:
                for f in dataclasses.fields(old):
                    setattr(now[kind], f.name, getattr(old, f.name))
            else:
                s.add(uid, old)
        sight = s.sight[s.side_of(uid)]
        sight.count[...] = before.count
        sight.explored[...] = before.explored
        sight.views.clear()
        sight.views.update(before.views)
        s.round, s.turn_index, s.over = before.turn
        if before.mission is not None:
            s.mission = before.mission
        self.commands.pop()
        return before.events

    def _before(self, command: Command) -> _Before | None:
        if not isinstance(command, UNDOABLE) or command.unit not in self.session.entities:
            return None
        s = self.session
        sight = s.sight[s.side_of(command.unit)]
        return _Before(command, (s.round, s.turn_index, s.over),
                       copy.deepcopy(s._parts[command.unit]), sight.count.copy(),
                       sight.explored.copy(), dict(sight.views), self._enemies_seen(command.unit),
                       mission=s.mission.snapshot() if s.mission is not None else None)

    def _enemies_seen(self, uid: str) -> set[str]:
        s = self.session
        count = s.sight[s.side_of(uid)].count
        return {other for other, (x, y) in s.enemies_on(s.side_of(uid)) if count[y, x]}

    def _note_undo(self, command: Command, before: _Before | None, events: list[Event],
                   rolled: int) -> None:
        reason = self._why_final(command, before, events, rolled)
        if reason is None:
            assert before is not None
            before.events = events
            self._undo.append(before)
        else:
            self._undo.clear()
            self._no_undo = reason

    def _why_final(self, command: Command, before: _Before | None, events: list[Event],
                   rolled: int) -> str | None:
        """Why a command just carried out cannot be undone, or None if it can."""
        s = self.session
        what = "the move" if isinstance(command, Move) else "the change of stance"
        if s.dice.rolled != rolled:
            return "dice were rolled"
        if before is None:
            return "only a move or a change of stance can be undone"
        if (s.round, s.turn_index, s.over) != before.turn or s.active != command.unit:
            return "the unit's turn is over"
        new = self._enemies_seen(command.unit) - before.seen
        if new:
            names = sorted(s.get(uid, c.Unit).name for uid in new)
            return f"{what} revealed {', '.join(names)}"
        if any(not isinstance(e, (Moved, StanceChanged)) or e.unit != command.unit for e in events):
            return f"{what} set something off" if not any(e.kind == "move_stopped" for e in events) \
                else f"{what} ran into someone unseen"
        if not (s.sight[s.side_of(command.unit)].explored == before.explored).all():
            return f"{what} showed ground not seen before"
        return None

    def _answer(self, command: Command) -> list[Event] | Refused:
        """While an attack waits for its defender's choice, or a move for a watcher's, only
        that choice is taken."""
        s = self.session
        s.use()
        question = s.watch_question
        if question is not None:
            if not isinstance(command, Respond) or command.unit != question.unit:
                return Refused(f"Waiting for {s.get(question.unit, c.Unit).name}'s player to choose "
                               f"the overwatch reaction ({', '.join(question.choices)}).")
            return self._carry(command)
        if s.pending is None:
            return Refused("No attack is waiting for a defense.")
        target = s.pending[0].target
        if not isinstance(command, Respond) or command.unit != target:
            return Refused(f"Waiting for {s.get(target, c.Unit).name}'s player to choose a defense "
                           f"({', '.join(s.pending[1])}).")
        return self._carry(command)

    @property
    def watch_question(self) -> tuple[str, str, tuple[int, int], tuple[str, ...]] | None:
        """(watcher, mover, square, choices) of a move waiting for a watcher's player to choose
        the reaction (an overwatch that asks), or None."""
        question = self.session.watch_question
        if question is None:
            return None
        return question.unit, question.mover, question.at, question.choices

    @property
    def pending(self) -> tuple[str, str, tuple[str, ...]] | None:
        """(defender, attacker, choices) of an attack waiting for a defense, or None."""
        if self.session.pending is None:
            return None
        plan, choices = self.session.pending
        return plan.target, plan.attacker, choices

    def _dispatch(self, command: Command) -> None:
        s = self.session
        if isinstance(command, GiveOrders):
            orders.give(s, command)
            if not s.planning and not turns.check_victory(s):
                turns.advance(s)            # every side has its orders: the first turn opens
            return
        if isinstance(command, Proceed):
            self._proceed(command.unit)
            return
        if isinstance(command, EndTurn) and s.rules.simultaneous:
            s.orders.pop(command.unit, None)    # the rest of its orders are given up
        if isinstance(command, EndTurn):
            turns.end_turn(s, command.unit)
            return
        if isinstance(command, GM_COMMANDS):
            gm.HANDLERS[type(command)](s, command)
            if not turns.check_victory(s) and s.active is not None and not s.is_up(s.active):
                turns.end_turn(s, s.active)      # the unit whose turn it is went down
            return
        handler = HANDLERS.get(type(command)) or s.rules.actions().get(type(command))
        if handler is None:
            handler = _not_here(RULESET_ACTIONS[type(command)])
        watched = isinstance(command, Respond) and s.watch_question is not None
        handler(s, command)
        if s.pending is not None or s.watch_question is not None:
            return                       # nothing moves on until the player asked has answered
        uid = s.active if isinstance(command, Respond) else command.unit
        assert uid is not None, "a defender answers during the attacker's turn"
        if not isinstance(command, (Move, *FREE)) and not watched and s.is_up(uid):
            s.rules.after_action(s, uid, command)
        if turns.check_victory(s):
            return
        if s.active == uid and (not s.is_up(uid) or self._spent(uid)):
            turns.end_turn(s, uid)       # a turn is over when its AP are spent

    # --- simultaneous orders ------------------------------------------------------------------

    def _proceed(self, uid: str) -> None:
        """The active unit carries out its next order; with none left, its turn ends."""
        s = self.session
        queue = s.orders.get(uid) or []
        if queue:
            self._carry_order(uid, queue.pop(0))
        if s.over or s.pending is not None or s.watch_question is not None:
            return
        left = s.orders.get(uid) or []
        if s.active != uid:                 # its AP ran out: what is left of its orders is lost
            if left:
                first = left[0].command
                s.emit(OrderLost(uid, first.kind, _named(first), "no AP left this round", "hold"),
                       to=(s.side_of(uid),))
            s.orders.pop(uid, None)
        elif not left:
            s.orders.pop(uid, None)
            turns.end_turn(s, uid)

    def _carry_order(self, uid: str, order: Order) -> None:
        s = self.session
        command = order.command
        if isinstance(command, Move):
            resumed = orders.resume_path(s, command)
            if resumed is None:
                return                      # already where the order would take it
            command = resumed
        if isinstance(command, Attack) and not command.target:   # "the nearest enemy in sight"
            found = orders.nearest_target(s, uid, command)
            if found is None:
                self._untriggered(uid, command)
                return
            command = dataclasses.replace(command, target=found)
        if isinstance(command, Reload) and orders.magazine_full(s, uid):
            self._untriggered(uid, command, "the magazine is already full")   # no shot was fired
            return
        fallen = isinstance(command, Attack) and orders.fallen_since_ordered(s, command)
        try:
            if isinstance(command, Attack) and fallen:
                state = s.get(command.target, c.Health).state
                raise Illegal(f"{s.get(command.target, c.Unit).name} is already {state}.")
            self._dispatch(command)
            return
        except Illegal as why:
            reason = str(why) if command.unit == uid and (not isinstance(command, Attack) or command.target) \
                else "no enemy in sight"
        side = s.side_of(uid)
        failed = reason
        if order.fallback == "nearest" and isinstance(command, Attack) and command.target:
            other = orders.nearest_target(s, uid, command)
            if other is not None:
                s.emit(OrderLost(uid, command.kind, command.target, reason, "nearest", other), to=(side,))
                try:
                    self._dispatch(dataclasses.replace(command, target=other))
                except Illegal:                        # checked first: only a safeguard
                    pass
                return
            if fallen:        # its aim is met: the enemy it was to put down is down
                self._untriggered(uid, command, reason.rstrip(".") + " and no other enemy is in sight")
                return
            reason = reason.rstrip(".") + "; no enemy in sight to fire at instead"
        then = "hold" if order.fallback == "hold" else "skip"
        count = 1
        if then == "hold":
            s.orders[uid] = []
        elif isinstance(command, Attack):
            count += self._lost_alike(uid, order, failed)
        s.emit(OrderLost(uid, command.kind, _named(command), reason, then, orders=count),
               to=(side,))

    def _lost_alike(self, uid: str, order: Order, failed: str) -> int:
        """The attacks right after a lost one, at the same target with the same fallback, that
        would now fail for the same reason (nothing has changed): lost with it, in one line."""
        s = self.session
        first = order.command
        queue = s.orders.get(uid) or []
        count = 0
        while queue and queue[0].fallback == order.fallback:
            nxt = queue[0].command
            if not isinstance(nxt, Attack) or not isinstance(first, Attack) or nxt.target != first.target:
                break
            try:
                attack.plan_attack(s, uid, nxt.target, nxt.mode, nxt.location, nxt.aim)
                break                       # this one could be made: it is carried out
            except Illegal as why:
                if str(why) != failed:
                    break
            queue.pop(0)
            count += 1
        return count

    def _untriggered(self, uid: str, command: Command,
                     reason: str = "no enemy in sight when its turn came") -> None:
        """An order whose condition has not come: fire on sight with no enemy in sight, fire at
        an enemy until it is down (it is, and no other is in sight to fire at instead), reload
        after firing (nothing was fired). The like orders right after it wait on the same
        condition, which nothing has changed, and go with it."""
        s = self.session
        queue = s.orders.get(uid) or []
        count = 1
        while queue and _alike(queue[0], command):
            queue.pop(0)
            count += 1
        s.emit(OrderUntriggered(uid, command.kind, reason, count), to=(s.side_of(uid),))

    def _spent(self, uid: str) -> bool:
        s = self.session
        if s.get(uid, c.ActionPoints).current > 0:
            return False
        return not s.rules.can_still_act(s, uid)

    def _run(self, action: Callable[[], None]) -> list[Event]:
        s = self.session
        s.use()
        s.events = []
        action()
        events, s.events = s.events, []
        return events

    def close(self) -> None:
        self.session.close()

    def __enter__(self) -> Battle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def names(self) -> dict[str, str]:
        """Display names for every id an event can hold: units, sides, weapons, the scenario."""
        s = self.session
        s.use()
        names = {s.setup.scenario.id: s.setup.scenario.name, "unarmed": "bare hands"}
        names.update({w.id: w.name for w in s.setup.weapons})
        names.update(s.side_names)
        names.update({uid: unit.name for uid, unit in s.units()})
        return names

    def copy(self, *, detached: bool = False) -> Battle:
        """An independent copy of the battle as it is now (`Session.copy`): a replay keeps a
        few to go back from instead of replaying from the start; `detached`, one with no esper
        world (a rehearsal: it can be made in a worker thread and has no digest)."""
        other = copy.copy(self)
        other.session = self.session.copy(detached=detached)
        if self.table:
            other.session.dice.at_table = other._at_table
        other.commands = list(self.commands)
        other._undo = []                 # a checkpoint is not undone
        other._no_undo = NOTHING_TO_UNDO
        return other

    # --- saving -------------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """Everything needed to rebuild this battle exactly: its content, seed and commands."""
        s = self.session
        state = {
            "format": STATE_FORMAT,
            "setup": s.setup.model_dump(mode="json"),
            "seed": s.seed,
            "commands": [cmd.to_dict() for cmd in self.commands],
            "digest": self.digest(),
            "summary": {"scenario": s.setup.scenario.name, "ruleset": s.setup.ruleset.id,
                        "round": s.round, "active": s.active, "over": s.over},
        }
        if self.table:
            state["table"] = sorted(self.table)
            state["opening_rolls"] = list(self.opening_rolls)
        if self.asking:
            state["asking"] = sorted(self.asking)
        return state

    @classmethod
    def from_state(cls, state: dict[str, Any], rules_for: Callable[[RulesetSpec], Any]) -> Battle:
        """Rebuild a battle by replaying its commands; raises ValueError if it does not fit.
        `rules_for` makes the ruleset that plays the saved setup's ruleset file."""
        if not isinstance(state, dict) or state.get("format") != STATE_FORMAT:
            raise ValueError("the battle state has an unknown format")
        try:
            setup = BattleSetup.model_validate(state["setup"])
            seed = int(state["seed"])
            commands = [command_from_dict(d) for d in state["commands"]]
            table = tuple(str(side) for side in state.get("table", ()))
            opening = tuple(int(face) for face in state.get("opening_rolls", ()))
            asking = tuple(str(side) for side in state.get("asking", ()))
        except (KeyError, TypeError, ValueError) as why:
            raise ValueError(f"the battle state is damaged: {why}") from None
        try:
            battle = cls(setup, seed, rules_for(setup.ruleset), table=table, opening_rolls=opening,
                         asking=asking)
        except (RollNeeded, BadRoll) as why:
            raise ValueError(f"the battle's opening rolls do not fit: {why}") from None
        replayed = list(battle.opening)
        for number, command in enumerate(commands, 1):
            result = battle.replay(command)
            if isinstance(result, Refused):
                battle.close()
                raise ValueError(f"command {number} no longer applies: {result.reason}")
            replayed.extend(result)
        battle.replayed = replayed
        if state.get("digest") not in (None, battle.digest()):
            battle.close()
            raise ValueError("replaying the battle did not give the saved position")
        return battle

    def digest(self) -> str:
        """A fingerprint of the whole battle state (units, turn, morale, dice)."""
        s = self.session
        s.use()
        units = []
        for uid, entity in sorted(s.entities.items()):
            parts: tuple[Any, ...] = esper.components_for_entity(entity)   # esper leaves it open
            comps = sorted((type(comp).__name__, asdict(comp)) for comp in parts)
            units.append((uid, comps))
        pending: Any = None if s.pending is None else (s.pending[0].attacker, s.pending[0].target)
        if s.watch_question is not None:
            pending = asdict(s.watch_question)
        planned = [] if not (s.planning or s.orders) else [
            {"planning": s.planning, "orders": {uid: [o.to_dict() for o in queue]
                                                for uid, queue in s.orders.items()},
             **({"sequences": s.sequences} if s.sequences else {})}]
        payload = [units, s.order, s.round, s.turn_index, s.over, s.winner, *([pending] if pending else []),
                   *planned, *([sorted(s.watch_passed)] if s.watch_passed else []),
                   {k: (v.start, v.current) for k, v in s.morale.items()},
                   s.dice.fingerprint()]
        text = json.dumps(payload, sort_keys=True, default=str)   # dict order does not matter
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def _alike(order: Order, command: Command) -> bool:
    """Whether `order` waits on the same condition as `command`, an untriggered order."""
    other = order.command
    if isinstance(command, Attack) and isinstance(other, Attack):
        return other.target == command.target and (not other.target or order.fallback == "nearest")
    return isinstance(command, Reload) and isinstance(other, Reload)
