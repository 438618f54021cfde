"""d20 on the grid: initiative, the round and the turn (statuses act at its start, count down
at its end; Actions left are held for reactions). D20Grid takes these as its methods."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from game.core import components as c
from game.rulesets.tabletop.grid import GridRules
from game.core.events import Check, InitiativeOrder, StatusChanged
from game.core.session import Session
from game.core.systems.turns import check_victory
from game.rulesets.d20.core import Fighter
from game.rulesets.eclipse.core import roller_from
from game.rulesets.d20.common import DAMAGE_SOURCES, VITALITY, turn_share

if TYPE_CHECKING:
    from game.rulesets.d20.grid import D20Grid


def initiative(self: D20Grid, session: Session, uid: str) -> tuple[Check, tuple]:
    """d20 + DEX, rolled once for everyone by the core (ties: DEX, then d6 roll-offs).

    The turns system sorts by total, then by these ties: (DEX, the core's place in the
    order), so it reproduces the core's order exactly.
    """
    if self._initiative is None or uid not in self._initiative:
        self._roll_initiative(session)
    assert self._initiative is not None, "_roll_initiative has just rolled it"
    return self._initiative[uid]

def _roll_initiative(self: D20Grid, session: Session) -> None:
    attr = self.core.p.initiative_attribute
    uids = [uid for uid, _ in session.units() if session.is_up(uid)]
    fighters = [Fighter(name=uid, attributes=dict(session.get(uid, c.Stats).attributes))
                for uid in uids]
    order = self.core.initiative_order(fighters, roller_from(session.dice))
    self._initiative = {}
    for place, (uid, total) in enumerate(order):
        score = session.get(uid, c.Stats).attributes.get(attr, 0)
        check = Check.of("initiative", (total - score,), [(attr.upper(), score)])
        self._initiative[uid] = (check, (score, -place))
    self.ambush(session)

def ambush(self: D20Grid, session: Session) -> None:
    """An ambush as the text rolls it: each member of the scenario's ambushing side rolls
    Stealth (d20 + stealth + DEX) against each enemy's Awareness (d20 + awareness + PER), the
    core's `ambush`. An enemy it beats has not noticed it: it cannot react to that ambusher's
    attacks until its own first turn ("if you are aware of the attack"). An ambusher that
    beats at least one enemy remains hidden and takes its turn before initiative (first in
    round one); one that beats none is noticed and acts in its initiative place.
    CHOICE: every ambusher rolls against every enemy at the start (the grid does not know
    yet whom it will attack), in the scenario's order."""
    ambushers = {s.id for s in session.setup.scenario.sides if s.ambush}
    if session.round != 0 or not ambushers:
        return
    units = [(uid, unit) for uid, unit in session.units() if session.is_up(uid)]
    for uid, unit in units:
        if unit.side not in ambushers:
            continue
        me = self.fighter(session, uid)
        stealth = session.get(uid, c.Stats).skills.get("stealth", 0)
        for target, other in units:
            if other.side == unit.side:
                continue
            them = self.fighter(session, target)
            with session.dice.facing(uid, target, "ambush"):
                mine, theirs, won = self.core.ambush(me, them, stealth, them.awareness,
                                                     roller_from(session.dice, by=uid, defender=target))
            if won:
                self._unaware.setdefault(target, set()).add(uid)
                self._surprise.add(uid)
            verdict = "does not notice" if won else "notices"
            square = session.position(target)
            session.emit(StatusChanged(target, "ambushed" if won else "alert", 1,
                                       f"stealth {mine} against awareness {theirs}: "
                                       f"{them.name} {verdict} {me.name}"),
                         *([square] if square else []))

def start_round(self: D20Grid, session: Session) -> None:
    """The ambushers that stayed hidden act before everyone else in the first round only
    ("a turn before initiative"); the others, and everyone from the second round, act in
    initiative order."""
    if session.round not in (1, 2) or not self._initiative:
        return
    if not any(side.ambush for side in session.setup.scenario.sides):
        return
    listed = {uid: index for index, (uid, _) in enumerate(session.units())}

    def key(uid: str) -> tuple:
        assert self._initiative is not None, "checked above"
        check, ties = self._initiative[uid]
        return (-check.total, tuple(-t for t in ties), listed[uid])
    order = sorted(session.order, key=key)
    if session.round == 1:
        order = ([uid for uid in session.order if uid in self._surprise]
                 + [uid for uid in order if uid not in self._surprise])
    if order != session.order:
        session.order = order
        session.emit(InitiativeOrder(tuple(order)))

def begin_turn(self: D20Grid, session: Session, uid: str) -> str | None:
    """A new round for this unit: its reaction comes back, held actions lapse, and its
    statuses act (bleeding and burning hurt, a stun takes the turn, and a shock or frost
    inflicted since its last turn takes Actions from this one)."""
    why = GridRules.begin_turn(self, session, uid)
    cond = session.get(uid, c.Condition)
    cond.held = 0
    cond.reacted_round = 0           # CHOICE: a unit's round runs from its turn to its next
    next_turn = self._next_turn_loss.pop(uid, {})     # this is that next turn, acted or not
    self._free_used.pop(uid, None)                    # a new turn, a new Free Action
    self._reacted.pop(uid, None)                      # its reactions come back
    self._disengaged.pop(uid, None)                   # a Disengage lasts until this turn
    self._unaware.pop(uid, None)                      # it is in the fight now
    if why is not None:
        return why
    roll = roller_from(session.dice, by=uid)
    table = self.core.p.statuses
    for name in sorted(cond.statuses):
        status = table.get(name)
        if status is None or not status.damage or name not in cond.statuses:
            continue
        taken = self.core.status_tick(name, roll)
        source, damage_type = DAMAGE_SOURCES.get(name, (name, name))
        self.damage(session, uid, source, (taken,), taken, 0, taken, damage_type)
        if not session.is_up(uid):
            check_victory(session)     # the last of a side may bleed out
            return None
    ap = session.get(uid, c.ActionPoints)
    causes: dict[str, int] = {}
    for name, turns in sorted(cond.statuses.items()):
        status = table.get(name)
        if status is None or not status.actions_lost or turns <= 0 or status.lost_on != "each_turn":
            continue
        gone = turn_share(status.actions_lost, turns)
        if gone:
            causes[name] = gone
    for name, share in sorted(next_turn.items()):
        if name in cond.statuses:     # CHOICE: a half Action rounds up
            causes[name] = causes.get(name, 0) + math.ceil(share)
    if not causes:
        return None
    ap.current = max(0, ap.current - sum(causes.values()))
    if ap.current > 0:
        for name, gone in causes.items():
            self.set_status(session, uid, name, cond.statuses[name],
                            f"{name}: {gone} Action{'s' if gone > 1 else ''} lost this turn")
        return None
    reason = f"{' and '.join(causes)}: no Actions this turn"
    self.count_down(session, uid)     # the turn is over as soon as it began
    return reason

def end_turn(self: D20Grid, session: Session, uid: str) -> None:
    """Unspent Actions are held (+1 each to reactions until the next turn); statuses
    count down."""
    if session.is_up(uid):
        session.get(uid, c.Condition).held = min(session.get(uid, c.ActionPoints).current,
                                                 self.core.p.actions_per_turn)
    self.count_down(session, uid)

def count_down(self: D20Grid, session: Session, uid: str) -> None:
    """The end of a turn under statuses: a stunned unit tries its vitality test (above 13
    lifts the stun), every status has one turn fewer, and those at none end."""
    cond = session.get(uid, c.Condition)
    table = self.core.p.statuses
    roll = roller_from(session.dice, by=uid)
    for name in sorted(cond.statuses):
        turns = cond.statuses[name]
        if turns <= 0:
            continue                  # lasts until cured
        status = table.get(name)
        if status is not None and status.ends_on_test_above is not None and session.is_up(uid):
            natural = roll("vitality", 1, self.core.p.die)
            bonus = session.get(uid, c.Stats).attributes.get(VITALITY, 0)
            total = natural + bonus
            if total > status.ends_on_test_above:
                self.set_status(session, uid, name, 0,
                                f"vitality test {natural} + {bonus} = {total}, above "
                                f"{status.ends_on_test_above}: the {name} status lifts")
                continue
        if turns <= 1:
            self.set_status(session, uid, name, 0, f"the {name} status wears off")
        else:
            cond.statuses[name] = turns - 1
