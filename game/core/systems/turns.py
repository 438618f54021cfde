"""Initiative, rounds and turns, and the end of the battle."""

from __future__ import annotations

from game.content.deploy import deploy
from game.core import components as c
from game.core import objectives, orders
from game.core.events import (BattleEnded, BattleStarted, InitiativeOrder, InitiativeRolled,
                              OverwatchEnded, RoundStarted, TurnEnded,
                              TurnSkipped, TurnStarted, TurnUnseen)
from game.core.session import MoralePool, Session
from game.core.systems.carried import apply_carried
from game.core.systems.health import bleed, lift_suppression
from game.core.systems.sight import refresh_view


def start_battle(session: Session) -> None:
    """Deploy every unit, roll initiative, open round one and the first turn."""
    setup = session.setup
    objectives.start(session)
    session.emit(BattleStarted(setup.scenario.id, setup.ruleset.id, session.seed, tuple(session.sides)))
    counters: dict[str, int] = {}
    for d in deploy(setup):
        counters[d.side] = counters.get(d.side, 0) + 1
        session.spawn(f"{d.side}-{counters[d.side]}", d.name, session.templates[d.unit], d.side, (d.x, d.y))
    if setup.carried:
        apply_carried(session)
    for side in session.sides:
        total = sum(session.get(uid, c.Stats).morale for uid, u in session.units() if u.side == side)
        session.morale[side] = MoralePool(float(total), float(total))
    for uid, _ in session.units():
        refresh_view(session, uid)
    roll_initiative(session)
    start_round(session)


def roll_initiative(session: Session) -> None:
    """The ruleset's roll, highest first; an ambushing side acts before everyone it ambushed.

    Ties go to what the ruleset says breaks them, then to the unit listed first in the scenario.
    """
    ambushers = {s.id for s in session.setup.scenario.sides if s.ambush} if session.round == 0 else set()
    keyed = []
    for index, (uid, unit) in enumerate(session.units()):
        if not session.is_up(uid) or session.has(uid, c.Left):
            continue                    # rolled again each round (OpenD6): the fallen do not roll
        with session.dice.by(uid):
            check, ties = session.rules.initiative(session, uid)
        ambusher = unit.side in ambushers
        session.emit(InitiativeRolled(uid, check, ambusher))
        keyed.append(((0 if ambusher else 1), -check.total, tuple(-t for t in ties), index, uid))
    session.order = [key[-1] for key in sorted(keyed)]
    session.emit(InitiativeOrder(tuple(session.order)))


def start_round(session: Session) -> None:
    session.round += 1
    session.turn_index = -1
    session.emit(RoundStarted(session.round))
    _arrive(session)
    if session.rules.reroll_initiative and session.round > 1:
        roll_initiative(session)
    session.rules.start_round(session)
    bleed(session)
    if check_victory(session):
        return
    if session.rules.simultaneous:
        orders.begin_planning(session)     # the turns begin once every side has its orders
    else:
        advance(session)


def _arrive(session: Session) -> None:
    """Reinforcements due join the battle: at the end of the order, their morale in the pool."""
    for uid in objectives.arrive(session):
        session.order.append(uid)
        pool = session.morale[session.side_of(uid)]
        morale = session.get(uid, c.Stats).morale
        pool.start += morale
        pool.current += morale
        refresh_view(session, uid)


def end_turn(session: Session, uid: str) -> None:
    session.rules.end_turn(session, uid)
    session.emit(TurnEnded(uid), *session.where(uid), to=(session.side_of(uid),))
    objectives.leave_by_exit(session, uid)
    if not check_victory(session):
        advance(session)


def advance(session: Session) -> None:
    """Give the turn to the next unit able to act, opening new rounds as needed."""
    while not session.over:
        session.turn_index += 1
        if session.turn_index >= len(session.order):
            objectives.end_round(session)
            if check_victory(session):
                return
            if session.round >= session.setup.scenario.victory.max_rounds:
                finish(session, _timeout_winner(session), "time ran out")
                return
            start_round(session)
            return
        uid = session.order[session.turn_index]
        if session.is_up(uid) and not session.has(uid, c.Left) and begin_turn(session, uid):
            return


def begin_turn(session: Session, uid: str) -> bool:
    """Open `uid`'s turn. Returns False when it cannot act (still paying for a long action)."""
    side = session.side_of(uid)
    if session.has(uid, c.Overwatch):
        session.remove(uid, c.Overwatch)
        session.remove(uid, c.WatchReaction)
        session.emit(OverwatchEnded(uid, "new turn"), *session.where(uid), to=(side,))
    lift_suppression(session, uid, "the suppressor let up")
    ap = session.get(uid, c.ActionPoints)
    grant = ap.per_turn - ap.debt
    if grant <= 0:
        ap.debt -= ap.per_turn
        ap.current = 0
        session.emit(TurnSkipped(uid, f"still busy with a long action ({ap.debt} AP to go)"),
                     *session.where(uid), to=(side,))
        return False
    owed, ap.debt, ap.current = ap.debt, 0, grant
    session.add(uid, c.TurnState())
    why = session.rules.begin_turn(session, uid)
    if why is not None or not session.is_up(uid):
        if session.is_up(uid):
            assert why is not None, "a unit that is up is only skipped for a reason"
            session.emit(TurnSkipped(uid, why), *session.where(uid), to=(side,))
        return False
    # Its side, and whoever sees it, learn its AP; the others only that it acts, out of sight.
    started = session.emit(TurnStarted(uid, side, session.round, ap.current, owed),
                           *session.where(uid), to=(side,))
    blind = tuple(other for other in session.sides if other not in started.seen_by)
    if blind:
        session.emit(TurnUnseen(uid, side, session.round), to=blind)
    session.rules.turn_started(session, uid)
    return session.is_up(uid)


def check_victory(session: Session) -> bool:
    """Tell objectives met and fire triggers, then end the battle if the objectives or the
    sides left standing decide it (game.core.objectives)."""
    if session.over:
        return True
    found = objectives.statuses(session)
    objectives.review(session, found)
    over, winner, reason = objectives.decide(session, found)
    if over:
        finish(session, winner, reason)
    return over


def _timeout_winner(session: Session) -> str | None:
    target = session.setup.scenario.victory.on_timeout
    return None if target == "draw" else target


def finish(session: Session, winner: str | None, reason: str) -> None:
    session.over = True
    session.winner = winner
    session.end_reason = reason
    session.emit(BattleEnded(winner, reason))
