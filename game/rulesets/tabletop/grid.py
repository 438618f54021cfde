"""A tabletop ruleset played on the grid: what every ruleset other than `skirmish` shares.

A ruleset core (game/rulesets/<name>/core.py: Eclipse Phase, OpenD6, d20) resolves one attack
from plain numbers. Its grid ruleset (a subclass of `GridRules`) is what the engine's systems call: it
reads units' stats for that ruleset (their `rules:` blocks), prices the turn in the ruleset's
own economy (`tactical:` in the ruleset file, see params.py beside this module), turns grid facts
into the core's situation, and keeps what the core leaves to the table between attacks: damage,
wounds, statuses, active defenses, reactions.

Every hook here answers one of the engine's (game/core/ruleset.py) for all four of them.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np
from pydantic import BaseModel

from game.content.schema import FireMode, RulesetSpec, UnitSpec, WeaponSpec
from game.core import components as c
from game.core.events import AttackResolved, Check, Defended, DefenseChosen, StatusChanged
from game.core.grid import MoveCosts, Reach
from game.core.illegal import Illegal
from game.core.systems.health import apply_damage
from game.core.ruleset import DamageRoll
from game.rulesets.tabletop.blocks import BlockRules
from game.rulesets.tabletop.params import TacticalParams

if TYPE_CHECKING:
    from game.core.session import Session
    from game.core.systems.attack import AttackPlan

# The cores' words for a body's condition, in the engine's (Health.state).
STATES = {"ok": "ok", "wounded": "ok", "incapacitated": "unconscious", "unconscious": "unconscious",
          "dying": "dying", "dead": "dead"}


class GridRules(BlockRules):
    """Shared machinery; subclasses name their core and resolve attacks."""

    name = "grid"
    core_class: type = object
    defense_choices: tuple[str, ...] = ("auto",)
    supports = frozenset({"move_actions"})      # a turn buys whole move actions
    profiles = True                              # units and weapons carry `rules: {engine: ...}`

    @classmethod
    def file_blocks(cls) -> dict[str, type[BaseModel]]:
        """`params` (the dice core's numbers) and `tactical` (its turn on the grid)."""
        return {**super().file_blocks(), "tactical": TacticalParams}

    def __init__(self, spec: RulesetSpec) -> None:
        self.spec = spec
        self.core = self.core_class(spec)
        tactical = spec.tactical
        if not tactical:
            raise ValueError(f"ruleset {spec.id!r} has no `tactical:` block: the numbers of its turn "
                             "on the grid (see docs/RULESETS.md)")
        self.t = TacticalParams.model_validate(tactical)
        self.p = self.t                 # what shared systems read: overwatch, hit_locations, unarmed...
        self._blocks = {}
        m = self.t.movement
        self.move_costs = MoveCosts(1, m.diagonal, m.rough_extra, m.corner_cutting)

    # --- content ----------------------------------------------------------------------------

    @property
    def ap_name(self) -> str:  # type: ignore[override]
        return self.t.ap_name

    def unit_body(self, spec: UnitSpec) -> tuple[dict[str, int], dict[str, int], int, int]:
        """(attributes, skills, hp, AP per turn) of a unit under this ruleset."""
        profile = self.block("unit", spec.id, spec.rules.get(self.engine))
        if profile is None:
            raise ValueError(f"unit {spec.id!r} has no stats for ruleset {self.spec.id!r}")
        attributes = dict(profile.attributes)
        return attributes, dict(profile.skills), profile.hp, self.ap_per_turn(attributes)

    def unit_components(self) -> list[Any]:
        return [c.Condition(), c.Tempo()]

    def modes_for(self, weapon: WeaponSpec) -> list[FireMode]:
        """The weapon's fire modes, each priced at the ruleset's attack cost."""
        return [FireMode(name=m.name, ap=self.t.attack_ap, rof=m.rof) for m in weapon.modes]

    def weapon_view(self, weapon: WeaponSpec) -> WeaponSpec:
        """The weapon as the shared systems see it under this ruleset: costs in its AP."""
        if weapon.kind == "grenade":
            return weapon
        return weapon.model_copy(update={"modes": self.modes_for(weapon), "reload_ap": self.t.reload_ap,
                                         "draw_ap": self.t.draw_ap, "aim_max": 0, "aim_ap": 0})

    # --- costs the shared systems ask for ---------------------------------------------------

    def stance_cost(self, old: str, new: str, drop: bool) -> int:
        if old == new:
            return 0
        s = self.t.stance_ap
        if drop:
            return s.drop_flat
        pair = {old, new}
        if pair == {"stand", "crouch"}:
            return s.stand_crouch
        if pair == {"crouch", "prone"}:
            return s.crouch_prone
        return s.stand_prone

    def aim_cost(self, weapon: WeaponSpec, level: int, quick_aim: bool) -> int:
        return 0

    def is_running(self, move_ap: int, ap_per_turn: int) -> bool:
        return False

    def morale_modifier(self, percent: float) -> int:
        return 0

    def overwatch_cost(self, per_turn: int) -> int:
        return self.t.overwatch.ap

    def state_for(self, hp: int, constitution: int) -> str:
        return "ok" if hp > 0 else "unconscious"

    # --- the turn -----------------------------------------------------------------------------

    def ap_per_turn(self, attributes: dict[str, int]) -> int:
        return self.t.actions

    def initiative(self, session: Session, uid: str) -> tuple[Check, tuple]:
        """One unit's initiative roll, and what breaks ties (higher first)."""
        return self.rolled_initiative(session, uid)

    def start_round(self, session: Session) -> None:
        """Round bookkeeping (reactions come back)."""

    def begin_turn(self, session: Session, uid: str) -> str | None:
        """Open a turn: a fresh move allowance, statuses tick. A reason it cannot act, or None."""
        tempo = c.Tempo()
        tempo.move_left = self.t.movement.free.squares(session.get(uid, c.Stats).attributes)
        session.add(uid, tempo)
        cond = session.get(uid, c.Condition)
        cond.exposed = 0
        if session.has(uid, c.Guard):
            session.remove(uid, c.Guard)
        return None

    def end_turn(self, session: Session, uid: str) -> None:
        """Close a turn (d20 remembers the actions it held)."""

    def can_still_act(self, session: Session, uid: str) -> bool:
        """With no AP left, can the unit still do something (walk its free move)?"""
        return session.get(uid, c.Tempo).move_left > 0 and session.get(uid, c.Posture).stance != "prone"

    # --- movement -----------------------------------------------------------------------------

    def speed(self, session: Session, uid: str) -> int:
        return self.t.movement.speed.squares(session.get(uid, c.Stats).attributes)

    def step_price(self, session: Session, uid: str, squares: int, *, commit: bool) -> int:
        """AP a step of `squares` of allowance costs now (opening move actions as needed)."""
        tempo = session.get(uid, c.Tempo)
        left = tempo.move_left
        ap = 0
        if squares > left:
            speed, cost = self.speed(session, uid), self.t.movement.ap
            if not cost or not speed:
                raise Illegal(f"{session.get(uid, c.Unit).name} has no movement left this turn.")
            opened = math.ceil((squares - left) / speed)
            ap, left = opened * cost, left + opened * speed
        if commit:
            tempo.move_left = left - squares
            tempo.moved += squares
            beyond = self.t.movement.full_move_beyond
            if beyond is not None and tempo.moved > beyond.squares(session.get(uid, c.Stats).attributes):
                tempo.full_move = True
            if ap:
                tempo.actions += ap
        return ap

    def path_price(self, session: Session, uid: str, steps: list[int]) -> int:
        """AP of a whole path (its steps in squares of allowance), without changing anything."""
        tempo = session.get(uid, c.Tempo)
        total = sum(steps)
        if total <= tempo.move_left:
            return 0
        speed, cost = self.speed(session, uid), self.t.movement.ap
        if not cost or not speed:
            raise Illegal(f"That path needs {total} squares of movement; "
                          f"{session.get(uid, c.Unit).name} has {tempo.move_left} left this turn.")
        return math.ceil((total - tempo.move_left) / speed) * cost

    def reach_budget(self, session: Session, uid: str, most: int | None = None) -> int:
        """Squares the unit could still walk this turn."""
        tempo = session.get(uid, c.Tempo)
        ap, cost = session.get(uid, c.ActionPoints).current, self.t.movement.ap
        more = (ap // cost) * self.speed(session, uid) if cost else 0
        return tempo.move_left + more

    def price_reach(self, session: Session, uid: str, found: Reach) -> Reach:
        return found.priced(lambda squares: self.reach_prices(session, uid, squares),
                            session.get(uid, c.ActionPoints).current)

    def reach_prices(self, session: Session, uid: str, squares: np.ndarray) -> np.ndarray:
        """AP to walk `squares` of allowance (element-wise), as `step_price` would charge them."""
        left, speed, cost = session.get(uid, c.Tempo).move_left, self.speed(session, uid), self.t.movement.ap
        if not cost or not speed:
            return np.zeros_like(squares)
        extra = np.maximum(0, squares - left)
        return (-(-extra // speed)) * cost

    def full_move_beyond(self, session: Session, uid: str) -> int | None:
        beyond = self.t.movement.full_move_beyond
        return None if beyond is None else beyond.squares(session.get(uid, c.Stats).attributes)

    def on_step(self, session: Session, uid: str, start: tuple[int, int], step: tuple[int, int]) -> None:
        """`uid` is about to step from `start` to `step` (d20: attacks of opportunity)."""

    def provokers(self, session: Session, uid: str, start: tuple[int, int],
                  step: tuple[int, int]) -> list[AttackPlan]:
        """The reactions a step from `start` to `step` would draw, as planned attacks (d20:
        attacks of opportunity); none here."""
        return []

    def after_action(self, session: Session, uid: str, command: Any) -> None:
        """Any action but a move: a move that cannot be split ends here."""
        if not session.has(uid, c.Tempo):
            return
        if not self.t.movement.split or session.has(uid, c.Overwatch):
            session.get(uid, c.Tempo).move_left = 0     # watching ends the turn's movement too

    # --- attacks ------------------------------------------------------------------------------

    def check_attack(self, session: Session, plan: AttackPlan) -> None:
        """Refuse, before anything changes, what this ruleset cannot resolve or allow."""
        self.weapon_profile(plan.weapon)          # a weapon without this ruleset's numbers
        limit = self.t.attacks_per_turn
        if limit is not None and session.get(plan.attacker, c.Tempo).attacks >= limit:
            raise Illegal(f"{session.get(plan.attacker, c.Unit).name} has made "
                          f"{'its attack' if limit == 1 else f'its {limit} attacks'} this turn.")

    def strike(self, session: Session, plan: AttackPlan, reaction: bool) -> AttackResolved:
        raise NotImplementedError

    def preview(self, session: Session, plan: AttackPlan, reaction: bool = False) -> dict[str, Any]:
        """Exact odds: attack_modifiers, defense_modifiers, hit_chance, hits, damage_per_hit,
        expected_damage (the fields of queries.AttackPreview)."""
        raise NotImplementedError

    # --- defenses -----------------------------------------------------------------------------

    def defend(self, session: Session, uid: str, kind: str) -> None:
        """Take the defense `kind`; raises Illegal when it is not offered or not affordable."""
        offered = self.t.defend
        name = session.get(uid, c.Unit).name
        if kind not in offered:
            names = ", ".join(offered) or "none"
            raise Illegal(f"The {self.spec.name} rules offer no {kind!r} defense (they offer: {names}).")
        if session.has(uid, c.Guard):
            raise Illegal(f"{name} is already defending.")
        cost = self.defense_cost(session, uid, kind)
        ap = session.get(uid, c.ActionPoints)
        if cost > ap.current:
            raise Illegal(f"A {kind} defense costs {cost} AP; {name} has {ap.current}.")
        ap.current -= cost
        guard = self.guard_for(session, uid, kind)
        session.add(uid, guard)
        check = None
        if guard.total is not None:
            check = Check(kind, (), (), guard.total)
        session.emit(Defended(uid, kind, check, guard.bonus, cost), session.position(uid))

    def defense_costs(self, session: Session, uid: str) -> dict[str, int]:
        return {kind: self.defense_cost(session, uid, kind) for kind in self.t.defend}

    def defense_cost(self, session: Session, uid: str, kind: str) -> int:
        cost = self.t.defend[kind]
        return session.get(uid, c.ActionPoints).current if cost == 0 else cost

    def guard_for(self, session: Session, uid: str, kind: str) -> c.Guard:
        raise NotImplementedError

    def standing_choices(self) -> tuple[str, ...]:
        """What ChooseDefense accepts: the ruleset's defenses, and "ask" (a prompt each time)
        where there is a real choice."""
        return self.defense_choices + (("ask",) if len(self.defense_choices) > 1 else ())

    def asks(self, session: Session, plan: AttackPlan) -> tuple[str, ...]:
        """The choices to put to the defender's player before this attack, or () to go on."""
        target = plan.target
        if not session.is_up(target) or session.get(target, c.Condition).standing != "ask":
            return ()
        return tuple(choice for choice in self.defense_choices if choice != "auto")

    def choose_defense(self, session: Session, uid: str, choice: str) -> None:
        choices = self.standing_choices()
        if choice not in choices:
            raise Illegal(f"{choice!r} is not a defense here; choose {', '.join(choices)}.")
        session.get(uid, c.Condition).standing = choice
        session.emit(DefenseChosen(uid, choice), to=(session.side_of(uid),))

    # --- what the table keeps between attacks ----------------------------------------------

    def hurt(self, session: Session, target: str, source: str, rolls: tuple[int, ...], rolled: int,
             resisted: int, taken: int, damage_type: str, state: str) -> None:
        """Damage through the shared health system, with the core's verdict on the body."""
        apply_damage(session, target, source, DamageRoll(tuple(rolls), rolled, resisted, taken),
                     damage_type, state=STATES.get(state, state))

    def set_status(self, session: Session, uid: str, status: str, turns: int, detail: str) -> None:
        cond = session.get(uid, c.Condition)
        if turns <= 0:
            if status not in cond.statuses:
                return
            del cond.statuses[status]
        else:
            cond.statuses[status] = turns
        square = session.position(uid)
        session.emit(StatusChanged(uid, status, max(0, turns), detail), *([square] if square else []),
                     to=(session.side_of(uid),))

    def statuses(self, session: Session, uid: str) -> list[str]:
        """Words for the unit panel: wounds, statuses, an active defense."""
        cond = session.get(uid, c.Condition)
        out = []
        if cond.wounds:
            out.append(f"{cond.wounds} wound{'s' if cond.wounds != 1 else ''}")
        out += [f"{name} {turns}" if turns else name for name, turns in sorted(cond.statuses.items())]
        if session.has(uid, c.Guard):
            out.append(f"defending ({session.get(uid, c.Guard).kind})")
        return out

    # --- the game master's panel --------------------------------------------------------------

    def fighter(self, session: Session, uid: str) -> Any:
        """The unit as its core reads it (each ruleset's own)."""
        raise NotImplementedError

    def state_at(self, session: Session, uid: str, hp: int) -> str:
        """The core's verdict on a body with `hp` left (its damage set by hand)."""
        health = session.get(uid, c.Health)
        word = self.core.state_for(health.max_hp - hp, self.fighter(session, uid))
        return STATES.get(word, word)

    def sheet_health(self, session: Session, uid: str) -> list[tuple[str, str]]:
        """The rows of the sheet about the unit's body, in the ruleset's words."""
        health = session.get(uid, c.Health)
        return [(self.health_name, f"{health.hp}/{health.max_hp}")]

    def unit_sheet(self, session: Session, uid: str) -> list[tuple[str, str]]:
        health, ap = session.get(uid, c.Health), session.get(uid, c.ActionPoints)
        cond, tempo = session.get(uid, c.Condition), session.get(uid, c.Tempo)
        rows = self.sheet_health(session, uid)
        ap_label = self.ap_name[:1].upper() + self.ap_name[1:]
        ap_label += "" if ap_label.endswith("s") else "s"
        rows += [("State", health.state), (f"{ap_label} left", f"{ap.current}/{ap.per_turn}"),
                 ("Movement left", f"{tempo.move_left} square{'' if tempo.move_left == 1 else 's'}"),
                 ("Stance", session.get(uid, c.Posture).stance),
                 ("Defends with", cond.standing)]
        words = self.statuses(session, uid)
        if words:
            rows.append(("Statuses", ", ".join(words)))
        return rows

    @staticmethod
    def table_rows(heading: str, values: dict[str, Any]) -> list[tuple[str, str]]:
        """A block of the modifier table: `heading: name` and each value signed."""
        return [(f"{heading}: {name.replace('_', ' ')}",
                 "-" if value is None else f"{value:+d}" if isinstance(value, int) else str(value))
                for name, value in values.items()]

    def spend_ammo(self, session: Session, plan: AttackPlan) -> int:
        if plan.weapon.kind != "firearm":
            return 0
        held = session.get(plan.attacker, c.Loadout).current
        assert held is not None, "a firearm is only ever a held weapon"
        held.ammo -= plan.rof
        return plan.rof

    def record(self, session: Session, plan: AttackPlan, hit: bool) -> None:
        record = session.records[session.side_of(plan.attacker)]
        record.shots += 1
        record.hits += hit
        if session.has(plan.attacker, c.Tempo):
            session.get(plan.attacker, c.Tempo).attacks += 1

    def emit_attack(self, session: Session, plan: AttackPlan, attack: Check, defense: Check, hit: bool,
                    hits: int, ammo: int, reaction: bool, detail: str) -> AttackResolved:
        apos, tpos = session.position(plan.attacker), session.position(plan.target)
        event = AttackResolved(plan.attacker, plan.target, plan.weapon.id, plan.mode.name, plan.location,
                               attack, defense, hit, hits, plan.ap_cost, ammo, reaction, detail)
        return session.emit(event, apos, tpos,
                            to=(session.side_of(plan.attacker), session.side_of(plan.target)))

    def range_band(self, session: Session, plan: AttackPlan) -> str | None:
        """The ruleset's name for the attack's range (None for melee or when it has no bands)."""
        if plan.weapon.kind == "melee" or not self.t.range_bands:
            return None
        meters = self.range_meters(session, plan)
        weapon_meters = plan.weapon.range * self.t.square_meters
        for band in self.t.range_bands:
            limit = band.meters if band.meters is not None else (
                band.weapon_range * weapon_meters if band.weapon_range is not None else None)
            if limit is None or meters <= limit:
                return band.name
        return self.t.range_bands[-1].name

    def cover_names(self, session: Session, plan: AttackPlan) -> list[str]:
        """Modifier names for the target's cover and concealment, from the ruleset's table."""
        if plan.weapon.kind == "melee":
            return []
        apos, tpos = session.position(plan.attacker), session.position(plan.target)
        assert apos is not None and tpos is not None, "both sides of an attack stand on the map"
        names = []
        cover = session.grid.cover_against(tpos, apos)
        if cover in self.t.cover_modifiers:
            names.append(self.t.cover_modifiers[cover])
        if session.grid.concealment[tpos[1], tpos[0]] and "concealed" in self.t.cover_modifiers:
            names.append(self.t.cover_modifiers["concealed"])
        return names

    def rolled_initiative(self, session: Session, uid: str) -> tuple[Check, tuple]:
        """d`die` + attributes / divisor, from the `initiative` numbers; ties to the higher sum."""
        spec = self.t.initiative
        if spec is None:
            raise NotImplementedError
        attributes = session.get(uid, c.Stats).attributes
        score = sum(attributes.get(a, 0) for a in spec.attributes) // spec.divisor
        named = "+".join(a.upper() for a in spec.attributes)
        label = f"({named})/{spec.divisor}" if spec.divisor > 1 else named
        check = Check.of("initiative", (session.dice.roll(spec.die, "initiative"),), [(label, score)])
        return check, (score,)

    def range_meters(self, session: Session, plan: AttackPlan) -> float:
        apos, tpos = session.position(plan.attacker), session.position(plan.target)
        assert apos is not None and tpos is not None, "both sides of an attack stand on the map"
        return session.grid.distance(apos, tpos) * self.t.square_meters
