"""What a computer player carries from one command to the next, as plain JSON data.

A save holds each computer side's memory (`player.memory()`), and a loaded battle hands it back
(`player.restore(memory, battle)`), so the player goes on exactly as it would have: the enemies
it last saw and where, the bodies, the round it last saw each square, what its unit has done
this turn, and the state of its own random generator. Reading checks every value and raises
ValueError on anything that does not fit; the caller then starts the player afresh.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import numpy as np

from game.ai.intel import Intel, Known
from game.core.engine import Battle
from game.core.queries import UnitInfo
from game.core.ruleset import Combatant

Square = tuple[int, int]
MEMORY_FORMAT = 1
_RNG_WORDS = 625          # the Mersenne Twister's state: 624 words and a position


def need(ok: bool, what: str) -> None:
    if not ok:
        raise ValueError(f"the computer player's memory is damaged ({what})")


def as_int(value: Any, what: str) -> int:
    need(isinstance(value, int) and not isinstance(value, bool), what)
    return int(value)


def as_bool(value: Any, what: str) -> bool:
    need(isinstance(value, bool), what)
    return bool(value)


def as_str(value: Any, what: str) -> str:
    need(isinstance(value, str), what)
    return str(value)


def as_float(value: Any, what: str) -> float:
    need(isinstance(value, (int, float)) and not isinstance(value, bool), what)
    return float(value)


def as_list(value: Any, what: str) -> list[Any]:
    """A list, or a tuple (a memory handed on without going through JSON)."""
    need(isinstance(value, (list, tuple)), what)
    return list(value)


def as_dict(value: Any, what: str) -> dict[str, Any]:
    need(isinstance(value, dict), what)
    return dict(value)


def square_to(sq: Square | None) -> list[int] | None:
    return None if sq is None else [int(sq[0]), int(sq[1])]


def square_from(value: Any, what: str, optional: bool = False) -> Square | None:
    if value is None and optional:
        return None
    items = as_list(value, what)
    need(len(items) == 2, what)
    return (as_int(items[0], what), as_int(items[1], what))


def turn_to(turn: tuple[int, str] | None) -> list[Any] | None:
    return None if turn is None else [turn[0], turn[1]]


def turn_from(value: Any) -> tuple[int, str] | None:
    if value is None:
        return None
    items = as_list(value, "turn")
    need(len(items) == 2, "turn")
    return (as_int(items[0], "turn"), as_str(items[1], "turn"))


def rng_to(rng: random.Random) -> list[Any]:
    version, words, gauss = rng.getstate()
    return [version, list(words), gauss]


def rng_from(value: Any) -> random.Random:
    items = as_list(value, "random state")
    need(len(items) == 3, "random state")
    words = as_list(items[1], "random state")
    need(len(words) == _RNG_WORDS, "random state")
    state = (as_int(items[0], "random state"),
             tuple(as_int(w, "random state") for w in words),
             None if items[2] is None else as_float(items[2], "random state"))
    rng = random.Random()
    try:
        rng.setstate(state)
    except (TypeError, ValueError, OverflowError):
        need(False, "random state")
    return rng


def squares_to(squares: dict[str, Square]) -> list[list[Any]]:
    return [[uid, square_to(sq)] for uid, sq in squares.items()]


def squares_from(value: Any, what: str) -> dict[str, Square]:
    out: dict[str, Square] = {}
    for item in as_list(value, what):
        pair = as_list(item, what)
        need(len(pair) == 2, what)
        square = square_from(pair[1], what)
        assert square is not None
        out[as_str(pair[0], what)] = square
    return out


# --- what the tactical player knows of a unit -----------------------------------------------

def known_to(known: Known) -> dict[str, Any]:
    info = dataclasses.asdict(known.info)
    who = known.who
    return {"info": info, "square": square_to(known.square), "seen_round": known.seen_round,
            "visible": known.visible, "moved_round": known.moved_round,
            "who": {"attributes": dict(who.attributes), "skills": dict(who.skills),
                    "abilities": dict(who.abilities), "morale_modifier": who.morale_modifier},
            "weapon": known.weapon.id if known.weapon is not None else None,
            "armor": dict(known.armor)}


def _numbers(value: Any, what: str) -> dict[str, int]:
    return {as_str(k, what): as_int(v, what) for k, v in as_dict(value, what).items()}


def _info_from(value: Any) -> UnitInfo:
    data = as_dict(value, "unit card")
    kinds = {f.name: f for f in dataclasses.fields(UnitInfo)}
    need(set(data) <= set(kinds), "unit card")
    args: dict[str, Any] = {}
    for name, raw in data.items():
        if name in ("square",):
            args[name] = square_from(raw, name, optional=True)
        elif name in ("weapons", "statuses"):
            args[name] = tuple(as_str(v, name) for v in as_list(raw, name))
        elif name in ("grenades", "abilities"):
            pairs = [as_list(p, name) for p in as_list(raw, name)]
            need(all(len(p) == 2 for p in pairs), name)
            args[name] = tuple((as_str(p[0], name), as_int(p[1], name)) for p in pairs)
        elif name in ("weapon", "move_left"):
            args[name] = None if raw is None else (as_str(raw, name) if name == "weapon"
                                                   else as_int(raw, name))
        elif name in ("uid", "name", "side", "template", "state", "stance", "weapon_name",
                      "ap_name", "hp_name"):
            args[name] = as_str(raw, name)
        else:
            args[name] = as_int(raw, name)
    try:
        return UnitInfo(**args)
    except TypeError:
        need(False, "unit card")
        raise


def known_from(value: Any, battle: Battle) -> Known:
    data = as_dict(value, "known unit")
    who = as_dict(data.get("who"), "known unit")
    weapon_id = data.get("weapon")
    weapon = None
    if weapon_id is not None:
        weapon = battle.session.weapons.get(as_str(weapon_id, "weapon"))
        need(weapon is not None, f"weapon {weapon_id!r}")
    square = square_from(data.get("square"), "square")
    assert square is not None
    return Known(info=_info_from(data.get("info")), square=square,
                 seen_round=as_int(data.get("seen_round"), "seen_round"),
                 visible=as_bool(data.get("visible"), "visible"),
                 who=Combatant(_numbers(who.get("attributes"), "attributes"),
                               _numbers(who.get("skills"), "skills"),
                               _numbers(who.get("abilities"), "abilities"),
                               as_int(who.get("morale_modifier"), "morale")),
                 weapon=weapon, armor=_numbers(data.get("armor"), "armor"),
                 moved_round=as_int(data.get("moved_round"), "moved_round"))


def intel_to(intel: Intel) -> dict[str, Any]:
    looked = None
    if intel.looked is not None:
        looked = [[int(v) for v in row] for row in intel.looked.tolist()]
    return {"memory": [[uid, known_to(k)] for uid, k in intel.memory.items()],
            "bodies": squares_to(intel.bodies), "looked": looked, "contact": intel.contact}


def intel_from(value: Any, side: str, battle: Battle) -> Intel:
    data = as_dict(value, "intel")
    intel = Intel(side)
    for item in as_list(data.get("memory"), "memory"):
        pair = as_list(item, "memory")
        need(len(pair) == 2, "memory")
        intel.memory[as_str(pair[0], "memory")] = known_from(pair[1], battle)
    intel.bodies = squares_from(data.get("bodies"), "bodies")
    intel.contact = as_int(data.get("contact", 0), "contact")
    looked = data.get("looked")
    if looked is not None:
        grid = battle.session.grid
        rows = as_list(looked, "looked")
        need(len(rows) == grid.height, "looked")
        cells = [[as_int(v, "looked") for v in as_list(row, "looked")] for row in rows]
        need(all(len(row) == grid.width for row in cells), "looked")
        intel.looked = np.array(cells, dtype=np.int32).reshape(grid.height, grid.width)
    return intel
