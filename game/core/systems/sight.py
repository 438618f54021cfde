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


def visible_enemies(session: Session, side: str) -> list[str]:
    """Enemy units standing on a square the side sees (downed ones included)."""
    count = session.sight[side].count
    return [uid for uid, (x, y) in session.enemies_on(side) if count[y, x]]
