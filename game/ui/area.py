"""Area actions being aimed: a grenade's throw or suppressive fire, before anything is spent.

`AreaAim` is the UI state (which action, which grenade); `area_odds` asks the engine's
queries (`preview_throw`, `preview_suppress`) for the square under the cursor; the card's words
and the map's tints are drawn from that answer alone. Nothing here decides a rule.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from rich.text import Text

from game.core.events import Refused
from game.core.queries import preview_suppress, preview_throw
from game.core.ruleset import Harm, SuppressOdds, ThrowOdds
from game.ui.match import Match

Square = tuple[int, int]
AreaOdds = ThrowOdds | SuppressOdds
SCATTER_SHOWN = 4          # the likeliest scatter squares the card lists


@dataclass(frozen=True, slots=True)
class AreaAim:
    """What is being aimed: "throw" (with the grenade's id) or "suppress"."""

    kind: str
    grenade: str | None = None


def area_odds(match: Match, aim: AreaAim, at: Square) -> AreaOdds | Refused:
    uid = match.active_uid
    if aim.kind == "throw":
        assert aim.grenade is not None, "a throw names its grenade"
        return preview_throw(match.battle, uid, aim.grenade, at)
    return preview_suppress(match.battle, uid, at)


def pct(p: float) -> str:
    """A chance as the card writes it."""
    return f"{p * 100:.0f}%"


def friends_caught(match: Match, odds: AreaOdds | Refused) -> list[Harm]:
    """The active unit's side's units (the unit itself included) the action may harm."""
    if isinstance(odds, Refused):
        return []
    side = match.side_of(match.active_uid)
    return [h for h in odds.harms if match.side_of(h.uid) == side and h.caught > 0]


def area_tints(odds: AreaOdds | Refused, explored: np.ndarray) -> dict[Square, str]:
    """The blast's rings (alternating shades) and the squares beyond them the grenade may land
    on (the card lists the likeliest), or the suppressed circle; only on squares the side has
    explored."""
    if isinstance(odds, Refused):
        return {}
    tints: dict[Square, str] = {}
    if isinstance(odds, ThrowOdds):
        for square, ring in odds.rings.items():
            tints[square] = "aim_blast" if ring % 2 == 0 else "aim_blast_odd"
        for square, chance in odds.landings:
            if square not in tints and chance > 0:
                tints[square] = "aim_landing"
    else:
        for square in odds.area:
            tints[square] = "aim_area"
    return {sq: t for sq, t in tints.items() if explored[sq[1], sq[0]]}


def area_card(match: Match, aim: AreaAim, odds: AreaOdds | Refused, kinds: int) -> Text:
    """The side panel while an area action is aimed: its cost, where it may land or the circle,
    and each unit caught with its exact odds."""
    text = Text()
    session = match.battle.session
    if aim.kind == "throw":
        grenade = session.weapons.get(aim.grenade or "")
        text.append("Throw ", style="grey70")
        text.append(grenade.name if grenade else str(aim.grenade), style="bold")
        text.append(f"\n[m] other grenade ({kinds} kinds)\n" if kinds > 1 else "\n",
                    style="grey70")
    else:
        text.append("Suppressive fire\n", style="bold")
    if isinstance(odds, Refused):
        text.append(f"\n{odds.reason}\n\n")
        text.append("Move the cursor  [Esc] cancel", style="grey70")
        return text
    side = match.side_of(match.active_uid)
    if isinstance(odds, ThrowOdds):
        hit = dict(odds.landings).get(odds.at, 0.0)
        text.append(f"at {odds.at}, {odds.ap_cost} AP\n")
        text.append("Lands there ", style="bold")
        text.append(f"{pct(hit)}\n", style="bold green")
        scatter = [(sq, p) for sq, p in odds.landings if sq != odds.at][:SCATTER_SHOWN]
        for i in range(0, len(scatter), 2):
            text.append(("else " if i == 0 else "     ")
                        + "  ".join(f"{sq[0]},{sq[1]} {pct(p)}" for sq, p in scatter[i:i + 2])
                        + "\n", style="grey70")
        text.append(f"Blast reaches {odds.radius} out\n")
    else:
        text.append(f"at {odds.at}, {odds.diameter} across\n")
        text.append(f"{odds.ap_cost} AP (the whole turn)\n")
        text.append(f"attack d10 {odds.attack_modifier:+d}\n", style="grey70")
    if not odds.harms:
        text.append("No unit the side knows of\nis caught.\n", style="grey70")
    for harm in odds.harms:
        own = match.side_of(harm.uid) == side
        text.append(match.name(harm.uid)[:20], style="bold yellow" if own else "bold")
        text.append(" (yours)\n" if own else "\n")
        if isinstance(odds, ThrowOdds):
            text.append(f" caught {pct(harm.caught)}  dmg {harm.expected_damage:.1f}\n")
            text.append(f" down {pct(harm.down)}\n")
        else:
            text.append(f" hit {pct(harm.hit)}  pinned {pct(harm.pinned)}\n")
            text.append(f" dmg {harm.expected_damage:.1f}  down {pct(harm.down)}\n")
    key = "g" if aim.kind == "throw" else "x"
    text.append(f"[{key}] {'throw' if aim.kind == 'throw' else 'fire'}  [Esc] cancel",
                style="grey70")
    return text
