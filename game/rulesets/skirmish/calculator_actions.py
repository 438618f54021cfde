"""The calculator under `skirmish` beyond one attack: suppressive fire (and breaking it), a
grenade throw with its scatter, and the morale pool's percentage to a modifier.

Each step is the engine's own function (game/rulesets/skirmish/suppression.py, grenades.py,
SkirmishRules), called with the file's units and the named rolls; the exact odds enumerate the
same dice. The file format is in docs/RESOLVE.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field, ValidationInfo, field_validator, model_validator

from game.content.maps import parse_map
from game.content.schema import Name, WeaponSpec
from game.core.dice import DiceCode
from game.core.grid import Grid
from game.core.odds import Dist, mean, mix, states_of
from game.core.ruleset import DamageRoll
from game.core.session import morale_percent
from game.core.systems.health import morale_shifts
from game.resolve.inputs import Action, Checker, Header, In, Invalid, context_library, unknown
from game.resolve.report import Report, mods_text, percent
from game.resolve.rolls import NamedDice, NamedRolls
from game.rulesets.skirmish import grenades, suppression
from game.rulesets.skirmish.calculator import Unit, UnitIn, WeaponIn, known_weapon, weapon_of
from game.rulesets.skirmish.odds import blast_ring_damage, skirmish_hit_damage
from game.rulesets.skirmish.rules import SkirmishRules

if TYPE_CHECKING:
    from game.content.loader import Library

Square = tuple[Annotated[int, Field(ge=0, le=200)], Annotated[int, Field(ge=0, le=200)]]
Cover = Literal["none", "half", "full"]


def _hp_text(unit: Unit, hp: int, state: str) -> str:
    return f"{unit.hp} HP -> {hp} HP: {state}"


def _hit_text(roll: DamageRoll, weapon: WeaponSpec, unit: Unit) -> str:
    return (f"{weapon.damage} = {'+'.join(map(str, roll.rolls))} -> {roll.rolled} {weapon.damage_type}; "
            f"{unit.armor_name} ({unit.resist.get(weapon.damage_type, 0)} {weapon.damage_type}) absorbs "
            f"{roll.resisted}; {roll.taken} to HP")


def _hit_dict(roll: DamageRoll) -> dict[str, Any]:
    return {"rolls": list(roll.rolls), "rolled": roll.rolled, "resisted": roll.resisted, "taken": roll.taken}


def _state_after(rules: SkirmishRules, unit: Unit) -> Callable[[int], str]:
    """The unit's state after taking `damage`."""
    return lambda damage: rules.state_for(unit.hp - damage, unit.constitution)


def _dist_dict(dist: Dist) -> dict[str, float]:
    return {str(k): p for k, p in sorted(dist.items()) if p > 0}


# --- suppressive fire -----------------------------------------------------------------------


class PinnedIn(UnitIn):
    cover: Cover = "none"             # the target's cover against the suppressor


class SuppressSituationIn(In):
    distance: int = Field(default=1, ge=0)
    stance: Literal["stand", "crouch", "prone"] = "stand"
    running: bool = False
    moved_rough: bool = False
    dropped_flat: bool = False
    break_free: bool = False          # each target still up then tries to break free


class SuppressModel(Header):
    attacker: UnitIn
    weapon: WeaponIn | None = None    # default: the attacker's first firearm
    targets: list[PinnedIn] = Field(min_length=1, max_length=50)
    situation: SuppressSituationIn = Field(default_factory=SuppressSituationIn)

    _weapon = field_validator("weapon")(known_weapon)


def _firearm(data: SuppressModel, attacker: Unit, library: Library, check: Checker) -> WeaponSpec | None:
    if data.weapon is not None:
        weapon = weapon_of(data.weapon, library, ("weapon",))
    else:
        carried = [library.weapons[w.weapon] for w in (attacker.base.weapons if attacker.base else [])
                   if w.weapon in library.weapons and library.weapons[w.weapon].kind == "firearm"]
        if not carried:
            check.add(("attacker",), f"{attacker.name} carries no firearm: name one under weapon")
            return None
        weapon = carried[0]
    if weapon.kind != "firearm" or not weapon.modes:
        check.add(("weapon",), f"suppressive fire needs a firearm; the {weapon.name} is not one")
        return None
    return weapon


class _Suppression:
    def __init__(self, rules: SkirmishRules, data: SuppressModel, library: Library) -> None:
        check = Checker()
        self.attacker = Unit(data.attacker, library, "attacker")
        rank = self.attacker.combatant.abilities.get("suppressive_fire")
        if rank is None:
            check.add(("attacker",), f"{self.attacker.name} does not have the Suppressive Fire ability "
                                     "(abilities: {suppressive_fire: 1})")
        weapon = _firearm(data, self.attacker, library, check)
        self.targets = [Unit(t, library, ("targets", i)) for i, t in enumerate(data.targets)]
        check.done()
        assert weapon is not None and rank is not None, "checked above"
        s = data.situation
        self.weapon = weapon
        self.rank = rank
        self.diameter = suppression.diameter_of(rules, rank)
        self.sit = suppression.fire_situation(weapon, s.stance, s.distance, running=s.running,
                                              moved_rough=s.moved_rough, dropped_flat=s.dropped_flat)
        self.covers = [t.cover for t in data.targets]

    def title(self, data: SuppressModel) -> str:
        return data.title or (f"{self.attacker.name} lays down suppressive fire with the {self.weapon.name} "
                              f"on {', '.join(t.name for t in self.targets)}")


def suppress_resolve(rules: SkirmishRules, data: SuppressModel, rolls: NamedRolls, library: Library) -> Report:
    run = _Suppression(rules, data, library)
    weapon, mode = run.weapon, run.sit.mode
    report = Report(run.title(data))
    dice = NamedDice(rolls)
    report.step(f"Suppressive fire (rank {run.rank}): a full-turn action; a circle {run.diameter} squares "
                f"across, the {weapon.name} at its highest rate of fire ({mode.name}, {mode.rof}), no aim bonus.")
    with dice.named("attack"):
        attack = rules.attack_check(run.attacker.combatant, run.sit, dice)
    report.step(f"Attack ({weapon.skill}): {attack.rolls[0]}{mods_text(attack.modifiers)} = {attack.total}.")
    out: list[dict[str, Any]] = []
    for target, cover in zip(run.targets, run.covers, strict=True):
        if rules.state_for(target.hp, target.constitution) != "ok":
            state = rules.state_for(target.hp, target.constitution)
            report.step(f"{target.name} is already {state}: the fire passes over.")
            out.append({"name": target.name, "hp_before": target.hp, "hit": False, "pinned": False,
                        "hp": target.hp, "state": state})
            continue
        with dice.named("dodge"):
            dodge, hit = suppression.dodge_fire(rules, target.combatant, attack.total, cover, dice)
        hp = target.hp
        entry: dict[str, Any] = {"name": target.name, "hp_before": target.hp, "dodge": dodge.to_dict(), "hit": hit}
        text = f"{target.name} dodges: {dodge.rolls[0]}{mods_text(dodge.modifiers)} = {dodge.total}; "
        if hit:
            with dice.named("damage"):
                roll = suppression.fire_damage(rules, weapon, target.resist, dice)
            hp -= roll.taken
            entry["damage"] = _hit_dict(roll)
            text += f"{attack.total} beats it: hit. {_hit_text(roll, weapon, target)}"
        else:
            text += f"{attack.total} does not beat it: not hit"
        state = rules.state_for(hp, target.constitution)
        entry["pinned"] = state == "ok"
        text += "; pinned prone." if state == "ok" else f"; {state}."
        report.step(text)
        if data.situation.break_free and state == "ok":
            hp = _break(rules, report, dice, target, cover, attack.total, weapon, hp, entry)
            state = rules.state_for(hp, target.constitution)
        entry.update(hp=hp, state=state)
        out.append(entry)
    for target, entry in zip(run.targets, out, strict=True):
        free = " (broke free)" if entry.get("broke_free") else " (pinned)" if entry["pinned"] and entry["state"] == "ok" else ""
        report.step(f"{target.name}: {_hp_text(target, entry['hp'], entry['state'])}{free}.")
    taken = sum(e["hp_before"] - e["hp"] for e in out)
    report.result = {"hit": any(e["hit"] for e in out), "hits": sum(e["hit"] for e in out),
                     "damage_applied": taken, "diameter": run.diameter, "mode": mode.name,
                     "attack": attack.to_dict(), "targets": out}
    return report


def _break(rules: SkirmishRules, report: Report, dice: NamedDice, target: Unit, cover: str, attack_total: int,
           weapon: WeaponSpec, hp: int, entry: dict[str, Any]) -> int:
    with dice.named_each("willpower", "break_dodge"):
        willpower, dodge, broken = suppression.break_attempt(rules, target.combatant, attack_total, cover, dice)
    text = (f"{target.name} tries to break free: Willpower {willpower.rolls[0]}{mods_text(willpower.modifiers)} = "
            f"{willpower.total} against {attack_total}")
    result: dict[str, Any] = {"willpower": willpower.to_dict(), "dodge": None, "broken": broken}
    if dodge is None:
        text += ": fails, stays prone."
    else:
        text += (f": holds; Dodge {dodge.rolls[0]}{mods_text(dodge.modifiers)} = {dodge.total} against "
                 f"{attack_total}")
        result["dodge"] = dodge.to_dict()
        if broken:
            text += ": free, acts normally."
        else:
            with dice.named("damage"):
                roll = suppression.fire_damage(rules, weapon, target.resist, dice)
            hp -= roll.taken
            result["damage"] = _hit_dict(roll)
            text += f": hit by the fire, stays pinned. {_hit_text(roll, weapon, target)}."
    entry["break"] = result
    entry["broke_free"] = broken
    report.step(text)
    return hp


def suppress_odds(rules: SkirmishRules, data: SuppressModel, library: Library) -> Report:
    run = _Suppression(rules, data, library)
    weapon = run.weapon
    report = Report(run.title(data))
    die = rules.p.die
    attack_mod = rules.static_modifier(weapon.skill, run.attacker.combatant, rules.attack_modifiers(run.sit))
    totals = {a + attack_mod: 1 / die for a in range(1, die + 1)}
    code = DiceCode.parse(weapon.damage)
    multiplier = rules.p.hit_locations["torso"].damage_multiplier if "torso" in rules.p.hit_locations else 1.0
    hits_dist = [0.0] * (len(run.targets) + 1)
    per_target: list[dict[str, Any]] = []
    hit_given: list[dict[int, float]] = []
    for target, cover in zip(run.targets, run.covers, strict=True):
        if rules.state_for(target.hp, target.constitution) != "ok":      # the fire passes over
            hit_given.append(dict.fromkeys(totals, 0.0))
            state = rules.state_for(target.hp, target.constitution)
            per_target.append({"name": target.name, "p_hit": 0.0, "p_pinned": 0.0, "expected_damage": 0.0,
                               "damage": {"0": 1.0}, "states": {state: 1.0},
                               **({"p_free": 0.0} if data.situation.break_free else {})})
            report.step(f"{target.name} is already {state}: the fire passes over.")
            continue
        dodge_mod = rules.static_modifier("dodge", target.combatant, [("cover", rules.p.cover_dodge_bonus[cover])])
        will_mod = rules.static_modifier("willpower", target.combatant, [])
        hit_damage = skirmish_hit_damage(code, multiplier, target.resist.get(weapon.damage_type, 0))
        after = _state_after(rules, target)
        parts, p_hit, p_pinned, p_free = [], 0.0, 0.0, 0.0
        given = {}
        for total, p_total in totals.items():
            hit = suppression.chance_hit(rules, total, dodge_mod)
            given[total] = hit
            p_hit += p_total * hit
            after_fire = mix([(1 - hit, {0: 1.0}), (hit, hit_damage)])
            if not data.situation.break_free:
                parts.append((p_total, after_fire))
                p_pinned += p_total * sum(p for d, p in after_fire.items() if after(d) == "ok")
                continue
            holds, frees = suppression.chance_break(rules, total, will_mod, dodge_mod)
            for taken, p in after_fire.items():
                if after(taken) != "ok":
                    parts.append((p_total * p, {taken: 1.0}))
                    continue
                p_pinned += p_total * p
                p_free += p_total * p * frees
                shot = {taken + d: q for d, q in hit_damage.items()}
                parts.append((p_total * p, mix([(1 - holds + frees, {taken: 1.0}), (holds - frees, shot)])))
        hit_given.append(given)
        damage = mix(parts)
        states = states_of(damage, after)
        entry: dict[str, Any] = {"name": target.name, "p_hit": p_hit, "p_pinned": p_pinned,
                                 "expected_damage": mean(damage), "damage": _dist_dict(damage), "states": states}
        line = (f"{target.name} (Dodge {dodge_mod:+d}, {'no' if cover == 'none' else cover} cover): hit {percent(p_hit)}, pinned "
                f"{percent(p_pinned)}, expected damage {mean(damage):.3f}")
        if data.situation.break_free:
            entry["p_free"] = p_free
            line += f", breaks free {percent(p_free)}"
        per_target.append(entry)
        report.step(line + "; afterwards: " + ", ".join(
            f"{s} {percent(p)}" for s, p in sorted(states.items(), key=lambda kv: -kv[1]) if p >= 5e-5) + ".")
    for total, p_total in totals.items():
        count = [1.0]
        for given in hit_given:
            h = given[total]
            count = [(count[k] if k < len(count) else 0.0) * (1 - h) + (count[k - 1] * h if k else 0.0)
                     for k in range(len(count) + 1)]
        for k, p in enumerate(count):
            hits_dist[k] += p_total * p
    report.steps.insert(0, f"Attack ({weapon.skill}): d{die} {attack_mod:+d} (no aim bonus), "
                           f"a circle {run.diameter} squares across; one roll for everyone in it.")
    report.step("Targets hit: " + ", ".join(f"{k}: {percent(p)}" for k, p in enumerate(hits_dist)) + ".")
    report.result = {"odds": {"attack_modifier": attack_mod, "attack_total": {str(t): p for t, p in totals.items()},
                              "hits": hits_dist, "targets": per_target, "diameter": run.diameter}}
    return report


class BreakModel(Header):
    target: PinnedIn                  # the pinned unit, with its cover against the suppressor
    against: int = Field(ge=-100, le=200)   # the suppressor's attack total
    weapon: WeaponIn                  # the suppressor's weapon: its damage if the Dodge fails

    _weapon = field_validator("weapon")(known_weapon)


def _break_setup(data: BreakModel, library: Library) -> tuple[Unit, WeaponSpec, Report]:
    target = Unit(data.target, library, "target")
    weapon = weapon_of(data.weapon, library, ("weapon",))
    title = data.title or f"{target.name} tries to break free of suppressive fire ({data.against})"
    return target, weapon, Report(title)


def break_resolve(rules: SkirmishRules, data: BreakModel, rolls: NamedRolls, library: Library) -> Report:
    target, weapon, report = _break_setup(data, library)
    entry: dict[str, Any] = {"name": target.name, "hp_before": target.hp}
    hp = _break(rules, report, NamedDice(rolls), target, data.target.cover, data.against, weapon, target.hp, entry)
    state = rules.state_for(hp, target.constitution)
    report.step(f"{target.name}: {_hp_text(target, hp, state)}{' (broke free)' if entry['broke_free'] else ' (pinned)'}.")
    report.result = {"broken": entry["broke_free"], **entry["break"], "hp_before": target.hp, "hp": hp,
                     "state": state, "damage_applied": target.hp - hp}
    return report


def break_odds(rules: SkirmishRules, data: BreakModel, library: Library) -> Report:
    target, weapon, report = _break_setup(data, library)
    cover = data.target.cover
    dodge_mod = rules.static_modifier("dodge", target.combatant, [("cover", rules.p.cover_dodge_bonus[cover])])
    will_mod = rules.static_modifier("willpower", target.combatant, [])
    holds, frees = suppression.chance_break(rules, data.against, will_mod, dodge_mod)
    multiplier = rules.p.hit_locations["torso"].damage_multiplier if "torso" in rules.p.hit_locations else 1.0
    hit_damage = skirmish_hit_damage(DiceCode.parse(weapon.damage), multiplier, target.resist.get(weapon.damage_type, 0))
    damage = mix([(1 - holds + frees, {0: 1.0}), (holds - frees, hit_damage)])
    states = states_of(damage, _state_after(rules, target))
    report.step(f"Willpower d{rules.p.die} {will_mod:+d} reaches {data.against}: {percent(holds)}; then Dodge "
                f"d{rules.p.die} {dodge_mod:+d} reaches it too: free {percent(frees)}; the fire hits "
                f"{percent(holds - frees)}.")
    report.step(f"Expected damage {mean(damage):.3f}; afterwards: " + ", ".join(
        f"{s} {percent(q)}" for s, q in sorted(states.items(), key=lambda kv: -kv[1]) if q >= 5e-5) + ".")
    report.result = {"odds": {"p_holds": holds, "p_free": frees, "p_hit": holds - frees,
                              "expected_damage": mean(damage), "damage": _dist_dict(damage), "states": states}}
    return report


# --- a grenade throw ------------------------------------------------------------------------


class PlacedIn(UnitIn):
    at: Square


class ThrowModel(Header):
    attacker: PlacedIn                # the thrower, where it stands
    weapon: WeaponIn | None = None    # the grenade; default: the thrower's first
    at: Square                        # the square aimed at
    targets: list[PlacedIn] = Field(default_factory=list, max_length=50)
    map: str | None = None            # a bundled map; default: open ground

    _weapon = field_validator("weapon")(known_weapon)

    @field_validator("map")
    @classmethod
    def _known_map(cls, value: str | None, info: ValidationInfo) -> str | None:
        library = context_library(info)
        if value is not None and library is not None and value not in library.maps:
            raise ValueError(unknown("map", value, library.maps))
        return value


class _Throw:
    def __init__(self, rules: SkirmishRules, data: ThrowModel, library: Library) -> None:
        check = Checker()
        self.thrower = Unit(data.attacker, library, "attacker")
        grenade = self._grenade(data, library, check)
        self.targets = [Unit(t, library, ("targets", i)) for i, t in enumerate(data.targets)]
        p = rules.p.grenade
        origin, aimed = data.attacker.at, data.at
        self.distance = Grid.distance(origin, aimed)
        if grenade is not None and self.distance > grenade.range:
            check.add(("at",), f"{aimed} is {self.distance} squares away; the {grenade.name} is thrown "
                               f"{grenade.range} at most")
        squares = [origin, aimed, *(t.at for t in data.targets)]
        self.shift = (0, 0)
        if data.map is not None:
            spec = library.maps[data.map]
            parsed = parse_map(spec, library.terrain)
            self.grid = Grid(parsed.terrain_ids, library.terrain, parsed.zones)
            for loc, square in [(("attacker", "at"), origin), (("at",), aimed),
                                *((("targets", i, "at"), t.at) for i, t in enumerate(data.targets))]:
                if not self.grid.in_bounds(*square):
                    check.add(loc, f"{square} is off the map {data.map} ({self.grid.width} x {self.grid.height})")
            if self.grid.in_bounds(*aimed) and not self.grid.transparent[aimed[1], aimed[0]]:
                terrain = library.terrain[self.grid.terrain_at(*aimed)].name
                check.add(("at",), f"{aimed} is solid ({terrain}): a grenade cannot land in it")
        else:
            margin = grenades.scatter_cap(self.distance, p.scatter_cap_fraction) + 1
            width = max(s[0] for s in squares) + 2 * margin + 1
            height = max(s[1] for s in squares) + 2 * margin + 1
            ground = next((t.id for t in library.terrain.values()
                           if t.walkable and not t.blocks_sight and t.cover == "none" and not t.rough), None)
            if ground is None:
                raise Invalid(("map",), "the content has no open ground: name a map")
            self.grid = Grid([[ground] * width for _ in range(height)], library.terrain)
            self.shift = (margin, margin)
        check.done()
        assert grenade is not None, "checked above"
        self.grenade = grenade
        self.origin, self.aimed = self.inside(origin), self.inside(aimed)
        self.squares = [self.inside(t.at) for t in data.targets]
        self.code = DiceCode.parse(grenade.damage)
        self.radius = grenades.blast_radius(self.code, p.ring_dice_drop)

    def _grenade(self, data: ThrowModel, library: Library, check: Checker) -> WeaponSpec | None:
        if data.weapon is not None:
            grenade = weapon_of(data.weapon, library, ("weapon",))
        else:
            carried = [g for g in (self.thrower.base.grenades if self.thrower.base else {}) if g in library.weapons]
            if not carried:
                check.add(("attacker",), f"{self.thrower.name} carries no grenade: name one under weapon")
                return None
            grenade = library.weapons[carried[0]]
        if grenade.kind != "grenade":
            check.add(("weapon",), f"the {grenade.name} is not a grenade")
            return None
        return grenade

    def inside(self, square: tuple[int, ...]) -> tuple[int, int]:
        return square[0] + self.shift[0], square[1] + self.shift[1]

    def outside(self, square: tuple[int, int]) -> tuple[int, int]:
        return square[0] - self.shift[0], square[1] - self.shift[1]

    def title(self, data: ThrowModel) -> str:
        return data.title or f"{self.thrower.name} throws the {self.grenade.name} at {tuple(data.at)}"


def throw_resolve(rules: SkirmishRules, data: ThrowModel, rolls: NamedRolls, library: Library) -> Report:
    run = _Throw(rules, data, library)
    grenade, p = run.grenade, rules.p.grenade
    report = Report(run.title(data))
    dice = NamedDice(rolls)
    difficulty = grenades.throw_difficulty(rules, run.distance)
    with dice.named("throw"):
        check = grenades.throw_check(rules, run.thrower.combatant, dice)
    untrained = " (untrained: half the attribute)" if run.thrower.combatant.skills.get("demolitions", 0) == 0 else ""
    report.step(f"Throw: {run.distance} squares, so a Demolitions difficulty of {difficulty}. "
                f"Demolitions{untrained}: {check.rolls[0]}{mods_text(check.modifiers)} = {check.total}.")
    landed, scatter_roll, far = run.aimed, None, 0
    if check.total >= difficulty:
        report.step(f"{check.total} reaches {difficulty}: it lands where aimed, {run.outside(landed)}.")
    else:
        with dice.named("scatter"):
            landed, scatter_roll, far = grenades.scatter_throw(rules, run.grid, dice, run.origin, run.aimed,
                                                               difficulty - check.total, run.distance)
        cap = grenades.scatter_cap(run.distance, p.scatter_cap_fraction)
        report.step(f"Missed by {difficulty - check.total}: it scatters {far} square{'s' * (far != 1)} "
                    f"(at most {cap}) in direction d{p.scatter_die} = {scatter_roll} (1 = long, turning "
                    f"{360 // p.scatter_die} degrees a face; a wall stops it): it lands at {run.outside(landed)}.")
    with dice.named("damage"):
        faces = dice.roll_code(run.code)
    report.step(f"Blast: {grenade.damage} = {'+'.join(map(str, faces))} = {sum(faces) + run.code.bonus} "
                f"{grenade.damage_type}; ring by ring each loses {p.ring_dice_drop} more of the first dice, "
                f"out to ring {run.radius}.")
    out = []
    caught = [(grenades.blast_ring(run.grid, landed, square, run.radius), i)
              for i, square in enumerate(run.squares)]
    order = sorted(range(len(caught)), key=lambda i: (caught[i][0] is None, caught[i][0] or 0, i))
    for i in order:
        ring, target = caught[i][0], run.targets[i]
        where = run.outside(run.squares[i])
        entry: dict[str, Any] = {"name": target.name, "at": list(where), "ring": ring, "hp_before": target.hp}
        hp = target.hp
        if ring is None:
            report.step(f"{target.name} at {where}: out of the blast.")
        elif rules.state_for(hp, target.constitution) == "dead":
            report.step(f"{target.name} at {where}, ring {ring}: already dead.")
        else:
            roll = grenades.ring_damage(run.code, faces, ring, p.ring_dice_drop,
                                        target.resist.get(grenade.damage_type, 0))
            hp -= roll.taken
            entry["damage"] = _hit_dict(roll)
            state = rules.state_for(hp, target.constitution)
            report.step(f"{target.name} at {where}, ring {ring}: {'+'.join(map(str, roll.rolls)) or 'no dice'} = "
                        f"{roll.rolled}; {target.armor_name} ({target.resist.get(grenade.damage_type, 0)} "
                        f"{grenade.damage_type}) absorbs {roll.resisted}; {roll.taken} to HP: "
                        f"{_hp_text(target, hp, state)}.")
        entry.update(hp=hp, state=rules.state_for(hp, target.constitution))
        out.append(entry)
    out.sort(key=lambda e: [t.name for t in run.targets].index(e["name"]))
    report.result = {"hit": any(e["ring"] is not None for e in out), "difficulty": difficulty,
                     "throw": check.to_dict(), "scatter_roll": scatter_roll, "scatter": far,
                     "landed": list(run.outside(landed)), "blast_rolls": list(faces),
                     "damage_applied": sum(e["hp_before"] - e["hp"] for e in out), "targets": out}
    return report


def throw_odds(rules: SkirmishRules, data: ThrowModel, library: Library) -> Report:
    run = _Throw(rules, data, library)
    grenade, p = run.grenade, rules.p.grenade
    report = Report(run.title(data))
    mod = grenades.throw_modifier(rules, run.thrower.combatant)
    spread = grenades.landings(run.grid, rules.p.die, p.scatter_die, p.scatter_cap_fraction,
                               rules.p.square_meters, run.origin, run.aimed, mod)
    difficulty = grenades.throw_difficulty(rules, run.distance)
    report.step(f"Demolitions d{rules.p.die} {mod:+d} against {difficulty}: lands where aimed "
                f"{percent(spread.get(run.aimed, 0.0))}.")
    landed_text = ", ".join(f"{run.outside(sq)} {percent(pr)}" for sq, pr in
                            sorted(spread.items(), key=lambda kv: (-kv[1], kv[0])))
    report.step(f"Lands at: {landed_text}.")
    per_target = []
    for target, square in zip(run.targets, run.squares, strict=True):
        resist = target.resist.get(grenade.damage_type, 0)
        rings: dict[int, float] = {}
        parts = []
        for landed, chance in spread.items():
            ring = grenades.blast_ring(run.grid, landed, square, run.radius)
            if ring is None or rules.state_for(target.hp, target.constitution) == "dead":
                parts.append((chance, {0: 1.0}))
                continue
            rings[ring] = rings.get(ring, 0.0) + chance
            parts.append((chance, blast_ring_damage(run.code, ring, p.ring_dice_drop, resist)))
        damage = mix(parts)
        states = states_of(damage, _state_after(rules, target))
        caught = sum(rings.values())
        per_target.append({"name": target.name, "at": list(run.outside(square)), "p_caught": caught,
                           "rings": {str(r): q for r, q in sorted(rings.items())},
                           "expected_damage": mean(damage), "damage": _dist_dict(damage), "states": states})
        report.step(f"{target.name} at {run.outside(square)}: caught {percent(caught)}"
                    + "".join(f", ring {r} {percent(q)}" for r, q in sorted(rings.items()))
                    + f"; expected damage {mean(damage):.3f}; afterwards: " + ", ".join(
                        f"{s} {percent(q)}" for s, q in sorted(states.items(), key=lambda kv: -kv[1]) if q >= 5e-5)
                    + ".")
    report.result = {"odds": {"difficulty": difficulty, "throw_modifier": mod,
                              "landings": [{"at": list(run.outside(sq)), "p": pr} for sq, pr in
                                           sorted(spread.items(), key=lambda kv: (-kv[1], kv[0]))],
                              "targets": per_target}}
    return report


# --- morale ---------------------------------------------------------------------------------


class MemberIn(In):
    unit: str | None = None
    name: Name | None = None
    morale: int | None = Field(default=None, ge=0, le=1000)
    down: bool = False                # knocked out or killed

    @field_validator("unit")
    @classmethod
    def _known_unit(cls, value: str | None, info: ValidationInfo) -> str | None:
        library = context_library(info)
        if value is not None and library is not None and value not in library.units:
            raise ValueError(unknown("unit", value, library.units))
        return value


class SideIn(In):
    name: Name
    members: list[MemberIn] = Field(min_length=1, max_length=100)


class MoraleModel(Header):
    percent: float | None = Field(default=None, ge=0, le=10000)
    sides: list[SideIn] | None = Field(default=None, min_length=1, max_length=10)

    @model_validator(mode="after")
    def _one(self) -> MoraleModel:
        if (self.percent is None) == (self.sides is None):
            raise ValueError("give either percent (a pool's share of its start) or sides (their members)")
        return self


def _table(rules: SkirmishRules) -> str:
    return ", ".join(f"{row.min}%+ {row.modifier:+d}" for row in rules.p.morale_table)


def _member(member: MemberIn, library: Library, loc: tuple[Any, ...], check: Checker) -> tuple[str, int]:
    base = library.units.get(member.unit) if member.unit else None
    name = member.name or (base.name if base else None)
    score = member.morale if member.morale is not None else (base.morale if base else None)
    if name is None or score is None:
        check.add(loc, "a member needs a unit, or a name and a morale score")
    return name or "?", score or 0


def morale_resolve(rules: SkirmishRules, data: MoraleModel, rolls: NamedRolls, library: Library) -> Report:
    if data.sides is None:
        assert data.percent is not None, "the model asks for one of the two"
        modifier = rules.morale_modifier(data.percent)
        report = Report(data.title or f"Morale at {data.percent:g}%")
        report.step(f"The table ({_table(rules)}): {data.percent:g}% gives {modifier:+d} to skill rolls.")
        report.result = {"percent": data.percent, "modifier": modifier}
        return report
    check = Checker()
    sides = [[_member(m, library, ("sides", i, "members", j), check) for j, m in enumerate(side.members)]
             for i, side in enumerate(data.sides)]
    check.done()
    report = Report(data.title or "Morale: " + " against ".join(s.name for s in data.sides))
    start = [float(sum(score for _, score in members)) for members in sides]
    pools = list(start)
    for side, members in zip(data.sides, sides, strict=True):
        report.step(f"{side.name}: pool {' + '.join(str(s) for _, s in members)} = {sum(s for _, s in members)}.")
    transfer = rules.p.morale_transfer
    indices = list(range(len(sides)))
    for i, side in enumerate(data.sides):
        others = [k for k in indices if k != i]
        for member, (name, score) in zip(side.members, sides[i], strict=True):
            if not member.down:
                continue
            shifts = morale_shifts(score, i, indices, transfer)      # as the battle does
            for k, amount in shifts:
                pools[k] = max(0.0, pools[k] + amount)
            share = next((amount for k, amount in shifts if k != i), 0.0)
            gained = " and ".join(data.sides[k].name for k in others) or "no one"
            report.step(f"{name} of {side.name} is down: {side.name} loses {score}; {gained} "
                        f"gain{'s' if len(others) == 1 else ''} {share:g} ({transfer:g} of it"
                        f"{', shared' if len(others) > 1 else ''}).")
    out = []
    for side, begun, now in zip(data.sides, start, pools, strict=True):
        share = morale_percent(begun, now)
        modifier = rules.morale_modifier(share)
        out.append({"name": side.name, "start": begun, "pool": now, "percent": share, "modifier": modifier})
        report.step(f"{side.name}: {now:g} of {begun:g} = {share:.1f}%: {modifier:+d} to skill rolls.")
    report.step(f"The table: {_table(rules)}.")
    report.result = {"sides": out}
    return report


def morale_odds(rules: SkirmishRules, data: MoraleModel, library: Library) -> Report:
    report = morale_resolve(rules, data, NamedRolls({}, 0), library)
    report.step("No dice: the modifier is certain.")
    report.result = {"odds": {**report.result, "notes": ["no dice: the modifier is certain"]}}
    return report


ACTIONS = {
    "suppress": Action(SuppressModel, suppress_resolve, suppress_odds),
    "break": Action(BreakModel, break_resolve, break_odds),
    "throw": Action(ThrowModel, throw_resolve, throw_odds),
    "morale": Action(MoraleModel, morale_resolve, morale_odds),
}
