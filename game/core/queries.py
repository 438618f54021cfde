"""Read-only questions about a battle, answered from what a side knows.

The app and the computer players ask these; none of them rolls a die or changes anything.
"""

from __future__ import annotations

import copy

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from game.core import components as c
from game.core.commands import Order
from game.core.engine import Battle
from game.core.events import Refused
from game.core.grid import Reach
from game.core.illegal import Illegal
from game.core.objectives import ObjectiveStatus, statuses
from game.core.ruleset import ExtraAction, FloorItem, SuppressOdds, ThrowOdds
from game.core.systems import attack, movement, overwatch
from game.core.systems.sight import unit_sees, visible_enemies

Square = tuple[int, int]


@dataclass(frozen=True, slots=True)
class UnitInfo:
    uid: str
    name: str
    side: str
    template: str
    square: Square | None
    hp: int
    max_hp: int
    state: str
    ap: int
    ap_per_turn: int
    ap_debt: int
    stance: str
    weapon: str | None          # weapon id in hand
    weapon_name: str
    ammo: int
    magazine: int
    spare: int
    weapons: tuple[str, ...]
    grenades: tuple[tuple[str, int], ...]
    abilities: tuple[tuple[str, int], ...]
    statuses: tuple[str, ...]
    morale: int
    sight: int
    ap_name: str = "AP"             # what one AP is under the ruleset (a complex action...)
    hp_name: str = "HP"             # what hp counts, in a few letters (DUR: Durability left)
    move_left: int | None = None    # squares of movement in hand (rulesets that count them)


def unit_info(battle: Battle, uid: str) -> UnitInfo:
    s = battle.session
    s.use()
    unit, health = s.get(uid, c.Unit), s.get(uid, c.Health)
    ap, stats = s.get(uid, c.ActionPoints), s.get(uid, c.Stats)
    loadout = s.get(uid, c.Loadout)
    held = loadout.current
    weapon = s.weapons[held.weapon] if held else None
    statuses = []
    if s.has(uid, c.Overwatch):
        statuses.append("overwatch")
    if s.has(uid, c.Suppressed):
        statuses.append("pinned")
    if health.stabilized and health.state != "ok":
        statuses.append("stabilized")
    statuses += s.rules.statuses(s, uid)
    return UnitInfo(
        uid=uid, name=unit.name, side=unit.side, template=unit.template, square=s.position(uid),
        hp=health.hp, max_hp=health.max_hp, state=health.state, ap=ap.current,
        ap_per_turn=ap.per_turn, ap_debt=ap.debt, stance=s.get(uid, c.Posture).stance,
        weapon=weapon.id if weapon else None, weapon_name=weapon.name if weapon else "Unarmed",
        ammo=held.ammo if held else 0, magazine=weapon.magazine if weapon else 0,
        spare=held.spare if held else 0, weapons=tuple(w.weapon for w in loadout.weapons),
        grenades=tuple(sorted((g, n) for g, n in loadout.grenades.items() if n)),
        abilities=tuple(sorted(stats.abilities.items())), statuses=tuple(statuses),
        morale=stats.morale, sight=stats.sight,
        ap_name=s.rules.ap_name, hp_name=s.rules.health_short,
        move_left=s.get(uid, c.Tempo).move_left if s.has(uid, c.Tempo) else None)


def units_known_to(battle: Battle, side: str) -> list[UnitInfo]:
    """The side's own units, and the enemies it can see right now."""
    s = battle.session
    s.use()
    seen = set(visible_enemies(s, side))
    return [unit_info(battle, uid) for uid, unit in s.units() if unit.side == side or uid in seen]


@dataclass(frozen=True, slots=True)
class Sighting:
    """An enemy a side sees right now: just where it is and how it stands."""

    uid: str
    square: Square
    hp: int
    state: str


def sightings(battle: Battle, side: str) -> list[Sighting]:
    """Enemies the side sees now (a cheaper question than `units_known_to`)."""
    s = battle.session
    s.use()
    out = []
    for uid in visible_enemies(s, side):
        health = s.get(uid, c.Health)
        square = s.position(uid)
        assert square is not None, "a unit seen stands on the map"
        out.append(Sighting(uid, square, health.hp, health.state))
    return out


def visible_squares(battle: Battle, side: str) -> np.ndarray:
    return battle.session.sight[side].count > 0


def explored_squares(battle: Battle, side: str) -> np.ndarray:
    return battle.session.sight[side].explored


def reach(battle: Battle, uid: str, most: int | None = None) -> Reach:
    """Where `uid` can walk with its AP, avoiding every unit its side knows to be in the way.

    `most` caps the AP spent walking (a smaller search) where the ruleset prices steps in AP;
    a ruleset that counts squares of movement reaches as far as its move in hand and the move
    actions its AP buy.
    """
    s = battle.session
    s.use()
    blocked = _in_the_way(battle, uid)
    budget = s.rules.reach_budget(s, uid, most)
    if not can_move(battle, uid):
        budget = 0                     # pinned or prone: nowhere to go without getting up first
    start = s.position(uid)
    assert start is not None, "only a unit on the map has squares it can reach"
    found = s.grid.reach(start, budget, s.rules.move_costs, blocked)
    return s.rules.price_reach(s, uid, found)


def _in_the_way(battle: Battle, uid: str) -> list[Square]:
    """The squares of the units `uid`'s side knows to stand where it cannot walk."""
    s = battle.session
    side = s.side_of(uid)
    return [sq for sq, other in s.occupied().items()
            if other != uid and (s.side_of(other) == side or s.sees(side, sq))]


def full_move_beyond(battle: Battle, uid: str) -> int | None:
    """Squares `uid` may walk in a turn before it counts as a full move (Eclipse Phase: a
    penalty on its attacks); None where moving carries no penalty."""
    battle.session.use()
    return battle.session.rules.full_move_beyond(battle.session, uid)


def suppression_diameter(battle: Battle, uid: str) -> int:
    """Squares across the area `uid`'s suppressive fire would pin (0: it has none)."""
    battle.session.use()
    return battle.session.rules.suppression_diameter(battle.session, uid)


def blast_radius(battle: Battle, grenade: str) -> int:
    """How many rings of squares around where it lands `grenade`'s blast reaches."""
    battle.session.use()
    return battle.session.rules.blast_radius(battle.session, grenade)


def throw_outcomes(battle: Battle, uid: str, grenade: str, at: Square,
                   squares: list[Square]) -> list[tuple[float, dict[Square, str]]]:
    """A throw of `grenade` by `uid` at `at`, before it is made: each square it may land on with
    its exact chance, and the damage dice that reach each of `squares` caught by the blast.
    The engine's throw rolls from the same distribution."""
    battle.session.use()
    return battle.session.rules.throw_outcomes(battle.session, uid, grenade, at, squares)


def revivable(battle: Battle, uid: str) -> list[str]:
    """The fallen allies `uid` could give first aid to now (the Revive command's targets)."""
    battle.session.use()
    return battle.session.rules.revivable(battle.session, uid)


def revive_odds(battle: Battle, uid: str, target: str) -> tuple[float, str] | None:
    """The chance that `uid`'s next first-aid check on `target` succeeds, and its stage
    ("stabilize" or "revive"); None under rulesets without first aid."""
    battle.session.use()
    return battle.session.rules.revive_odds(battle.session, uid, target)


def overwatch_cost(battle: Battle, uid: str) -> int:
    """AP `uid` spends to start watching (the rest of its turn's AP is held for the shot)."""
    s = battle.session
    s.use()
    return s.rules.overwatch_cost(s.get(uid, c.ActionPoints).per_turn)


def revive_cost(battle: Battle, uid: str) -> int | None:
    """AP of a first-aid check by `uid`; None under rulesets without first aid."""
    s = battle.session
    s.use()
    return s.rules.special_costs(s, uid)["revive"]


def can_move(battle: Battle, uid: str) -> bool:
    """Whether `uid` may walk now (it may not while pinned, prone or down)."""
    s = battle.session
    s.use()
    return (s.is_up(uid) and not s.has(uid, c.Suppressed)
            and s.get(uid, c.Posture).stance != "prone")


def out_of_reach(battle: Battle, uid: str, square: Square) -> str:
    """Why `uid` cannot walk to `square` this turn, in words, from what its side knows (a
    square it has not seen is only unexplored)."""
    s = battle.session
    s.use()
    side, name = s.side_of(uid), s.get(uid, c.Unit).name
    x, y = square
    if not s.grid.in_bounds(x, y):
        return f"{square} is off the map."
    if not s.sight[side].explored[y, x]:
        return f"{square} is unexplored: walk toward it to see what is there."
    if not s.grid.walkable[y, x]:
        return f"{square} is {s.terrain_name(square).lower()}: it cannot be walked on."
    blocked = _in_the_way(battle, uid)
    other = s.occupant(square)
    if other is not None and square in blocked:
        return f"{square} is occupied by {s.get(other, c.Unit).name}."
    if not can_move(battle, uid):
        try:
            movement.plan_path(s, uid, (square,))
        except Illegal as why:
            return str(why)
    start = s.position(uid)
    assert start is not None, "only a unit on the map is asked where it can walk"
    path = s.grid.walk_path(start, square, s.rules.move_costs, blocked)
    if path is None:
        return f"No way to {square} is known: walls, water or units close every way there."
    try:
        movement.plan_path(s, uid, tuple(path))
    except Illegal as why:
        return f"{square} is too far this turn. {why}"
    return (f"{square} is beyond {name}'s reach this turn: the highlighted squares are where "
            "it can walk.")


def enemy_cones(battle: Battle, side: str) -> dict[str, list[Square]]:
    """Overwatch cones of enemies this side can see: watcher uid -> squares covered."""
    s = battle.session
    s.use()
    return {uid: overwatch.cone_squares(s, uid) for uid in visible_enemies(s, side)
            if s.has(uid, c.Overwatch) and s.is_up(uid)}


def own_cones(battle: Battle, side: str) -> dict[str, list[Square]]:
    s = battle.session
    s.use()
    return {uid: overwatch.cone_squares(s, uid) for uid, unit in s.units()
            if unit.side == side and s.has(uid, c.Overwatch) and s.is_up(uid)}


def unit_sees_square(battle: Battle, uid: str, square: Square) -> bool:
    """Whether `uid` itself (not only its side) has `square` in sight."""
    battle.session.use()
    return unit_sees(battle.session, uid, square)


def opportunity_attacks(battle: Battle, uid: str, path: list[Square]) -> list[tuple[str, str]]:
    """The reactions walking `path` would draw from enemies its side sees (d20: attacks of
    opportunity, stepping out of an enemy's melee reach), as (enemy uid, mode), each enemy
    once. Nothing is rolled."""
    s = battle.session
    s.use()
    side, start = s.side_of(uid), s.position(uid)
    out: list[tuple[str, str]] = []
    for step in path:
        assert start is not None, "only a unit on the map walks a path"
        for plan in s.rules.provokers(s, uid, start, step):
            enemy = plan.attacker
            there = s.position(enemy)
            assert there is not None, "an enemy that reacts stands on the map"
            if all(enemy != e for e, _ in out) and s.sees(side, there):
                out.append((enemy, plan.mode.name))
        start = step
    return out


@contextmanager
def standing_at(battle: Battle, uid: str, square: Square, *,
                full_move: bool | None = None) -> Iterator[Battle]:
    """The battle as if `uid` stood on `square` (having made a full move, under Eclipse Phase,
    if `full_move`), to ask queries of: a computer player's "what if I went there". It is a
    copy of the state that matters, the battle itself is never touched, so the app may draw
    it meanwhile."""
    battle.session.use()
    what_if = copy.copy(battle)
    what_if.session = battle.session.what_if(uid, square=square, full_move=full_move)
    yield what_if


def as_planned(battle: Battle, uid: str, queue: Sequence[Order],
               planned: Mapping[str, Sequence[Order]] | None = None,
               sequence: Sequence[str] = ()) -> Battle:
    """The battle as `uid` will stand once the orders of `queue` are carried out, rehearsed
    from the round's start as simultaneous orders are checked (`orders.rehearse`: nothing
    rolled, nothing its side does not know asked, sight as at the round's start), after the
    `planned` orders of the friends that act before it; the orders stop at the first that
    would be refused. Its turn opened afresh: its AP are those the orders leave. A copy of
    its own to ask queries of while planning (`reach`, `preview_attack`...): the battle itself
    is never touched. Close it when done."""
    from game.core import orders
    sandbox, _ = orders.rehearsal(battle.session, uid, queue, planned, sequence)
    what_if = copy.copy(battle)
    what_if.session = sandbox
    return what_if


@contextmanager
def leaning_out(battle: Battle, uid: str) -> Iterator[Battle]:
    """The battle as if `uid` had leant out from total cover: "what would I see and hit". The
    battle itself is never touched; under rules without leaning the answers are its own."""
    s = battle.session
    s.use()
    view = s.rules.leaning(s, uid)
    if view is None:
        yield battle
        return
    what_if = copy.copy(battle)
    what_if.session = view
    yield what_if


@contextmanager
def declaring(battle: Battle, uid: str, actions: int) -> Iterator[Battle]:
    """The battle as if `uid` had declared `actions` this turn (OpenD6: -1D on every roll for
    each beyond the first): "what if I took that many". The battle itself is never touched;
    outside a ruleset of declared actions the answers are the battle's own."""
    s = battle.session
    s.use()
    if "declared_actions" not in s.rules.supports or not s.has(uid, c.Tempo):
        yield battle
        return
    what_if = copy.copy(battle)
    what_if.session = s.what_if(uid, actions=actions)
    yield what_if


@dataclass(frozen=True, slots=True)
class ActionCosts:
    """What each of a unit's actions costs in AP right now, as the engine will charge it.

    None where the action has no price for this unit (no such weapon, no grenade...).
    """

    stance: dict[tuple[str, bool], int]       # (stance, drop) -> AP
    modes: dict[str, int]                     # fire mode -> AP before aim
    aim: tuple[int, ...]                      # AP to reach aim level k from what is bought
    overwatch: int | None                     # None: the unit has not the ability
    suppress: int | None                      # None: no such action, or not the ability
    reload: int | None
    draw: dict[int, int]                      # carried weapon index -> AP
    throw: int | None
    revive: int | None
    unarmed: int
    defend: dict[str, int]                    # active/full defenses the ruleset offers -> AP


def action_costs(battle: Battle, uid: str) -> ActionCosts:
    s = battle.session
    s.use()
    rules = s.rules
    ap, stance = s.get(uid, c.ActionPoints), s.get(uid, c.Posture).stance
    loadout = s.get(uid, c.Loadout)
    weapon = s.weapons[loadout.current.weapon] if loadout.current else None
    quick = "quick_aim" in s.get(uid, c.Stats).abilities
    bought = s.get(uid, c.TurnState).aim_level
    aim = tuple(max(0, rules.aim_cost(weapon, level, quick) - rules.aim_cost(weapon, bought, quick))
                for level in range(weapon.aim_max + 1)) if weapon else (0,)
    special = rules.special_costs(s, uid)
    return ActionCosts(
        stance={(new, drop): rules.stance_cost_now(s, uid, stance, new, drop)
                for new in c.STANCES for drop in (False, True) if new != stance and (not drop or new == "prone")},
        modes={m.name: m.ap for m in weapon.modes} if weapon else {},
        aim=aim,
        overwatch=(rules.overwatch_cost(ap.per_turn)
                   if "overwatch" in s.get(uid, c.Stats).abilities else None),
        suppress=special["suppress"],
        reload=weapon.reload_ap if weapon and weapon.kind == "firearm" else None,
        draw={i: s.weapons[w.weapon].draw_ap for i, w in enumerate(loadout.weapons)},
        throw=special["throw"],
        revive=special["revive"],
        unarmed=rules.p.unarmed.ap,
        defend=rules.defense_costs(s, uid))


def lean_option(battle: Battle, uid: str) -> tuple[bool, int, str] | None:
    """Leaning out from total cover, or back: (out?, its AP, why it cannot be done now or ""),
    or None under rules without it."""
    s = battle.session
    s.use()
    return s.rules.lean_option(s, uid)


@dataclass(frozen=True, slots=True)
class AttackPreview:
    """The exact odds of an attack before it is made, with every modifier itemised."""

    attacker: str
    target: str
    weapon: str
    mode: str
    aim: int
    ap_cost: int
    attack_modifiers: tuple[tuple[str, int], ...]
    defense_modifiers: tuple[tuple[str, int], ...]
    hit_chance: float
    hits: tuple[float, ...]          # P(exactly k hits), k = 0..rof
    damage_per_hit: float            # expected, after armor
    expected_damage: float
    how: str = ""                    # how the dice decide, under rulesets other than skirmish
    rounds: int = 0                  # ammunition it spends


def preview_attack(battle: Battle, uid: str, target: str, mode: str | None = None,
                   location: str = "torso", aim: int = 0, *,
                   threat: bool = False, reaction: bool = False) -> AttackPreview | Refused:
    """The exact odds of `uid` attacking `target` now. `threat=True` asks it of a unit whose
    turn it is not (an enemy's fire to come): its AP and attacks this turn are left out.
    `reaction=True`: a watching unit's overwatch shot, paid from the AP its watch holds."""
    s = battle.session
    s.use()
    held = s.get(uid, c.Overwatch).held_ap if reaction and s.has(uid, c.Overwatch) else None
    try:
        plan = attack.plan_attack(s, uid, target, mode, location, aim, held_ap=held,
                                  turn_limits=not (threat or reaction))
    except Illegal as why:
        return Refused(str(why))
    try:
        odds = s.rules.preview(s, plan, reaction=reaction)
    except Illegal as why:
        return Refused(str(why))
    return AttackPreview(uid, target, plan.weapon.id, plan.mode.name, odds.pop("aim", 0), plan.ap_cost,
                         **odds, rounds=plan.rof if plan.weapon.kind == "firearm" else 0)


def _known_uids(battle: Battle, side: str) -> list[str]:
    """The side's own units and the enemies it sees now, in the order of play."""
    s = battle.session
    seen = set(visible_enemies(s, side))
    return [uid for uid, unit in s.units() if unit.side == side or uid in seen]


def preview_throw(battle: Battle, uid: str, grenade: str, at: Square) -> ThrowOdds | Refused:
    """`uid`'s throw of `grenade` at `at` before it is made: each square it may land on with
    its exact chance, the blast's rings around `at`, and for every unit its side knows of
    (friends and `uid` included) the chance to be caught, the expected damage and the chance
    to go down; or the reason the throw would be refused (nothing is spent)."""
    s = battle.session
    s.use()
    try:
        return s.rules.preview_throw(s, uid, grenade, at, _known_uids(battle, s.side_of(uid)))
    except Illegal as why:
        return Refused(str(why))


def preview_suppress(battle: Battle, uid: str, at: Square) -> SuppressOdds | Refused:
    """`uid`'s suppressive fire on `at` before it is fired: the circle, and for every unit its
    side knows in it (friends included) the chance to be hit, to go down and to end pinned;
    or the reason it would be refused. Each unit's Dodge is priced with the morale of now
    (a unit going down earlier in the same volley may shift it)."""
    s = battle.session
    s.use()
    try:
        return s.rules.preview_suppress(s, uid, at, _known_uids(battle, s.side_of(uid)))
    except Illegal as why:
        return Refused(str(why))


# --- the game master's panel ----------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class UnitSheet:
    """A unit's state in its ruleset's own terms, for the game master (who sees everything)."""

    uid: str
    name: str
    side: str
    active: bool                                  # its turn now
    rows: tuple[tuple[str, str], ...]             # (label, value), in the ruleset's words
    modifier: tuple[int, str] | None              # the game master's, waiting for its next attack


def initiative_order(battle: Battle) -> list[str]:
    """Every unit in the order it acts this round (the fallen too)."""
    return list(battle.session.order)


def unit_sheet(battle: Battle, uid: str) -> UnitSheet:
    s = battle.session
    s.use()
    given = s.get(uid, c.Situational) if s.has(uid, c.Situational) else None
    return UnitSheet(uid, s.get(uid, c.Unit).name, s.side_of(uid), s.active == uid,
                     tuple(s.rules.unit_sheet(s, uid)),
                     None if given is None else (given.modifier, given.reason))


def modifier_table(battle: Battle) -> list[tuple[str, str]]:
    """The situational modifiers the battle's ruleset lists, as (name, value) rows."""
    return battle.session.rules.modifier_table()


def modifier_example(battle: Battle) -> str:
    """A game master's modifier for one roll, at the scale of the battle's ruleset."""
    return battle.session.rules.modifier_example


def health_bounds(battle: Battle, uid: str) -> tuple[str, int, int]:
    """What the ruleset calls a unit's HP, and the lowest and highest the game master may set."""
    s = battle.session
    s.use()
    low, high = s.rules.health_bounds(s, uid)
    return s.rules.health_name, low, high


def objectives(battle: Battle, side: str | None = None) -> list[ObjectiveStatus]:
    """Every objective of the battle (or of `side`) with its progress and state: what it asks,
    done/needed, open, met or failed (game.core.objectives). Objectives are public: every side
    knows what the others are after."""
    s = battle.session
    s.use()
    found = statuses(s)
    return found if side is None else [o for o in found if o.side == side]


def battle_outcome(battle: Battle) -> dict[str, object]:
    """The end of a battle as plain data (a campaign or `sim --json` reads it): over, winner
    (a side id or None), reason, the round, and each objective's id, side, state and progress."""
    s = battle.session
    return {"over": s.over, "winner": s.winner, "reason": s.end_reason, "round": s.round,
            "objectives": [{"id": o.id, "side": o.side, "type": o.kind, "state": o.state,
                            "done": o.done, "needed": o.needed} for o in objectives(battle)]}


def extra_actions(battle: Battle, uid: str, target: str | None = None,
                  square: Square | None = None) -> list[ExtraAction]:
    """The ruleset's own actions for `uid` now, each with its AP and command or why it cannot
    be taken (OpenD6: aiming over rounds, Character Points; d20: unjam, recover and use an
    item, jump toward `square`)."""
    s = battle.session
    s.use()
    return s.rules.extra_actions(s, uid, target, square)


def not_offered(battle: Battle, uid: str, key: str) -> str:
    """Why the ruleset's own action under `key` is not offered to `uid` now, in words."""
    s = battle.session
    s.use()
    return s.rules.not_offered(s, uid, key) or "These rules have no such action."


def floor_items(battle: Battle, side: str) -> list[FloorItem]:
    """The items lying on squares `side` has explored (d20: medical kits, spare magazines)."""
    s = battle.session
    explored = s.sight[side].explored
    return [item for item in s.rules.floor_items(s) if explored[item.at[1], item.at[0]]]
