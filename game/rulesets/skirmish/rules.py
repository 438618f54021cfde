"""The `skirmish` ruleset: d10 + skill against d10 + Dodge (seed 004, "Skirmishes").

The engine's systems gather the tactical facts of an action (range, cover, stance, AP spent on
aim) into a context; this module turns them into dice, modifiers and an outcome. Every number
comes from content/rulesets/skirmish.yaml.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING

from game.content.schema import RulesetSpec, WeaponSpec
from game.core.dice import Dice, DiceCode
from game.core.events import Check
from game.core.odds import dice_sum
from game.core.ruleset import AttackSituation, Combatant, DamageRoll, Ruleset
from game.core.grid import MoveCosts
from game.rulesets.skirmish.params import SkirmishParams

if TYPE_CHECKING:
    from game.core.session import Session


class SkirmishRules(Ruleset):
    """The dice of the `skirmish` text and its costs; grid.py answers the engine's hooks."""

    name = "skirmish"
    Params = SkirmishParams

    def __init__(self, spec: RulesetSpec) -> None:
        super().__init__(spec)
        self.p = SkirmishParams.model_validate(spec.params)
        m = self.p.movement
        self.move_costs = MoveCosts(m.straight, m.diagonal, m.rough_extra, m.corner_cutting)

    # --- costs ------------------------------------------------------------------------------

    def stance_cost(self, old: str, new: str, drop: bool) -> int:
        if old == new:
            return 0
        if drop:
            return self.p.stance_ap.drop_flat
        pair = {old, new}
        if pair == {"stand", "crouch"}:
            return self.p.stance_ap.stand_crouch
        if pair == {"crouch", "prone"}:
            return self.p.stance_ap.crouch_prone
        return self.p.stance_ap.stand_prone

    def aim_cost(self, weapon: WeaponSpec, level: int, quick_aim: bool) -> int:
        """AP to reach aim `level` with `weapon` (linear up to its maximum aimed accuracy)."""
        if level <= 0 or weapon.aim_max <= 0:
            return 0
        cost = math.ceil(level * weapon.aim_ap / weapon.aim_max)
        return math.ceil(cost / self.p.quick_aim_divisor) if quick_aim else cost

    def overwatch_cost(self, per_turn: int) -> int:
        """AP spent to start watching (the rest of the turn's AP is held for the shot)."""
        return math.ceil(per_turn * self.p.overwatch.cost_fraction)

    def is_running(self, move_ap: int, ap_per_turn: int) -> bool:
        return move_ap > ap_per_turn * self.p.movement.run_fraction

    # --- checks -----------------------------------------------------------------------------

    def skill_check(self, name: str, who: Combatant, dice: Dice,
                    extra: list[tuple[str, int]] | None = None, *, half_attribute: bool = False) -> Check:
        """d10 + skill + its attribute modifier + morale + extra modifiers."""
        attribute = self.p.skill_attributes.get(name)
        attr_value = who.attributes.get(attribute, 0) if attribute else 0
        if half_attribute:
            attr_value = int(attr_value / 2)
        mods = [(name, who.skills.get(name, 0))]
        if attribute:
            mods.append((attribute, attr_value))
        mods += extra or []
        mods.append(("morale", who.morale_modifier))
        return Check.of(name, (dice.roll(self.p.die, name),), mods)

    def initiative_check(self, who: Combatant, dice: Dice) -> Check:
        return Check.of("initiative", (dice.roll(self.p.die, "initiative"),), [("agility", who.attributes.get("agility", 0))])

    def attack_modifiers(self, sit: AttackSituation) -> list[tuple[str, int]]:
        mods = [("accuracy", sit.weapon.accuracy)]
        if not sit.suppression:
            mods.append(("aim bonus", sit.aim_level))
        if sit.weapon.kind == "firearm":
            mods.append((sit.stance, self.p.stance_aim_bonus.get(sit.stance, 0)))
        location = self.p.hit_locations.get(sit.location)
        if location:
            mods.append((sit.location, location.modifier))
        if not sit.melee and sit.distance > sit.weapon.range:
            mods.append(("beyond range", self.p.beyond_range))
        pen = self.p.attack_penalties
        if sit.running:
            mods.append(("running", pen.running))
        elif sit.moved_rough:
            mods.append(("rough ground", pen.rough_walk))
        if sit.dropped_flat:
            mods.append(("dropped flat", pen.dropped_flat))
        if sit.concealed and not sit.melee:
            mods.append(("concealment", self.p.concealment_attack_penalty))
        return mods + list(sit.extra)

    def attack_check(self, attacker: Combatant, sit: AttackSituation, dice: Dice) -> Check:
        return self.skill_check(sit.weapon.skill, attacker, dice, self.attack_modifiers(sit))

    def defense_skill(self, defender: Combatant, sit: AttackSituation) -> str:
        """Dodge, or for a melee attack the defender's own skill when that is better."""
        if sit.melee and self.p.melee_defense_with_skill:
            skill = sit.weapon.skill
            if self._static(defender, skill) > self._static(defender, "dodge"):
                return skill
        return "dodge"

    def defense_check(self, defender: Combatant, sit: AttackSituation, dice: Dice) -> Check:
        extra = [] if sit.melee else [("cover", self.p.cover_dodge_bonus[sit.cover])]
        check = self.skill_check(self.defense_skill(defender, sit), defender, dice, extra)
        return Check("defense", check.rolls, check.modifiers, check.total)

    def _static(self, who: Combatant, skill: str) -> int:
        attribute = self.p.skill_attributes.get(skill)
        return who.skills.get(skill, 0) + (who.attributes.get(attribute, 0) if attribute else 0)

    def static_modifier(self, check_name: str, who: Combatant, extra: list[tuple[str, int]], *,
                        half_attribute: bool = False) -> int:
        """The total `skill_check` adds to its die, without rolling (for exact odds)."""
        if half_attribute:
            attribute = self.p.skill_attributes.get(check_name)
            half = int(who.attributes.get(attribute, 0) / 2) if attribute else 0
            static = who.skills.get(check_name, 0) + half
        else:
            static = self._static(who, check_name)
        return static + who.morale_modifier + sum(v for _, v in extra)

    @staticmethod
    def hit_count(attack: int, defense: int, spread: int, rof: int) -> int:
        """Each hit at attack, attack - spread, ... that still beats defense, up to the ROF."""
        if attack <= defense:
            return 0
        return min(rof, math.ceil((attack - defense) / spread))

    # --- damage and health ------------------------------------------------------------------

    def damage(self, code: str, damage_type: str, location: str, resist: dict[str, int],
               dice: Dice, bonus: int = 0) -> DamageRoll:
        dc = DiceCode.parse(code)
        rolls = dice.roll_code(dc, "damage")
        multiplier = self.p.hit_locations[location].damage_multiplier if location in self.p.hit_locations else 1.0
        rolled = self.rolled_damage(sum(rolls) + dc.bonus + bonus, multiplier)
        resisted = min(rolled, resist.get(damage_type, 0))
        return DamageRoll(rolls, rolled, resisted, rolled - resisted)

    @staticmethod
    def rolled_damage(total: int, multiplier: float) -> int:
        """A hit's damage before armor: the dice and bonuses, times the location's multiplier,
        rounded down (never below 0). Armor then takes off up to its resistance."""
        return max(0, int(total * multiplier))

    @staticmethod
    def state_for(hp: int, constitution: int) -> str:
        if hp <= -constitution or (constitution <= 0 and hp <= 0):
            return "dead"
        if hp < 0:
            return "dying"
        if hp == 0:
            return "unconscious"
        return "ok"

    def morale_modifier(self, percent: float) -> int:
        for row in self.p.morale_table:
            if percent >= row.min:
                return row.modifier
        return self.p.morale_table[-1].modifier

    # --- exact odds -------------------------------------------------------------------------

    def hit_distribution(self, attack_mod: int, defense_mod: int, spread: int, rof: int) -> list[float]:
        """P(exactly k hits) for k = 0..rof, enumerating both d10s."""
        return list(_hit_distribution(self.p.die, attack_mod - defense_mod, spread, rof))

    def expected_damage_per_hit(self, code: str, damage_type: str, location: str,
                                resist: dict[str, int], bonus: int = 0) -> float:
        dc = DiceCode.parse(code)
        multiplier = self.p.hit_locations[location].damage_multiplier if location in self.p.hit_locations else 1.0
        return _expected_after_armor(dc, bonus, multiplier, resist.get(damage_type, 0))


@lru_cache(maxsize=4096)
def _hit_distribution(die: int, margin: int, spread: int, rof: int) -> tuple[float, ...]:
    dist = [0.0] * (rof + 1)
    for a in range(1, die + 1):
        for d in range(1, die + 1):
            dist[SkirmishRules.hit_count(a + margin, d, spread, rof)] += 1
    return tuple(count / (die * die) for count in dist)


@lru_cache(maxsize=4096)
def _expected_after_armor(code: DiceCode, bonus: int, multiplier: float, armor: int) -> float:
    dist = dice_sum(code.count, code.sides)
    return sum(p * max(0, SkirmishRules.rolled_damage(s + code.bonus + bonus, multiplier) - armor)
               for s, p in dist.items())


def rules_of(session: Session) -> SkirmishRules:
    """The battle's ruleset, for the skirmish actions: only its battles have them."""
    rules = session.rules
    assert isinstance(rules, SkirmishRules), "a skirmish action in a battle of other rules"
    return rules
