"""OpenD6 on the grid: die codes with a Wild Die against combat difficulties, Body Points.

A unit's turn is the actions it declares (`Declare`), before its first one: its AP are that
number, and every roll it makes until its next turn (attacks, an active defense, an overwatch
shot) loses 1D per action beyond the first. Without a declaration it takes the ruleset's
standing number (`tactical.actions`). A move action buys a Move of squares; an attack, a
reload, drawing a weapon and an active defense are an action each. Active defenses (dodge,
block, parry) are rolled on the defender's own turn and stand until its next turn, replacing the
passive difficulty 10 even when lower; full defense takes every action left and adds +10. A
defender that has not had its turn yet this round has only its passive defense. Initiative is
a Perception roll every round. Damage comes off Body Points: under half, a unit is wounded
(-1D to everything); at 0 it is dead.

Numbers: the `params` (the core's) and `tactical` blocks of content/rulesets/opend6.yaml.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, ClassVar, cast

from game.content.schema import RulesetSpec, UnitSpec, WeaponSpec
from game.core import components as c
from game.core import gm
from game.rulesets.tabletop.grid import GridRules
from game.core.commands import Aim, SpendPoints
from game.core.events import ActionsDeclared, Aimed, Check, Defended, PointsSpent, StatusChanged
from game.core.systems.attack import plan_attack
from game.core.illegal import Illegal
from game.core.ruleset import ExtraAction
from game.rulesets.eclipse.core import roller_from
from game.core.odds import mean
from game.rulesets.opend6 import calculator as calculator_side
from game.rulesets.opend6 import profiles
from game.rulesets.opend6.odds import opend6_odds
from game.rulesets.opend6.core import (D6Code, D6Roll, DefenseChoice, Fighter, OpenD6Rules, Outcome,
                                       Situation, Weapon)

if TYPE_CHECKING:
    from game.core.events import AttackResolved
    from game.core.session import Session
    from game.core.systems.attack import AttackPlan

# The skill an attack rolls when a weapon's opend6 block names none.
DEFAULT_SKILLS = {"melee": "melee_combat", "firearm": "marksmanship"}
# CHOICE: a ranged weapon without `ranges` uses its grid range as long range, half of it as
# medium and a quarter as short.
FALLBACK_SHARES = (0.25, 0.5, 1.0)
ACTIVE = ("dodge", "block", "parry")


def code_text(pips: int) -> str:
    """A stat stored as pips, as a die code: 10 -> 3D+1, 12 -> 4D."""
    pips = max(0, int(pips))
    return str(D6Code(pips // 3, pips % 3))


def roll_parts(roll: D6Roll) -> tuple[tuple[int, ...], tuple[tuple[str, int], ...]]:
    """A roll's faces (dice, then the Wild Die's chain) and the modifiers that make its total."""
    mods = []
    if roll.code.pips:
        mods.append(("pips", roll.code.pips))
    if roll.removed:
        mods.append(("Wild Die 1: removed", -sum(roll.removed)))
    return roll.dice + roll.wild, tuple(mods)


def roll_check(name: str, roll: D6Roll) -> Check:
    faces, mods = roll_parts(roll)
    return Check(name, faces, mods, roll.total)


class OpenD6Grid(GridRules):
    calculator: ClassVar[Any] = calculator_side
    name = "opend6"
    core_class = OpenD6Rules
    Params = OpenD6Rules.Params
    WeaponProfile = profiles.WeaponProfile
    ArmorProfile = profiles.ArmorProfile
    UnitProfile = profiles.UnitProfile
    reroll_initiative = True
    # OpenD6 defenses are actions taken on the defender's own turn (`Defend`); when attacked, a
    # unit uses the one it took, or its passive defense. There is no standing choice to make.
    defense_choices = ("auto",)
    supports = GridRules.supports | {"declared_actions"}

    @classmethod
    def option_problems(cls, spec: RulesetSpec, options: dict[str, Any]) -> list[tuple[str, str]]:
        """The optional rules the ruleset file names (`optional_rules`), with values its params take."""
        return OpenD6Rules.option_problems(spec, options)

    # --- reading units ------------------------------------------------------------------------

    def unit_body(self, spec: UnitSpec) -> tuple[dict[str, int], dict[str, int], int, int]:
        """Under the Wounds system a unit's hp counts the wound levels it can still take."""
        attributes, skills, hp, ap = super().unit_body(spec)
        if self.core.p.damage_system == "wounds" and self.core.p.wounds is not None:
            hp = len(self.core.p.wounds.levels)
        return attributes, skills, hp, ap

    def fighter(self, session: Session, uid: str) -> Fighter:
        stats, health = session.get(uid, c.Stats), session.get(uid, c.Health)
        armor = self.armor_profile(session, uid)
        return Fighter(
            name=session.get(uid, c.Unit).name,
            attributes={k: code_text(v) for k, v in stats.attributes.items()},
            skills={k: code_text(v) for k, v in stats.skills.items()},
            body_points=health.max_hp, damage=max(0, health.max_hp - health.hp),
            armor=armor.armor if armor is not None else 0)

    health_name = "Body Points"
    health_short = "BP"

    def sheet_health(self, session: Session, uid: str) -> list[tuple[str, str]]:
        """Body Points left, and whether the unit is wounded (dice off every action)."""
        health, fighter = session.get(uid, c.Health), self.fighter(session, uid)
        penalty = self.core.wound_penalty(fighter)
        level = self.core.state_for(fighter.damage, fighter)
        return [(self.health_name, f"{health.hp}/{health.max_hp}"),
                ("Wound level", level + (f" (-{penalty}D to every action)" if penalty else ""))]

    def health_bounds(self, session: Session, uid: str) -> tuple[int, int]:
        health = session.get(uid, c.Health)
        return min(0, self.core.p.body_points.dead_at), health.max_hp

    def modifier_table(self) -> list[tuple[str, str]]:
        p = self.core.p
        return (self.table_rows("range (difficulty)", dict(p.range_modifiers))
                + self.table_rows("cover (difficulty)", dict(p.cover_modifiers))
                + [("each action beyond the first", f"-{p.multi_action_penalty}D"),
                   ("full defense", f"{p.full_defense_bonus:+d}"),
                   ("wounded", f"-{p.body_points.wounded_penalty_dice}D"),
                   ("a +N from the game master", "N off the difficulty")])

    def weapon(self, weapon: WeaponSpec) -> tuple[Weapon, Any]:
        """The core's weapon and the weapon's opend6 block (Illegal when it has none)."""
        profile = self.weapon_profile(weapon)
        skill = profile.skill or DEFAULT_SKILLS.get(weapon.kind, "marksmanship")
        try:
            D6Code.parse(profile.damage)
        except ValueError:
            raise Illegal(f"The {weapon.name}'s damage {profile.damage!r} is not an OpenD6 die code "
                          "(like 4D, 3D+2 or +1D).") from None
        return Weapon(weapon.name, skill, profile.damage, sharp=profile.sharp,
                      unarmed=weapon.id == "unarmed"), profile

    def declared(self, session: Session, uid: str) -> int:
        """Actions the unit declared for this round (its last turn's, between turns)."""
        return max(1, session.get(uid, c.Tempo).actions)

    def action_penalty(self, actions: int) -> int:
        return self.core.p.multi_action_penalty * max(0, actions - 1)

    def acted(self, session: Session, uid: str) -> bool:
        """Whether the unit has done anything this turn that costs an action."""
        tempo = session.get(uid, c.Tempo)
        return (session.get(uid, c.ActionPoints).current != tempo.actions or tempo.moved > 0
                or tempo.attacks > 0 or session.has(uid, c.Guard))

    # --- the round ----------------------------------------------------------------------------

    def initiative(self, session: Session, uid: str) -> tuple[Check, tuple]:
        """A Perception roll, every round; ties go to the higher Perception code."""
        who = self.fighter(session, uid)
        rolled = self.core.initiative(who, roller_from(session.dice))
        code = self.core.code_of(who, "perception")
        return roll_check("initiative", rolled), (code.dice * 3 + code.pips,)

    def begin_turn(self, session: Session, uid: str) -> str | None:
        why = super().begin_turn(session, uid)
        session.get(uid, c.Tempo).actions = session.get(uid, c.ActionPoints).current
        return why

    def end_turn(self, session: Session, uid: str) -> None:
        """Character Points spent on a roll the turn never made go back to the pool."""
        cond = session.get(uid, c.Condition)
        cond.points_spent -= cond.points_armed
        cond.points_armed = 0

    def actions(self) -> dict[type, Any]:
        return {Aim: self.aim_action, SpendPoints: self.spend_action}

    def extra_actions(self, session: Session, uid: str, target: str | None,
                      square: tuple[int, int] | None = None) -> list[ExtraAction]:
        """a: aim at the target (the whole round); b: a Character Point on the next roll."""
        ap = session.get(uid, c.ActionPoints).current
        if target is None:
            why = self.aim_refusal(session, uid, None)
            aim_cmd = None
        else:
            why = self.aim_refusal(session, uid, target)
            aim_cmd = Aim(uid, target) if why is None else None
        label = "aim (whole round)"
        if target is not None:
            cond = session.get(uid, c.Condition)
            keep = cond.aim_target == target and cond.aim_round == session.round - 1
            rounds = min(cond.aim_rounds + 1 if keep else 1, self.max_aim_rounds)
            label = f"aim +{min(self.core.p.aim_max_dice, rounds * self.core.p.aim_dice_per_round)}D"
            if why is None and keep and cond.aim_rounds >= self.max_aim_rounds:
                why, aim_cmd = f"aimed the most it can (+{self.core.p.aim_max_dice}D): shoot", None
        items = [ExtraAction("a", label, ap, aim_cmd, why or "", needs_target=True)]
        left = self.character_points(session, uid)
        why = self.points_refusal(session, uid, 1)
        items.append(ExtraAction("b", f"Character Point ({left})", 0,
                                 SpendPoints(uid, 1) if why is None else None, why or ""))
        return items

    # --- aiming -------------------------------------------------------------------------------

    def aim_rounds(self, session: Session, uid: str, target: str) -> int:
        """Rounds of uninterrupted aim at `target` that the unit's shot now takes: it aimed last
        round (and the rounds before), and has not moved or defended since."""
        cond = session.get(uid, c.Condition)
        if cond.aim_target != target or cond.aim_round != session.round - 1 or session.active != uid:
            return 0
        if session.get(uid, c.Tempo).moved or session.has(uid, c.Guard):
            return 0
        return cond.aim_rounds

    def aim_refusal(self, session: Session, uid: str, target: str | None) -> str | None:
        """Why `uid` cannot aim at `target` (None: at anyone) now, or None."""
        name = session.get(uid, c.Unit).name
        if self.acted(session, uid):
            return f"Aiming takes the whole round: {name} has already acted this turn."
        held = session.get(uid, c.Loadout).current
        weapon = session.weapons.get(held.weapon) if held is not None else None
        if weapon is None or weapon.kind == "melee":
            return f"{name} aims a ranged weapon (marksmanship or throwing), and holds none."
        if target is None:
            return None
        try:
            plan_attack(session, uid, target, None, "torso", 0)
        except Illegal as why:
            return str(why)
        return None

    def aim_action(self, session: Session, cmd: Any) -> None:
        """A round of aim: the unit does nothing else; +1D a round (to +3D) on its next shot at
        the same target, if it aims round after round and then shoots before moving."""
        uid = cmd.unit
        why = self.aim_refusal(session, uid, cmd.target)
        if why is not None:
            raise Illegal(why)
        cond = session.get(uid, c.Condition)
        keep = cond.aim_target == cmd.target and cond.aim_round == session.round - 1
        cond.aim_rounds = min(cond.aim_rounds + 1 if keep else 1, self.max_aim_rounds)
        cond.aim_target, cond.aim_round = cmd.target, session.round
        ap = session.get(uid, c.ActionPoints)
        cost, ap.current = ap.current, 0
        session.get(uid, c.Tempo).actions = 1
        level = min(self.core.p.aim_max_dice, cond.aim_rounds * self.core.p.aim_dice_per_round)
        session.emit(Aimed(uid, level, cost), session.position(uid), to=(session.side_of(uid),))

    @property
    def max_aim_rounds(self) -> int:
        per = max(1, self.core.p.aim_dice_per_round)
        return -(-self.core.p.aim_max_dice // per)

    # --- Character Points -----------------------------------------------------------------------

    def character_points(self, session: Session, uid: str) -> int:
        """Character Points the unit has left (its `rules: {opend6: {character_points}}`)."""
        template = session.get(uid, c.Unit).template
        spec = next((u for u in session.setup.units if u.id == template), None)
        profile = self.block("unit", template, spec.rules.get(self.engine)) if spec is not None else None
        pool = getattr(profile, "character_points", 0) if profile is not None else 0
        return max(0, pool - session.get(uid, c.Condition).points_spent)

    def points_refusal(self, session: Session, uid: str, points: int) -> str | None:
        name = session.get(uid, c.Unit).name
        left, armed = self.character_points(session, uid), session.get(uid, c.Condition).points_armed
        most = self.core.p.max_points_per_roll
        if not isinstance(points, int) or points < 1:
            return f"Spend at least 1 Character Point, not {points!r}."
        if points > left:
            return f"{name} has {left} Character Point{'s' if left != 1 else ''} left."
        if armed + points > most:
            return f"A roll takes at most {most} Character Points ({armed} already on the next roll)."
        return None

    def spend_action(self, session: Session, cmd: Any) -> None:
        """Character Points on the unit's next roll this turn (an attack or an active defense): a
        die each. Not an action; points its turn never rolls with come back."""
        uid = cmd.unit
        why = self.points_refusal(session, uid, cmd.points)
        if why is not None:
            raise Illegal(why)
        cond = session.get(uid, c.Condition)
        cond.points_armed += cmd.points
        cond.points_spent += cmd.points
        session.emit(PointsSpent(uid, cmd.points, self.character_points(session, uid)),
                     session.position(uid), to=(session.side_of(uid),))

    @property
    def max_actions(self) -> int:  # type: ignore[override]  # read-only here: the ruleset's numbers say
        """The most actions a unit may declare in a turn."""
        return self.t.max_actions or self.t.actions

    def declare(self, session: Session, uid: str, actions: int) -> None:
        """Declare the turn's actions before the first: AP = actions, -1D each beyond the first."""
        name = session.get(uid, c.Unit).name
        top = self.max_actions
        if not isinstance(actions, int) or not 1 <= actions <= top:
            raise Illegal(f"A unit declares from 1 to {top} actions, not {actions!r}.")
        if self.acted(session, uid):
            raise Illegal(f"{name} has already acted this turn: actions are declared before the first one.")
        session.get(uid, c.ActionPoints).current = actions
        session.get(uid, c.Tempo).actions = actions
        penalty = self.action_penalty(actions)
        session.emit(ActionsDeclared(uid, actions, penalty), session.position(uid),
                     to=(session.side_of(uid),))

    def step_price(self, session: Session, uid: str, squares: int, *, commit: bool) -> int:
        # A move action spends AP but leaves the declared count alone (Tempo.actions).
        tempo = session.get(uid, c.Tempo)
        declared = tempo.actions
        ap = super().step_price(session, uid, squares, commit=commit)
        tempo.actions = declared
        return ap

    # --- attacks ------------------------------------------------------------------------------

    def ranges(self, weapon: WeaponSpec, profile: Any) -> tuple[int, int, int]:
        if profile.ranges is not None:
            return tuple(profile.ranges)
        far = weapon.range * self.t.square_meters
        short, medium, long = (max(1, round(far * share)) for share in FALLBACK_SHARES)
        return short, medium, long

    def band(self, session: Session, plan: AttackPlan, profile: Any) -> str:
        """The range band; melee is point blank (the core gives it no range modifier). Illegal
        beyond a ranged weapon's long range."""
        if plan.weapon.kind == "melee":
            return "point_blank"
        meters = self.range_meters(session, plan)
        limits = self.ranges(plan.weapon, profile)
        band = self.core.range_band(meters, limits)
        if band is None:
            target = session.get(plan.target, c.Unit).name
            raise Illegal(f"{target} is {meters:g} m away, beyond the {plan.weapon.name}'s long range "
                          f"({limits[2]} m).")
        return band

    def check_attack(self, session: Session, plan: AttackPlan) -> None:
        super().check_attack(session, plan)
        _, profile = self.weapon(plan.weapon)
        self.band(session, plan, profile)

    def defense_for(self, session: Session, target: str, melee: bool) -> tuple[dict[str, Any], str | None]:
        """The Situation's defense fields from the target's Guard, and a note when it does not apply."""
        if not session.has(target, c.Guard):
            return {"defense": "passive"}, None
        guard = session.get(target, c.Guard)
        kind = "dodge" if guard.kind == "full" else guard.kind
        if kind not in ACTIVE or guard.total is None:
            return {"defense": "passive"}, None
        if kind in ("block", "parry") and not melee:
            return {"defense": "passive"}, f"a {kind} does not stop a ranged attack"
        return {"defense": kind, "defense_total": guard.total, "full_defense": guard.kind == "full"}, None

    def situation(self, session: Session, plan: AttackPlan, profile: Any,
                  reaction: bool) -> tuple[Situation, str | None]:
        # CHOICE: an overwatch shot is one of the watcher's declared actions (the one it held),
        # rolled with the penalty of the round it declared.
        melee = plan.weapon.kind == "melee"
        defense, note = self.defense_for(session, plan.target, melee)
        cover = tuple(self.cover_names(session, plan))
        own = not reaction and session.active == plan.attacker
        aim = self.aim_rounds(session, plan.attacker, plan.target) if own else 0
        points = session.get(plan.attacker, c.Condition).points_armed if own else 0
        sit = Situation(actions=self.declared(session, plan.attacker), aim_rounds=aim,
                        character_points=points,
                        range=self.band(session, plan, profile), cover=cover, melee=melee,
                        defender_weapon=self.parrying_with(session, plan.target, defense),
                        **defense)
        # the game master's +N to the attack roll is N off the difficulty it must beat
        given = gm.waiting(session, plan.attacker)
        if given:
            sit = dataclasses.replace(sit, extra_difficulty=-given[0][1], extra_label=given[0][0])
        return sit, note

    def parrying_with(self, session: Session, uid: str, defense: dict[str, Any]) -> Weapon | None:
        """The melee weapon a parrying unit holds (a sharp one hurts a bare-handed attacker)."""
        if defense.get("defense") != "parry":
            return None
        held = session.get(uid, c.Loadout).current
        spec = session.weapons.get(held.weapon) if held is not None else None
        if spec is None or spec.kind != "melee":
            return None
        return self.weapon(spec)[0]

    def strike(self, session: Session, plan: AttackPlan, reaction: bool) -> AttackResolved:
        uid, target = plan.attacker, plan.target
        weapon, profile = self.weapon(plan.weapon)
        attacker, defender = self.fighter(session, uid), self.fighter(session, target)
        sit, note = self.situation(session, plan, profile, reaction)
        out = self.core.attack(attacker, defender, weapon, sit,
                               roller_from(session.dice, defender=target))
        gm.spend(session, uid)
        if not reaction:
            cond = session.get(uid, c.Condition)
            cond.aim_target, cond.aim_rounds, cond.points_armed = "", 0, 0
        ammo = self.spend_ammo(session, plan)
        self.record(session, plan, out.hit)
        event = self.emit_attack(session, plan, roll_check("attack", out.attack),
                                 self.defense_check(out, sit), out.hit, int(out.hit), ammo, reaction,
                                 self.detail(out, sit, attacker, weapon, note) + self.backlash_text(out))
        if out.hit and out.damage is not None:
            faces, _ = roll_parts(out.damage)
            resisted = out.armor + (out.resist.total if out.resist is not None else 0)
            self.hurt(session, target, uid, faces, out.damage.total + out.damage_bonus, resisted,
                      out.damage_applied, plan.weapon.damage_type, out.state)
            self.mark_wound(session, target, out.state)
        if out.backlash is not None:
            hit = out.backlash
            victim, source = (uid, target) if hit.victim == "attacker" else (target, uid)
            faces, _ = roll_parts(hit.damage)
            resisted = hit.armor + (hit.resist.total if hit.resist is not None else 0)
            self.hurt(session, victim, source, faces, hit.damage.total, resisted, hit.applied,
                      "cut", hit.state)
            self.mark_wound(session, victim, hit.state)
        return event

    @staticmethod
    def faces_text(roll: D6Roll) -> str:
        """A roll's dice and total: "4+5+3, Wild Die 6+3 = 21" (pips and a removed die said)."""
        parts = ["+".join(map(str, roll.dice))] if roll.dice else []
        if roll.wild:
            parts.append("Wild Die " + "+".join(map(str, roll.wild)))
        if roll.code.pips:
            parts.append(f"{roll.code.pips:+d} pips")
        if roll.removed:
            parts.append("less " + "+".join(map(str, roll.removed)))
        return f"{', '.join(parts)} = {roll.total}" if parts else str(roll.total)

    @staticmethod
    def backlash_text(out: Outcome) -> str:
        if out.backlash is None:
            return ""
        hit = out.backlash
        return (f"; {hit.reason}: the {hit.victim} takes the weapon's {hit.damage.code} "
                f"(rolls {hit.damage.total})")

    def hurt(self, session: Session, target: str, source: str, rolls: tuple[int, ...], rolled: int,
             resisted: int, taken: int, damage_type: str, state: str) -> None:
        """Under the Wounds system a level's name is a state: those marked `out` take the unit
        out of the fight (the last is death)."""
        wounds = self.core.wounds
        if wounds is not None and state not in ("ok", "dead"):
            level = next((lv for lv in wounds.levels if lv.name == state), None)
            if level is not None and level is wounds.levels[-1]:
                state = "dead"
            elif level is not None:
                state = "incapacitated" if level.out else "ok"
        super().hurt(session, target, source, rolls, rolled, resisted, taken, damage_type, state)

    def mark_wound(self, session: Session, uid: str, state: str) -> None:
        if self.core.wounds is None:
            if state == "wounded":
                self.mark_wounded(session, uid)
            return
        cond = session.get(uid, c.Condition)
        names = {lv.name for lv in self.core.wounds.levels}
        level = next((lv for lv in self.core.wounds.levels if lv.name == state), None)
        if level is None or level.out or state in cond.statuses:
            return
        for old in names & set(cond.statuses):
            del cond.statuses[old]
        cond.statuses[state] = 0
        session.emit(StatusChanged(uid, state, 0, f"{state.replace('_', ' ')}: -{level.penalty_dice}D to "
                                   "every action", lasting=True), session.position(uid) or (0, 0))

    def defense_check(self, out: Outcome, sit: Situation) -> Check:
        """The combat difficulty as a Check: its base, range and cover (and the floor of 3)."""
        (label, base), *mods = out.difficulty_parts
        parts = []
        if sit.full_defense and sit.defense_total is not None:
            bonus = self.core.p.full_defense_bonus
            parts += [(sit.defense, base - bonus), ("full defense", bonus)]
        else:
            parts.append((label, base))
        parts += [(self._mod_text(name, 0), value) for name, value in mods if value]
        short = out.difficulty - sum(v for _, v in parts)
        if short:
            parts.append(("lowest difficulty", short))
        return Check("defense", (), tuple(parts), out.difficulty)

    @staticmethod
    def _mod_text(name: str, value: int) -> str:
        """A difficulty modifier in words: "medium range +5", "50% hidden +6"."""
        name = name.replace("_", " ")
        if name.startswith("hidden "):
            name = f"{name.removeprefix('hidden ')}% hidden"
        return name + (f" {value:+d}" if value else "")

    def detail(self, out: Outcome, sit: Situation, attacker: Fighter, weapon: Weapon,
               note: str | None) -> str:
        """One line: "Marksmanship 5D-1D rolls 4+5+3, Wild Die 6+3 = 21 against difficulty 15 (passive defense 10,
        short range, 50% hidden +6)". The log adds the verdict, and the damage has its own line."""
        base = self.core.code_of(attacker, weapon.skill)
        text = f"{weapon.skill.replace('_', ' ').capitalize()} {base}"
        multi, wound = self.action_penalty(sit.actions), self.core.wound_penalty(attacker)
        if multi:
            text += f"-{multi}D"
        if wound:
            text += f"-{wound}D wounded"
        aim = min(self.core.p.aim_max_dice, sit.aim_rounds * self.core.p.aim_dice_per_round)
        if aim:
            text += f"+{aim}D aim"
        if out.attack.code.dice != base.dice - multi - wound + aim:
            text += f" (kept at {out.attack.code.dice}D)"
        if sit.character_points:
            text += f" +{sit.character_points}D Character Point{'s' if sit.character_points > 1 else ''}"
        text += f" rolls {self.faces_text(out.attack)}"
        if out.attack.complication:
            text += " (Wild Die 1: a complication)"
        (label, value), *mods = out.difficulty_parts
        if sit.full_defense:
            value_text = f"{value - self.core.p.full_defense_bonus}+{self.core.p.full_defense_bonus}"
        else:
            value_text = str(value)
        words = ", ".join([f"{label} {value_text}"] + [self._mod_text(n, v) for n, v in mods])
        notes = [note, self.core.blocked(sit)]
        words += "".join(f"; {n}" for n in notes if n)
        return f"{text} against difficulty {out.difficulty} ({words})"

    def preview(self, session: Session, plan: AttackPlan, reaction: bool = False) -> dict[str, Any]:
        """Exact odds from `odds.opend6_odds` (Wild Die chains cut below its stated cutoff)."""
        weapon, profile = self.weapon(plan.weapon)
        attacker, defender = self.fighter(session, plan.attacker), self.fighter(session, plan.target)
        sit, _ = self.situation(session, plan, profile, reaction)
        odds = opend6_odds(self.core, attacker, defender, weapon, sit)
        base = self.core.code_of(attacker, weapon.skill)
        skill = weapon.skill.replace("_", " ")
        attack = [(f"{skill} D", base.dice), ("pips", base.pips),
                  (f"{sit.actions} actions D", -self.action_penalty(sit.actions)),
                  ("wounded D", -self.core.wound_penalty(attacker)),
                  ("aim D", min(self.core.p.aim_max_dice, sit.aim_rounds * self.core.p.aim_dice_per_round)),
                  ("Character Point D", sit.character_points)]
        if sit.defense == "passive":
            defense = [("passive defense", self.core.passive_defense(defender))]
        else:
            defense = [(sit.defense, sit.defense_total or 0)]
            if sit.full_defense:
                defense.append(("full defense", self.core.p.full_defense_bonus))
        defense += [(self._mod_text(n, 0), v) for n, v in self.core.difficulty_mods(sit)]
        per_hit = (sum(k * p for k, p in odds.damage.items() if k) / odds.p_hit) if odds.p_hit else 0.0
        return {"attack_modifiers": tuple((k, v) for k, v in attack if v),
                "defense_modifiers": tuple((k, v) for k, v in defense if v),
                "hit_chance": odds.p_hit, "hits": (1.0 - odds.p_hit, odds.p_hit),
                "damage_per_hit": per_hit, "expected_damage": mean(odds.damage),
                "how": "roll the dice (one Wild Die among them); meet the difficulty to hit"}

    # --- defenses -----------------------------------------------------------------------------

    def defend(self, session: Session, uid: str, kind: str) -> None:
        """Roll an active defense now (with this round's penalty); it stands until the next turn.

        Full defense (a dodge, +10) takes every action left. Taken as the turn's first action it
        is the whole round, rolled without a multi-action penalty (the declaration becomes 1).
        """
        offered = self.t.defend
        name = session.get(uid, c.Unit).name
        if kind not in offered:
            raise Illegal(f"The {self.spec.name} rules offer no {kind!r} defense "
                          f"(they offer: {', '.join(offered) or 'none'}).")
        if session.has(uid, c.Guard):
            raise Illegal(f"{name} is already defending ({session.get(uid, c.Guard).kind}).")
        ap = session.get(uid, c.ActionPoints)
        cost = self.defense_cost(session, uid, kind)
        if cost < 1 or cost > ap.current:
            raise Illegal(f"A {kind} defense takes {max(cost, 1)} action{'s' if cost > 1 else ''}; "
                          f"{name} has {ap.current} left.")
        if kind == "parry":
            held = session.get(uid, c.Loadout).current
            if held is None or session.weapons[held.weapon].kind != "melee":
                raise Illegal(f"{name} needs a melee weapon in hand to parry (a block is bare-handed).")
        if kind == "full" and not self.acted(session, uid) and session.get(uid, c.Tempo).actions != 1:
            session.get(uid, c.Tempo).actions = 1
            session.emit(ActionsDeclared(uid, 1, 0), session.position(uid), to=(session.side_of(uid),))
        ap.current -= cost
        rolled = self.defense_roll(session, uid, kind)
        bonus = self.core.p.full_defense_bonus if kind == "full" else 0
        session.add(uid, c.Guard(kind, rolled.total, bonus))
        session.emit(Defended(uid, kind, roll_check(kind, rolled), bonus, cost), session.position(uid))

    def defense_roll(self, session: Session, uid: str, kind: str) -> D6Roll:
        """The defense skill (dodge for full defense) less this round's action and wound dice."""
        skill_kind = "dodge" if kind == "full" else kind
        sit = Situation(defense=cast(DefenseChoice, skill_kind), defense_actions=self.declared(session, uid))
        code = self.core.defense_code(self.fighter(session, uid), sit)
        cond = session.get(uid, c.Condition)
        points = cond.points_armed if session.active == uid else 0
        cond.points_armed -= points
        return self.core.roll_code("defense", code, roller_from(session.dice, by=uid),
                                   extra_dice=points)

    def guard_for(self, session: Session, uid: str, kind: str) -> c.Guard:
        rolled = self.defense_roll(session, uid, kind)
        return c.Guard(kind, rolled.total, self.core.p.full_defense_bonus if kind == "full" else 0)

    # --- what the table keeps -----------------------------------------------------------------

    def mark_wounded(self, session: Session, uid: str) -> None:
        """Wounded (under half its Body Points): -1D to every action until healed."""
        cond = session.get(uid, c.Condition)
        if "wounded" in cond.statuses:
            return
        cond.statuses["wounded"] = 0                       # 0: until healed
        dice = self.core.p.body_points.wounded_penalty_dice
        session.emit(StatusChanged(uid, "wounded", 0, f"under half its Body Points: -{dice}D to every "
                                   "action", lasting=True), session.position(uid) or (0, 0))

    def statuses(self, session: Session, uid: str) -> list[str]:
        out = super().statuses(session, uid)
        if session.has(uid, c.Guard):
            guard = session.get(uid, c.Guard)
            bonus = f"+{guard.bonus}" if guard.bonus else ""
            out = [f"defending ({guard.kind} {guard.total}{bonus})" if word == f"defending ({guard.kind})"
                   else word for word in out]
        cond = session.get(uid, c.Condition)
        if cond.aim_rounds and cond.aim_round >= session.round - 1 and cond.aim_target in session.entities:
            aim = min(self.core.p.aim_max_dice, cond.aim_rounds * self.core.p.aim_dice_per_round)
            out.append(f"aiming at {session.get(cond.aim_target, c.Unit).name} (+{aim}D)")
        points = self.character_points(session, uid)
        if points or cond.points_armed:
            armed = f", {cond.points_armed} on the next roll" if cond.points_armed else ""
            out.append(f"{points} Character Point{'s' if points != 1 else ''}{armed}")
        actions = session.get(uid, c.Tempo).actions
        if actions > 1:
            out.append(f"{actions} actions (-{self.action_penalty(actions)}D)")
        return out
