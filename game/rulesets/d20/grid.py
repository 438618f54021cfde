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
from typing import Any, ClassVar

from game.content.schema import FireMode, WeaponSpec, dice_total
from game.core import components as c
from game.core import gm
from game.rulesets.tabletop.grid import GridRules
from game.core.commands import ChangeStance
from game.core.dice import DiceCode
from game.core.events import AttackResolved, Check, StanceChanged, StatusChanged
from game.core.illegal import Illegal
from game.core.session import Session
from game.core.systems.attack import AttackPlan
from game.rulesets.d20 import calculator as calculator_side
from game.rulesets.d20 import profiles
from game.rulesets.d20.core import D20Rules, Fighter, Outcome, Situation, Style, Weapon
from game.rulesets.eclipse.core import roller_from
from game.rulesets.d20 import kit, reactions, turns, words
from game.rulesets.d20.odds import d20_odds
from game.rulesets.d20.common import (MAX_FULL_AUTO_TOTAL, STANCE_HEIGHT, STEALTH, TOTAL_DISENGAGE,
                                      adjacent, guard_kind)


class D20Grid(GridRules):
    calculator: ClassVar[Any] = calculator_side
    name = "d20"
    core_class = D20Rules
    Params = D20Rules.Params
    WeaponProfile = profiles.WeaponProfile
    ArmorProfile = profiles.ArmorProfile
    UnitProfile = profiles.UnitProfile
    defense_choices = ("auto", "dodge", "parry", "riposte", "none")

    @classmethod
    def content_problems(cls, kind: str, item: Any, block: Any) -> list[tuple[tuple[str, ...], str]]:
        """A full-auto attack may hit once a round in the magazine: its dice over a full
        magazine stay small enough for exact odds."""
        if kind != "weapon":
            return []
        rof = max((mode.rof for mode in item.modes), default=1)
        hits = min(100, max(rof, item.magazine if item.kind == "firearm" else 1))
        total = dice_total(block.damage) * hits
        if total <= MAX_FULL_AUTO_TOTAL:
            return []
        return [(("damage",), f"d20 damage {block.damage} over {hits} hits (a full magazine) can "
                              f"roll {total} in one attack; at most {MAX_FULL_AUTO_TOTAL} (fewer or "
                              "smaller dice, or a smaller magazine)")]

    def __init__(self, spec: Any) -> None:
        super().__init__(spec)
        self._initiative: dict[str, tuple[Check, tuple]] | None = None
        # Actions a "next_turn" status (shocked, frozen) takes at its bearer's next turn, by
        # unit and status: set when the critical lands, spent when that turn begins. A replay
        # of the battle's commands rebuilds it, as it does the initiative.
        self._next_turn_loss: dict[str, dict[str, float]] = {}
        # Free Actions each unit has taken in its turn under way (lowering its position).
        self._free_used: dict[str, int] = {}
        # Reactions each unit has made in its round (Grace and Finesse: two, not the same twice),
        # the enemies it has disengaged from until its next turn, and the ambushers each target
        # has not noticed (it failed its Awareness against their Stealth) until its first turn.
        self._reacted: dict[str, list[str]] = {}
        self._disengaged: dict[str, set[str]] = {}
        self._unaware: dict[str, set[str]] = {}
        self._surprise: set[str] = set()
        # Weapons jammed (unit, index in its loadout) until unjammed; the items still on the
        # floor ([square, kind], from the scenario's `items:` at the first look); each unit's
        # items picked up and not yet used.
        self._jammed: set[tuple[str, int]] = set()
        self._floor: list[list[Any]] | None = None
        self._carried: dict[str, list[str]] = {}

    # --- taken from the modules beside this one ------------------------------------------

    initiative = turns.initiative
    _roll_initiative = turns._roll_initiative
    start_round = turns.start_round
    begin_turn = turns.begin_turn
    end_turn = turns.end_turn
    count_down = turns.count_down

    defend = reactions.defend
    guard_for = reactions.guard_for
    choose_defense = reactions.choose_defense
    can_react_now = reactions.can_react_now
    riposte_weapon = reactions.riposte_weapon
    reaction_order = reactions.reaction_order
    usable_reactions = reactions.usable_reactions
    reaction_for = reactions.reaction_for
    asks = reactions.asks
    reaction_bonus = reactions.reaction_bonus
    on_step = reactions.on_step
    provokers = reactions.provokers
    engaged_with = reactions.engaged_with
    defense_costs = reactions.defense_costs
    ability = reactions.ability
    reactions_allowed = reactions.reactions_allowed
    reacted = reactions.reacted
    ambush = turns.ambush
    watched_by = reactions.watched_by
    stealth_useful = reactions.stealth_useful

    unjam = kit.unjam
    recover_item = kit.recover_item
    use_item = kit.use_item
    jump = kit.jump
    jump_near = kit.jump_near
    jam_weapon = kit.jam
    floor_items = kit.floor_items
    actions = kit.kit_actions

    def extra_actions(self, session: Session, uid: str, target: str | None,
                      square: tuple[int, int] | None = None) -> list[Any]:
        return kit.kit_extra_actions(self, session, uid, square)

    def not_offered(self, session: Session, uid: str, key: str) -> str | None:
        return kit.kit_not_offered(self, session, uid, key)

    label = words.label
    detail = words.detail
    statuses = words.statuses

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

    def sheet_health(self, session: Session, uid: str) -> list[tuple[str, str]]:
        """HP, Armor Rating, and the unit's one reaction a round."""
        health, fighter = session.get(uid, c.Health), self.fighter(session, uid)
        cond = session.get(uid, c.Condition)
        used = cond.reacted_round == session.round and session.round > 0
        return [(self.health_name, f"{health.hp}/{health.max_hp}"),
                ("Armor Rating", str(fighter.armor_rating)),
                ("Reaction", "used this round" if used else "ready"),
                ("Held actions", str(cond.held))]

    def health_bounds(self, session: Session, uid: str) -> tuple[int, int]:
        health = session.get(uid, c.Health)
        return -int(health.max_hp * self.core.p.dead_below_zero_share), health.max_hp

    def modifier_table(self) -> list[tuple[str, str]]:
        p = self.core.p
        return (self.table_rows("to hit", dict(p.hit_modifiers))
                + self.table_rows("target size", dict(p.sizes))
                + [(f"attack: {name.replace('_', ' ')}", f"{kind.hit:+d}")
                   for name, kind in p.attack_types.items()])

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
                      advanced=profile.advanced, burst=max(1, rounds), clip=max(1, rounds),
                      jams_on=profile.jams_on)

    def attack_type_of(self, plan: AttackPlan) -> str:
        """The attack type a plan makes: its mode's name (a punch is a Basic Attack)."""
        return plan.mode.name if plan.mode.name in self.core.p.attack_types else "basic"

    def modes_for(self, weapon: WeaponSpec) -> list[FireMode]:
        """The attack types the weapon's style allows (and its profile lists), in Actions.

        Without a list, Burst needs a mode that fires several rounds and Full Auto also a
        magazine ("weapon must have burst / auto capabilities"). A burst fires as many rounds as
        the weapon's largest mode; full auto the whole magazine.
        """
        profile = self.weapon_block(weapon)
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

    def stance_cost_now(self, session: Session, uid: str, old: str, new: str, drop: bool) -> int:
        """Lowering one's position is the turn's Free Action while the unit has one left
        (`free_actions`: "Typically, you are only allowed one free action per turn"). Beyond it,
        CHOICE: the GM's discretion lets the unit lower itself as an ordinary action, at what the
        stance table charges for the same change (One Action), rather than refusing it."""
        cost = self.stance_cost(old, new, drop)
        if cost or old == new or self._free_used.get(uid, 0) < self.core.p.free_actions:
            return cost
        return super().stance_cost(old, new, False)

    def after_action(self, session: Session, uid: str, command: Any) -> None:
        """Every action ends the move in hand, except a free one (lowering one's position),
        which uses up one of the turn's Free Actions."""
        free = isinstance(command, ChangeStance) and any(
            isinstance(e, StanceChanged) and e.unit == uid and e.ap_cost == 0
            for e in session.events)
        if free:
            self._free_used[uid] = self._free_used.get(uid, 0) + 1
        if free or getattr(command, "defense", None) == TOTAL_DISENGAGE:
            return                  # Total Disengage brings its own 5-foot step
        super().after_action(session, uid, command)

    def speed(self, session: Session, uid: str) -> int:
        """5 + DEX / 2 squares; divided (rounded down) by a status's `speed_divisor` for as long
        as it lasts (frozen: halved)."""
        squares = super().speed(session, uid)
        table = self.core.p.statuses
        for name in session.get(uid, c.Condition).statuses:
            status = table.get(name)
            if status is not None and status.speed_divisor > 1:
                squares //= status.speed_divisor
        return squares

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
        given = gm.waiting(session, plan.attacker)
        sit = Situation(extra=given[0][1] if given else 0,
                        extra_label=given[0][0] if given else "other",
                        attack_type=self.attack_type_of(plan),
                        modifiers=tuple(self.modifier_names(session, plan, weapon)),
                        reaction=reaction, held_actions=cond.held,
                        defender_reaction_bonus=self.reaction_bonus(session, plan.target),
                        riposte_damage=riposte[0] if riposte else None)
        return sit, why_not

    def weapon_for(self, session: Session, plan: AttackPlan) -> Weapon:
        """The core's weapon for a plan; bare fists hit by the attacker's size."""
        if plan.weapon.id == self.unarmed_weapon().id:
            return self.fists(session, plan.attacker)
        return self.weapon(plan.weapon, plan.rof)

    def fists(self, session: Session, uid: str) -> Weapon:
        """The unit's bare fists: the Unarmed Combat damage of its size (d20.yaml)."""
        try:
            return self.core.unarmed(self.unit_profile(session, uid).size)
        except ValueError as why:
            raise Illegal(str(why)) from None

    # --- attacks ------------------------------------------------------------------------------

    def check_attack(self, session: Session, plan: AttackPlan) -> None:
        """One attack a turn; none in Defensive Stance; ranged attacks within the weapon's range;
        the weapon must have d20 numbers."""
        self.weapon_profile(plan.weapon)          # a weapon without this ruleset's numbers
        name = session.get(plan.attacker, c.Unit).name
        limit = self.attacks_allowed(session, plan.attacker)
        if session.get(plan.attacker, c.Tempo).attacks >= limit:
            raise Illegal(f"{name} has made {'its attack' if limit == 1 else f'its {limit} attacks'}"
                          " this turn" + (" (Combat Prowess allows more)." if limit == 1 else "."))
        if guard_kind(session, plan.attacker) == "defensive_stance":
            raise Illegal(f"{name} is in Defensive Stance: no attack this turn.")
        jammed = kit.jammed_weapon(self, session, plan.attacker)
        if jammed is not None and plan.weapon.id != self.unarmed_weapon().id:
            raise Illegal(f"{name}'s {jammed} is jammed: unjam it first (Two Actions).")
        self.weapon_for(session, plan)
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

    def attacks_allowed(self, session: Session, uid: str) -> int:
        """One attack or magical ability a turn; Combat Prowess: more (its `attacks`)."""
        return self.ability(session, uid, "attacks") or self.core.p.attacks_per_turn

    def strike(self, session: Session, plan: AttackPlan, reaction: bool, *,
               note: str = "") -> AttackResolved:
        uid, target = plan.attacker, plan.target
        weapon = self.weapon_for(session, plan)
        attacker, defender = self.fighter(session, uid), self.fighter(session, target)
        unseen = self.stealth_test(session, uid, target, attacker, defender)
        sit, why_not = self.situation(session, plan, weapon, defender)
        if unseen:
            self._unaware[target].discard(uid)
        out = self.core.attack(attacker, defender, weapon, sit,
                               roller_from(session.dice, defender=target))
        gm.spend(session, uid)
        if out.jammed:
            self.jam_weapon(session, uid)
        ammo = 0 if out.jammed else self.spend_ammo(session, plan)   # CHOICE: no shot, no round spent
        self.record(session, plan, out.hit)
        if out.reaction is not None:
            self.reacted(session, target, sit.reaction)
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

    def stealth_test(self, session: Session, uid: str, target: str, attacker: Fighter,
                     defender: Fighter) -> bool:
        """An attack from Stealth: Stealth (d20 + stealth + DEX) against the target's Awareness
        (d20 + awareness + PER), as for an ambush; won, the target does not see it coming and
        cannot react. The attack gives the unit away: its Stealth ends. True when the target
        has been made unaware for this attack only."""
        if guard_kind(session, uid) != STEALTH:
            return False
        session.remove(uid, c.Guard)
        if uid in self._unaware.get(target, set()):
            return False                      # already unseen (an ambush): nothing to roll
        stealth = session.get(uid, c.Stats).skills.get("stealth", 0)
        with session.dice.facing(uid, target, "ambush"):
            mine, theirs, won = self.core.ambush(attacker, defender, stealth, defender.awareness,
                                                 roller_from(session.dice, by=uid, defender=target))
        square = session.position(target)
        session.emit(StatusChanged(target, "ambushed" if won else "alert", 1,
                                   f"stealth {mine} against awareness {theirs}: {defender.name} "
                                   f"{'does not notice' if won else 'notices'} {attacker.name}"),
                     *([square] if square else []))
        if won:
            self._unaware.setdefault(target, set()).add(uid)
        return won

    def apply_hits(self, session: Session, plan: AttackPlan, out: Outcome, attacker: Fighter,
                   defender: Fighter, weapon: Weapon) -> None:
        target = plan.target
        plain = dataclasses.replace(defender, resistances=(), weaknesses=())
        multiplier = self.core.p.attack_types[self.attack_type_of(plan)].damage_multiplier
        for faces, taken in zip(out.damage_rolls, out.damage_rolled, strict=True):
            raw = self.core.damage_total(sum(faces), attacker, weapon, plain,
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
            status = self.core.p.statuses.get(out.status)
            if status is not None and status.lost_on == "next_turn" and status.actions_lost:
                pending = self._next_turn_loss.setdefault(target, {})
                pending[out.status] = max(pending.get(out.status, 0.0), status.actions_lost)
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

    # --- previews -----------------------------------------------------------------------------

    def preview(self, session: Session, plan: AttackPlan, reaction: bool = False) -> dict[str, Any]:
        weapon = self.weapon_for(session, plan)
        attacker = self.fighter(session, plan.attacker)
        defender = self.fighter(session, plan.target)
        sit, _ = self.situation(session, plan, weapon, defender)
        try:
            odds = d20_odds(self.core, attacker, defender, weapon, sit)
            parts = self.core.hit_parts(attacker, defender, weapon, sit)
            unseen_odds = None
            if sit.reaction != "none" and guard_kind(session, plan.attacker) == STEALTH:
                unseen_odds = d20_odds(self.core, attacker, defender, weapon,
                                       dataclasses.replace(sit, reaction="none"))
        except ValueError as why:
            raise Illegal(str(why)) from None
        hit_chance, expected, hits = odds.p_hit, odds.expected_damage, list(odds.hits)
        if unseen_odds is not None:
            # from Stealth: unseen (no reaction) with the chance of the Stealth test
            won = self.stealth_chance(session, plan.attacker, attacker, defender)
            hit_chance = won * unseen_odds.p_hit + (1 - won) * odds.p_hit
            expected = won * unseen_odds.expected_damage + (1 - won) * odds.expected_damage
            size = max(len(hits), len(unseen_odds.hits))
            hits = [won * (unseen_odds.hits[k] if k < len(unseen_odds.hits) else 0.0)
                    + (1 - won) * (odds.hits[k] if k < len(odds.hits) else 0.0)
                    for k in range(size)]
        hits = hits + [0.0] * max(0, plan.rof + 1 - len(hits))
        mean_hits = sum(k * p for k, p in enumerate(hits))
        defense = [(k, v) for k, v in self.armor_parts(session, plan.target) if v]
        if sit.reaction != "none":
            spec = self.core.p.reactions[sit.reaction]
            bonus = (defender.attributes.get(spec.attribute, 0)
                     + self.core.reaction_bonus(sit.held_actions) + sit.defender_reaction_bonus)
            defense.append((f"{sit.reaction} (d20 +)", bonus))
        return {"attack_modifiers": tuple((self.label(k), v) for k, v in parts),
                "defense_modifiers": tuple(defense), "hit_chance": hit_chance, "hits": tuple(hits),
                "damage_per_hit": expected / mean_hits if mean_hits else 0.0,
                "expected_damage": expected}

    def stealth_chance(self, session: Session, uid: str, attacker: Fighter,
                       defender: Fighter) -> float:
        """The exact chance that the unit's Stealth beats the defender's Awareness (strictly)."""
        die = self.core.p.die
        mine = session.get(uid, c.Stats).skills.get("stealth", 0) + attacker.attributes.get("dex", 0)
        theirs = defender.awareness + defender.attributes.get("per", 0)
        wins = sum(1 for a in range(1, die + 1) for t in range(1, die + 1) if a + mine > t + theirs)
        return wins / (die * die)
