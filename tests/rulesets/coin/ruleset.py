"""The `coin` ruleset: one d2 decides every roll.

Every unit has `ap` AP and `hp` HP, whatever its content says. A step costs AP as `movement`
says; every attack costs `attack_ap` and hits when the d2 shows `hit_face`; a hit takes one
HP; at 0 HP the unit is dead. Initiative is a d2, ties to the unit listed first.

It overrides only the hooks of game.core.ruleset.Ruleset it needs, and speaks to the engine
through its events (AttackResolved) and its health system (apply_damage).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from game.content.schema import RulesetSpec, UnitSpec, WeaponSpec
from game.core import components as c
from game.core.events import AttackResolved, Check
from game.core.grid import MoveCosts
from game.core.ruleset import Cone, DamageRoll, EngineNumbers, Fists, Ruleset
from game.core.session import Session
from game.core.systems.health import apply_damage

COIN = 2               # faces of the one die


class _P(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Steps(_P):
    straight: int = Field(ge=1)
    diagonal: int = Field(ge=1)
    rough_extra: int = Field(default=0, ge=0)


class CoinParams(_P):
    """The `params:` of a coin ruleset file, checked when the library is loaded."""

    ap: int = Field(ge=1, le=20)
    hp: int = Field(ge=1, le=20)
    hit_face: int = Field(ge=1, le=COIN)
    attack_ap: int = Field(ge=1)
    reload_ap: int = Field(ge=0)
    draw_ap: int = Field(ge=0)
    stance_ap: int = Field(ge=0)
    movement: Steps
    overwatch_cone: float = Field(gt=0, le=360)


class CoinRuleset(Ruleset):
    name = "coin"
    Params = CoinParams

    def __init__(self, spec: RulesetSpec) -> None:
        super().__init__(spec)
        self.params = CoinParams.model_validate(spec.params)
        par = self.params
        self.p = EngineNumbers(unarmed=Fists(damage="1d2", damage_type="blunt", ap=par.attack_ap),
                               overwatch=Cone(par.overwatch_cone))
        self.move_costs = MoveCosts(par.movement.straight, par.movement.diagonal,
                                    par.movement.rough_extra, False)

    # --- content ----------------------------------------------------------------------------

    def weapon_view(self, weapon: WeaponSpec) -> WeaponSpec:
        """Every way of attacking costs the same and flips one coin: the first mode only."""
        if not weapon.modes:
            return weapon
        mode = weapon.modes[0].model_copy(update={"ap": self.params.attack_ap, "rof": 1})
        return weapon.model_copy(update={"modes": [mode], "aim_max": 0, "aim_ap": 0,
                                         "reload_ap": self.params.reload_ap,
                                         "draw_ap": self.params.draw_ap})

    def unit_body(self, spec: UnitSpec) -> tuple[dict[str, int], dict[str, int], int, int]:
        return {}, {}, self.params.hp, self.params.ap

    # --- costs ------------------------------------------------------------------------------

    def stance_cost(self, old: str, new: str, drop: bool) -> int:
        return self.params.stance_ap

    def state_for(self, hp: int, constitution: int) -> str:
        return "ok" if hp > 0 else "dead"

    # --- the turn ---------------------------------------------------------------------------

    def initiative(self, session: Session, uid: str) -> tuple[Check, tuple[int, ...]]:
        return Check.of("initiative", (session.dice.roll(COIN),), []), ()

    # --- attacks ----------------------------------------------------------------------------

    def strike(self, session: Session, plan: Any, reaction: bool) -> AttackResolved:
        uid, target = plan.attacker, plan.target
        face = session.dice.roll(COIN)
        hit = face == self.params.hit_face
        ammo = 0
        if plan.weapon.kind == "firearm":
            ammo = 1
            session.get(uid, c.Loadout).current.ammo -= ammo
        record = session.records[session.side_of(uid)]
        record.shots += 1
        record.hits += hit
        detail = f"the coin shows {'heads' if hit else 'tails'} ({face} on a d{COIN})"
        event = session.emit(
            AttackResolved(uid, target, plan.weapon.id, plan.mode.name, plan.location,
                           Check.of("coin", (face,), []), Check.of("defense", (), []),
                           hit, int(hit), plan.ap_cost, ammo, reaction, detail),
            session.position(uid), session.position(target),
            to=(session.side_of(uid), session.side_of(target)))
        if hit:
            apply_damage(session, target, uid, DamageRoll((face,), 1, 0, 1), plan.weapon.damage_type)
        return event

    def preview(self, session: Session, plan: Any, reaction: bool = False) -> dict[str, Any]:
        chance = 1 / COIN           # a coin is the same in or out of the attacker's turn
        return {"attack_modifiers": (), "defense_modifiers": (), "hit_chance": chance,
                "hits": (1 - chance, chance), "damage_per_hit": 1.0, "expected_damage": chance,
                "how": f"a d{COIN}: {self.params.hit_face} hits for 1 HP"}
