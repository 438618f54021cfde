"""The calculator's d20 ambush: each ambusher's Stealth (d20 + skill + DEX) against the
Awareness (d20 + skill + PER) of each target it attacks, as D20Rules.ambush rolls it; a win
keeps the ambusher hidden and gives it a turn before initiative, target by target ("Individual
members of a group can be ambushed")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import Field

from game.content.problems import suggest
from game.content.schema import Name
from game.resolve.inputs import Action, Checker, Header, In
from game.resolve.report import Report, percent
from game.resolve.rolls import NamedRolls
from game.rulesets.d20.core import D20Rules, Fighter

if TYPE_CHECKING:
    from game.content.loader import Library


class AmbusherIn(In):
    name: Name
    attributes: dict[str, int] = Field(default_factory=dict)
    stealth: int = 0                  # the Stealth skill


class AmbushedIn(In):
    name: Name
    attributes: dict[str, int] = Field(default_factory=dict)
    awareness: int = 0                # the Awareness skill
    by: Name | None = None            # the ambusher attacking it; default: the first


class AmbushModel(Header):
    ambushers: list[AmbusherIn] = Field(min_length=1, max_length=50)
    targets: list[AmbushedIn] = Field(min_length=1, max_length=50)


def _pairs(data: AmbushModel) -> list[tuple[AmbusherIn, AmbushedIn]]:
    check = Checker()
    by_name = {a.name: a for a in data.ambushers}
    pairs = []
    for i, target in enumerate(data.targets):
        name = target.by or data.ambushers[0].name
        if name not in by_name:
            check.add(("targets", i, "by"), f"no ambusher is named {name!r}{suggest(name, by_name)}; "
                                            f"ambushers: {', '.join(by_name)}")
            continue
        pairs.append((by_name[name], target))
    check.done()
    return pairs


def _fighters(ambusher: AmbusherIn, target: AmbushedIn) -> tuple[Fighter, Fighter]:
    return (Fighter(ambusher.name, dict(ambusher.attributes)),
            Fighter(target.name, dict(target.attributes), awareness=target.awareness))


def _title(data: AmbushModel) -> str:
    verb = "ambushes" if len(data.ambushers) == 1 else "ambush"
    return data.title or (f"{', '.join(a.name for a in data.ambushers)} {verb} "
                          f"{', '.join(t.name for t in data.targets)}")


def _attribute(value: int, name: str) -> str:
    return f" {'+' if value >= 0 else '-'} {abs(value)} {name.upper()}"


def ambush_resolve(rules: D20Rules, data: AmbushModel, rolls: NamedRolls, library: Library) -> Report:
    report = Report(_title(data))
    out: list[dict[str, Any]] = []
    for ambusher, target in _pairs(data):
        a, t = _fighters(ambusher, target)
        stealth_total, awareness_total, won = rules.ambush(a, t, ambusher.stealth, target.awareness, rolls)
        (_, stealth_roll, _), (_, awareness_roll, _) = rolls.made[-2:]
        report.step(f"{ambusher.name}'s Stealth {stealth_roll} + {ambusher.stealth} stealth"
                    f"{_attribute(a.attributes.get('dex', 0), 'dex')} = {stealth_total} against {target.name}'s "
                    f"Awareness {awareness_roll} + {target.awareness} awareness"
                    f"{_attribute(t.attributes.get('per', 0), 'per')} = {awareness_total}: "
                    + (f"{stealth_total} beats it: {target.name} is ambushed." if won
                       else f"{stealth_total} does not beat it: {target.name} is alert."))
        out.append({"ambusher": ambusher.name, "target": target.name, "stealth": stealth_total,
                    "awareness": awareness_total, "ambushed": won})
    first = [a.name for a in data.ambushers if any(o["ambusher"] == a.name and o["ambushed"] for o in out)]
    ambushed = [o["target"] for o in out if o["ambushed"]]
    report.step(f"Ambushed: {', '.join(ambushed) or 'no one'}. "
                + (f"{', '.join(first)} stay{'s' * (len(first) == 1)} hidden and take{'s' * (len(first) == 1)} "
                   "a turn before initiative is rolled." if first else "Initiative is rolled as usual."))
    report.result = {"ambushed": ambushed, "acts_first": first, "pairs": out}
    return report


def ambush_odds(rules: D20Rules, data: AmbushModel, library: Library) -> Report:
    report = Report(_title(data))
    die = rules.p.die
    chances: list[tuple[str, str, float]] = []
    for ambusher, target in _pairs(data):
        a, t = _fighters(ambusher, target)
        wins = 0
        for s in range(1, die + 1):
            for w in range(1, die + 1):
                faces = {"stealth": s, "awareness": w}
                wins += rules.ambush(a, t, ambusher.stealth, target.awareness,
                                     lambda name, low, high, f=faces: f[name])[2]  # type: ignore[misc]  # a default binds the faces
        p = wins / (die * die)
        chances.append((ambusher.name, target.name, p))
        report.step(f"{target.name} ambushed by {ambusher.name}: {percent(p)}.")
    count = [1.0]
    for _, _, p in chances:
        count = [(count[k] if k < len(count) else 0.0) * (1 - p) + (count[k - 1] * p if k else 0.0)
                 for k in range(len(count) + 1)]
    report.step("Targets ambushed: " + ", ".join(f"{k}: {percent(q)}" for k, q in enumerate(count)) + ".")
    first: dict[str, float] = {}
    for ambusher in data.ambushers:
        alert = 1.0
        for name, _, p in chances:
            if name == ambusher.name:
                alert *= 1 - p
        first[ambusher.name] = 1 - alert
        report.step(f"{ambusher.name} takes a turn before initiative: {percent(1 - alert)}.")
    odds: dict[str, Any] = {"pairs": [{"ambusher": a, "target": t, "p_ambushed": p} for a, t, p in chances],
                            "ambushed": count, "acts_first": first}
    report.result = {"odds": odds}
    return report


ACTIONS = {"ambush": Action(AmbushModel, ambush_resolve, ambush_odds)}
