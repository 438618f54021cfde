"""The action bar's contents: every action of the selected unit, its key and AP cost.

The costs come from the engine (`queries.action_costs`), priced as it will charge them; the
engine still decides. An action the unit plainly cannot afford is greyed, never hidden (one
it lacks the ability for, which the engine does not price, is not listed), and if the engine
refuses anything its reason is shown as it gave it.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.core.queries import (ActionCosts, UnitInfo, action_costs, extra_actions, lean_option,
                               unit_info)
from game.ui.match import Match


@dataclass(frozen=True, slots=True)
class ActionItem:
    key: str
    label: str
    cost: int | None           # AP; None when it does not apply or is unknown
    enabled: bool
    why: str = ""              # why it is greyed


def action_items(match: Match, uid: str, *, move_cost: int | None, mode: str | None,
                 aim: int, has_target: bool, revive_target: bool) -> list[ActionItem]:
    info = unit_info(match.battle, uid)
    costs = action_costs(match.battle, uid)
    ap, up = info.ap, info.state == "ok"
    can_move = up and move_cost is not None and move_cost <= ap
    items = [ActionItem("enter", "move", move_cost, can_move,
                        "pick a square in reach")]
    items += _attacks(match, info, costs, mode, aim, has_target)
    items += _stances(costs, info)
    items += _specials(match, info, costs)
    reload_ap = costs.reload
    can_reload = info.magazine > 0 and info.ammo < info.magazine and info.spare > 0
    items.append(ActionItem("r", "reload", reload_ap, up and can_reload and (reload_ap or 0) <= ap,
                            "full, or no spare magazines"))
    items.append(_draw(match, info, costs))
    revive_ap = costs.revive
    if revive_ap is not None:
        items.append(ActionItem("v", "revive", revive_ap,
                                up and revive_target and (revive_ap or 0) <= ap,
                                "put the cursor on a downed ally next to the unit"))
    items += _tabletop(match, info, costs)
    items.append(ActionItem("e", "end turn", None, True))
    return items


def _tabletop(match: Match, info: UnitInfo, costs: ActionCosts) -> list[ActionItem]:
    """Defenses, declared actions and standing choices, where the ruleset has them."""
    rules = match.battle.session.rules
    up = info.state == "ok"
    items = []
    if costs.defend:
        cheapest = min(costs.defend.values())
        only = next(iter(costs.defend)).replace("_", " ")
        label = "defend" if len(costs.defend) > 1 else (only if "defense" in only or "stance" in only
                                                         else f"{only} defense")
        items.append(ActionItem("u", label, cheapest, up and 0 < cheapest <= info.ap,
                                "no AP left"))
    if rules.max_actions:
        items.append(ActionItem("n", "declare actions", None, up, "before acting"))
    if len(rules.defense_choices) > 1:
        items.append(ActionItem("y", "when attacked", None, up))
    for extra in extra_actions(match.battle, info.uid):
        asks = extra.needs_target or extra.needs_square     # asked again with the target or square
        ok = up and (extra.command is not None or (asks and not extra.why))
        items.append(ActionItem(extra.key, extra.label, extra.cost, ok, extra.why))
    return items


def mode_words(name: str) -> str:
    """A fire mode as a player reads it: "full auto", not "full_auto"."""
    return name.replace("_", " ")


def _held(match: Match, info: UnitInfo):
    return match.battle.session.weapons.get(info.weapon) if info.weapon else None


def _attacks(match: Match, info: UnitInfo, costs: ActionCosts, mode: str | None, aim: int,
             has_target: bool) -> list[ActionItem]:
    weapon = _held(match, info)
    if weapon is None:
        return [ActionItem("f", "punch", costs.unarmed, has_target, "no target")]
    aim_cost = costs.aim[min(aim, len(costs.aim) - 1)]
    empty = weapon.kind == "firearm" and info.ammo <= 0
    items = []
    names = [each.name for each in weapon.modes]
    index = names.index(mode) if mode in names else 0
    if weapon.modes:
        chosen = weapon.modes[index]
        cost = chosen.ap + aim_cost
        label = f"fire {mode_words(chosen.name)}" + (f" aim+{aim}" if aim else "")
        items.append(ActionItem("f", label, cost,
                                info.state == "ok" and has_target and not empty and cost <= info.ap,
                                "empty" if empty else "no target in sight"))
    if len(weapon.modes) > 1:           # m cycles through the modes: the bar names the next one
        following = weapon.modes[(index + 1) % len(weapon.modes)]
        items.append(ActionItem("m", f"mode: {mode_words(following.name)}", following.ap,
                                info.state == "ok"))
    if weapon.aim_max:
        step = None
        if aim < weapon.aim_max:
            step = costs.aim[aim + 1] - aim_cost
        items.append(ActionItem("+/-", f"aim {aim}/{weapon.aim_max}", step,
                                has_target and aim < weapon.aim_max, "aim when targeting"))
    return items


def _stances(costs: ActionCosts, info: UnitInfo) -> list[ActionItem]:
    items = []
    for key, stance, drop in (("s", "stand", False), ("c", "crouch", False),
                              ("p", "prone", False), ("d", "prone", True)):
        cost = costs.stance.get((stance, drop))
        label = "drop" if drop else stance
        ok = info.state == "ok" and stance != info.stance and "pinned" not in info.statuses
        items.append(ActionItem(key, label, cost, ok and (cost or 0) <= info.ap, "already so"))
    return items


def _specials(match: Match, info: UnitInfo, costs: ActionCosts) -> list[ActionItem]:
    """Overwatch and suppressive fire, only for a unit with the ability (the engine prices
    them only then); grenades where the ruleset has them."""
    session = match.battle.session
    weapon = _held(match, info)
    firearm = weapon is not None and weapon.kind == "firearm" and info.ammo > 0
    items = []
    watch = costs.overwatch
    if watch is not None:
        cheapest = min((m.ap for m in weapon.modes), default=0) if weapon else 0
        items.append(ActionItem("o", "overwatch", watch, firearm and info.ap >= watch + cheapest,
                                "needs a loaded gun and AP for a shot"))
    if costs.suppress is not None:
        items.append(ActionItem("x", "suppress", costs.suppress,
                                firearm and info.ap >= costs.suppress,
                                "needs a loaded gun and a whole turn"))
    if "grenades" not in session.rules.supports:
        return items
    grenades = [g for g, n in info.grenades if n > 0 and g in session.weapons]
    throw = costs.throw
    count = sum(n for g, n in info.grenades if g in grenades)
    label = f"throw ({count})" if grenades else "throw"
    items.append(ActionItem("g", label, throw, bool(grenades) and (throw or 0) <= info.ap,
                            "no grenades"))
    lean = lean_option(match.battle, info.uid)
    if lean is not None:
        out, cost, why = lean
        items.append(ActionItem("i", "lean out" if out else "lean back", cost, not why, why))
    return items


DRAW_NAME = 16           # a longer weapon name is cut to its last word in the action bar


def _draw(match: Match, info: UnitInfo, costs: ActionCosts) -> ActionItem:
    if len(info.weapons) < 2:
        return ActionItem("w", "draw", None, False, "one weapon only")
    session = match.battle.session
    current = info.weapons.index(info.weapon) if info.weapon in info.weapons else -1
    nxt = info.weapons[(current + 1) % len(info.weapons)]
    spec = session.weapons[nxt]
    name = spec.name if len(spec.name) <= DRAW_NAME else spec.name.split()[-1].lower()
    label = f"draw {name}"
    cost = costs.draw[(current + 1) % len(info.weapons)]
    return ActionItem("w", label, cost, cost <= info.ap)
