"""What both Eclipse Phase editions share: d100 roll-under tests, opposed tests, armor, wounds.

Everything here works on explicit numbers. Dice come through a `Roll` callable
`roll(name, lowest, highest) -> face`, so the tactical engine can pass its seeded dice
(`roller_from(dice)`), the referee's calculator can fix rolls by name, and the exact odds can
enumerate faces. A d100 is rolled as `roll(name, 0, 99)`: 00 to 99, as the books read it.

The two editions differ only in how a hit's damage is built and how armor is cut down
(`damage_plan` and `armor_value`, which eclipse1.py and eclipse2.py provide).
"""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from game.core.dice import Dice, DiceCode
from game.core.events import Check
from game.core.odds import AttackOdds, Dist, code_dist, convolve_all, mix, remap, states_of

Roll = Callable[[str, int, int], int]
AttackKind = Literal["melee", "ranged", "psi"]


def range_words(band: str) -> str:
    """A range band's modifier as a player reads it: "point blank range", "beyond range", and
    the Eclipse Phase 2e band called Range just "range" (never "range range")."""
    words = band.replace("_", " ")
    return words if "range" in words.split() else f"{words} range"


Defense = Literal["fray", "melee", "none"]


# The rolls the defender makes in an attack (the rest are the attacker's).
DEFENDER_ROLLS = frozenset({"defense", "defense_wild", "knockdown", "willpower", "reaction",
                            "retaliation", "armor", "awareness"})


def roller_from(dice: Dice, *, by: str | None = None, defender: str | None = None) -> Roll:
    """A Roll that draws from the battle's seeded dice (forced and typed faces included). At
    the table each roll is made by `by` (default: the unit the dice say), the defender's rolls
    by `defender`, and a name like "initiative:red-1" by the unit after the colon."""
    def roll(name: str, low: int, high: int) -> int:
        what, _, unit = name.partition(":")
        roller = unit or (defender if defender is not None and what in DEFENDER_ROLLS else by)
        return dice.roll(high - low + 1, what, roller, low) + low - 1
    return roll


def half_up(value: int, divisor: int) -> int:
    """value / divisor, rounded normally (halves up), for non-negative values."""
    return (2 * value + divisor) // (2 * divisor)


class _P(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Knockdown(_P):
    aptitude: str
    multiplier: int = Field(ge=1)


class EclipseParams(_P):
    auto_success: int = Field(ge=0, le=99)
    auto_failure: int = Field(ge=0, le=99)
    modifier_cap: int = Field(ge=0)
    criticals: Literal["doubles", "none"]
    critical_wins_opposed: bool
    full_defense: int
    wound_modifier: int
    ranged_defense_divisor: int = Field(ge=1)
    ranged_defense_rounding: Literal["nearest", "down"]
    psi_defense_multiplier: int = Field(ge=1)
    modifiers: dict[str, int]
    range_modifiers: dict[str, int]
    skill_aptitudes: dict[str, str]
    knockdown: Knockdown | None
    incapacitated_when: Literal["reaches", "exceeds"]
    death_rating_default: float = Field(gt=1)
    blind_miss_chance: int = Field(ge=0, le=100)
    called_shot_effect: Literal["bypass_armor", "none"] = "none"
    blind_attack: Literal["modifier", "miss_chance"] = "modifier"


@dataclass(frozen=True, slots=True)
class Fighter:
    """One side of an attack: skills, aptitudes and health, as plain numbers."""

    name: str
    skills: dict[str, int] = field(default_factory=dict)
    aptitudes: dict[str, int] = field(default_factory=dict)
    armor: dict[str, int] = field(default_factory=dict)      # energy / kinetic
    durability: int = 30
    wound_threshold: int = 6
    death_rating: int = 0                                      # 0: durability x default
    damage: int = 0                                            # accumulated before this attack
    wounds: int = 0
    traumas: int = 0


@dataclass(frozen=True, slots=True)
class Weapon:
    name: str
    skill: str
    damage: str                                  # a dice code: 2d10, 1d10+2
    kind: AttackKind = "ranged"
    armor: Literal["kinetic", "energy"] = "kinetic"
    armor_piercing: bool = False                 # eclipse2: halves the armor
    armor_penetration: int = 0                   # eclipse1: taken off the armor
    burst: str | None = None                     # eclipse2: extra dice when fired in bursts


@dataclass(frozen=True, slots=True)
class Situation:
    """The modifiers and choices of one attack. Modifier names come from the ruleset's table."""

    attacker_modifiers: tuple[str, ...] = ()
    defender_modifiers: tuple[str, ...] = ()
    attacker_extra: tuple[tuple[str, int], ...] = ()
    defender_extra: tuple[tuple[str, int], ...] = ()
    range: str | None = None
    defense: Defense = "fray"                     # "none": surprised or incapacitated
    defense_skill: str = "melee"                  # the skill a "melee" defense blocks with
    full_defense: bool = False
    burst: bool = False
    blind_miss_chance: bool = False


@dataclass(frozen=True, slots=True)
class D100:
    """One roll-under test: the roll, its target and what it achieved."""

    roll: int
    target: int
    success: bool
    critical: bool
    superior: int          # superior successes (eclipse2's 33+ / 66+), 0 for eclipse1
    mos: int               # margin of success, 0 on a failure


@dataclass(frozen=True, slots=True)
class DamagePlan:
    dice: tuple[tuple[str, DiceCode], ...]       # (what for, code)
    bonus: int = 0
    multiplier: int = 1
    armor_ignored: bool = False


@dataclass(frozen=True, slots=True)
class Outcome:
    attack: Check
    attack_test: D100
    defense: Check | None
    defense_test: D100 | None
    hit: bool
    reason: str
    plan: DamagePlan | None = None
    damage_rolls: tuple[int, ...] = ()
    damage_rolled: int = 0
    armor: int = 0
    damage_applied: int = 0
    wounds: int = 0
    damage_after: int = 0
    wounds_after: int = 0
    state: str = "ok"
    knockdown: D100 | None = None
    notes: tuple[str, ...] = ()


class EclipseRules:
    """The opposed-test combat both editions share; subclasses build damage and armor."""

    name = "eclipse"
    p: EclipseParams

    # --- hooks ------------------------------------------------------------------------------

    def grade(self, roll: int, target: int, success: bool) -> tuple[int, int]:
        """(superior successes, margin of success) of a successful roll."""
        return 0, roll if success else 0

    def damage_plan(self, attack: D100, weapon: Weapon, sit: Situation) -> DamagePlan:
        raise NotImplementedError

    def armor_value(self, armor: int, weapon: Weapon) -> int:
        raise NotImplementedError

    def called_shot_lands(self, attack: D100) -> bool:
        """A called shot's effect (a location, a disarm...) needs a superior success."""
        return attack.superior > 0

    def hit_plan(self, attack: D100, weapon: Weapon, sit: Situation) -> DamagePlan:
        """The damage plan of a hit, with a landed called shot's effect: with `called_shot_effect:
        bypass_armor` it finds a gap in the armor, which then does not apply."""
        plan = self.damage_plan(attack, weapon, sit)
        if (self.p.called_shot_effect == "bypass_armor" and "called_shot" in sit.attacker_modifiers
                and self.called_shot_lands(attack) and not plan.armor_ignored):
            plan = DamagePlan(plan.dice, plan.bonus, plan.multiplier, True)
        return plan

    # --- tests ------------------------------------------------------------------------------

    def test(self, roll: int, target: int) -> D100:
        p = self.p
        success = roll != p.auto_failure and (roll == p.auto_success or roll <= target)
        doubles = p.criticals == "doubles" and roll % 11 == 0
        superior, mos = self.grade(roll, target, success)
        return D100(roll, target, success, success and doubles, superior, mos)

    def skill(self, who: Fighter, name: str) -> tuple[str, int]:
        """A skill's value, or its linked aptitude's when the fighter lacks it (defaulting)."""
        words = name.replace("_", " ")              # "kinetic weapons", as a player reads it
        if name in who.skills:
            return words, who.skills[name]
        aptitude = self.p.skill_aptitudes.get(name, name)
        return (f"{aptitude.replace('_', ' ')} (default for {words})",
                who.aptitudes.get(aptitude, 0))

    def _capped(self, mods: list[tuple[str, int]]) -> list[tuple[str, int]]:
        total, cap = sum(v for _, v in mods), self.p.modifier_cap
        if abs(total) > cap:
            mods.append(("modifier cap", (cap if total > 0 else -cap) - total))
        return mods

    def _named(self, names: tuple[str, ...]) -> list[tuple[str, int]]:
        try:
            return [(name.replace("_", " "), self.p.modifiers[name]) for name in names]
        except KeyError as missing:
            raise ValueError(f"unknown modifier {missing.args[0]!r}; known: "
                             f"{', '.join(sorted(self.p.modifiers))}") from None

    def _wounds(self, who: Fighter) -> list[tuple[str, int]]:
        hurt = who.wounds + who.traumas
        if not hurt:
            return []
        return [(f"{hurt} wound{'s' if hurt != 1 else ''}", hurt * self.p.wound_modifier)]

    def attack_target(self, who: Fighter, weapon: Weapon, sit: Situation) -> tuple[str, int, list]:
        label, base = self.skill(who, weapon.skill)
        mods = self._named(sit.attacker_modifiers)
        if sit.range is not None:
            if sit.range not in self.p.range_modifiers:
                raise ValueError(f"unknown range {sit.range!r}; known: "
                                 f"{', '.join(self.p.range_modifiers)}")
            mods.append((range_words(sit.range), self.p.range_modifiers[sit.range]))
        mods += self._wounds(who) + list(sit.attacker_extra)
        return label, base, self._capped(mods)

    def defense_target(self, who: Fighter, weapon: Weapon, sit: Situation) -> tuple[str, int, list]:
        if weapon.kind == "psi":
            wil = who.aptitudes.get("wil", 0)
            label, base = f"WIL {wil} x {self.p.psi_defense_multiplier}", wil * self.p.psi_defense_multiplier
        elif weapon.kind == "ranged" or sit.defense == "fray":
            label, base = self.skill(who, "fray")
            if weapon.kind == "ranged":
                div = self.p.ranged_defense_divisor
                halved = half_up(base, div) if self.p.ranged_defense_rounding == "nearest" else base // div
                label, base = f"{label} {base} / {div}", halved
        else:
            label, base = self.skill(who, sit.defense_skill)
        mods = self._named(sit.defender_modifiers)
        if sit.full_defense:
            mods.append(("full defense", self.p.full_defense))
        mods += self._wounds(who) + list(sit.defender_extra)
        return label, base, self._capped(mods)

    def opposed(self, attack: D100, defense: D100 | None) -> tuple[bool, str]:
        """(hit?, why) for an attack test against a defense test (None: no defense)."""
        if not attack.success:
            return False, "the attack fails"
        if defense is None:
            return True, "the defender cannot defend"
        if not defense.success:
            return True, "the attack succeeds and the defense fails"
        if self.p.critical_wins_opposed and attack.critical != defense.critical:
            return attack.critical, ("the attacker's critical beats any roll" if attack.critical
                                     else "the defender's critical beats a higher roll")
        if attack.roll > defense.roll:
            return True, f"both succeed; {attack.roll:02d} beats {defense.roll:02d}"
        return False, f"both succeed; {attack.roll:02d} does not beat {defense.roll:02d}"

    # --- damage -----------------------------------------------------------------------------

    def damage_from(self, plan: DamagePlan, dice_total: int, defender: Fighter,
                    weapon: Weapon) -> tuple[int, int, int]:
        """(damage rolled, armor that applied, damage through) for a total of the plan's dice."""
        rolled = (dice_total + plan.bonus) * plan.multiplier
        armor = 0 if plan.armor_ignored else self.armor_value(defender.armor.get(weapon.armor, 0), weapon)
        return rolled, armor, max(0, rolled - armor)

    @staticmethod
    def wounds_from(damage: int, threshold: int) -> int:
        return damage // threshold if threshold > 0 else 0

    def death_rating(self, who: Fighter) -> int:
        return who.death_rating or int(who.durability * self.p.death_rating_default + 0.5)

    def state_for(self, damage: int, who: Fighter) -> str:
        if damage >= self.death_rating(who):
            return "dead"
        down = damage >= who.durability if self.p.incapacitated_when == "reaches" else damage > who.durability
        return "incapacitated" if down else "ok"

    # --- one attack, rolled -----------------------------------------------------------------

    def attack(self, attacker: Fighter, defender: Fighter, weapon: Weapon, sit: Situation,
               roll: Roll) -> Outcome:
        a_label, a_base, a_mods = self.attack_target(attacker, weapon, sit)
        a_test = self.test(roll("attack", 0, 99), a_base + sum(v for _, v in a_mods))
        a_check = Check("attack", (a_test.roll,), tuple([(a_label, a_base)] + a_mods), a_test.target)
        d_test = d_check = None
        if sit.defense != "none":
            d_label, d_base, d_mods = self.defense_target(defender, weapon, sit)
            d_test = self.test(roll("defense", 0, 99), d_base + sum(v for _, v in d_mods))
            d_check = Check("defense", (d_test.roll,), tuple([(d_label, d_base)] + d_mods), d_test.target)
        hit, reason = self.opposed(a_test, d_test)
        notes: list[str] = []
        if hit and sit.blind_miss_chance:
            blind = roll("blind", 0, 99)
            if blind < self.p.blind_miss_chance:
                hit, reason = False, f"blind: {blind:02d} falls in the {self.p.blind_miss_chance}% miss chance"
            notes.append(f"blind miss chance {blind:02d}")
        base = Outcome(a_check, a_test, d_check, d_test, hit, reason,
                       damage_after=defender.damage, wounds_after=defender.wounds,
                       state=self.state_for(defender.damage, defender))
        if not hit:
            return base
        if "called_shot" in sit.attacker_modifiers:
            lands = self.called_shot_lands(a_test)
            bypass = lands and self.p.called_shot_effect == "bypass_armor"
            notes.append("the called shot lands" + (": it bypasses the armor" if bypass else "")
                         if lands else "the attack hits, but not where it was called")
        plan = self.hit_plan(a_test, weapon, sit)
        faces = tuple(roll("damage", 1, code.sides) for _, code in plan.dice for _ in range(code.count))
        rolled, armor, through = self.damage_from(plan, sum(faces), defender, weapon)
        wounds = self.wounds_from(through, defender.wound_threshold)
        after = defender.damage + through
        state = self.state_for(after, defender)
        knock = None
        k = self.p.knockdown
        if wounds and state == "ok" and k is not None and k.aptitude in defender.aptitudes:
            knock = self.test(roll("knockdown", 0, 99), defender.aptitudes.get(k.aptitude, 0) * k.multiplier)
        return Outcome(a_check, a_test, d_check, d_test, hit, reason, plan, faces, rolled, armor,
                       through, wounds, after, defender.wounds + wounds, state, knock, tuple(notes))


# --- exact odds -------------------------------------------------------------------------------

@lru_cache(maxsize=1024)
def every_test(rules: EclipseRules, target: int) -> tuple[D100, ...]:
    """The test of each d100 face, 00 to 99, against `target` (asked again and again; a
    ruleset's parameters do not change once it is made)."""
    return tuple(rules.test(roll, target) for roll in range(100))


def defenses_beaten(rules: EclipseRules, d_tests: list[D100 | None]) -> Callable[[D100], int]:
    """How many of `d_tests` a successful attack test beats, as `opposed` decides it, counted
    without going through them one by one: every failed defense, then the successful ones by
    criticals (where a critical wins) and by rolls (a higher roll wins)."""
    if any(d is None for d in d_tests):
        return lambda attack: len(d_tests)
    tests = [d for d in d_tests if d is not None]      # every one of them, as just checked
    failed = sum(1 for d in tests if not d.success)
    rolls = {crit: sorted(d.roll for d in tests if d.success and d.critical == crit)
             for crit in (False, True)}
    criticals_win = rules.p.critical_wins_opposed

    def beaten(attack: D100) -> int:
        won = failed
        for crit, below in rolls.items():
            if criticals_win and crit != attack.critical:
                won += len(below) if attack.critical else 0
            else:
                won += bisect_left(below, attack.roll)      # rolls lower than the attack's
        return won
    return beaten


def attack_odds(rules: EclipseRules, attacker: Fighter, defender: Fighter, weapon: Weapon,
                sit: Situation) -> AttackOdds:
    """Every pair of d100 faces enumerated; each damage plan's dice convolved exactly."""
    _, a_base, a_mods = rules.attack_target(attacker, weapon, sit)
    a_target = a_base + sum(v for _, v in a_mods)
    d_tests: list[D100 | None] = [None]
    if sit.defense != "none":
        _, d_base, d_mods = rules.defense_target(defender, weapon, sit)
        d_tests = list(every_test(rules, d_base + sum(v for _, v in d_mods)))
    keep = 1.0 - rules.p.blind_miss_chance / 100 if sit.blind_miss_chance else 1.0
    plans: dict[DamagePlan, float] = defaultdict(float)
    beaten = defenses_beaten(rules, d_tests)
    for a_test in every_test(rules, a_target):
        if not a_test.success:
            continue
        won = beaten(a_test)
        if won:
            plans[rules.hit_plan(a_test, weapon, sit)] += won / (100 * len(d_tests)) * keep
    p_hit = sum(plans.values())
    damage: Dist = {0: 1.0 - p_hit}
    for plan, weight in plans.items():
        dice = convolve_all(code_dist(DiceCode(c.count, c.sides)) for _, c in plan.dice)
        through = remap(dice, lambda t, plan=plan: rules.damage_from(plan, t, defender, weapon)[2])  # type: ignore[misc]  # mypy infers no lambda with a default
        damage = mix([(1.0, damage), (weight, through)])
    wounds = remap(damage, lambda d: rules.wounds_from(d, defender.wound_threshold))
    states = states_of(damage, lambda d: rules.state_for(defender.damage + d, defender))
    return AttackOdds(p_hit, (1.0 - p_hit, p_hit), damage, states, wounds)
