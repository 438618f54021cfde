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


class StatusLine(Static):
    """One line at the top of the screen."""

    status: var[Status | None] = var(None)

    def watch_status(self, status: Status | None) -> None:
        if status is None:
            self.update("")
            return
        parts = [f"Round {status.round}", status.turn, "Space: skip" if status.skip else "",
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
            return Text(f"{odds.name}\n\n{odds.reason}\n\n[Tab] next  [Esc] back")
        return target_card(self.match, odds.preview, odds.location, odds.distance)

    def watch_target(self, target: str | None) -> None:
        self.display = target is not None


class AreaCard(Static):
    """A grenade or suppressive fire being aimed: its exact odds (`area.area_card`); shown only
    while one is."""

    card: var[Text | None] = var(None)

    def watch_card(self, card: Text | None) -> None:
        self.display = card is not None
        self.update(card or "", layout=True)


class TurnCard(Static):
    """The round, the initiative order and each side's morale (`cards.turn_card`)."""

    card: var[Text] = var(Text)

    def watch_card(self, card: Text) -> None:
        self.update(card, layout=True)


class ActionBar(Static):
    """Every action of the active unit with its key and AP cost; whose turn it is otherwise."""

    items: var[tuple[ActionItem, ...]] = var(tuple)
    playing: var[str] = var("")           # the name of the side playing, when not the viewer

    def watch_items(self) -> None:
        self._draw()

    def watch_playing(self) -> None:
        self._draw()

    def _draw(self) -> None:
        if self.items:
            self.update(action_line(list(self.items)))
        else:
            self.update(Text(f"{self.playing} is playing…") if self.playing else "")


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


class CombatLog(RichLog, can_focus=False):
    """Every roll and modifier in words, as one side saw them; Page Up / Page Down scroll it.
    A new line scrolls to the end only if the log was at its end: a player reading back keeps
    their place while the computer plays."""

    def __init__(self, match: Match, **kwargs) -> None:
        super().__init__(wrap=True, max_lines=2000, **kwargs)
        self.match = match
        self.following = True          # at the end: new lines scroll it on

    def rebuild(self, viewer: str) -> None:
        """The whole log again, from the events `viewer` saw (a new player took the seat)."""
        self.clear()
        self.following = True
        self.tell(log_lines(self.match, viewer))

    def tell_events(self, events: list[Event], viewer: str) -> None:
        seen = [event for event in events if viewer in event.seen_by]
        self.tell(tell(seen, self.match.tell, self.match.name, ap_hider(self.match, viewer)))

    def tell(self, lines: list[str]) -> None:
        for line in lines:
            self.write(Text(line), scroll_end=self.following)

    def page(self, direction: int) -> None:
        step = direction * max(1, self.size.height - 1)
        self.following = self.scroll_y + step >= self.max_scroll_y
        self.scroll_relative(y=step, animate=False)

    def on_mouse_scroll_up(self) -> None:
        self.following = False

    def on_mouse_scroll_down(self) -> None:
        self.following = self.scroll_target_y >= self.max_scroll_y - 1
