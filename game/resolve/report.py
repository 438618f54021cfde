"""What the calculator prints: numbered steps for people, a result dict for --json."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from game.core.odds import AttackOdds


@dataclass
class Report:
    title: str
    steps: list[str] = field(default_factory=list)
    result: dict[str, Any] = field(default_factory=dict)

    def step(self, text: str) -> None:
        self.steps.append(text)

    def text(self) -> str:
        lines = [self.title]
        lines += [f"{n}. {step}" for n, step in enumerate(self.steps, 1)]
        return "\n".join(lines)

    def json(self) -> str:
        return json.dumps({"title": self.title, **self.result, "steps": self.steps}, indent=2)


def mods_text(mods: list[tuple[str, int]] | tuple[tuple[str, int], ...]) -> str:
    return "".join(f" {'+' if v >= 0 else '-'} {abs(v)} {label}" for label, v in mods)


def percent(p: float) -> str:
    return f"{100 * p:.2f}%"


def odds_report(title: str, odds: AttackOdds, result: dict[str, Any]) -> Report:
    """Exact odds as text: hit chance, hits, damage through armor, the defender afterwards."""
    report = Report(title)
    report.step(f"Chance to hit: {percent(odds.p_hit)}")
    if len(odds.hits) > 2:
        shown = ", ".join(f"{k}: {percent(p)}" for k, p in enumerate(odds.hits) if p > 0)
        report.step(f"Hits: {shown}")
    report.step(f"Expected damage through armor: {odds.expected_damage:.3f}")
    hurt = {k: p for k, p in sorted(odds.damage.items()) if p >= 5e-5}
    report.step("Damage through armor: " + ", ".join(f"{k}: {percent(p)}" for k, p in hurt.items()))
    if any(k for k in odds.wounds if odds.wounds[k] > 0 and k):
        shown = ", ".join(f"{k}: {percent(p)}" for k, p in sorted(odds.wounds.items()) if p >= 5e-5)
        report.step(f"Wounds: {shown}")
    report.step("Defender afterwards: " + ", ".join(
        f"{state} {percent(p)}" for state, p in sorted(odds.states.items(), key=lambda kv: -kv[1])
        if p >= 5e-5))
    for note in odds.notes:
        report.step(f"Note: {note}")
    report.result = {**result, "odds": odds.to_dict()}
    return report
