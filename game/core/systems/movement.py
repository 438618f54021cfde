"""Walking a path square by square, and changing stance."""

from __future__ import annotations

from game.core import components as c
from game.core.commands import ChangeStance, Move, Respond
from game.core.events import MoveStopped, Moved, StanceChanged
from game.core.illegal import Illegal
from game.core.session import Session
from game.core.systems import overwatch
from game.core.systems.sight import refresh_view

Square = tuple[int, int]


def plan_path(session: Session, uid: str, path: tuple[Square, ...]) -> list[int]:
    """Check a path and price each step; raises Illegal with the reason."""
    name = session.get(uid, c.Unit).name
    if not path:
        raise Illegal("The path is empty.")
    if session.has(uid, c.Suppressed):
        raise Illegal(f"{name} is pinned down by suppressive fire and cannot move.")
    if session.get(uid, c.Posture).stance == "prone":
        raise Illegal(f"{name} is prone: crouch or stand up before moving.")
    side = session.side_of(uid)
    occupied = session.occupied()
    costs, here = [], session.position(uid)
    for step in path:
        if not (isinstance(step, tuple) and len(step) == 2 and all(isinstance(v, int) for v in step)):
            raise Illegal(f"{step!r} is not a square.")
        if not session.grid.in_bounds(*step):
            raise Illegal(f"{step} is off the map.")
        assert here is not None, "a unit that has the turn stands on the map"
        cost = session.grid.step_cost(here, step, session.rules.move_costs)
        if cost is None:
            what = session.grid.terrain_at(*step)
            if max(abs(step[0] - here[0]), abs(step[1] - here[1])) != 1:
                raise Illegal(f"{step} is not next to {here}: a path goes one square at a time.")
            if not session.grid.walkable[step[1], step[0]]:
                raise Illegal(f"{step} is {what}: it cannot be walked on.")
            raise Illegal(f"The step from {here} to {step} cuts the corner of a wall.")
        other = occupied.get(step)
        if other is not None and (session.side_of(other) == side or session.sees(side, step)):
            raise Illegal(f"{step} is occupied by {session.get(other, c.Unit).name}.")
        costs.append(cost)
        here = step
    total, ap = session.rules.path_price(session, uid, costs), session.get(uid, c.ActionPoints).current
    if total > ap:
        raise Illegal(f"That path costs {total} AP; {name} has {ap}.")
    return costs


def move(session: Session, cmd: Move) -> None:
    costs = plan_path(session, cmd.unit, cmd.path)
    session.watch_passed.clear()       # a watcher that let the last move pass watches again
    _walk(session, cmd.unit, cmd.path, costs)


def answer_watch(session: Session, cmd: Respond) -> None:
    """The watcher's player answers the question that halted a move (`session.watch_question`);
    the watchers after it react to the same step, then the move goes on."""
    question = session.watch_question
    assert question is not None, "an answer to a watch is only taken while a move waits on it"
    if cmd.choice not in question.choices:
        raise Illegal(f"{cmd.choice!r} is not one of the choices: {', '.join(question.choices)}.")
    session.watch_question = None
    mover = question.mover
    overwatch.answer(session, question, cmd.choice)
    if session.is_up(mover):
        overwatch.react_to_move(session, mover, question.at, after=question.unit, rest=question.path)
    if session.watch_question is not None:          # the next watcher's player is asked
        return
    if not session.is_up(mover):
        session.emit(MoveStopped(mover, question.at, "went down"), question.at,
                     to=(session.side_of(mover),))
        return
    if not question.path:
        return
    try:
        costs = plan_path(session, mover, question.path)
    except Illegal as why:
        session.emit(MoveStopped(mover, question.at, str(why)), question.at,
                     to=(session.side_of(mover),))
        return
    _walk(session, mover, question.path, costs)


def _walk(session: Session, uid: str, path: tuple[Square, ...], costs: list[int]) -> None:
    """Walk `path` step by step (checked and priced by plan_path), until it ends, the unit
    goes down or is blocked, or a watcher's player is asked what to do (then the rest of the
    path waits in the question)."""
    ap, turn = session.get(uid, c.ActionPoints), session.get(uid, c.TurnState)
    pos = session.get(uid, c.Position)
    side = session.side_of(uid)
    rules = session.rules
    rehearsal = session.rehearsing     # planning: nothing the side does not know is asked
    for index, (step, cost) in enumerate(zip(path, costs, strict=True)):
        if not rehearsal and session.occupant(step) is not None:
            session.emit(MoveStopped(uid, (pos.x, pos.y), "blocked by a unit that was out of sight"),
                         (pos.x, pos.y), to=(side,))
            return
        start = (pos.x, pos.y)
        if not rehearsal:
            rules.on_step(session, uid, start, step)    # d20: attacks of opportunity
        if not session.is_up(uid):
            session.emit(MoveStopped(uid, start, "went down"), start, to=(side,))
            return
        cost = rules.step_price(session, uid, cost, commit=True)   # squares -> AP
        ap.current -= cost
        turn.move_ap += cost
        turn.aim_level = 0
        rough = bool(session.grid.rough[step[1], step[0]])
        turn.moved_rough |= rough
        pos.x, pos.y = step
        if rehearsal:
            continue
        refresh_view(session, uid)
        session.emit(Moved(uid, start, step, cost, ap.current, rough), start, step, to=(side,))
        overwatch.react_to_move(session, uid, step, rest=tuple(path[index + 1:]))
        if session.watch_question is not None:
            return
        if not session.is_up(uid):
            session.emit(MoveStopped(uid, step, "went down"), step, to=(side,))
            return


def change_stance(session: Session, cmd: ChangeStance) -> None:
    uid = cmd.unit
    posture = session.get(uid, c.Posture)
    name = session.get(uid, c.Unit).name
    if cmd.stance not in c.STANCES:
        raise Illegal(f"Unknown stance {cmd.stance!r}: stand, crouch or prone.")
    if cmd.stance == posture.stance:
        already = {"stand": "standing", "crouch": "crouching", "prone": "prone"}[cmd.stance]
        raise Illegal(f"{name} is already {already}.")
    if cmd.drop and cmd.stance != "prone":
        raise Illegal("Only prone can be dropped to.")
    if session.has(uid, c.Suppressed):
        raise Illegal(f"{name} is pinned down and must stay prone.")
    cost = session.rules.stance_cost_now(session, uid, posture.stance, cmd.stance, cmd.drop)
    ap = session.get(uid, c.ActionPoints)
    if cost > ap.current:
        raise Illegal(f"Going {cmd.stance} costs {cost} AP; {name} has {ap.current}.")
    ap.current -= cost
    turn = session.get(uid, c.TurnState)
    turn.aim_level = 0
    turn.dropped_flat |= cmd.drop
    old, posture.stance = posture.stance, cmd.stance
    session.emit(StanceChanged(uid, old, cmd.stance, cost), session.position(uid),
                 to=(session.side_of(uid),))
