"""Overwatch: half the turn's AP to watch a cone, the other half held for a shot."""

from __future__ import annotations

import math
from typing import cast

from game.core import components as c
from game.core.commands import SetOverwatch, parse_shot
from game.core.events import OverwatchAsked, OverwatchEnded, OverwatchHeld, OverwatchSet, OverwatchTriggered
from game.core.illegal import Illegal
from game.core.session import Session
from game.core.systems import attack
from game.core.systems.sight import unit_sees, unit_sees_unit

Square = tuple[int, int]


def in_cone(origin: Square, toward: Square, square: Square, degrees: float) -> bool:
    """Whether `square` lies within the cone of `degrees` from `origin` facing `toward`."""
    vx, vy = toward[0] - origin[0], toward[1] - origin[1]
    ux, uy = square[0] - origin[0], square[1] - origin[1]
    if (ux, uy) == (0, 0) or (vx, vy) == (0, 0):
        return False
    cos = (vx * ux + vy * uy) / (math.hypot(vx, vy) * math.hypot(ux, uy))
    return cos >= math.cos(math.radians(degrees / 2)) - 1e-9


def set_overwatch(session: Session, cmd: SetOverwatch) -> None:
    uid = cmd.unit
    name = session.get(uid, c.Unit).name
    held = attack.ready_firearm(session, uid, "overwatch", "Overwatch", "keep watch")
    if not session.grid.in_bounds(*cmd.toward) or tuple(cmd.toward) == session.position(uid):
        raise Illegal("Overwatch needs a direction: a square on the map other than the unit's own.")
    ap = session.get(uid, c.ActionPoints)
    cost = session.rules.overwatch_cost(ap.per_turn)
    if cmd.mode is not None:                   # the shot chosen with the watch
        _, mode, _, aim_ap = attack.price(session, uid, cmd.mode, cmd.aim)
        needed = mode.ap + aim_ap
        shot = f"{needed} more for the {mode.name} shot" + (f" aimed +{cmd.aim}" if cmd.aim else "")
    else:
        needed = min(m.ap for m in session.weapons[held.weapon].modes)
        shot = f"at least {needed} more for the shot"
    if ap.current < cost + needed:
        raise Illegal(f"Overwatch costs {cost} AP and must hold {shot}; {name} has {ap.current}.")
    held_ap = ap.current - cost
    reaction = _reaction(session, uid, cmd, held_ap)
    ap.current = 0
    toward = cast(Square, tuple(cmd.toward))   # a copy, should a caller have passed a list
    session.add(uid, c.Overwatch(toward, held_ap))
    if reaction is not None:
        session.add(uid, reaction)
    session.emit(OverwatchSet(uid, toward, cost, held_ap, cmd.ask, cmd.within), session.position(uid),
                 to=(session.side_of(uid),))


def _reaction(session: Session, uid: str, cmd: SetOverwatch, held_ap: int) -> c.WatchReaction | None:
    """The reaction chosen with the watch, checked against the AP it holds (None: the
    default, the widest mode the held AP pay for, unaimed, at any enemy)."""
    if cmd.mode is None and not cmd.aim and not cmd.targets and not cmd.within and not cmd.ask:
        return None
    if cmd.ask and session.rules.simultaneous:
        raise Illegal("Under simultaneous orders the overwatch reaction is chosen with the order: "
                      "a fire mode, an aim, whom and how near.")
    if cmd.ask and (cmd.mode is not None or cmd.aim):
        raise Illegal("An overwatch that asks chooses its shot when an enemy comes, not now.")
    if cmd.within < 0:
        raise Illegal("Overwatch fires within a number of squares: 0 (anywhere) or more.")
    for target in cmd.targets:
        if target not in session.entities or session.side_of(target) == session.side_of(uid):
            raise Illegal(f"{target!r} is not an enemy unit to watch for.")
    if cmd.mode is None and cmd.aim:
        raise Illegal("Aimed overwatch names the fire mode it aims.")
    if cmd.mode is not None:
        _, mode, _, aim_ap = attack.price(session, uid, cmd.mode, cmd.aim)
        if mode.ap + aim_ap > held_ap:
            raise Illegal(f"Overwatch holds {held_ap} AP; a {mode.name} shot aimed +{cmd.aim} "
                          f"costs {mode.ap + aim_ap}.")
    return c.WatchReaction(cmd.mode, cmd.aim, tuple(cmd.targets), cmd.within, cmd.ask)


def cone_squares(session: Session, uid: str) -> list[Square]:
    """Squares a watching unit covers (what a player sees drawn on the map)."""
    watch = session.get(uid, c.Overwatch)
    origin, degrees = session.position(uid), session.rules.p.overwatch.cone_degrees
    assert origin is not None, "a watching unit is up, so on the map"
    view = session.grid.view(*origin, session.get(uid, c.Stats).sight)
    h, w = view.mask.shape
    return [(view.ox + x, view.oy + y) for y in range(h) for x in range(w)
            if view.mask[y, x] and in_cone(origin, watch.target, (view.ox + x, view.oy + y), degrees)]


def react_to_move(session: Session, mover: str, square: Square, after: str | None = None,
                  rest: tuple[Square, ...] = ()) -> None:
    """Every enemy watching `square` fires now, in initiative order, while the mover is up
    (`after`: only the watchers after that one, once its player has answered). A watcher whose
    player is asked halts it all (`session.watch_question`, the move's `rest` kept in it) until
    the answer; only the watcher's side hears the question."""
    if session.rehearsing:
        return
    side = session.side_of(mover)
    degrees = session.rules.p.overwatch.cone_degrees
    watchers = session.watchers()
    order = session.order[session.order.index(after) + 1:] if after is not None else session.order
    for uid in (u for u in order if u in watchers):
        if not session.is_up(mover):
            return
        if session.side_of(uid) == side or not session.is_up(uid):
            continue
        watch = session.get(uid, c.Overwatch)
        origin = session.position(uid)
        assert origin is not None, "a unit that is up stands on the map"
        if not in_cone(origin, watch.target, square, degrees) or not unit_sees(session, uid, square):
            continue
        if not unit_sees_unit(session, uid, mover):
            continue
        chosen = session.get(uid, c.WatchReaction) if session.has(uid, c.WatchReaction) else None
        if chosen is not None and not _fires_at(session, chosen, origin, mover, square):
            continue
        if chosen is not None and chosen.ask:
            if uid in session.watch_passed:
                continue
            holds = ("wait", "pass") if rest else ("pass",)     # no later step to wait for
            choices = (*shots(session, uid, watch.held_ap), *holds)
            session.watch_question = c.WatchQuestion(uid, mover, square, choices, rest)
            session.emit(OverwatchAsked(uid, mover, square, choices), to=(session.side_of(uid),))
            return
        session.remove(uid, c.Overwatch)
        session.remove(uid, c.WatchReaction)
        session.emit(OverwatchTriggered(uid, mover, square), session.position(uid), square,
                     to=(session.side_of(uid), side))
        fire(session, uid, mover, watch.held_ap, chosen)


def _fires_at(session: Session, chosen: c.WatchReaction, origin: Square, mover: str,
              square: Square) -> bool:
    """Whether the chosen reaction fires at `mover` stepping onto `square`."""
    if chosen.targets and mover not in chosen.targets:
        return False
    return not chosen.within or session.grid.distance(origin, square) <= chosen.within


def shots(session: Session, uid: str, held_ap: int) -> tuple[str, ...]:
    """The shots a watcher's held AP pay for, as a Respond names them: each fire mode, the
    widest first, unaimed ("burst") and aimed as far as the held AP pay ("single+2"; the AP
    held are gone after the shot either way, so a lesser aim is never the better choice)."""
    held = session.get(uid, c.Loadout).current
    if held is None:
        return ()
    weapon = session.weapons[held.weapon]
    out = []
    for mode in sorted(weapon.modes, key=lambda m: (-m.rof, m.ap)):
        if mode.ap > held_ap:
            continue
        out.append(mode.name)
        best = 0
        for aim in range(1, weapon.aim_max + 1):
            try:
                _, _, _, aim_ap = attack.price(session, uid, mode.name, aim)
            except Illegal:
                break
            if mode.ap + aim_ap > held_ap:
                break
            best = aim
        if best:
            out.append(f"{mode.name}+{best}")
    return tuple(out)


def answer(session: Session, question: c.WatchQuestion, choice: str) -> None:
    """The watcher's player's answer: a shot now, or hold it for the mover's next step in the
    cone ("wait") or until this move is over ("pass")."""
    uid, mover = question.unit, question.mover
    if choice in ("wait", "pass"):
        if choice == "pass":
            session.watch_passed.add(uid)
        session.emit(OverwatchHeld(uid, mover, "next step" if choice == "wait" else "move over"),
                     to=(session.side_of(uid),))
        return
    watch = session.get(uid, c.Overwatch)
    chosen = session.get(uid, c.WatchReaction)
    mode, aim = parse_shot(choice)
    session.remove(uid, c.Overwatch)
    session.remove(uid, c.WatchReaction)
    # the watcher's side heard the question; the mover's learns of the watch now
    session.emit(OverwatchTriggered(uid, mover, question.at), to=(session.side_of(mover),))
    fire(session, uid, mover, watch.held_ap, c.WatchReaction(mode, aim, chosen.targets, chosen.within))


def fire(session: Session, uid: str, target: str, held_ap: int,
         chosen: c.WatchReaction | None = None) -> None:
    """The watcher's shot: the reaction chosen with the watch, or else the widest fire mode
    the held AP pay for, unaimed."""
    if chosen is not None and chosen.mode is not None:
        mode, aim = chosen.mode, chosen.aim
    else:
        held = session.get(uid, c.Loadout).current
        modes = sorted(session.weapons[held.weapon].modes, key=lambda m: (-m.rof, m.ap)) if held else []
        widest = next((m.name for m in modes if m.ap <= held_ap), None)
        if widest is None:
            session.emit(OverwatchEnded(uid, "not enough AP held to fire"), *session.where(uid),
                         to=(session.side_of(uid),))
            return
        mode, aim = widest, 0
    try:
        plan = attack.plan_attack(session, uid, target, mode, "torso", aim, held_ap=held_ap)
    except Illegal as why:
        session.emit(OverwatchEnded(uid, f"could not fire: {why}"), *session.where(uid),
                     to=(session.side_of(uid),))
        return
    attack.carry_out(session, plan, reaction=True)
