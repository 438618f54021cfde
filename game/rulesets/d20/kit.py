"""d20 on the grid: the Combat Actions table's Unjam Weapon, Recover Item, Use Item, Jump and
Attribute Test, where the content gives them something to do. D20Grid takes these as its
methods.

The text names these actions and their Actions but not when a weapon jams, which items exist,
nor how far or how well a unit jumps; the numbers are in content/rulesets/d20.yaml (`params`:
`unjam_actions`, `recover_item_actions`, `recover_reach`, `items`, `jump`), a weapon's
`rules: {d20: {jams_on}}` and a scenario's `items:`; the choices are listed in
docs/RULESETS.md (d20).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.core import components as c
from game.core.commands import Jump, RecoverItem, Unjam, UseItem
from game.core.events import ActionTaken, Check, Moved
from game.core.illegal import Illegal
from game.core.ruleset import ExtraAction, FloorItem
from game.core.session import Session
from game.core.systems import overwatch
from game.core.systems.sight import refresh_view
from game.rulesets.d20.common import Square
from game.rulesets.eclipse.core import roller_from

if TYPE_CHECKING:
    from game.rulesets.d20.core import ItemKind
    from game.rulesets.d20.grid import D20Grid

# The action bar's keys for these actions (shift and a letter: r reloads, R unjams).
UNJAM_KEY, RECOVER_KEY, USE_KEY, JUMP_KEY = "R", "T", "U", "J"


def kit_actions(self: D20Grid) -> dict[type, Any]:
    return {Unjam: self.unjam, RecoverItem: self.recover_item, UseItem: self.use_item,
            Jump: self.jump}


def _name(session: Session, uid: str) -> str:
    return session.get(uid, c.Unit).name


def _pay(session: Session, uid: str, cost: int, what: str) -> None:
    ap = session.get(uid, c.ActionPoints)
    if cost > ap.current:
        raise Illegal(f"{what} takes {cost} Action{'s' if cost != 1 else ''}; "
                      f"{_name(session, uid)} has {ap.current}.")


# --- jams ---------------------------------------------------------------------------------------

def jammed_weapon(self: D20Grid, session: Session, uid: str) -> str | None:
    """The name of the weapon in the unit's hand if it is jammed, else None."""
    loadout = session.get(uid, c.Loadout)
    held = loadout.current
    if held is None or (uid, loadout.active) not in self._jammed:
        return None
    return session.weapons[held.weapon].name


def jam(self: D20Grid, session: Session, uid: str) -> None:
    """The weapon in hand jams: it cannot attack until unjammed."""
    self._jammed.add((uid, session.get(uid, c.Loadout).active))


def unjam_refusal(self: D20Grid, session: Session, uid: str) -> str | None:
    name = jammed_weapon(self, session, uid)
    if name is None:
        return f"{_name(session, uid)} holds no jammed weapon."
    try:
        _pay(session, uid, self.core.p.unjam_actions, f"Unjamming the {name}")
    except Illegal as why:
        return str(why)
    return None


def unjam(self: D20Grid, session: Session, cmd: Unjam) -> None:
    """Unjam Weapon (Two Actions): the weapon in hand can attack again."""
    uid = cmd.unit
    why = unjam_refusal(self, session, uid)
    if why is not None:
        raise Illegal(why)
    cost = self.core.p.unjam_actions
    session.get(uid, c.ActionPoints).current -= cost
    loadout = session.get(uid, c.Loadout)
    self._jammed.discard((uid, loadout.active))
    name = session.weapons[loadout.weapons[loadout.active].weapon].name
    session.emit(ActionTaken(uid, "unjam", cost, f"clears the jam of the {name}"),
                 session.position(uid))


# --- items on the floor -------------------------------------------------------------------------

def floor(self: D20Grid, session: Session) -> list[list[Any]]:
    """[square, item kind] of every item lying on the map: the scenario's `items:` of kinds
    these rules know, until picked up (the list is the battle's, kept by the ruleset)."""
    if self._floor is None:
        kinds = self.core.p.items
        self._floor = [[tuple(entry.at), entry.item] for entry in session.setup.scenario.items
                       if entry.item in kinds]
    return self._floor


def floor_items(self: D20Grid, session: Session) -> list[FloorItem]:
    kinds = self.core.p.items
    return [FloorItem(at, item, kinds[item].name, kinds[item].glyph)
            for at, item in floor(self, session)]


def carried(self: D20Grid, uid: str) -> list[str]:
    """The item kinds the unit has picked up and not used, in the order it picked them up."""
    return self._carried.get(uid, [])


def items_in_reach(self: D20Grid, session: Session, uid: str) -> list[tuple[Square, str]]:
    """(square, item kind) of the items the unit could pick up: on its square first, then
    next to it (within `recover_reach`), in the order they lie."""
    here = session.position(uid)
    if here is None:
        return []
    most = self.core.p.recover_reach
    near = [(tuple(at), item) for at, item in floor(self, session)
            if max(abs(at[0] - here[0]), abs(at[1] - here[1])) <= most]
    return sorted(near, key=lambda pair: pair[0] != here)


def recover_refusal(self: D20Grid, session: Session, uid: str, at: Any) -> str | None:
    name = _name(session, uid)
    if not (isinstance(at, tuple) and len(at) == 2 and all(isinstance(v, int) for v in at)):
        return f"{at!r} is not a square."
    lying = [item for square, item in items_in_reach(self, session, uid) if square == at]
    if not lying:
        if any(tuple(square) == at for square, _ in floor(self, session)):
            return (f"The item at {at} is out of {name}'s reach: it picks up items on its own "
                    "square or one next to it.")
        return f"There is no item at {at} to pick up."
    try:
        _pay(session, uid, self.core.p.recover_item_actions, "Recovering an item")
    except Illegal as why:
        return str(why)
    return None


def recover_item(self: D20Grid, session: Session, cmd: RecoverItem) -> None:
    """Recover Item (One Action): pick up the first item lying at `at` (the unit's square or
    one next to it)."""
    uid = cmd.unit
    why = recover_refusal(self, session, uid, cmd.at)
    if why is not None:
        raise Illegal(why)
    at: Square = (cmd.at[0], cmd.at[1])
    cost = self.core.p.recover_item_actions
    session.get(uid, c.ActionPoints).current -= cost
    lying = floor(self, session)
    index = next(i for i, (square, _) in enumerate(lying) if tuple(square) == at)
    item = lying.pop(index)[1]
    self._carried.setdefault(uid, []).append(item)
    session.emit(ActionTaken(uid, "recover_item", cost,
                             f"picks up the {self.core.p.items[item].name} at {at}"),
                 session.position(uid), at)


def use_refusal(self: D20Grid, session: Session, uid: str, item: str) -> str | None:
    name = _name(session, uid)
    if not isinstance(item, str):
        return f"{item!r} is not an item."
    kind = self.core.p.items.get(item)
    if kind is None or item not in carried(self, uid):
        what = kind.name if kind is not None else repr(item)
        return f"{name} carries no {what}."
    if kind.heal:
        health = session.get(uid, c.Health)
        if health.hp >= health.max_hp:
            return f"{name} is unhurt: the {kind.name} would do nothing."
    if kind.magazines:
        held = session.get(uid, c.Loadout).current
        if held is None or session.weapons[held.weapon].kind != "firearm":
            return f"{name} holds no firearm to take the {kind.name}."
    try:
        _pay(session, uid, kind.actions, f"Using the {kind.name}")
    except Illegal as why:
        return str(why)
    return None


def use_item(self: D20Grid, session: Session, cmd: UseItem) -> None:
    """Use Item (One or Two Actions, the item's `actions`): a medical kit gives back its dice
    of hit points (to the most the unit has); spare magazines go to the firearm in hand. The
    item is used up."""
    uid, item = cmd.unit, cmd.item
    why = use_refusal(self, session, uid, item)
    if why is not None:
        raise Illegal(why)
    kind: ItemKind = self.core.p.items[item]
    session.get(uid, c.ActionPoints).current -= kind.actions
    self._carried[uid].remove(item)
    done = []
    if kind.heal:
        health = session.get(uid, c.Health)
        rolled = self.core.roll_dice(kind.heal, roller_from(session.dice, by=uid), "heal")
        before = health.hp
        health.hp = min(health.max_hp, health.hp + rolled)
        done.append(f"{kind.heal} = {rolled}: {health.hp - before} hit points back "
                    f"({health.hp}/{health.max_hp})")
    if kind.magazines:
        held = session.get(uid, c.Loadout).current
        assert held is not None, "checked: a firearm in hand"
        held.spare += kind.magazines
        many = "s" if kind.magazines != 1 else ""
        done.append(f"{kind.magazines} magazine{many} for the "
                    f"{session.weapons[held.weapon].name} ({held.spare} spare)")
    session.emit(ActionTaken(uid, "use_item", kind.actions,
                             f"uses the {kind.name}: {'; '.join(done)}"),
                 session.position(uid))


# --- Attribute Test and Jump ----------------------------------------------------------------------

def attribute_test(self: D20Grid, session: Session, uid: str, attribute: str, dc: int,
                   what: str) -> tuple[Check, bool]:
    """An Attribute Test (d20 + the attribute against `dc`), rolled by the unit with the
    battle's dice (`what` names the roll), as a Check, and whether it passed."""
    score = session.get(uid, c.Stats).attributes.get(attribute, 0)
    natural, _, passed = self.core.attribute_test({attribute: score}, attribute, dc,
                                                  roller_from(session.dice, by=uid), what)
    return Check.of(f"{attribute.upper()} test", (natural,), [(attribute.upper(), score)]), passed


def jump_plan(self: D20Grid, session: Session, uid: str, to: Any) -> tuple[Square, str, int]:
    """(the square jumped over, its terrain's name, the DC) of a jump by `uid` to `to`;
    Illegal with the reason it cannot be made."""
    rule = self.core.p.jump
    if rule is None or not rule.over:
        raise Illegal(f"The {self.spec.name} rules here have nothing to jump over.")
    if not (isinstance(to, tuple) and len(to) == 2 and all(isinstance(v, int) for v in to)):
        raise Illegal(f"{to!r} is not a square.")
    here = session.position(uid)
    assert here is not None, "a unit that has the turn stands on the map"
    dx, dy = to[0] - here[0], to[1] - here[1]
    if max(abs(dx), abs(dy)) != 2 or dx % 2 or dy % 2:
        raise Illegal(f"A jump lands two squares away in a straight line, over the square "
                      f"between; {to} is not such a square from {here}.")
    over = (here[0] + dx // 2, here[1] + dy // 2)
    grid = session.grid
    if not grid.in_bounds(*to):
        raise Illegal(f"{to} is off the map.")
    terrain = grid.terrain_at(*over)
    names = {t.id: t.name for t in session.setup.terrain}
    if terrain not in rule.over:
        can = " or ".join(f"a {names.get(t, t).lower()}" for t in rule.over)
        raise Illegal(f"{over} is {names.get(terrain, terrain).lower()}: a unit can jump "
                      f"over {can} only.")
    if not grid.walkable[to[1], to[0]]:
        raise Illegal(f"{to} is {names.get(grid.terrain_at(*to), '?').lower()}: "
                      "nowhere to land.")
    other = session.occupant(to)
    if other is not None and (session.side_of(other) == session.side_of(uid)
                              or session.sees(session.side_of(uid), to)):
        raise Illegal(f"{to} is occupied by {_name(session, other)}.")
    _ready_to_jump(session, uid, rule.actions)
    return over, names.get(terrain, terrain), rule.over[terrain]


def _ready_to_jump(session: Session, uid: str, actions: int) -> None:
    """Illegal unless the unit can jump now, wherever to: on its feet, the Actions to pay."""
    if session.get(uid, c.Posture).stance == "prone":
        raise Illegal(f"{_name(session, uid)} is prone: stand up to jump.")
    _pay(session, uid, actions, "A jump")


def jump(self: D20Grid, session: Session, cmd: Jump) -> None:
    """Jump (One Action): an Attribute Test (`jump.attribute`) against the DC of the terrain
    jumped over. Passed, the unit lands beyond it (leaving an enemy's reach provokes as a step
    does); failed, it stays where it was and, with `fall_prone`, falls prone."""
    uid = cmd.unit
    over, terrain, dc = jump_plan(self, session, uid, cmd.to)
    to: Square = (cmd.to[0], cmd.to[1])
    rule = self.core.p.jump
    assert rule is not None, "jump_plan refuses a jump without the rule"
    here = session.position(uid)
    assert here is not None, "checked by jump_plan"
    ap = session.get(uid, c.ActionPoints)
    ap.current -= rule.actions
    check, passed = attribute_test(self, session, uid, rule.attribute, dc, "jump")
    test = f"{check.name} {check.describe()} against DC {dc}"
    if not passed:
        fell = ""
        if rule.fall_prone:
            session.get(uid, c.Posture).stance = "prone"
            fell = ", and falls prone"
        session.emit(ActionTaken(uid, "jump", rule.actions,
                                 f"fails to jump the {terrain.lower()} at {over}: {test}{fell}",
                                 check, False), here)
        return
    session.emit(ActionTaken(uid, "jump", rule.actions,
                             f"jumps the {terrain.lower()} at {over} to {to}: {test}", check),
                 here, to)
    if session.occupant(to) is not None:       # an enemy out of sight stands there
        session.emit(ActionTaken(uid, "jump", 0, f"cannot land on {to}: someone unseen stands "
                                 "there", None, False), here, to=(session.side_of(uid),))
        return
    self.on_step(session, uid, here, to)        # attacks of opportunity, as for a step
    if not session.is_up(uid):
        return
    pos = session.get(uid, c.Position)
    pos.x, pos.y = to
    refresh_view(session, uid)
    session.emit(Moved(uid, here, to, 0, ap.current, False), here, to, to=(session.side_of(uid),))
    overwatch.react_to_move(session, uid, to)


# --- what the app and the computer players are offered -------------------------------------------

def kit_extra_actions(self: D20Grid, session: Session, uid: str,
                      square: Square | None) -> list[ExtraAction]:
    """R: unjam the weapon in hand (only while it is jammed); T: pick up an item in reach
    (only while one is); U: use a carried item (the first picked up); J: jump toward the
    square under the cursor (only next to something to jump over)."""
    out = []
    jammed = jammed_weapon(self, session, uid)
    if jammed is not None:
        why = unjam_refusal(self, session, uid)
        out.append(ExtraAction(UNJAM_KEY, f"unjam {jammed}", self.core.p.unjam_actions,
                               Unjam(uid) if why is None else None, why or ""))
    near = items_in_reach(self, session, uid)
    if near:
        at, item = near[0]
        why = recover_refusal(self, session, uid, at)
        out.append(ExtraAction(RECOVER_KEY, f"pick up {self.core.p.items[item].name}",
                               self.core.p.recover_item_actions,
                               RecoverItem(uid, at) if why is None else None, why or ""))
    held = carried(self, uid)
    if held:
        item = held[0]
        why = use_refusal(self, session, uid, item)
        kind = self.core.p.items[item]
        out.append(ExtraAction(USE_KEY, f"use {kind.name}", kind.actions,
                               UseItem(uid, item) if why is None else None, why or ""))
    if self.jump_near(session, uid):
        assert self.core.p.jump is not None, "jump_near needs the rule"
        rule = self.core.p.jump
        command, why, odds = None, "", ""
        try:
            _ready_to_jump(session, uid, rule.actions)
        except Illegal as short:
            why = str(short)
        if square is not None and not why:
            try:
                _, _, dc = jump_plan(self, session, uid, square)
                command = Jump(uid, square)
                score = session.get(uid, c.Stats).attributes.get(rule.attribute, 0)
                chance = self.core.attribute_test_chance(score, dc)
                odds = f"{rule.attribute.upper()} d20{score:+d} vs DC {dc}, {round(100 * chance)}%"
            except Illegal as refusal:
                why = str(refusal)
        out.append(ExtraAction(JUMP_KEY, "jump", rule.actions, command, why,
                               needs_square=True, odds=odds))
    return out


def kit_not_offered(self: D20Grid, session: Session, uid: str, key: str) -> str | None:
    """Why the action under `key` is not offered to the unit now (the app says so when its
    key is pressed), or None for a key that is none of these."""
    name = _name(session, uid)
    rule = self.core.p.jump
    over = ", ".join(sorted(rule.over)) if rule is not None and rule.over else ""
    return {UNJAM_KEY: f"{name} holds no jammed weapon: there is nothing to unjam.",
            RECOVER_KEY: f"There is no item on {name}'s square or next to it to pick up.",
            USE_KEY: f"{name} carries no item to use (pick one up first: T).",
            JUMP_KEY: (f"There is nothing next to {name} to jump over ({over})." if over
                       else "These rules give nothing to jump over."),
            }.get(key)


def jump_near(self: D20Grid, session: Session, uid: str) -> bool:
    """Whether a square next to the unit is terrain it could jump over."""
    rule = self.core.p.jump
    here = session.position(uid)
    if rule is None or not rule.over or here is None:
        return False
    grid = session.grid
    return any(grid.in_bounds(here[0] + dx, here[1] + dy)
               and grid.terrain_at(here[0] + dx, here[1] + dy) in rule.over
               for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)


def kit_words(self: D20Grid, session: Session, uid: str) -> list[str]:
    """For the unit card: a jammed weapon in hand, the items carried."""
    out = []
    jammed = jammed_weapon(self, session, uid)
    if jammed is not None:
        out.append(f"{jammed} jammed")
    names = [self.core.p.items[item].name for item in carried(self, uid)]
    if names:
        out.append("carries " + ", ".join(names))
    return out
