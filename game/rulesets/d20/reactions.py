"""d20 on the grid: defenses and reactions (dodge, parry, riposte...), one between two of a
unit's turns, and attacks of opportunity. D20Grid takes these as its methods."""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.core import components as c
from game.rulesets.tabletop.grid import GridRules
from game.core.illegal import Illegal
from game.core.session import Session
from game.core.systems.attack import AttackPlan
from game.core.systems.sight import unit_sees
from game.rulesets.d20.core import Fighter, Situation, Weapon
from game.core.events import Defended
from game.rulesets.d20.common import (AUTO_ORDER, DISENGAGE, OPPORTUNITY, STEALTH, TOTAL_DISENGAGE, Square,
                                      adjacent, guard_kind)

if TYPE_CHECKING:
    from game.rulesets.d20.grid import D20Grid


def defend(self: D20Grid, session: Session, uid: str, kind: str) -> None:
    """Defensive Stance: no attack this turn (and none made already). Total Disengage: out
    of every melee, and a 5-foot step with no attack of opportunity. Disengage from one enemy
    (`disengage:<its id>`): out of melee with that one."""
    if kind.startswith(DISENGAGE + ":"):
        disengage(self, session, uid, kind.split(":", 1)[1])
        return
    if kind == STEALTH:
        watcher = self.watched_by(session, uid)
        if watcher is not None:
            raise Illegal(f"{session.get(watcher, c.Unit).name} has its eye on "
                          f"{session.get(uid, c.Unit).name}: no Stealth while an enemy sees it.")
    if kind == TOTAL_DISENGAGE:
        GridRules.defend(self, session, uid, kind)
        session.get(uid, c.Tempo).move_left = 1      # "move up to 5 feet away"
        return
    if session.has(uid, c.Tempo) and session.get(uid, c.Tempo).attacks:
        raise Illegal(f"{session.get(uid, c.Unit).name} has attacked this turn: "
                      f"no {kind.replace('_', ' ')} now.")
    GridRules.defend(self, session, uid, kind)

def engaged_with(self: D20Grid, session: Session, uid: str) -> list[str]:
    """The enemies `uid` is engaged with: CHOICE, the ones up and next to it (as for attacks
    of opportunity), in the order of play."""
    where, side = session.position(uid), session.side_of(uid)
    return [enemy for enemy in session.order
            if session.side_of(enemy) != side and session.is_up(enemy)
            and adjacent(session.position(enemy), where)]

def disengage(self: D20Grid, session: Session, uid: str, enemy: str) -> None:
    """Disengage (One Action): "Remove yourself from melee combat from a single target you're
    engaged with. You can move away from them without them getting an attack of opportunity."
    CHOICE: it lasts, like Total Disengage, until the unit's next turn; it is no Guard, so it
    goes with a Defensive Stance or another Disengage."""
    name = session.get(uid, c.Unit).name
    if enemy not in self.engaged_with(session, uid):
        who = dict((u, unit.name) for u, unit in session.units()).get(enemy, repr(enemy))
        raise Illegal(f"{name} is not engaged with {who}: only an enemy next to it can be "
                      "disengaged from.")
    if enemy in self._disengaged.get(uid, set()):
        raise Illegal(f"{name} has already disengaged from {session.get(enemy, c.Unit).name}.")
    cost = self.t.defend[DISENGAGE]
    ap = session.get(uid, c.ActionPoints)
    if cost > ap.current:
        raise Illegal(f"Disengaging costs {cost} {self.ap_name}; {name} has {ap.current}.")
    ap.current -= cost
    self._disengaged.setdefault(uid, set()).add(enemy)
    session.emit(Defended(uid, f"{DISENGAGE}:{enemy}", None, 0, cost), session.position(uid))

def watched_by(self: D20Grid, session: Session, uid: str) -> str | None:
    """An enemy up that sees the unit ("an enemy's focus is on you", CHOICE: sees it), or None."""
    where, side = session.position(uid), session.side_of(uid)
    if where is None:
        return None
    for enemy in session.order:
        if session.side_of(enemy) != side and session.is_up(enemy) and unit_sees(session, enemy, where):
            return enemy
    return None

def defense_costs(self: D20Grid, session: Session, uid: str) -> dict[str, int]:
    """Defensive Stance, Total Disengage, Stealth while no enemy sees the unit and it still
    has an attack and an Action for it after the Stealth, and a Disengage from each enemy
    engaged with the unit that it has not disengaged from yet (`disengage:<id>`)."""
    costs = {kind: self.defense_cost(session, uid, kind) for kind in self.t.defend
             if kind != DISENGAGE and (kind != STEALTH or self.stealth_useful(session, uid))}
    if DISENGAGE in self.t.defend:
        done = self._disengaged.get(uid, set())
        for enemy in self.engaged_with(session, uid):
            if enemy not in done:
                costs[f"{DISENGAGE}:{enemy}"] = self.t.defend[DISENGAGE]
    return costs

def stealth_useful(self: D20Grid, session: Session, uid: str) -> bool:
    """Stealth is possible and leaves an Action and an attack to use it this turn."""
    if STEALTH not in self.t.defend or session.has(uid, c.Guard):
        return False
    left = session.get(uid, c.ActionPoints).current - self.t.defend[STEALTH]
    attacks = session.get(uid, c.Tempo).attacks if session.has(uid, c.Tempo) else 0
    return (left >= 1 and attacks < self.attacks_allowed(session, uid)
            and self.watched_by(session, uid) is None)

def ability(self: D20Grid, session: Session, uid: str, field: str) -> int | None:
    """The most any of the unit's abilities allows of `field` (reactions, attacks), or None."""
    table = self.core.p.abilities
    values = [getattr(table[name], field) for name in self.unit_profile(session, uid).abilities
              if name in table and getattr(table[name], field) is not None]
    return max(values) if values else None

def reactions_allowed(self: D20Grid, session: Session, uid: str) -> int:
    """One reaction a round; Grace and Finesse: two."""
    return self.ability(session, uid, "reactions") or self.core.p.reactions_per_round

def reacted(self: D20Grid, session: Session, uid: str, reaction: str) -> None:
    """Count a reaction made (whatever its success) in the unit's round."""
    used = self._reacted.setdefault(uid, [])
    used.append(reaction)
    if len(used) >= self.reactions_allowed(session, uid):
        session.get(uid, c.Condition).reacted_round = session.round

def guard_for(self: D20Grid, session: Session, uid: str, kind: str) -> c.Guard:
    table = self.core.p.attack_types
    bonus = table[kind].enemy_hit if kind in table else 0
    return c.Guard(kind, None, bonus)

def choose_defense(self: D20Grid, session: Session, uid: str, choice: str) -> None:
    if choice in self.core.p.reactions:
        known = self.unit_profile(session, uid).reactions
        if choice not in known:
            name = session.get(uid, c.Unit).name
            raise Illegal(f"{name} lacks the {choice} skill "
                          f"(it knows: {', '.join(known) or 'none'}).")
    GridRules.choose_defense(self, session, uid, choice)

def can_react_now(self: D20Grid, session: Session, uid: str) -> str | None:
    """Why the unit cannot make a reaction now, or None."""
    name = session.get(uid, c.Unit).name
    if not session.is_up(uid):
        return f"{name} is down"
    cond = session.get(uid, c.Condition)
    if "stunned" in cond.statuses:
        return f"{name} is stunned"
    if cond.reacted_round or len(self._reacted.get(uid, [])) >= self.reactions_allowed(session, uid):
        allowed = self.reactions_allowed(session, uid)
        return (f"{name} has reacted this round" if allowed == 1
                else f"{name} has made its {allowed} reactions this round")
    return None

def riposte_weapon(self: D20Grid, session: Session, uid: str) -> tuple[str, str] | None:
    """(dice, damage type) a riposte deals: the melee weapon in hand, or bare hands.
    CHOICE: with a firearm in hand a unit cannot riposte."""
    held = session.get(uid, c.Loadout).current
    if held is None:
        fists = self.fists(session, uid)          # the dice of the unit's size, without STR
        return fists.damage, fists.damage_type
    weapon = session.weapons[held.weapon]
    profile = self.weapon_block(weapon)
    if weapon.kind != "melee" or profile is None:
        return None
    return profile.damage, profile.damage_type

def reaction_order(self: D20Grid) -> tuple[str, ...]:
    return AUTO_ORDER + tuple(r for r in self.core.p.reactions if r not in AUTO_ORDER)

def usable_reactions(self: D20Grid, session: Session, plan: AttackPlan, weapon: Weapon,
                     defender: Fighter) -> tuple[list[str], str]:
    """The reactions the target knows and could make against this attack now (in the
    order `auto` prefers on a tie), and why there are none."""
    target = plan.target
    attack_type = self.attack_type_of(plan)
    if self.core.p.attack_types[attack_type].no_reaction:
        return [], f"a {attack_type.replace('_', ' ')} cannot be reacted to"
    why = self.can_react_now(session, target)
    if why:
        return [], why
    attacker_at = session.position(plan.attacker)
    assert attacker_at is not None, "an attacker stands on the map"
    if not unit_sees(session, target, attacker_at):
        return [], f"{defender.name} does not see the attack coming"
    usable, used = [], self._reacted.get(target, [])
    if plan.attacker in self._unaware.get(target, set()):
        return [], (f"{defender.name} has not noticed "
                    f"{session.get(plan.attacker, c.Unit).name}: no reaction")
    for name in self.reaction_order():
        if name in used:
            continue          # Grace and Finesse: "cannot use same reaction twice in one round"
        if any(other in used for other in self.core.p.reactions[name].excludes):
            continue          # "Cannot Parry in the same round as you Riposte", and so on
        sit = Situation(attack_type=attack_type, reaction=name)
        if self.core.can_react(defender, weapon, sit) is not None:
            continue
        if name == "riposte" and self.riposte_weapon(session, target) is None:
            continue
        usable.append(name)
    return usable, ("" if usable else f"{defender.name} has no reaction against this attack")

def reaction_for(self: D20Grid, session: Session, plan: AttackPlan, weapon: Weapon,
                 defender: Fighter) -> tuple[str, str]:
    """(the reaction the target makes if hit, or "none"; why none).

    `auto` takes the usable reaction with the highest bonus. A unit that asks (`ask`) is
    asked before the attack (`asks`); attacks that cannot wait for an answer (overwatch,
    attacks of opportunity, in the middle of a move) find it on `auto`.
    """
    usable, why = self.usable_reactions(session, plan, weapon, defender)
    if not usable:
        return "none", why
    standing = session.get(plan.target, c.Condition).standing
    if standing == "none":
        return "none", f"{defender.name} does not react"
    if standing in usable:
        return standing, ""
    if standing in self.core.p.reactions:
        return "none", f"{defender.name} cannot {standing} this attack"
    reactions, order = self.core.p.reactions, self.reaction_order()
    return max(usable, key=lambda n: (defender.attributes.get(reactions[n].attribute, 0),
                                      -order.index(n))), ""

def asks(self: D20Grid, session: Session, plan: AttackPlan) -> tuple[str, ...]:
    """A unit that asks chooses among the reactions it could make against this attack, or
    none; there is nothing to ask when it has none."""
    target = plan.target
    if not session.is_up(target) or session.get(target, c.Condition).standing != "ask":
        return ()
    weapon, defender = self.weapon_for(session, plan), self.fighter(session, target)
    usable, _ = self.usable_reactions(session, plan, weapon, defender)
    return (*usable, "none") if usable else ()

def reaction_bonus(self: D20Grid, session: Session, uid: str) -> int:
    """+2 to reactions after the unit's own Defensive Strike (its `reaction_bonus`)."""
    kind = self.core.p.attack_types.get(guard_kind(session, uid) or "")
    return kind.reaction_bonus if kind is not None else 0


def on_step(self: D20Grid, session: Session, uid: str, start: Square, step: Square) -> None:
    """Stepping out of an adjacent enemy's melee reach provokes a basic attack from it.

    CHOICE: being next to an enemy is being engaged with it; the attack of opportunity is
    that enemy's one reaction between its turns (the seed: "Another reaction is the Attack
    of Opportunity"). Total Disengage (a Full Action) prevents it until the unit's next
    turn; Disengage (One Action) prevents it from one enemy.
    """
    for plan in self.provokers(session, uid, start, step):
        if not session.is_up(uid):
            return
        self.reacted(session, plan.attacker, OPPORTUNITY)
        self.strike(session, plan, True, note="attack of opportunity")

def provokers(self: D20Grid, session: Session, uid: str, start: Square,
              step: Square) -> list[AttackPlan]:
    """The attacks of opportunity a step from `start` to `step` would draw: one planned
    attack for each enemy whose melee reach it leaves."""
    if guard_kind(session, uid) == TOTAL_DISENGAGE:
        return []                     # out of melee with everyone: no attack of opportunity
    out, away = [], self._disengaged.get(uid, set())
    for enemy in session.order:
        if session.side_of(enemy) == session.side_of(uid) or self.can_react_now(session, enemy):
            continue
        if enemy in away or OPPORTUNITY in self._reacted.get(enemy, []):
            continue
        where = session.position(enemy)
        if not adjacent(where, start) or adjacent(where, step):
            continue
        weapon = self.holds_melee(session, enemy)
        if weapon is None or not unit_sees(session, enemy, start):
            continue
        mode = next((m for m in weapon.modes if m.name in ("basic", "unarmed")), None)
        if mode is None:
            continue
        plan = AttackPlan(enemy, uid, weapon, mode, "torso", 0, 0, 0, 1)
        try:
            self.weapon_for(session, plan)
        except Illegal:
            continue
        out.append(plan)
    return out
