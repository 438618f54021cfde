"""The exception a system raises, before changing anything, to refuse a command."""

from __future__ import annotations

from typing import Any


class Illegal(Exception):
    """Raised with a sentence a player can read: why the command cannot be carried out."""


def skirmish_only(rules: Any, ruleset_name: str, what: str) -> None:
    """Refuse an action the tabletop rulesets do not have (grenades, suppression, first aid)."""
    if rules.grid:
        raise Illegal(f"The {ruleset_name} rules have no {what}.")
