"""What a side's objectives ask of its units, for the computer players.

Read from the engine's objectives query (`queries.objectives`, public to every side): only the
objectives still open that decide the battle count.

- `go`: the zone the side must get to (reach, extract, escort, hold: the first open one); with
  `finish`, standing in it scores or wins at once (reach; extract and escort leave the battle
  there at the end of the turn). Under `escort` only the escorted unit finishes there; the
  others go along.
- `guard`: the zone the enemy must reach or leave by: stay near it. `contest`: the zone the
  enemy must hold: get into it.
- `targets`: enemy units to put down first (a `kill` target, the enemy's protected or escorted
  unit); `precious`: the side's own protected or escorted units, kept out of harm's way.
- `hold_out`: the side wins by lasting (`survive`, or a time limit that goes to it while it
  has no zone to get to, guard or contest) and has nothing to get to; `their_clock`: an enemy
  wins by lasting, so the side must press.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from game.core.engine import Battle
from game.core.queries import objectives

GO_KINDS = ("reach", "extract", "escort", "hold")
TARGET_WORTH = 3.0       # how much more putting down an objective's unit is worth


@dataclass(frozen=True, slots=True)
class Aims:
    go: str | None = None
    finish: bool = False
    mover: str | None = None            # escort: the unit that must get there
    guard: str | None = None
    contest: str | None = None
    targets: frozenset[str] = frozenset()
    precious: frozenset[str] = frozenset()
    hold_out: bool = False
    their_clock: bool = False
    fight: bool = False                 # the zone is not the old `victory: reach` (see goals)


NOTHING = Aims()


def session_objectives(battle: Battle) -> list:
    """The scenario's own `objectives:` (empty for an old `victory:` block)."""
    return battle.session.setup.scenario.objectives


def weighed_aims(battle: Battle, side: str, weighs_objectives: bool) -> Aims:
    """`aims_for`, or for a level that does not weigh objectives (`Level.objectives`) only the
    zones: no unit is worth more or kept back for an objective."""
    aims = aims_for(battle, side)
    if weighs_objectives:
        return aims
    return replace(aims, targets=frozenset(), precious=frozenset(), hold_out=False)


def aims_for(battle: Battle, side: str) -> Aims:
    """What the objectives ask of `side`. A side that wins when time runs out and has no zone
    to get to, guard or contest plays as under a `survive` objective: it can wait it out
    (`hold_out`), and its enemy must press (`their_clock`)."""
    aims = _from_objectives(battle, side)
    clock = battle.session.setup.scenario.victory.on_timeout
    if clock == "draw" or not _waits(_from_objectives(battle, clock) if clock != side else aims):
        return aims
    if clock == side:
        return replace(aims, hold_out=True)
    return replace(aims, their_clock=True)


def _waits(aims: Aims) -> bool:
    return aims.go is None and aims.guard is None and aims.contest is None


def _from_objectives(battle: Battle, side: str) -> Aims:
    scenario = battle.session.setup.scenario
    if not scenario.objectives and scenario.victory.type == "eliminate":
        return NOTHING                  # the plain battle: nothing to ask the query
    found = [o for o in objectives(battle) if o.state == "open" and o.decides]
    if all(o.kind == "eliminate" for o in found):
        return NOTHING
    mine = [o for o in found if o.side == side]
    theirs = [o for o in found if o.side != side]
    go = next((o for o in mine if o.kind in GO_KINDS), None)
    targets = {o.unit for o in mine if o.kind == "kill" and o.unit}
    targets |= {o.unit for o in theirs if o.kind in ("protect", "escort") and o.unit}
    precious = {o.unit for o in mine if o.kind in ("protect", "escort") and o.unit}
    guard = next((o.zone for o in theirs if o.kind in ("reach", "extract", "escort")), None)
    contest = next((o.zone for o in theirs if o.kind == "hold"), None)
    return Aims(go=go.zone if go else None,
                finish=go is not None and go.kind in ("reach", "extract", "escort"),
                mover=go.unit if go is not None and go.kind == "escort" else None,
                guard=guard, contest=contest,
                targets=frozenset(u for u in targets if u), precious=frozenset(precious),
                hold_out=any(o.kind == "survive" for o in mine) and go is None,
                their_clock=any(o.kind == "survive" for o in theirs),
                fight=bool(session_objectives(battle)))
