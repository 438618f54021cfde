"""The `skirmish` ruleset on the grid: its turn, its attacks and their exact odds, and the
actions only it has (grenades, suppressive fire, first aid).

The dice are SkirmishRules' own (rules.py); this class answers the engine's hooks with them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from game.core import components as c
from game.core import gm
from game.core.commands import Lean, Revive, Suppress, Throw
from game.core.dice import DiceCode
from game.core.events import Aimed, AttackResolved, Check
from game.content.schema import RulesetSpec
from game.core.ruleset import SuppressOdds, ThrowOdds
from game.core.session import Session
from game.core.systems.attack import AttackPlan, carry_out, situation
from game.core.systems.health import apply_damage
from game.rulesets.skirmish import calculator as calculator_side
from game.rulesets.skirmish import cover, first_aid, grenades, riposte, suppression
from game.rulesets.skirmish.rules import SkirmishRules

Square = tuple[int, int]
ACTIONS: dict[type, Callable[[Session, Any], None]] = {
    Throw: grenades.throw, Suppress: suppression.suppress, Revive: first_aid.revive, Lean: cover.lean}


class SkirmishGrid(SkirmishRules):
    calculator: ClassVar[Any] = calculator_side
    # "opposed_checks": attacks are d10 + skill against d10 + Dodge, hits by the margin over the
    # weapon's spread, so the computer player's enumerated odds (game/ai/odds.py) apply.
    supports = frozenset({"aim", "grenades", "suppression", "first_aid", "opposed_checks", "lean"})
    screens = True

    OPTIONS = ("turns",)                 # what a scenario's `options:` may switch

    @property
    def simultaneous(self) -> bool:      # type: ignore[override]
        return self.p.turns == "simultaneous"

    @classmethod
    def option_problems(cls, spec: RulesetSpec, options: dict[str, Any]) -> list[tuple[str, str]]:
        """Only how turns are taken may be switched: `turns: simultaneous | sequential`."""
        found = [(str(name), f"unknown option {name!r}; the {spec.name} rules may switch only: "
                  f"{', '.join(cls.OPTIONS)}") for name in options if name not in cls.OPTIONS]
        for name, value in options.items():
            if name == "turns" and value not in ("simultaneous", "sequential"):
                found.append((name, f"turns: {value!r} is neither simultaneous nor sequential"))
        return found

    def actions(self) -> dict[type, Callable[[Session, Any], None]]:
        return ACTIONS

    def special_costs(self, session: Session, uid: str) -> dict[str, int | None]:
        loadout = session.get(uid, c.Loadout)
        thrown = [session.weapons[g] for g, n in loadout.grenades.items() if n > 0 and g in session.weapons]
        able = suppression.ABILITY in session.get(uid, c.Stats).abilities
        return {"suppress": session.get(uid, c.ActionPoints).per_turn if able else None,
                "throw": thrown[0].modes[0].ap if thrown and thrown[0].modes else None,
                "revive": self.p.revive.ap,
                "lean": self.p.lean.back_ap if session.has(uid, cover.Leaning) else self.p.lean.out_ap}

    def screened(self, session: Session, uid: str, looker: Square) -> bool:
        return cover.screened(session, uid, looker)

    def lean_option(self, session: Session, uid: str) -> tuple[bool, int, str] | None:
        return cover.option(session, uid)

    def leaning(self, session: Session, uid: str) -> Session | None:
        view = session.what_if(uid)
        view._parts[uid][cover.Leaning] = cover.Leaning(session.round)
        return view

    def on_step(self, session: Session, uid: str, start: Square, step: Square) -> None:
        cover.end(session, uid)

    def statuses(self, session: Session, uid: str) -> list[str]:
        return [cover.STATUS] if session.has(uid, cover.Leaning) else []

    def suppression_diameter(self, session: Session, uid: str) -> int:
        return suppression.diameter_for(session, uid)

    def blast_radius(self, session: Session, grenade: str) -> int:
        return grenades.blast_radius(DiceCode.parse(session.weapons[grenade].damage), self.p.grenade.ring_dice_drop)

    def throw_outcomes(self, session: Session, uid: str, grenade: str, at: Square,
                       squares: list[Square]) -> list[tuple[float, dict[Square, str]]]:
        return grenades.throw_outcomes(session, uid, grenade, at, squares)

    def preview_throw(self, session: Session, uid: str, grenade: str, at: Square,
                      uids: list[str]) -> ThrowOdds:
        return grenades.preview(session, uid, grenade, at, uids)

    def preview_suppress(self, session: Session, uid: str, at: Square,
                         uids: list[str]) -> SuppressOdds:
        return suppression.preview(session, uid, at, uids)

    def revivable(self, session: Session, uid: str) -> list[str]:
        return first_aid.patients(session, uid)

    def revive_odds(self, session: Session, uid: str, target: str) -> tuple[float, str] | None:
        return first_aid.heal_odds(session, uid, target)

    # --- the game master's panel ------------------------------------------------------------

    def unit_sheet(self, session: Session, uid: str) -> list[tuple[str, str]]:
        """HP against Constitution (dying below 0, dead at -Constitution), aim, morale."""
        rows = super().unit_sheet(session, uid)
        health = session.get(uid, c.Health)
        side = session.side_of(uid)
        rows[1:1] = [("Constitution", f"{health.constitution} (dead at {-health.constitution} HP)")]
        rows += [("Aim", f"+{session.get(uid, c.TurnState).aim_level}"),
                 ("Side's morale", f"{session.morale_percent(side):.0f}% "
                                   f"({session.morale_modifier(side):+d} to rolls)")]
        if session.has(uid, c.Suppressed):
            rows.append(("Pinned by", session.get(session.get(uid, c.Suppressed).by, c.Unit).name))
        if session.has(uid, c.Overwatch):
            rows.append(("Overwatch", "watching"))
        return rows

    def health_bounds(self, session: Session, uid: str) -> tuple[int, int]:
        health = session.get(uid, c.Health)
        return min(0, -health.constitution), health.max_hp

    def modifier_table(self) -> list[tuple[str, str]]:
        p = self.p
        rows = [(f"stance: {name}", f"{value:+d}") for name, value in p.stance_aim_bonus.items()]
        rows += [(f"hit location: {name}", f"{loc.modifier:+d}") for name, loc in p.hit_locations.items()]
        pen = p.attack_penalties
        rows += [("running", f"{pen.running:+d}"), ("walked rough ground", f"{pen.rough_walk:+d}"),
                 ("dropped flat", f"{pen.dropped_flat:+d}"), ("beyond range", f"{p.beyond_range:+d}"),
                 ("target concealed", f"{p.concealment_attack_penalty:+d}")]
        rows += [(f"dodge in {name} cover", f"{value:+d}") for name, value in p.cover_dodge_bonus.items()
                 if name != "none"]
        rows += [(f"morale at {row.min}% or more", f"{row.modifier:+d}") for row in p.morale_table]
        return rows

    # --- the turn ---------------------------------------------------------------------------

    def initiative(self, session: Session, uid: str) -> tuple[Check, tuple[int, ...]]:
        """d10 + Agility; ties to the higher Agility."""
        check = self.initiative_check(session.combatant(uid), session.dice)
        return check, (session.get(uid, c.Stats).attributes.get("agility", 0),)

    def turn_started(self, session: Session, uid: str) -> None:
        if session.has(uid, c.Suppressed):
            suppression.try_break(session, uid)

    # --- attacks ----------------------------------------------------------------------------

    def strike(self, session: Session, plan: AttackPlan, reaction: bool) -> AttackResolved:
        uid, target = plan.attacker, plan.target
        turn = session.get(uid, c.TurnState)
        apos, tpos = session.position(uid), session.position(target)
        if plan.aim_ap:
            session.emit(Aimed(uid, plan.aim_level, plan.aim_ap), apos)
        turn.aim_level = plan.aim_level
        sit = situation(session, plan, reaction=reaction)
        attack = self.attack_check(session.combatant(uid), sit, session.dice)
        gm.spend(session, uid)
        if session.is_up(target):
            with session.dice.by(target):
                defense = self.defense_check(session.combatant(target), sit, session.dice)
        else:
            defense = Check.of("defense", (), [("helpless", 0)])
        hits = self.hit_count(attack.total, defense.total, plan.weapon.spread, plan.rof)
        ammo = 0
        if plan.weapon.kind == "firearm":
            ammo = plan.rof
            held = session.get(uid, c.Loadout).current
            assert held is not None, "a firearm is only ever a held weapon"
            held.ammo -= ammo
        if plan.weapon.kind == "melee":
            turn.aim_level = 0
        record = session.records[session.side_of(uid)]
        record.shots += 1
        record.hits += hits > 0
        event = session.emit(AttackResolved(uid, target, plan.weapon.id, plan.mode.name, plan.location,
                                            attack, defense, hits > 0, hits, plan.ap_cost, ammo, reaction),
                             apos, tpos, to=(session.side_of(uid), session.side_of(target)))
        bonus = session.get(uid, c.Stats).attributes.get("strength", 0) if plan.weapon.id == "unarmed" else 0
        resist = session.get(target, c.Armor).resist
        for _ in range(hits):
            if session.get(target, c.Health).state == "dead":
                break
            roll = self.damage(plan.weapon.damage, plan.weapon.damage_type, plan.location, resist,
                               session.dice, bonus)
            apply_damage(session, target, uid, roll, plan.weapon.damage_type)
        if (not hits and not reaction and session.is_up(uid)
                and riposte.can_riposte(self, session, uid, target, plan.weapon)):
            carry_out(session, riposte.plan(self, session, target, uid), reaction=True)
        return event

    def preview(self, session: Session, plan: AttackPlan, reaction: bool = False) -> dict[str, Any]:
        """Every modifier itemised, the hit distribution enumerated over both dice."""
        return self._preview(session, plan, reaction=reaction)

    def _preview(self, session: Session, plan: AttackPlan, *, reaction: bool) -> dict[str, Any]:
        sit = situation(session, plan, reaction=reaction)
        uid, target = plan.attacker, plan.target
        me, them = session.combatant(uid), session.combatant(target)
        att_attr = self.p.skill_attributes.get(plan.weapon.skill)
        attack_mods = [(plan.weapon.skill, me.skills.get(plan.weapon.skill, 0)),
                       (att_attr, me.attributes.get(att_attr, 0)), *self.attack_modifiers(sit),
                       ("morale", me.morale_modifier)]
        if session.is_up(target):
            skill = self.defense_skill(them, sit)
            def_attr = self.p.skill_attributes.get(skill)
            defense_mods = [(skill, them.skills.get(skill, 0)), (def_attr, them.attributes.get(def_attr, 0)),
                            ("cover", 0 if sit.melee else self.p.cover_dodge_bonus[sit.cover]),
                            ("morale", them.morale_modifier)]
            hits = self.hit_distribution(sum(v for _, v in attack_mods), sum(v for _, v in defense_mods),
                                         plan.weapon.spread, plan.rof)
        else:
            defense_mods = [("helpless", 0)]
            hits = [0.0] * (plan.rof + 1)
            total = sum(v for _, v in attack_mods)
            for face in range(1, self.p.die + 1):
                hits[self.hit_count(face + total, 0, plan.weapon.spread, plan.rof)] += 1 / self.p.die
        bonus = me.attributes.get("strength", 0) if plan.weapon.id == "unarmed" else 0
        per_hit = self.expected_damage_per_hit(plan.weapon.damage, plan.weapon.damage_type, plan.location,
                                               session.get(target, c.Armor).resist, bonus)
        expected = sum(k * p for k, p in enumerate(hits)) * per_hit
        how = self._riposte_note(session, plan, hits[0]) if session.is_up(target) and not reaction else ""
        return {"aim": plan.aim_level, "how": how,
                "attack_modifiers": tuple((k, v) for k, v in attack_mods if v),
                "defense_modifiers": tuple((k, v) for k, v in defense_mods if v),
                "hit_chance": 1.0 - hits[0], "hits": tuple(hits), "damage_per_hit": per_hit,
                "expected_damage": expected}

    def riposte_odds(self, session: Session, plan: AttackPlan) -> tuple[float, float] | None:
        """(chance the riposte hits once the attack has missed, expected damage it deals then),
        or None when a miss would not be answered."""
        uid, target = plan.attacker, plan.target
        if not riposte.can_riposte(self, session, uid, target, plan.weapon):
            return None
        back = riposte.plan(self, session, target, uid)
        odds = self._preview(session, back, reaction=True)
        return odds["hit_chance"], odds["expected_damage"]

    def _riposte_note(self, session: Session, plan: AttackPlan, miss: float) -> str:
        answer = self.riposte_odds(session, plan)
        if answer is None:
            return ""
        return (f"Riposte on a miss ({miss * 100:.1f}%):\n"
                f"hit back {answer[0] * 100:.1f}%, {answer[1]:.1f} dmg")
