"""The exception a system raises, before changing anything, to refuse a command."""


class Illegal(Exception):
    """Raised with a sentence a player can read: why the command cannot be carried out."""


def skirmish_only(rules: object, ruleset_name: str, what: str) -> None:
    """Refuse an action the tabletop rulesets do not have (grenades, suppression, first aid)."""
    if getattr(rules, "grid", False):
        raise Illegal(f"The {ruleset_name} rules have no {what}.")
