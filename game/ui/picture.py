"""What the battle screen shows of the battle, asked of the engine's queries.

A `Picture` is taken after every change of the battle, for the side whose player looks: the
units it knows, the scene drawn from its fog, where the selected unit can walk, the standing
tints. The screen redraws from it as the cursor moves, without asking the battle again for any
of it. Nothing here decides a rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from game.core import events as ev
from game.core.events import Event
from game.core.grid import Reach
from game.core.queries import (AttackPreview, UnitInfo, explored_squares, extra_actions, floor_items,
                               opportunity_attacks, preview_attack, reach, revivable,
                               unit_sees_square, visible_squares)
from game.ui.board import Scene, TerrainLook, line_between, rings
from game.ui.match import Match
from game.ui.objectives import zone_at, zone_label
from game.ui.scene import board_scene, danger_squares, known_units, standing_tints
from game.ui.widgets.panels import Odds, Status

Square = tuple[int, int]


@dataclass(eq=False)
class Picture:
    """One side's view of the battle after its last change."""

    viewer: str
    turn_side: str | None                # whose turn it was when it was taken
    known: dict[Square, UnitInfo]        # the side's units and the enemies it sees, by square
    scene: Scene                         # fog and units, before the cursor's overlays
    reach: Reach | None                  # where the selected unit can walk, on its turn
    standing: dict[Square, str]          # tints that stay while the cursor moves
    danger: set[Square]                  # squares in a known enemy's overwatch cone
    items: dict[Square, tuple[str, ...]] = field(default_factory=dict)   # on the floor, seen

    def square_of(self, uid: str | None) -> Square | None:
        return next((sq for sq, info in self.known.items() if info.uid == uid), None)

    def info(self, uid: str | None) -> UnitInfo | None:
        return next((info for info in self.known.values() if info.uid == uid), None)

    def scene_with(self, path: list[Square], target: Square | None, cursor: Square) -> Scene:
        """The scene with the path to the cursor and the target tinted, and the cursor."""
        tints = self.standing
        if path or target:
            tints = dict(tints)
            for square in path:
                tints[square] = "danger" if square in self.danger else "path"
            if target:
                tints[target] = "target"
        return self.scene.with_overlay(tints, cursor)


def take_picture(match: Match, viewer: str, selected: str | None, my_turn: bool) -> Picture:
    """Ask the queries what `viewer` knows now (never while a computer player thinks)."""
    known = {info.square: info for info in known_units(match, viewer) if info.square is not None}
    walker = None
    if my_turn and selected == match.active_uid and selected is not None:
        walker = reach(match.battle, selected)
    items: dict[Square, tuple[str, ...]] = {}
    for item in floor_items(match.battle, viewer):
        items[item.at] = (*items.get(item.at, ()), item.name)
    return Picture(viewer, match.active_side, known,
                   board_scene(match, viewer, list(known.values())), walker,
                   standing_tints(match, viewer, walker.squares() if walker else None),
                   danger_squares(match, viewer), items)


def first_square(match: Match, viewer: str) -> Square | None:
    """Where the cursor starts: on the active unit if it is the viewer's, else on the viewer's
    first unit (never on a unit of the other side, which it may not see)."""
    if match.active_side == viewer:
        return match.position(match.active_uid)
    own = [uid for uid in match.battle.session.order
           if match.side_of(uid) == viewer and match.is_up(uid)]
    return match.position(own[0]) if own else None


def enemies(match: Match, picture: Picture) -> list[UnitInfo]:
    """Enemies the side sees now: those in the active unit's own sight first, nearest first
    (the others, seen by its side only, come last: their cards say why it cannot fire)."""
    session = match.battle.session
    here = match.position(match.active_uid)
    found = [i for i in picture.known.values() if i.side != picture.viewer]
    if here is None:
        return found
    battle, active = match.battle, match.active_uid
    return sorted(found, key=lambda i: (not unit_sees_square(battle, active, i.square),
                                        session.grid.distance(here, i.square), i.uid))


def revive_target(match: Match, picture: Picture, cursor: Square) -> str | None:
    """The fallen ally under the cursor the active unit could give first aid to, or else the
    first such ally next to it (the engine says who may be revived)."""
    if match.active_uid is None:
        return None
    allies = revivable(match.battle, match.active_uid)
    under = picture.known.get(cursor)
    if under is not None and under.uid in allies:
        return under.uid
    return allies[0] if allies else None


def status_of(match: Match, picture: Picture, look: TerrainLook, cursor: Square,
              path: list[Square], busy: bool, playback: str = "") -> Status:
    """The status line: the round, whose turn, the square under the cursor, the path to it."""
    turn = ""
    session = match.battle.session
    if session.planning and not session.over:
        side = session.planning[0]
        computer = "" if match.is_human(side) else " (computer)"
        turn = f"{match.name(side)}{computer} planning"
        if match.active_uid is not None and match.is_human(side):
            turn += f": {match.name(match.active_uid)}"
    elif match.active_uid is not None:
        computer = "" if match.is_human(picture.turn_side) else " (computer)"
        turn = f"{match.name(match.active_uid)}'s turn{computer}"
        if session.rules.simultaneous:
            turn = f"{match.name(match.active_uid)} carries out its orders"
    walk, action = path_note(match, picture, cursor, path), square_action_note(match, picture, cursor)
    note = f"{walk}; or {action}" if walk and action else walk or action
    return Status(session.round, turn, busy, where(match, picture, look, cursor), note, playback)


def where(match: Match, picture: Picture, look: TerrainLook, cursor: Square) -> str:
    """The square under the cursor: its terrain and cover as the side knows it, and who is on it."""
    session = match.battle.session
    x, y = cursor
    text = f"({x},{y}) "
    explored = explored_squares(match.battle, picture.viewer)
    if explored[y, x]:
        text += f"{look.names[int(session.grid.terrain[y, x])]}"
        cover = session.grid.cover_at(x, y)
        if cover != "none":
            text += f", {cover} cover"
        elif session.grid.walkable[y, x]:
            text += shelter(session.grid.cover_around(cursor), explored, cursor)
    else:
        text += "unexplored"
    zone = zone_at(match, cursor)
    if zone is not None:
        text += f" [{zone_label(zone)}]"
    unit = picture.known.get(cursor)
    if unit is not None:
        text += f": {unit.name}"
    if cursor in picture.items:
        text += f"; on the floor: {', '.join(picture.items[cursor])}"
    return text


COMPASS = {(0, -1): "N", (1, -1): "NE", (1, 0): "E", (1, 1): "SE", (0, 1): "S", (-1, 1): "SW",
           (-1, 0): "W", (-1, -1): "NW"}


def shelter(around: list[tuple[Square, str]], explored: np.ndarray, square: Square) -> str:
    """The cover a unit on `square` has, by the side it faces (only cover the side has seen):
    ", full cover N NE, half cover E"."""
    x, y = square
    levels, parts = dict(around), []
    for level in ("full", "half"):
        sides = [name for (dx, dy), name in COMPASS.items()
                 if levels.get((dx, dy)) == level and explored[y + dy, x + dx]]
        if sides:
            parts.append(f"{level} cover {' '.join(sides)}")
    return ", " + ", ".join(parts) if parts else ""


def path_note(match: Match, picture: Picture, cursor: Square, path: list[Square]) -> str:
    """What walking the path to the cursor costs, and what it walks into."""
    if not path or picture.reach is None:
        return ""
    text = f"path {picture.reach.cost(cursor)} AP"
    if any(square in picture.danger for square in path):
        text += " - ENTERS OVERWATCH"
    active = match.active_uid
    provoked = opportunity_attacks(match.battle, active, path) if active else []
    if provoked:
        names = ", ".join(match.name(enemy) for enemy, _ in provoked)
        text += f" - ATTACK OF OPPORTUNITY from {names}"
    return text


def square_action_note(match: Match, picture: Picture, cursor: Square) -> str:
    """The ruleset's own action aimed at the square under the cursor, with what it takes
    there and its chance (d20: a jump over the ditch to it), for the viewer's acting unit."""
    uid = match.active_uid
    session = match.battle.session
    if uid is None or session.planning or session.side_of(uid) != picture.viewer:
        return ""
    for extra in extra_actions(match.battle, uid, square=cursor):
        if extra.needs_square and extra.command is not None and extra.odds:
            return f"{extra.label} ({extra.odds}) [{extra.key}]"
    return ""


def odds_of(match: Match, target: str, mode: str | None, location: str, aim: int) -> Odds:
    """The exact odds of the active unit's attack on `target` (`queries.preview_attack`)."""
    active = match.active_uid
    preview = preview_attack(match.battle, active, target, mode, location, aim)
    if not isinstance(preview, AttackPreview):
        return Odds(None, name=match.name(target), reason=preview.reason)
    distance = match.battle.session.grid.distance(match.position(active), match.position(target))
    return Odds(preview, location, distance)


class Witness:
    """Where the watching side saw each unit while a command's events are shown one by one, and
    how each action it saw is drawn for a moment (`board.EFFECTS`). Events it did not see are
    never asked about; a unit it never saw gives no square, so nothing shows where it stood."""

    def __init__(self, match: Match, picture: Picture) -> None:
        self.match = match
        self.viewer = picture.viewer
        self.where: dict[str, Square] = {info.uid: sq for sq, info in picture.known.items()}

    def moved(self, event: ev.Moved) -> None:
        self.where[event.unit] = event.end

    def square(self, uid: str) -> Square | None:
        """Where the side saw `uid` last, or where it sees it now (after the command)."""
        if uid in self.where:
            return self.where[uid]
        square = self.match.position(uid)
        if square is not None and visible_squares(self.match.battle, self.viewer)[square[1],
                                                                                 square[0]]:
            return square
        return None

    def effects(self, event: Event) -> tuple[dict[Square, str], tuple[Square, ...]] | None:
        """What to draw for `event` (square -> effect), and the squares to keep in view; None
        for an event that is not an action drawn on the board, or one seen from nowhere.
        Drawn only on squares the side has explored (the rest would show the ground it never
        saw), and a suppressed circle not on walls (their glyphs stay)."""
        shown = self._effects(event)
        if shown is None:
            return None
        battle = self.match.battle
        explored = explored_squares(battle, self.viewer)
        grid = battle.session.grid
        drawn = {sq: effect for sq, effect in shown[0].items() if explored[sq[1], sq[0]]
                 and (effect != "area" or grid.walkable[sq[1], sq[0]]
                      or grid.transparent[sq[1], sq[0]])}
        return drawn, shown[1]

    def _effects(self, event: Event) -> tuple[dict[Square, str], tuple[Square, ...]] | None:
        if self.viewer not in event.seen_by:
            return None
        drawn: dict[Square, str] = {}
        if isinstance(event, ev.AttackResolved):
            target = self.square(event.target)
            if target is None:
                return None
            shooter = self.square(event.attacker)
            self._line(drawn, shooter, target, "shot")
            drawn[target] = "hit" if event.hit else "miss"
            return drawn, (shooter, target) if shooter else (target,)
        if isinstance(event, ev.GrenadeThrown):
            thrower = self.square(event.unit)
            self._line(drawn, thrower, event.landed, "flight")
            drawn[event.landed] = "blast"
            return drawn, (thrower, event.landed) if thrower else (event.landed,)
        if isinstance(event, ev.Exploded):
            grid = self.match.battle.session.grid
            for square, ring in rings(event.at, event.radius, grid.width, grid.height).items():
                drawn[square] = "blast" if ring % 2 == 0 else "blast_ring"
            return drawn, (event.at,)
        if isinstance(event, ev.SuppressionFired):
            shooter = self.square(event.unit)
            for square in self.match.battle.session.grid.disc(event.at, event.diameter):
                drawn[square] = "area"
            self._line(drawn, shooter, event.at, "shot")
            return drawn, (shooter, event.at) if shooter else (event.at,)
        return None

    @staticmethod
    def _line(drawn: dict[Square, str], start: Square | None, end: Square, effect: str) -> None:
        if start is not None:
            for square in line_between(start, end)[1:-1]:
                drawn[square] = effect


def effects_of(match: Match, picture: Picture, events: list[Event]) -> dict[Square, str]:
    """Every action of a command the side saw, drawn at once (a person's own order)."""
    witness = Witness(match, picture)
    drawn: dict[Square, str] = {}
    for event in events:
        if isinstance(event, ev.Moved) and picture.viewer in event.seen_by:
            witness.moved(event)
        shown = witness.effects(event)
        if shown is not None:
            drawn.update(shown[0])
    return drawn
