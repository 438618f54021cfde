"""The scenario's objectives on screen: the objectives card and the marked zones.

Read from the engine's query (`queries.objectives`); nothing here decides whether an objective
is met. A zone an objective, a reinforcement or a trigger names is tinted on the map and named
on the status line when the cursor is on it.
"""

from __future__ import annotations

from rich.text import Text

from game.core.queries import objectives
from game.ui.glyphs import side_color, side_letter
from game.ui.match import Match

Square = tuple[int, int]
MARKS = {"open": ("○", ""), "met": ("✓", "bold green"), "failed": ("✗", "bold red")}


def zone_label(zone: str) -> str:
    return zone.replace("_", " ")


def marked_zones(match: Match) -> dict[str, list[Square]]:
    """The zones the scenario's objectives, reinforcements and triggers name, with their
    squares (deployment zones that nothing names are left unmarked)."""
    session = match.battle.session
    scenario = session.setup.scenario
    names = [o.zone for o in objectives(match.battle) if o.zone]
    names += [r.zone for r in scenario.reinforcements]
    names += [t.when.entered for t in [*scenario.reinforcements, *scenario.events]
              if t.when.entered]
    return {name: list(session.grid.zones.get(name, ())) for name in dict.fromkeys(names)}


def zone_tints(match: Match) -> dict[Square, str]:
    return {square: "objective" for squares in marked_zones(match).values()
            for square in squares}


def zone_at(match: Match, square: Square) -> str | None:
    for name, squares in marked_zones(match).items():
        if square in squares:
            return name
    return None


def objectives_card(match: Match) -> Text:
    """Each side's objectives with their progress: ○ open, ✓ met, ✗ failed."""
    text = Text()
    found = objectives(match.battle)
    limit = match.battle.session.setup.scenario.victory
    after = "a draw" if limit.on_timeout == "draw" else f"{match.name(limit.on_timeout)} wins"
    if all(o.kind == "eliminate" for o in found):      # the plain battle: nothing to track
        return text                                     # (the card is hidden)
    text.append("Objectives\n", style="bold")
    for side in match.sides:
        mine = [o for o in found if o.side == side]
        if not mine:
            continue
        index = match.side_index(side)
        text.append(side_letter(index), style=f"bold {side_color(index)}")
        text.append(f" {match.name(side)[:22]}\n")
        for o in mine:
            mark, style = MARKS.get(o.state, ("?", ""))
            text.append(f"  {mark} ", style=style)
            text.append(o.text)
            if o.needed > 1 or o.kind in ("hold", "survive", "extract", "reach"):
                text.append(f" {o.progress}", style="grey70")
            if not o.decides:
                text.append(" (stage)", style="grey50")
            text.append("\n")
    session = match.battle.session
    if session.over:                 # what happened, not what would have at the time limit
        result = "a draw" if session.winner is None else f"{match.name(session.winner)} wins"
        text.append(f"Over in round {session.round}: {result}\n", style="grey70")
    else:
        text.append(f"After round {limit.max_rounds}: {after}\n", style="grey70")
    return text
