"""Eclipse Phase (both editions) on the grid: opposed d100 tests between two units.

A turn is one complex action (1 AP: an attack, a reload, full defense, overwatch) with the
unit's movement on top: its full move in squares every turn, free, but moving past its base
move is a full move (-20 to its attacks that turn; a melee attack after it is a charge, -10).
Damage accumulates against Durability and the Death Rating; every Wound Threshold of one hit's
damage is a wound (-10 to every test) and calls for a knockdown check.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, cast

from game.content.schema import TerrainSpec, WeaponSpec
from game.core import components as c
from game.core import gm
from game.rulesets.tabletop.grid import GridRules
from game.core.events import Check, StanceChanged, StatusChanged
from game.core.illegal import Illegal
from game.rulesets.eclipse import calculator as calculator_side
from game.rulesets.eclipse import profiles
from game.rulesets.eclipse.first import Eclipse1Rules
from game.rulesets.eclipse.second import Eclipse2Rules
from game.rulesets.eclipse.core import D100, Defense, Fighter, Situation, Weapon, attack_odds, roller_from
from game.core.odds import mean

if TYPE_CHECKING:
    from game.core.session import Session
    from game.core.systems.attack import AttackPlan


class EclipseGrid(GridRules):
    calculator: ClassVar[Any] = calculator_side
    name = "eclipse"
    defense_choices = ("auto", "fray", "melee")
    ArmorProfile = profiles.ArmorProfile
    UnitProfile = profiles.UnitProfile

    # --- reading units ------------------------------------------------------------------------

    def fighter(self, session: Session, uid: str) -> Fighter:
        stats, health = session.get(uid, c.Stats), session.get(uid, c.Health)
        armor = self.armor_profile(session, uid)
        profile = self.unit_profile(session, uid)
        return Fighter(
            name=session.get(uid, c.Unit).name, skills=dict(stats.skills),
            aptitudes=dict(stats.attributes),
            armor={"kinetic": armor.kinetic, "energy": armor.energy} if armor else {},
            durability=health.max_hp, wound_threshold=stats.attributes.get("wound_threshold", 1),
            death_rating=profile.death_rating, damage=health.max_hp - health.hp,
            wounds=session.get(uid, c.Condition).wounds)

    health_name = "Durability left"
    health_short = "DUR"
    modifier_example = "+20 high ground"

    def sheet_health(self, session: Session, uid: str) -> list[tuple[str, str]]:
        """Damage against Durability and the Death Rating; wounds and their modifier."""
        health, fighter = session.get(uid, c.Health), self.fighter(session, uid)
        wounds = session.get(uid, c.Condition).wounds
        return [("Damage", f"{fighter.damage} of Durability {fighter.durability}"),
                ("Death Rating", str(self.core.death_rating(fighter))),
                ("Wound Threshold", str(fighter.wound_threshold)),
                ("Wounds", f"{wounds} ({wounds * self.core.p.wound_modifier:+d} to every test)"),
                (self.health_name, f"{health.hp}/{health.max_hp}")]

    def health_bounds(self, session: Session, uid: str) -> tuple[int, int]:
        """From dead (damage at the Death Rating) to unhurt."""
        fighter = self.fighter(session, uid)
        return fighter.durability - self.core.death_rating(fighter), fighter.durability

    def modifier_table(self) -> list[tuple[str, str]]:
        p = self.core.p
        return (self.table_rows("situation", dict(p.modifiers))
                + self.table_rows("range", dict(p.range_modifiers))
                + [("each wound", f"{p.wound_modifier:+d}"), ("full defense", f"{p.full_defense:+d}"),
                   ("modifiers together", f"at most {p.modifier_cap} either way")])

    def weapon(self, weapon: WeaponSpec) -> Weapon:
        profile = self.weapon_profile(weapon)
        if not profile.skill:
            raise Illegal(f"The {weapon.name} names no skill under the {self.spec.name} rules.")
        return Weapon(name=weapon.name, skill=profile.skill, damage=profile.damage,
                      kind="melee" if weapon.kind == "melee" else "ranged", armor=profile.armor,
                      armor_piercing=profile.armor_piercing,
                      armor_penetration=profile.armor_penetration, burst=profile.burst)

    def situation(self, session: Session, plan: AttackPlan, weapon: Weapon, reaction: bool) -> Situation:
        attacker, target = plan.attacker, plan.target
        mods: list[str] = []
        tempo = session.get(attacker, c.Tempo)
        if tempo.full_move and not reaction:
            mods.append("charge" if weapon.kind == "melee" else "full_move")
        mods += self.table_names(session, plan)
        up = session.is_up(target)
        aware = self._sees(session, target, attacker)
        defense: Defense = "fray"
        if not up or not aware:
            defense = "none"                     # incapacitated, or surprised by an unseen attacker
        elif weapon.kind == "melee":
            defense = self._melee_defense(session, target, weapon)
        defender_mods: list[str] = []
        if defense != "none" and self._height(session, target) > self._height(session, attacker):
            defender_mods.append("superior_position")    # as Jinx at the ceiling, dodging
        # a blind attack: a blow at a unit its side does not see (a ranged attack needs the
        # attacker's own sight, so it is never blind; asking its side's sight would misread
        # the "what if I stood there" copies, whose sight is not recomputed)
        blind = weapon.kind == "melee" and not self._sees(session, attacker, target)
        miss_chance = blind and self.core.p.blind_attack == "miss_chance"
        if blind and not miss_chance:
            mods.append("blind")
        guarded = session.has(target, c.Guard) and session.get(target, c.Guard).kind == "full"
        return Situation(attacker_modifiers=tuple(mods), defender_modifiers=tuple(defender_mods),
                         range=self.range_band(session, plan),
                         attacker_extra=tuple(gm.waiting(session, attacker)),
                         defense=defense, defense_skill=self._melee_skill(session, target),
                         full_defense=guarded and defense != "none", burst=plan.mode.rof > 1,
                         blind_miss_chance=miss_chance)

    # --- the combat modifiers table, read off the grid -----------------------------------------

    VISIBILITY: ClassVar[dict[str, str]] = {"minor": "minor_visibility", "major": "major_visibility"}

    def _terrain(self, session: Session, uid: str) -> TerrainSpec:
        square = session.position(uid)
        assert square is not None, "both sides of an attack stand on the map"
        terrain = session.grid.terrain_at(*square)
        return next(t for t in session.setup.terrain if t.id == terrain)

    def _height(self, session: Session, uid: str) -> int:
        return self._terrain(session, uid).elevation

    def table_names(self, session: Session, plan: AttackPlan) -> list[str]:
        """The attacker's modifiers of the Combat Modifiers table that the grid decides: cover
        and concealment, superior position (standing higher than the target), impaired
        visibility (the worst of the two squares' light or smoke, the scenario's `lighting` and
        the target's concealment),
        the target's size, a called shot (hit location `called_shot`) and a two-handed weapon
        wielded by a unit with one hand free."""
        attacker, target = plan.attacker, plan.target
        names = self.cover_names(session, plan)
        seen = [name for name in names if name in self.VISIBILITY.values()]
        names = [name for name in names if name not in seen]
        levels = {self._terrain(session, uid).visibility for uid in (attacker, target)}
        levels.add(session.setup.scenario.lighting)          # the whole map's light
        worst = ("major" if "major" in levels or "major_visibility" in seen
                 else "minor" if "minor" in levels or seen else None)
        if worst is not None:
            names.append(self.VISIBILITY[worst])
        if self._height(session, attacker) > self._height(session, target):
            names.append("superior_position")
        size = self.unit_profile(session, target).size
        if size != "medium":
            names.append(f"{size}_target")
        if plan.location == "called_shot":
            names.append("called_shot")
        if self.weapon_profile(plan.weapon).hands > self.unit_profile(session, attacker).hands:
            names.append("two_handed_one_hand")
        return names

    @staticmethod
    def _sees(session: Session, uid: str, other: str) -> bool:
        """Whether `uid`'s side can see `other` (a defender that cannot is surprised)."""
        square = session.position(other)
        assert square is not None, "an attacker stands on the map"
        return session.sees(session.side_of(uid), square)

    def _melee_skill(self, session: Session, uid: str) -> str:
        """The melee skill a defender blocks with: the best it has among its weapons' skills."""
        skills = session.get(uid, c.Stats).skills
        candidates = {self.weapon_profile(session.weapons[w.weapon]).skill
                      for w in session.get(uid, c.Loadout).weapons
                      if session.weapons[w.weapon].kind == "melee"
                      and self.weapon_block(session.weapons[w.weapon]) is not None}
        candidates.add(self.t.unarmed.profile.get("skill") or "")
        known = sorted(s for s in candidates if s and s in skills)    # ties: the first by name,
        return max(known, key=lambda s: skills[s], default="melee")   # not by a set's order

    def _melee_defense(self, session: Session, uid: str, weapon: Weapon) -> Defense:
        """Fray or a melee skill: the unit's standing choice, or the better of the two."""
        standing = session.get(uid, c.Condition).standing
        if standing in ("fray", "melee"):
            return cast(Defense, standing)
        fighter = self.fighter(session, uid)
        fray = self.core.skill(fighter, "fray")[1]
        melee = self.core.skill(fighter, self._melee_skill(session, uid))[1]
        return "melee" if melee > fray else "fray"

    # --- an attack --------------------------------------------------------------------------

    def check_attack(self, session: Session, plan: AttackPlan) -> None:
        super().check_attack(session, plan)
        self.weapon(plan.weapon)                  # its numbers here, with a skill to attack with

    def strike(self, session: Session, plan: AttackPlan, reaction: bool):
        uid, target = plan.attacker, plan.target
        weapon = self.weapon(plan.weapon)
        attacker, defender = self.fighter(session, uid), self.fighter(session, target)
        sit = self.situation(session, plan, weapon, reaction)
        out = self.core.attack(attacker, defender, weapon, sit,
                               roller_from(session.dice, defender=target))
        gm.spend(session, uid)
        ammo = self.spend_ammo(session, plan)
        self.record(session, plan, out.hit)
        defense = out.defense or Check("defense", (), (("cannot defend", 0),), 0)
        event = self.emit_attack(session, plan, out.attack, defense, out.hit, int(out.hit), ammo,
                                 reaction, self._detail(out, sit))
        if not out.hit:
            return event
        before = session.get(target, c.Health).state
        self.hurt(session, target, uid, out.damage_rolls, out.damage_rolled, out.armor,
                  out.damage_applied, weapon.armor, out.state)
        if out.wounds and session.position(target) is not None:     # the dead keep no count
            cond = session.get(target, c.Condition)
            cond.wounds += out.wounds
            total = f"{cond.wounds} wound{'s' if cond.wounds > 1 else ''}"
            session.emit(StatusChanged(target, total, 0, (
                f"{out.damage_applied} damage at Wound Threshold {defender.wound_threshold}; "
                f"{cond.wounds * self.core.p.wound_modifier} to every test"), lasting=True),
                session.position(target))
        knock = out.knockdown
        if knock is not None and not knock.success and before == "ok" and session.is_up(target):
            posture = session.get(target, c.Posture)
            if posture.stance != "prone":
                old, posture.stance = posture.stance, "prone"
                session.emit(StanceChanged(target, old, "prone", 0), session.position(target),
                             to=(session.side_of(target),))
        return event

    @staticmethod
    def _test_text(test: D100, check: Check | None = None) -> str:
        """"50 against 90 (guns 70, superior position +20): success": each modifier by name."""
        named = ""
        if check is not None and any(v for _, v in check.modifiers[1:]):
            (label, base), *mods = check.modifiers
            named = f" ({', '.join([f'{label} {base}', *(f'{m} {v:+d}' for m, v in mods if v)])})"
        text = f"{test.roll:02d} against {test.target}{named}: {'success' if test.success else 'failure'}"
        if test.critical:
            text += ", critical"
        if test.superior:
            text += f", {test.superior} superior"
        return text

    def _detail(self, out: Any, sit: Situation) -> str:
        parts = [f"attack {self._test_text(out.attack_test, out.attack)}"]
        if out.defense_test is not None:
            how = "full defense " if sit.full_defense else ""
            parts.append(f"{how}defense {self._test_text(out.defense_test, out.defense)}")
        else:
            parts.append("no defense")
        parts.append(out.reason)
        if out.hit and out.plan is not None:
            dice = "+".join(map(str, out.damage_rolls))
            if out.plan.bonus:
                dice += f" {out.plan.bonus:+d}".replace("+", "+ ").replace("-", "- ")
            if out.plan.multiplier != 1:
                dice = f"({dice}) x {out.plan.multiplier}"
            parts.append(f"damage {dice} = {out.damage_rolled}, armor {out.armor}, "
                         f"{out.damage_applied} through")
        k = self.core.p.knockdown
        if out.knockdown is not None and k is not None:
            stays = "stays standing" if out.knockdown.success else "knocked down"
            parts.append(f"knockdown check ({k.aptitude.upper()} x {k.multiplier}) "
                         f"{self._test_text(out.knockdown)}, {stays}")
        parts += list(out.notes)
        if isinstance(self.core, Eclipse1Rules) and self.core.defender_benefit(out):
            parts.append("the defender's critical earns a benefit")
        return "; ".join(parts)

    def preview(self, session: Session, plan: AttackPlan, reaction: bool = False) -> dict[str, Any]:
        weapon = self.weapon(plan.weapon)
        attacker, defender = self.fighter(session, plan.attacker), self.fighter(session, plan.target)
        sit = self.situation(session, plan, weapon, reaction)
        odds = attack_odds(self.core, attacker, defender, weapon, sit)
        a_label, a_base, a_mods = self.core.attack_target(attacker, weapon, sit)
        a_target = a_base + sum(v for _, v in a_mods)
        if sit.defense == "none":
            defense: tuple[tuple[str, int], ...] = (("cannot defend", 0),)
            how = f"d100 under {a_target} hits: the defender cannot defend"
        else:
            d_label, d_base, d_mods = self.core.defense_target(defender, weapon, sit)
            defense = ((d_label, d_base), *a_pairs(d_mods))
            how = (f"d100 under {a_target}; the defender rolls under "
                   f"{d_base + sum(v for _, v in d_mods)}; if both succeed the higher roll wins")
        hit_damage = {k: v for k, v in odds.damage.items() if k} if odds.p_hit else {}
        per_hit = (sum(k * v for k, v in hit_damage.items()) / odds.p_hit) if odds.p_hit else 0.0
        return {"attack_modifiers": ((a_label, a_base), *a_pairs(a_mods)),
                "defense_modifiers": defense, "hit_chance": odds.p_hit, "hits": tuple(odds.hits),
                "damage_per_hit": per_hit, "expected_damage": mean(odds.damage), "how": how}

    # --- defenses -----------------------------------------------------------------------------

    def asks(self, session: Session, plan: AttackPlan) -> tuple[str, ...]:
        """Only a melee attack leaves a choice (Fray or a melee skill); ranged is Fray / 2."""
        return super().asks(session, plan) if plan.weapon.kind == "melee" else ()

    def guard_for(self, session: Session, uid: str, kind: str) -> c.Guard:
        return c.Guard(kind, None, self.core.p.full_defense)


def a_pairs(mods: list[tuple[str, int]]) -> tuple[tuple[str, int], ...]:
    return tuple((label, value) for label, value in mods if value)


class Eclipse2Grid(EclipseGrid):
    name = "eclipse2"
    core_class = Eclipse2Rules
    Params = Eclipse2Rules.Params
    WeaponProfile = profiles.Weapon2Profile


class Eclipse1Grid(EclipseGrid):
    name = "eclipse1"
    core_class = Eclipse1Rules
    Params = Eclipse1Rules.Params
    WeaponProfile = profiles.Weapon1Profile
