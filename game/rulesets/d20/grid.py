"""The d20 ruleset (seed 003, "Chapter 6: Combat") on the grid.

A turn is two Actions (2 AP). Moving is One Action for up to 5 + DEX / 2 squares, and a move
cannot be split around another action: the rest of it is lost. Lowering one's position is a
Free Action; getting up costs One Action. Each weapon's fire modes are the attack types its
style allows (basic, all out, berserk, burst, full auto, defensive strike, feint), priced in
Actions, with one attack a turn. Defensive Stance is a defense (`Defend`) of Two Actions.
Actions left at the end of a turn are held: +1 each to reactions until the unit's next turn.

An attack is a hit test (d20 + attribute + modifiers) against the target's Armor Rating; a
natural roll in the weapon's critical range goes through armor and doubles the weapon dice. The
target may react once between two of its turns with its standing choice (`ChooseDefense`: a
reaction it knows, or "auto" for the best it can make): d20 + DEX (magic for spells) above the
hit test stops the attack. Stepping out of an adjacent enemy's melee reach provokes a basic
attack from it (an attack of opportunity, which is that enemy's reaction). Criticals inflict
statuses by damage type; statuses act at the start of their bearer's turn and count down at its
end. Hit points: 0 or fewer, unconscious; -max or fewer, dead.

Numbers: the `params` (the core's) and `tactical` blocks of content/rulesets/d20.yaml. The
choices this module makes where the seed is silent are listed in docs/RULESETS.md (d20) and
marked CHOICE below.
"""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction
from typing import Any, ClassVar

from game.content.schema import FireMode, WeaponProfile, WeaponSpec
from game.core import components as c
from game.rulesets.tabletop.grid import GridRules
from game.core.commands import ChangeStance
from game.core.dice import DiceCode
from game.core.events import AttackResolved, Check, InitiativeOrder, StanceChanged
from game.core.illegal import Illegal
from game.core.session import Session
from game.core.systems.attack import AttackPlan
from game.core.systems.sight import unit_sees
from game.core.systems.turns import check_victory
from game.rulesets.d20 import calculator as calculator_side
from game.rulesets.d20.core import D20Rules, Fighter, Outcome, Situation, Style, Weapon
from game.rulesets.eclipse.core import roller_from
from game.rulesets.d20.odds import d20_odds

Square = tuple[int, int]

STANCE_HEIGHT = {"stand": 2, "crouch": 1, "prone": 0}
# CHOICE: "auto" takes the reaction with the highest bonus; on a tie, the first of these (the
# ones that hurt the attacker back first).
AUTO_ORDER = ("riposte", "rebound", "parry", "counterspell", "dodge")
REACTION_VERBS = {"dodge": "dodges", "parry": "parries", "riposte": "ripostes",
                  "counterspell": "counterspells", "rebound": "rebounds"}
VITALITY = "vit"                 # the attribute of the vitality test that lifts a stun
DAMAGE_SOURCES = {"burned": ("burning", "fire")}   # status -> (damage source, damage type)


def adjacent(a: Square | None, b: Square | None) -> bool:
    """Within five feet: the eight squares around."""
    if a is None or b is None or a == b:
        return False
    return max(abs(a[0] - b[0]), abs(a[1] - b[1])) <= 1


def guard_kind(session: Session, uid: str) -> str | None:
    return session.get(uid, c.Guard).kind if session.has(uid, c.Guard) else None


def turn_share(share: float, turns: int) -> int:
    """Whole Actions a status taking `share` of an Action a turn removes on the turn with
    `turns` left (this one included): the shares add up, an odd half rounding up."""
    part = Fraction(share).limit_denominator(1000)
    return math.ceil(part * turns) - math.ceil(part * (turns - 1))


TOTAL_DISENGAGE = "total_disengage"

class D20Grid(GridRules):
    calculator: ClassVar[Any] = calculator_side
    name = "d20"
    core_class = D20Rules
    Params = D20Rules.Params
    defense_choices = ("auto", "dodge", "parry", "riposte", "none")

    def __init__(self, spec: Any) -> None:
        super().__init__(spec)
        self._initiative: dict[str, tuple[Check, tuple]] | None = None

    # --- reading units and weapons ------------------------------------------------------------

    def armor_parts(self, session: Session, uid: str) -> list[tuple[str, int]]:
        """The unit's Armor Rating: its own, its armor's bonus, less what concussive hits wore off.
        Armor worn down to nothing is destroyed: its bonus and resistances are gone."""
        parts = [("armor rating", session.get(uid, c.Stats).attributes.get("armor_rating", 10))]
        armor = self.armor_profile(session, uid)
        loss = session.get(uid, c.Condition).armor_loss
        if armor is not None and armor.armor_rating:
            armor_id = session.get(uid, c.Armor).armor
            assert armor_id is not None, "a unit with an armor profile wears armor"
            name = session.armors[armor_id].name
            parts.append((name, armor.armor_rating))
            if loss:
                parts.append(("armor worn", -min(loss, armor.armor_rating)))
        return parts

    def fighter(self, session: Session, uid: str) -> Fighter:
        stats, health = session.get(uid, c.Stats), session.get(uid, c.Health)
        profile = self.unit_profile(session, uid)
        armor = self.armor_profile(session, uid)
        loss = session.get(uid, c.Condition).armor_loss
        intact = armor is not None and (armor.armor_rating <= 0 or loss < armor.armor_rating)
        resist, weak = tuple(profile.resistances), tuple(profile.weaknesses)
        if intact:
            assert armor is not None, "intact armor is armor"
            resist += tuple(armor.resistances)
            weak += tuple(armor.weaknesses)
        return Fighter(
            name=session.get(uid, c.Unit).name, attributes=dict(stats.attributes),
            armor_rating=sum(v for _, v in self.armor_parts(session, uid)),
            armored=intact and armor is not None and armor.armor_rating > loss, hp=health.max_hp,
            damage=health.max_hp - health.hp, reactions=tuple(profile.reactions),
            resistances=resist, weaknesses=weak, size=profile.size,
            awareness=stats.skills.get("awareness", 0))

    @staticmethod
    def style_of(weapon: WeaponSpec, profile: Any) -> Style:
        if profile is not None and profile.style:
            return profile.style
        return "melee" if weapon.kind == "melee" else "ranged"

    def weapon(self, weapon: WeaponSpec, rounds: int = 1) -> Weapon:
        """The core's weapon; `rounds` is what a burst or full auto fires (caps its hits)."""
        profile = self.weapon_profile(weapon)
        try:
            DiceCode.parse(profile.damage)
        except ValueError:
            raise Illegal(f"The {weapon.name}'s d20 damage {profile.damage!r} is not dice "
                          "like 1d8.") from None
        return Weapon(name=weapon.name, damage=profile.damage, damage_type=profile.damage_type,
                      style=self.style_of(weapon, profile), crit_range=profile.crit_range,
                      advanced=profile.advanced, burst=max(1, rounds), clip=max(1, rounds))

    def attack_type_of(self, plan: AttackPlan) -> str:
        """The attack type a plan makes: its mode's name (a punch is a Basic Attack)."""
        return plan.mode.name if plan.mode.name in self.core.p.attack_types else "basic"

    def modes_for(self, weapon: WeaponSpec) -> list[FireMode]:
        """The attack types the weapon's style allows (and its profile lists), in Actions.

        Without a list, Burst needs a mode that fires several rounds and Full Auto also a
        magazine ("weapon must have burst / auto capabilities"). A burst fires as many rounds as
        the weapon's largest mode; full auto the whole magazine.
        """
        profile = weapon.rules.get(self.engine) if weapon.rules else None
        style = self.style_of(weapon, profile)
        listed = profile.attack_types if profile is not None else None
        burst = max((m.rof for m in weapon.modes), default=1)
        clip = weapon.magazine if weapon.kind == "firearm" else 1
        modes = []
        table = self.core.p.attack_types
        for name in sorted(table, key=lambda n: n != "basic"):
            kind = table[name]
            if not kind.attack or style not in kind.styles:
                continue
            if listed is not None and name not in listed:
                continue
            if listed is None and kind.multiple_hits != "none" and (burst <= 1 or clip <= 1):
                continue
            rof = {"burst": burst, "clip": clip}.get(kind.multiple_hits, 1)
            modes.append(FireMode(name=name, ap=kind.actions, rof=max(1, min(100, rof))))
        return modes or [FireMode(name="basic", ap=self.t.attack_ap or 1)]

    # --- costs --------------------------------------------------------------------------------

    def stance_cost(self, old: str, new: str, drop: bool) -> int:
        """Lowering one's position is a Free Action; raising it costs the `stance_ap` numbers."""
        if old == new:
            return 0
        if drop or STANCE_HEIGHT.get(new, 0) < STANCE_HEIGHT.get(old, 0):
            return self.t.stance_ap.drop_flat
        return super().stance_cost(old, new, False)

    def after_action(self, session: Session, uid: str, command: Any) -> None:
        """Every action ends the move in hand, except a free one (lowering one's position)."""
        free = isinstance(command, ChangeStance) and any(
            isinstance(e, StanceChanged) and e.unit == uid and e.ap_cost == 0
            for e in session.events)
        if free or getattr(command, "defense", None) == TOTAL_DISENGAGE:
            return                  # Total Disengage brings its own 5-foot step
        super().after_action(session, uid, command)

    def speed(self, session: Session, uid: str) -> int:
        """5 + DEX / 2 squares; halved (rounded down) while frozen."""
        squares = super().speed(session, uid)
        return squares // 2 if "frozen" in session.get(uid, c.Condition).statuses else squares

    # --- initiative and turns -----------------------------------------------------------------

    def initiative(self, session: Session, uid: str) -> tuple[Check, tuple]:
        """d20 + DEX, rolled once for everyone by the core (ties: DEX, then d6 roll-offs).

        The turns system sorts by total, then by these ties: (DEX, the core's place in the
        order), so it reproduces the core's order exactly.
        """
        if self._initiative is None or uid not in self._initiative:
            self._roll_initiative(session)
        assert self._initiative is not None, "_roll_initiative has just rolled it"
        return self._initiative[uid]

    def _roll_initiative(self, session: Session) -> None:
        attr = self.core.p.initiative_attribute
        uids = [uid for uid, _ in session.units() if session.is_up(uid)]
        fighters = [Fighter(name=uid, attributes=dict(session.get(uid, c.Stats).attributes))
                    for uid in uids]
        order = self.core.initiative_order(fighters, roller_from(session.dice))
        self._initiative = {}
        for place, (uid, total) in enumerate(order):
            score = session.get(uid, c.Stats).attributes.get(attr, 0)
            check = Check.of("initiative", (total - score,), [(attr.upper(), score)])
            self._initiative[uid] = (check, (score, -place))

    def start_round(self, session: Session) -> None:
        """An ambushing side acts before everyone else in the first round only ("a turn before
        initiative"); from the second, everyone acts in initiative order."""
        if session.round != 2 or not self._initiative:
            return
        if not any(side.ambush for side in session.setup.scenario.sides):
            return
        listed = {uid: index for index, (uid, _) in enumerate(session.units())}

        def key(uid: str) -> tuple:
            assert self._initiative is not None, "checked above"
            check, ties = self._initiative[uid]
            return (-check.total, tuple(-t for t in ties), listed[uid])
        order = sorted(session.order, key=key)
        if order != session.order:
            session.order = order
            session.emit(InitiativeOrder(tuple(order)))

    def begin_turn(self, session: Session, uid: str) -> str | None:
        """A new round for this unit: its reaction comes back, held actions lapse, and its
        statuses act (bleeding and burning hurt, shock and frost take Actions, a stun the turn)."""
        why = super().begin_turn(session, uid)
        cond = session.get(uid, c.Condition)
        cond.held = 0
        cond.reacted_round = 0           # CHOICE: a unit's round runs from its turn to its next
        if why is not None:
            return why
        roll = roller_from(session.dice)
        table = self.core.p.statuses
        for name in sorted(cond.statuses):
            status = table.get(name)
            if status is None or not status.damage or name not in cond.statuses:
                continue
            taken = self.core.status_tick(name, roll)
            source, damage_type = DAMAGE_SOURCES.get(name, (name, name))
            self.damage(session, uid, source, (taken,), taken, 0, taken, damage_type)
            if not session.is_up(uid):
                check_victory(session)     # the last of a side may bleed out
                return None
        ap = session.get(uid, c.ActionPoints)
        causes: dict[str, int] = {}
        for name, turns in sorted(cond.statuses.items()):
            status = table.get(name)
            if status is None or not status.actions_lost or turns <= 0:
                continue
            gone = turn_share(status.actions_lost, turns)
            if gone:
                causes[name] = gone
        if not causes:
            return None
        ap.current = max(0, ap.current - sum(causes.values()))
        if ap.current > 0:
            for name, gone in causes.items():
                self.set_status(session, uid, name, cond.statuses[name],
                                f"{name}: {gone} Action{'s' if gone > 1 else ''} lost this turn")
            return None
        reason = f"{' and '.join(causes)}: no Actions this turn"
        self.count_down(session, uid)     # the turn is over as soon as it began
        return reason

    def end_turn(self, session: Session, uid: str) -> None:
        """Unspent Actions are held (+1 each to reactions until the next turn); statuses
        count down."""
        if session.is_up(uid):
            session.get(uid, c.Condition).held = min(session.get(uid, c.ActionPoints).current,
                                                     self.core.p.actions_per_turn)
        self.count_down(session, uid)

    def count_down(self, session: Session, uid: str) -> None:
        """The end of a turn under statuses: a stunned unit tries its vitality test (above 13
        lifts the stun), every status has one turn fewer, and those at none end."""
        cond = session.get(uid, c.Condition)
        table = self.core.p.statuses
        roll = roller_from(session.dice)
        for name in sorted(cond.statuses):
            turns = cond.statuses[name]
            if turns <= 0:
                continue                  # lasts until cured
            status = table.get(name)
            if status is not None and status.ends_on_test_above is not None and session.is_up(uid):
                natural = roll("vitality", 1, self.core.p.die)
                bonus = session.get(uid, c.Stats).attributes.get(VITALITY, 0)
                total = natural + bonus
                if total > status.ends_on_test_above:
                    self.set_status(session, uid, name, 0,
                                    f"vitality test {natural} + {bonus} = {total}, above "
                                    f"{status.ends_on_test_above}: the {name} status lifts")
                    continue
            if turns <= 1:
                self.set_status(session, uid, name, 0, f"the {name} status wears off")
            else:
                cond.statuses[name] = turns - 1

    # --- defenses and reactions ---------------------------------------------------------------

    def defend(self, session: Session, uid: str, kind: str) -> None:
        """Defensive Stance: no attack this turn (and none made already). Total Disengage: out
        of every melee, and a 5-foot step with no attack of opportunity."""
        if kind == TOTAL_DISENGAGE:
            super().defend(session, uid, kind)
            session.get(uid, c.Tempo).move_left = 1      # "move up to 5 feet away"
            return
        if session.has(uid, c.Tempo) and session.get(uid, c.Tempo).attacks:
            raise Illegal(f"{session.get(uid, c.Unit).name} has attacked this turn: "
                          f"no {kind.replace('_', ' ')} now.")
        super().defend(session, uid, kind)

    def guard_for(self, session: Session, uid: str, kind: str) -> c.Guard:
        table = self.core.p.attack_types
        bonus = table[kind].enemy_hit if kind in table else 0
        return c.Guard(kind, None, bonus)

    def choose_defense(self, session: Session, uid: str, choice: str) -> None:
        if choice in self.core.p.reactions:
            known = self.unit_profile(session, uid).reactions
            if choice not in known:
                name = session.get(uid, c.Unit).name
                raise Illegal(f"{name} lacks the {choice} skill "
                              f"(it knows: {', '.join(known) or 'none'}).")
        super().choose_defense(session, uid, choice)

    def can_react_now(self, session: Session, uid: str) -> str | None:
        """Why the unit cannot make a reaction now, or None."""
        name = session.get(uid, c.Unit).name
        if not session.is_up(uid):
            return f"{name} is down"
        cond = session.get(uid, c.Condition)
        if "stunned" in cond.statuses:
            return f"{name} is stunned"
        if cond.reacted_round:
            return f"{name} has reacted this round"
        return None

    def riposte_weapon(self, session: Session, uid: str) -> tuple[str, str] | None:
        """(dice, damage type) a riposte deals: the melee weapon in hand, or bare hands.
        CHOICE: with a firearm in hand a unit cannot riposte."""
        held = session.get(uid, c.Loadout).current
        profile: dict | WeaponProfile | None
        if held is None:
            profile = self.t.unarmed.profile
            return (profile.get("damage", self.t.unarmed.damage),
                    profile.get("damage_type", "concussive"))
        weapon = session.weapons[held.weapon]
        profile = weapon.rules.get(self.engine) if weapon.rules else None
        if weapon.kind != "melee" or profile is None:
            return None
        return profile.damage, profile.damage_type

    def reaction_order(self) -> tuple[str, ...]:
        return AUTO_ORDER + tuple(r for r in self.core.p.reactions if r not in AUTO_ORDER)

    def usable_reactions(self, session: Session, plan: AttackPlan, weapon: Weapon,
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
        usable = []
        for name in self.reaction_order():
            sit = Situation(attack_type=attack_type, reaction=name)
            if self.core.can_react(defender, weapon, sit) is not None:
                continue
            if name == "riposte" and self.riposte_weapon(session, target) is None:
                continue
            usable.append(name)
        return usable, ("" if usable else f"{defender.name} has no reaction against this attack")

    def reaction_for(self, session: Session, plan: AttackPlan, weapon: Weapon,
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

    def asks(self, session: Session, plan: AttackPlan) -> tuple[str, ...]:
        """A unit that asks chooses among the reactions it could make against this attack, or
        none; there is nothing to ask when it has none."""
        target = plan.target
        if not session.is_up(target) or session.get(target, c.Condition).standing != "ask":
            return ()
        weapon, defender = self.weapon_for(plan), self.fighter(session, target)
        usable, _ = self.usable_reactions(session, plan, weapon, defender)
        return (*usable, "none") if usable else ()

    def reaction_bonus(self, session: Session, uid: str) -> int:
        """+2 to reactions after the unit's own Defensive Strike (its `reaction_bonus`)."""
        kind = self.core.p.attack_types.get(guard_kind(session, uid) or "")
        return kind.reaction_bonus if kind is not None else 0

    # --- the situation ------------------------------------------------------------------------

    def modifier_names(self, session: Session, plan: AttackPlan, weapon: Weapon) -> list[str]:
        """Grid facts as the core's hit modifiers."""
        apos, tpos = session.position(plan.attacker), session.position(plan.target)
        melee = plan.weapon.kind == "melee"
        names: list[str] = []
        for name in self.cover_names(session, plan):
            if name not in names:
                names.append(name)    # CHOICE: concealment is cover (-2), never twice
        if session.get(plan.target, c.Posture).stance == "prone":
            names.append("prone_melee" if melee else "prone_ranged")
        if not melee and weapon.style == "ranged" and adjacent(apos, tpos):
            profile = self.weapon_profile(plan.weapon)
            if profile.handgun:
                names.append("handgun_point_blank")
            elif profile.two_handed:
                names.append("two_handed_point_blank")
        if melee and self.flanked(session, plan):
            names.append("flanking")
        if guard_kind(session, plan.target) == "defensive_stance":
            names.append("target_defensive_stance")
        cond = session.get(plan.target, c.Condition)
        if cond.exposed:
            names.append("target_berserk")
        if "stunned" in cond.statuses:
            names.append("target_stunned")
        return [n for n in names if n in self.core.p.hit_modifiers]

    def holds_melee(self, session: Session, uid: str) -> WeaponSpec | None:
        """The melee weapon in the unit's hands (bare hands when none is drawn), or None for a
        firearm: a unit's melee reach is the squares around it."""
        held = session.get(uid, c.Loadout).current
        if held is None:
            return self.unarmed_weapon()
        weapon = session.weapons[held.weapon]
        return weapon if weapon.kind == "melee" else None

    def flanked(self, session: Session, plan: AttackPlan) -> bool:
        """CHOICE: flanking is a melee attack on a target that another of the attacker's side,
        up and with a melee weapon or bare hands, threatens from another square around it."""
        side, tpos = session.side_of(plan.attacker), session.position(plan.target)
        for uid, unit in session.units():
            if uid == plan.attacker or unit.side != side or not session.is_up(uid):
                continue
            if adjacent(session.position(uid), tpos) and self.holds_melee(session, uid) is not None:
                return True
        return False

    def situation(self, session: Session, plan: AttackPlan, weapon: Weapon,
                  defender: Fighter) -> tuple[Situation, str]:
        reaction, why_not = self.reaction_for(session, plan, weapon, defender)
        cond = session.get(plan.target, c.Condition)
        riposte = self.riposte_weapon(session, plan.target) if reaction == "riposte" else None
        sit = Situation(attack_type=self.attack_type_of(plan),
                        modifiers=tuple(self.modifier_names(session, plan, weapon)),
                        reaction=reaction, held_actions=cond.held,
                        defender_reaction_bonus=self.reaction_bonus(session, plan.target),
                        riposte_damage=riposte[0] if riposte else None)
        return sit, why_not

    def weapon_for(self, plan: AttackPlan) -> Weapon:
        return self.weapon(plan.weapon, plan.rof)

    # --- attacks ------------------------------------------------------------------------------

    def check_attack(self, session: Session, plan: AttackPlan) -> None:
        """One attack a turn; none in Defensive Stance; ranged attacks within the weapon's range;
        the weapon must have d20 numbers."""
        super().check_attack(session, plan)
        name = session.get(plan.attacker, c.Unit).name
        if guard_kind(session, plan.attacker) == "defensive_stance":
            raise Illegal(f"{name} is in Defensive Stance: no attack this turn.")
        self.weapon_for(plan)
        if plan.weapon.kind != "melee":
            apos, tpos = session.position(plan.attacker), session.position(plan.target)
            assert apos is not None and tpos is not None, "both sides of an attack stand on the map"
            distance = session.grid.distance(apos, tpos)
            if distance > plan.weapon.range:
                # CHOICE: "If an enemy is within range and within line of sight, you can make
                # an attack": none beyond the weapon's range.
                raise Illegal(f"{session.get(plan.target, c.Unit).name} is {distance} squares "
                              f"away, beyond the {plan.weapon.name}'s range of "
                              f"{plan.weapon.range}.")

    def strike(self, session: Session, plan: AttackPlan, reaction: bool, *,
               note: str = "") -> AttackResolved:
        uid, target = plan.attacker, plan.target
        weapon = self.weapon_for(plan)
        attacker, defender = self.fighter(session, uid), self.fighter(session, target)
        sit, why_not = self.situation(session, plan, weapon, defender)
        out = self.core.attack(attacker, defender, weapon, sit, roller_from(session.dice))
        ammo = self.spend_ammo(session, plan)
        self.record(session, plan, out.hit)
        if out.reaction is not None:
            session.get(target, c.Condition).reacted_round = session.round
        attack = Check("attack", (out.natural,),
                       tuple((self.label(k), v) for k, v in out.hit_parts), out.hit_test)
        armor = tuple((k, v) for k, v in self.armor_parts(session, target) if v)
        defense = Check("armor rating", (), armor, out.armor_rating)
        detail = self.detail(out, sit, attacker, defender, why_not)
        event = self.emit_attack(session, plan, attack, defense, out.hit, out.hits, ammo, reaction,
                                 f"{note}: {detail}" if note else detail)
        if out.retaliation:
            dice = self.riposte_weapon(session, target) if sit.reaction == "riposte" else None
            damage_type = dice[1] if dice else weapon.damage_type
            back = out.retaliation
            self.damage(session, uid, target, (back,), back, 0, back, damage_type)
        if out.hit:
            self.apply_hits(session, plan, out, attacker, defender, weapon)
        kind = self.core.p.attack_types[sit.attack_type]
        if kind.exposed:
            session.get(uid, c.Condition).exposed = kind.exposed
        if kind.reaction_bonus and not session.has(uid, c.Guard):
            session.add(uid, c.Guard(sit.attack_type, None, kind.reaction_bonus))
        return event

    def apply_hits(self, session: Session, plan: AttackPlan, out: Outcome, attacker: Fighter,
                   defender: Fighter, weapon: Weapon) -> None:
        target = plan.target
        plain = dataclasses.replace(defender, resistances=(), weaknesses=())
        bonus = DiceCode.parse(weapon.damage).bonus
        multiplier = self.core.p.attack_types[self.attack_type_of(plan)].damage_multiplier
        for faces, taken in zip(out.damage_rolls, out.damage_rolled, strict=True):
            raw = self.core.damage_total(sum(faces) + bonus, attacker, weapon, plain,
                                         out.critical, multiplier)
            self.damage(session, target, plan.attacker, faces, raw, max(0, raw - taken), taken,
                        weapon.damage_type)
        if session.get(target, c.Health).state == "dead":
            return
        if out.status:
            turns = out.status_turns
            if session.active == target:
                turns += 1                # struck in its own turn: that turn's end does not count
            turns = max(turns, session.get(target, c.Condition).statuses.get(out.status, 0))
            many = "s" if out.status_turns != 1 else ""
            self.set_status(session, target, out.status, turns,
                            f"critical {weapon.damage_type} hit: {out.status} for "
                            f"{out.status_turns} turn{many}")
        if out.armor_loss:
            armor = self.armor_profile(session, target)
            cond = session.get(target, c.Condition)
            cap = armor.armor_rating if armor is not None else 0
            cond.armor_loss = min(cap, cond.armor_loss + out.armor_loss)

    def damage(self, session: Session, uid: str, source: str, rolls: tuple[int, ...], rolled: int,
               resisted: int, taken: int, damage_type: str) -> None:
        """Hit points off a unit, with the core's verdict on its body; damage lifts a stun."""
        health = session.get(uid, c.Health)
        if health.state == "dead":
            return
        who = self.fighter(session, uid)
        self.hurt(session, uid, source, rolls, rolled, resisted, taken, damage_type,
                  self.core.state_for(who.damage + taken, who))
        status = self.core.p.statuses.get("stunned")
        cond = session.get(uid, c.Condition)
        stunned = status is not None and status.ends_on_damage and "stunned" in cond.statuses
        if taken > 0 and stunned:
            self.set_status(session, uid, "stunned", 0, f"{taken} damage ends the stun")

    # --- attacks of opportunity ---------------------------------------------------------------

    def on_step(self, session: Session, uid: str, start: Square, step: Square) -> None:
        """Stepping out of an adjacent enemy's melee reach provokes a basic attack from it.

        CHOICE: being next to an enemy is being engaged with it; the attack of opportunity is
        that enemy's one reaction between its turns (the seed: "Another reaction is the Attack
        of Opportunity"). Total Disengage (a Full Action) prevents it until the unit's next
        turn; the one-target Disengage is not offered.
        """
        for plan in self.provokers(session, uid, start, step):
            if not session.is_up(uid):
                return
            session.get(plan.attacker, c.Condition).reacted_round = session.round
            self.strike(session, plan, True, note="attack of opportunity")

    def provokers(self, session: Session, uid: str, start: Square,
                  step: Square) -> list[AttackPlan]:
        """The attacks of opportunity a step from `start` to `step` would draw: one planned
        attack for each enemy whose melee reach it leaves."""
        if guard_kind(session, uid) == TOTAL_DISENGAGE:
            return []                     # out of melee with everyone: no attack of opportunity
        out = []
        for enemy in session.order:
            if session.side_of(enemy) == session.side_of(uid) or self.can_react_now(session, enemy):
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
                self.weapon_for(plan)
            except Illegal:
                continue
            out.append(plan)
        return out

    # --- previews -----------------------------------------------------------------------------

    def preview(self, session: Session, plan: AttackPlan) -> dict[str, Any]:
        weapon = self.weapon_for(plan)
        attacker = self.fighter(session, plan.attacker)
        defender = self.fighter(session, plan.target)
        sit, _ = self.situation(session, plan, weapon, defender)
        try:
            odds = d20_odds(self.core, attacker, defender, weapon, sit)
            parts = self.core.hit_parts(attacker, defender, weapon, sit)
        except ValueError as why:
            raise Illegal(str(why)) from None
        hits = list(odds.hits) + [0.0] * max(0, plan.rof + 1 - len(odds.hits))
        mean_hits = sum(k * p for k, p in enumerate(hits))
        defense = [(k, v) for k, v in self.armor_parts(session, plan.target) if v]
        if sit.reaction != "none":
            spec = self.core.p.reactions[sit.reaction]
            bonus = (defender.attributes.get(spec.attribute, 0)
                     + self.core.reaction_bonus(sit.held_actions) + sit.defender_reaction_bonus)
            defense.append((f"{sit.reaction} (d20 +)", bonus))
        return {"attack_modifiers": tuple((self.label(k), v) for k, v in parts),
                "defense_modifiers": tuple(defense), "hit_chance": odds.p_hit, "hits": tuple(hits),
                "damage_per_hit": odds.expected_damage / mean_hits if mean_hits else 0.0,
                "expected_damage": odds.expected_damage}

    # --- words ----------------------------------------------------------------------------------

    def label(self, name: str) -> str:
        """Attribute names in capitals (DEX), everything else as the core words it."""
        return name.upper() if name in self.spec.unit_attributes else name

    def detail(self, out: Outcome, sit: Situation, attacker: Fighter, defender: Fighter,
               why_not: str) -> str:
        """One line: the hit test and its parts, the reaction, the damage, the critical's effect."""
        terms = [f"d20 {out.natural}"] + [f"{self.label(k)} {v}" for k, v in out.hit_parts]
        parts = " + ".join(terms)
        text = f"hit test {out.hit_test} ({parts}) against Armor Rating {out.armor_rating}: "
        if out.critical:
            text += "critical hit, through armor"
        elif out.reaction is not None or out.hit:
            text += "hit"
        else:
            return text + "miss"
        if out.reaction is not None:
            natural, total, stopped = out.reaction
            bonus = total - natural
            text += (f"; {defender.name} {REACTION_VERBS.get(sit.reaction, sit.reaction)} "
                     f"{natural}{bonus:+d} = {total}: ")
            if stopped:
                text += "a critical reaction stops it" if out.critical else "stops it"
                if out.retaliation:
                    text += f", {out.retaliation} damage back to {attacker.name}"
                return text
            text += "too low"
        elif why_not:
            text += f" ({why_not})"
        if out.hits > 1:
            text += f"; {out.hits} hits"
        rolled = ", ".join(f"{'+'.join(map(str, faces))} -> {total}"
                           for faces, total in zip(out.damage_rolls, out.damage_rolled, strict=True))
        text += f"; damage {rolled}"
        if out.status:
            text += f"; {defender.name} is {out.status} for {out.status_turns} turns"
        if out.armor_loss:
            text += f"; {defender.name}'s armor loses {out.armor_loss} Armor Rating"
        return text

    def statuses(self, session: Session, uid: str) -> list[str]:
        out = super().statuses(session, uid)
        cond = session.get(uid, c.Condition)
        if cond.armor_loss:
            out.append(f"armor -{cond.armor_loss}")
        if cond.exposed:
            out.append(f"exposed +{cond.exposed}")
        if cond.held:
            out.append(f"{cond.held} held")
        if cond.reacted_round:
            out.append("reacted")
        return out
