"""Fog of war: which squares each side sees, kept up to date as units move and fall."""

from __future__ import annotations

from game.core import components as c
from game.core.session import Session


def refresh_view(session: Session, uid: str) -> None:
    """Recount what `uid` sees after it moved, went down or came back."""
    unit = session.get(uid, c.Unit)
    sight = session.sight[unit.side]
    square = session.position(uid)
    view = None
    if square is not None and session.is_up(uid):
        view = session.grid.view(square[0], square[1], session.get(uid, c.Stats).sight)
    old = sight.views.pop(uid, None)
    if old is view:
        if view is not None:
            sight.views[uid] = view
        return
    if old is not None:
        sight.count[old.window] -= old.ones
    if view is not None:
        window = view.window
        sight.count[window] += view.ones
        sight.explored[window] |= view.mask
        sight.views[uid] = view


def unit_sees(session: Session, uid: str, square: tuple[int, int]) -> bool:
    pos = session.position(uid)
    if pos is None or not session.is_up(uid):
        return False
    return session.grid.sees(pos, square, session.get(uid, c.Stats).sight)


def unit_sees_unit(session: Session, uid: str, other: str) -> bool:
    """Whether `uid` sees `other`: its square, and neither hidden from the other by total
    cover (the ruleset's `screened`; symmetric: if you can see it, it can see you)."""
    square, pos = session.position(other), session.position(uid)
    if square is None or pos is None or not unit_sees(session, uid, square):
        return False
    rules = session.rules
    return not rules.screens or not (rules.screened(session, other, pos) or rules.screened(session, uid, square))


def visible_enemies(session: Session, side: str) -> list[str]:
    """Enemy units standing on a square the side sees (downed ones included), less those every
    unit of the side that sees the square has behind total cover."""
    count = session.sight[side].count
    seen = [uid for uid, (x, y) in session.enemies_on(side) if count[y, x]]
    if not session.rules.screens or not seen:
        return seen
    near = session.grid.near_cover
    lookers = list(session.sight[side].views)
    spots = [session.position(uid) for uid in (*seen, *lookers)]
    if not any(near[y, x] for x, y in (spot for spot in spots if spot is not None)):
        return seen                       # no one stands by cover: no one can be screened
    return [uid for uid in seen if any(unit_sees_unit(session, looker, uid) for looker in lookers)]
