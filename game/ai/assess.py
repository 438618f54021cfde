"""Prices of attacks between known units, from the ruleset's exact odds.

An `Assessor` lives for one battle. It turns a unit's weapon into a `Gun`, its skills into
attack and defense totals for a given situation, and asks `sequences.best_shots` for the best
way to spend some AP on a target. Everything is cached on plain keys: a price holds as long as
the two units' state (weapon, ammunition, stance, HP, morale, whether an objective names the
target) does. A key holds everything its value is worked out from: a decision must not depend
on what was asked before it, or a battle loaded from a save (with a fresh Assessor) would not
play on as the one that went on unsaved.
"""

from __future__ import annotations

import numpy as np

from game.ai import odds
from game.ai.aims import TARGET_WORTH
from game.ai.intel import Known
from game.ai.odds import Gun
from game.ai.sequences import Opening, Shots, best_shots, enough_ammo, openings, spendable
from game.core.engine import Battle

MIN_KILL_VALUE = 8.0
FIREPOWER = 0.5          # share of a unit's damage per turn that putting it down is worth
STANDARD_DEFENSE, STANDARD_ARMOR, STANDARD_HP = 6, 6, 20     # a typical target, for firepower


class Assessor:
    def __init__(self, battle: Battle, called_shots: bool = True) -> None:
        s = battle.session
        self.battle = battle
        self.session = s
        self.rules = odds.canonical(s.rules)
        self.locations = odds.locations_of(self.rules)
        if not called_shots:
            plain = max(self.locations.items, key=lambda loc: (loc[1], loc[2]))   # the torso
            self.locations = odds.locations((plain,))
        self.grid = s.grid
        self._guns: dict[tuple[str, str | None], Gun | None] = {}
        self._attack: dict[tuple, int] = {}
        self._defense: dict[tuple, int] = {}
        self._values: dict[tuple, float] = {}
        self.wanted: frozenset[str] = frozenset()   # enemies an objective names (aims)
        self._shots: dict[tuple, Shots | None] = {}
        self._reactions: dict[tuple, float] = {}
        self._threats: dict[tuple, np.ndarray] = {}
        self._pairs: dict[tuple, dict[tuple, float]] = {}
        torso = tuple(loc for loc in self.locations.items if loc[0] == "torso")
        self._torso = odds.locations(torso or self.locations.items[:1])

    # --- units --------------------------------------------------------------------------------

    def gun(self, unit: Known) -> Gun | None:
        weapon = unit.weapon
        key = (unit.uid, weapon.id if weapon is not None else None)
        if key in self._guns:
            return self._guns[key]
        gun = None
        if weapon is not None and weapon.kind in ("firearm", "melee") and weapon.modes:
            quick = dict(unit.info.abilities).get("quick_aim", 0) > 0
            gun = odds.gun_of(self.rules, weapon, quick)
        self._guns[key] = gun
        return gun

    def value(self, unit: Known) -> float:
        """What putting this unit down is worth, in HP of damage: its body and its firepower."""
        key = (unit.uid, unit.weapon.id if unit.weapon else None, unit.who.morale_modifier)
        value = self._values.get(key)
        if value is None:
            gun = self.gun(unit)
            fire = None
            if gun is not None:
                attack = self.attack_total(unit, "stand", False, False)
                fire = self.best(gun, attack, STANDARD_DEFENSE, STANDARD_ARMOR, STANDARD_HP,
                                 unit.info.ap_per_turn, 0, gun.magazine or 99, 0.0)
            value = self._values[key] = (MIN_KILL_VALUE + 0.25 * unit.info.max_hp
                                         + FIREPOWER * (fire.damage if fire else 0.0))
        return value * TARGET_WORTH if unit.uid in self.wanted else value

    @staticmethod
    def ammo(unit: Known, gun: Gun) -> int:
        if gun.kind != "firearm":
            return 99
        if unit.info.ammo <= 0 and unit.info.spare > 0:
            return gun.magazine
        return unit.info.ammo

    # --- totals -------------------------------------------------------------------------------

    def attack_total(self, unit: Known, stance: str, beyond: bool, concealed: bool,
                     running: bool = False, rough: bool = False, dropped: bool = False) -> int:
        weapon = unit.weapon
        key = (unit.uid, weapon.id, stance, beyond, concealed, running, rough, dropped,
               unit.who.morale_modifier)
        total = self._attack.get(key)
        if total is None:
            distance = weapon.range + 1 if beyond else 0
            total = self._attack[key] = odds.attack_base(
                self.rules, unit.who, weapon, stance=stance, distance=distance, concealed=concealed,
                running=running, moved_rough=rough, dropped_flat=dropped)
        return total

    def defense_total(self, unit: Known, cover: str, melee: bool = False) -> int:
        key = (unit.uid, cover, melee, unit.who.morale_modifier)
        total = self._defense.get(key)
        if total is None:
            weapon = None
            if melee:
                weapon = next(w for w in self.session.weapons.values() if w.kind == "melee")
            total = self._defense[key] = odds.defense_total(self.rules, unit.who, cover, weapon)
        return total

    # --- attacks ------------------------------------------------------------------------------

    def shots(self, attacker: Known, target: Known, *, cover: int, beyond: bool, ap: int,
              stance: str | None = None, aim_now: int = 0, running: bool = False,
              rough: bool = False) -> Shots | None:
        """Best use of `ap` by `attacker` on `target` (cover level 0/1/2 of the target)."""
        if attacker.weapon is None or ap <= 0:
            return None
        concealed = bool(self.grid.concealment[target.square[1], target.square[0]])
        stance = stance or attacker.info.stance
        info = target.info
        key = (attacker.uid, attacker.info.weapon, attacker.info.ammo, attacker.info.spare,
               attacker.who.morale_modifier, stance, info.uid, info.weapon, info.hp,
               target.who.morale_modifier, cover, beyond, ap, aim_now, running, rough, concealed,
               info.uid in self.wanted)
        if key in self._shots:
            return self._shots[key]
        shot = self._shots[key] = self._shots_for(attacker, target, cover, beyond, ap, stance,
                                                  aim_now, running, rough, concealed)
        return shot

    def pair(self, attacker: Known, target: Known) -> dict[tuple, float]:
        """A place to keep the values of `attacker`'s shots at `target` by situation (cover,
        range band, AP, ...) while both units stay as they are."""
        concealed = bool(self.grid.concealment[target.square[1], target.square[0]])
        key = (attacker.uid, attacker.info.weapon, attacker.info.ammo, attacker.info.spare,
               attacker.who.morale_modifier, target.uid, target.info.weapon, target.hp,
               target.who.morale_modifier, concealed, target.uid in self.wanted)
        memo = self._pairs.get(key)
        if memo is None:
            memo = self._pairs[key] = {}
        return memo

    def threat(self, foe: Known, me: Known) -> np.ndarray:
        """[cover, beyond]: what `foe` can do to `me` with a whole turn of AP, by the cover
        (0, 1, 2) `me` has and whether `me` is out of the weapon's range. Priced once for each
        state of the two units."""
        concealed = bool(self.grid.concealment[me.square[1], me.square[0]])
        key = (foe.uid, foe.info.weapon, foe.info.ammo, foe.info.spare, foe.info.stance,
               foe.info.ap_per_turn, foe.who.morale_modifier, me.uid, me.info.weapon, me.hp,
               me.who.morale_modifier, concealed, me.uid in self.wanted)
        table = self._threats.get(key)
        if table is None:
            table = self._threats[key] = np.zeros((3, 2))
            for cover in range(3):
                for beyond in (0, 1):
                    shot = self.shots(foe, me, cover=cover, beyond=bool(beyond),
                                      ap=foe.info.ap_per_turn)
                    table[cover, beyond] = shot.value if shot else 0.0
        return table

    def _shots_for(self, attacker: Known, target: Known, cover: int, beyond: bool, ap: int,
                   stance: str, aim_now: int, running: bool, rough: bool, concealed: bool
                   ) -> Shots | None:
        gun = self.gun(attacker)
        if gun is None:
            return None
        attack = self.attack_total(attacker, stance, beyond, concealed, running, rough)
        melee = gun.kind == "melee"
        defense = self.defense_total(target, ("none", "half", "full")[cover], melee)
        armor = target.armor.get(gun.damage_type, 0)
        return self.best(gun, attack, defense, armor, target.hp, ap, aim_now,
                         self.ammo(attacker, gun), self.value(target))

    def best(self, gun: Gun, attack: int, defense: int, armor: int, hp: int, ap: int,
             aim_now: int, ammo: int, kill_value: float) -> Shots | None:
        """`sequences.best_shots`, asked the fewest ways that give the same answer: with the
        attack's margin over the defense, and only the AP and rounds the sequence can use."""
        ap = spendable(gun, ammo, aim_now, ap)
        return best_shots(self.rules, gun, self.locations, attack - defense, 0, armor, hp, ap,
                          aim_now, enough_ammo(gun, ammo, ap), round(kill_value, 1))

    def openings(self, attacker: Known, target: Known, attack: int, defense: int, ap: int,
                 aim_now: int) -> tuple[Opening, ...]:
        gun = self.gun(attacker)
        if gun is None or ap <= 0:
            return ()
        return openings(self.rules, gun, self.locations, attack, defense,
                        target.armor.get(gun.damage_type, 0), target.hp, ap, aim_now,
                        self.ammo(attacker, gun), round(self.value(target), 1))

    def reaction(self, watcher: Known, target: Known, cover: int) -> float:
        """Expected harm of one unaimed overwatch shot by `watcher` at `target`."""
        key = (watcher.uid, watcher.info.weapon, watcher.info.ammo, watcher.info.spare,
               watcher.info.stance, watcher.who.morale_modifier, target.uid, target.info.weapon,
               target.hp, target.who.morale_modifier, cover, target.uid in self.wanted)
        value = self._reactions.get(key)
        if value is None:
            value = self._reactions[key] = self._reaction(watcher, target, cover)
        return value

    def _reaction(self, watcher: Known, target: Known, cover: int) -> float:
        gun = self.gun(watcher)
        if gun is None or gun.kind != "firearm":
            return 0.0
        mode = max(gun.modes, key=lambda m: (m[2], -m[1]))
        held = mode[1]
        attack = self.attack_total(watcher, watcher.info.stance, False, False)
        defense = self.defense_total(target, ("none", "half", "full")[cover])
        armor = target.armor.get(gun.damage_type, 0)
        shot = best_shots(self.rules, gun, self._torso, attack, defense, armor, target.hp, held, 0,
                          self.ammo(watcher, gun), round(self.value(target), 1))
        return shot.value if shot else 0.0
