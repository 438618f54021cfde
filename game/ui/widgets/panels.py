"""The battle screen's small widgets: the status line, the cards, the action bar, the log.

Each draws what the screen hands it (the engine's answers: `UnitInfo`, `AttackPreview`,
`ActionItem`, events told in words) and decides nothing. Setting what a widget holds redraws it
(its `watch_` method); holding the same thing again costs nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from rich.text import Text
from textual.containers import VerticalScroll
from textual.reactive import var
from textual.widgets import RichLog, Static

from game.core.events import Event
from game.core.narrate import tell
from game.core.queries import AttackPreview, UnitInfo
from game.ui.actions import ActionItem
from game.ui.cards import action_line, target_card, unit_card
from game.ui.match import Match


@dataclass(frozen=True, slots=True)
class Status:
    """What the status line says: the round, whose turn, the square under the cursor."""

    round: int
    turn: str = ""              # "Hollis's turn (computer)"
    skip: bool = False          # a computer's moves are being replayed: Space skips
    square: str = ""            # "(5,2) Door, light cover: Maire Jensen"
    path: str = ""              # "path 4 AP - ENTERS OVERWATCH"
    playback: str = ""          # orders carried out: "Paused: Space goes on", the pace


class StatusLine(Static):
    """One line at the top of the screen."""

    status: var[Status | None] = var(None)

    def watch_status(self, status: Status | None) -> None:
        if status is None:
            self.update("")
            return
        skip = status.playback or ("Space: skip" if status.skip else "")
        parts = [f"Round {status.round}", status.turn, skip,
                 status.square, status.path]
        self.update(Text(" · ".join(part for part in parts if part)))


class SidePanel(VerticalScroll, can_focus=False):
    """The selected unit (or the target), the initiative order and morale."""


class UnitCard(Static):
    """The selected unit's card; hidden while a target's odds are shown."""

    unit: var[tuple[UnitInfo, bool] | None] = var(None)     # the unit, and whether it is own
    target: var[str | None] = var(None)

    def __init__(self, match: Match, **kwargs) -> None:
        super().__init__(markup=False, **kwargs)
        self.match = match

    def watch_unit(self, unit: tuple[UnitInfo, bool] | None) -> None:
        self.update(unit_card(self.match, unit[0], own=unit[1]) if unit else "", layout=True)

    def watch_target(self, target: str | None) -> None:
        self.display = target is None


@dataclass(frozen=True, slots=True)
class Odds:
    """An attack's preview, or why the unit cannot make it."""

    preview: AttackPreview | None
    location: str = ""
    distance: int = 0
    name: str = ""              # the target's, when refused
    reason: str = ""
    planning: bool = False      # an attack to be ordered (simultaneous orders)


class TargetCard(Static):
    """The exact odds of the attack being previewed; shown only while there is a target."""

    odds: var[Odds | None] = var(None)
    target: var[str | None] = var(None)

    def __init__(self, match: Match, **kwargs) -> None:
        super().__init__(markup=False, **kwargs)
        self.match = match

    def watch_odds(self, odds: Odds | None) -> None:
        self.update(self._card(odds), layout=True)

    def _card(self, odds: Odds | None) -> Text | str:
        if odds is None:
            return ""
        if odds.preview is None:
            keys = "[Esc] back" if odds.planning else "[Tab] next  [Esc] back"
            return Text(f"{odds.name}\n\n{odds.reason}\n\n{keys}")
        return target_card(self.match, odds.preview, odds.location, odds.distance,
                           odds.planning)

    def watch_target(self, target: str | None) -> None:
        self.display = target is not None


class AreaCard(Static):
    """A grenade or suppressive fire being aimed: its exact odds (`area.area_card`); shown only
    while one is."""

    card: var[Text | None] = var(None)

    def watch_card(self, card: Text | None) -> None:
        self.display = card is not None
        self.update(card or "", layout=True)


class QueueCard(Static):
    """The orders of the unit being planned (`planning.queue_card`); shown only while the
    viewer plans a round."""

    card: var[Text | None] = var(None)

    def watch_card(self, card: Text | None) -> None:
        self.display = card is not None
        self.update(card or "", layout=True)


class TurnCard(Static):
    """The round, the initiative order and each side's morale (`cards.turn_card`)."""

    card: var[Text] = var(Text)

    def watch_card(self, card: Text) -> None:
        self.update(card, layout=True)


class ObjectivesCard(Static):
    """Each side's objectives and their progress (`game.ui.objectives.objectives_card`)."""

    card: var[Text] = var(Text)

    def watch_card(self, card: Text) -> None:
        self.display = bool(card.plain)          # a plain elimination battle has no card
        self.update(card, layout=True)


class ActionBar(Static):
    """Every action of the active unit with its key and AP cost; whose turn it is otherwise."""

    items: var[tuple[ActionItem, ...]] = var(tuple)
    playing: var[str] = var("")           # who plays, when not the viewer: "Red team: playing…"

    def watch_items(self) -> None:
        self._draw()

    def watch_playing(self) -> None:
        self._draw()

    def _draw(self) -> None:
        if self.items:
            self.update(action_line(list(self.items)))
        else:
            self.update(Text(self.playing))


_TURN_AP = re.compile(r": \d+ AP( \([^()]*\))?\.$")    # "Trooper's turn: 14 AP (2 still owed)."
_AP_NOTE = re.compile(r" ?\([^()]*\bAP\b[^()]*\)")      # "(6 AP; 8 left)", "(2 AP)"


def without_ap(line: str) -> str:
    """The line with its AP figures left out."""
    return _AP_NOTE.sub("", _TURN_AP.sub(".", line))


def ap_hider(match: Match, side: str) -> Callable[[Event, str], str]:
    """(event, line) -> the line as `side` is told it: another side's unit's AP left out (how
    much a unit had and has left is not told to its enemies' player)."""
    def hide(event: Event, line: str) -> str:
        uid = getattr(event, "unit", None)
        if isinstance(uid, str) and uid in match.battle.session.entities \
                and match.side_of(uid) != side:
            return without_ap(line)
        return line
    return hide


LOG_EVENTS = 300          # events the battle screen's log is rebuilt from (the full log: all)


def log_lines(match: Match, viewer: str, limit: int | None = None) -> list[str]:
    """The log's lines from the last `limit` events `viewer` saw (LOG_EVENTS by default)."""
    events = match.seen_by(viewer, LOG_EVENTS if limit is None else limit)
    lines = tell(events, match.tell, match.name, ap_hider(match, viewer))
    if not events:
        session = match.battle.session
        lines.append(f"{session.setup.scenario.name}, round {session.round}: "
                     "the battle goes on.")
    return lines


class WrappedLog(RichLog):
    """A log of lines wrapped to its width, wrapped again when the width changes (a resized
    terminal): it never scrolls sideways. The lines are kept as text for that."""

    DEFAULT_CSS = """
    WrappedLog { overflow-x: hidden; scrollbar-gutter: stable; }
    """

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("max_lines", 2000)
        super().__init__(wrap=True, min_width=10, **kwargs)
        self.texts: list[str] = []
        self._wrapped_at: int | None = None
        self.following = True          # at the end: new lines scroll it on

    def tell(self, lines: list[str]) -> None:
        self.texts.extend(lines)
        limit = self.max_lines or len(self.texts)
        if len(self.texts) > limit:
            del self.texts[: len(self.texts) - limit]
        for line in lines:
            self.write(Text(line), scroll_end=self.following)

    def clear(self) -> WrappedLog:
        self.texts.clear()
        return super().clear()

    def on_resize(self) -> None:
        width = self.scrollable_content_region.width
        if width <= 0:
            return
        if self._size_known and self._wrapped_at is not None and width != self._wrapped_at:
            self._rewrap()
        self._wrapped_at = width              # (the first time: lines are wrapped at it now)
        if self.following:
            self.call_after_refresh(self.scroll_end, animate=False, x_axis=False)

    def _rewrap(self) -> None:
        texts = list(self.texts)
        share = self.scroll_y / self.max_scroll_y if self.max_scroll_y else 1.0
        super().clear()
        for line in texts:
            self.write(Text(line), scroll_end=False)
        if self.following:
            self.scroll_end(animate=False, immediate=False, x_axis=False)
        else:
            self.scroll_to(y=round(share * self.max_scroll_y), animate=False)


class CombatLog(WrappedLog, can_focus=False):
    """Every roll and modifier in words, as one side saw them; Page Up / Page Down scroll it.

    A new line scrolls to the end only if the log was at its end: a player reading back keeps
    their place while the computer plays, and the log's top border counts the lines come
    meanwhile; scrolling back to the end (Page Down, End) follows the new lines again.
    Changing its height or width keeps it at its end if it was there."""

    def __init__(self, match: Match, **kwargs) -> None:
        super().__init__(**kwargs)
        self.match = match
        self.unread = 0                # lines told while it was not following

    def rebuild(self, viewer: str) -> None:
        """The whole log again, from the events `viewer` saw (a new player took the seat)."""
        self.clear()
        self.follow()
        self.tell(log_lines(self.match, viewer))

    def tell_events(self, events: list[Event], viewer: str) -> None:
        seen = [event for event in events if viewer in event.seen_by]
        self.tell(tell(seen, self.match.tell, self.match.name, ap_hider(self.match, viewer)))

    def tell(self, lines: list[str]) -> None:
        super().tell(lines)
        if lines and not self.following:
            self.unread += len(lines)
            self._mark()

    def follow(self) -> None:
        """Back at the end: new lines show again."""
        self.following = True
        self.unread = 0
        self._mark()
        self.scroll_end(animate=False, immediate=False, x_axis=False)

    def _mark(self) -> None:
        self.border_title = (f"\u25bc {self.unread} new line{'' if self.unread == 1 else 's'} "
                             "\u2014 End or Page Down to follow") if self.unread else None

    def page(self, direction: int) -> None:
        step = direction * max(1, self.size.height - 1)
        target = max(0, min(self.max_scroll_y, round(self.scroll_y) + step))
        if target >= self.max_scroll_y:
            self.follow()
            return
        self.following = False
        self.scroll_to(y=target, animate=False)

    def on_mouse_scroll_up(self) -> None:
        if self.max_scroll_y > 0:
            self.following = False

    def on_mouse_scroll_down(self) -> None:
        if self.scroll_target_y >= self.max_scroll_y - 1:
            self.follow()
