"""Text for the side panel: the selected unit, the initiative order and morale, a target.

Each function turns engine answers (UnitInfo, AttackPreview, the session's public numbers) into
Rich Text. They decide nothing.
"""

from __future__ import annotations

from rich.text import Text

from game.core.queries import AttackPreview, UnitInfo
from game.ui.actions import ActionItem, mode_words
from game.ui.glyphs import STANCE_WORDS, side_color, side_letter
from game.ui.match import Match

BAR = 12
CARD_WIDTH = 28           # the side panel's text width (app.tcss: #side, less border, padding
                          # and the scrollbar's gutter)


def bar(value: int, most: int, color: str) -> Text:
    filled = 0 if most <= 0 else max(0, min(BAR, round(BAR * value / most)))
    return Text.assemble(("█" * filled, color), ("░" * (BAR - filled), "grey37"))


def unit_card(match: Match, info: UnitInfo, *, own: bool) -> Text:
    """A unit's stats; an enemy shows only what can be seen of it."""
    index = match.side_index(info.side)
    text = Text()
    text.append(f"{side_letter(index)} ", style=f"bold {side_color(index)}")
    text.append(info.name, style="bold")
    text.append(f"\n{match.name(info.side)}\n", style="italic grey70")
    # Each figure and its bar share a line, so the card fits the side panel at 80x24.
    text.append(f"{info.hp_name} {info.hp:>3}/{info.max_hp:<3} ")
    text.append_text(bar(info.hp, info.max_hp, "green" if info.hp * 2 > info.max_hp else "red"))
    text.append("\n")
    if info.state != "ok":
        text.append(f"{info.state.replace('_', ' ')}\n", style="bold red")
    if own:
        text.append(f"AP {info.ap:>3}/{info.ap_per_turn:<3} ")
        text.append_text(bar(info.ap, info.ap_per_turn, "cyan"))
        text.append("\n")
        notes = []
        if info.ap_debt:
            notes.append((f"owes {info.ap_debt}", "yellow"))
        if info.ap_name != "AP":
            plural = info.ap_name if info.ap_name.endswith("s") else info.ap_name + "s"
            notes.append((f"AP are {plural}", "grey70"))
        for number, (note, style) in enumerate(notes):
            text.append(("; " if number else "") + note, style=style)
        if notes:
            text.append("\n")
        if info.move_left is not None:
            text.append(f"Move {info.move_left} sq in hand\n", style="grey70")
    text.append(f"{STANCE_WORDS.get(info.stance, info.stance)}")
    if info.statuses:
        text.append(" · " + ", ".join(info.statuses), style="yellow")
    text.append("\n")
    text.append(info.weapon_name)
    if own and info.magazine:
        ammo = f"{info.ammo}/{info.magazine} +{info.spare} mag"
        wraps = len(info.weapon_name) + 1 + len(ammo) > CARD_WIDTH
        text.append(("\n  " if wraps else " ") + ammo)     # the count whole, on its own line
    text.append("\n")
    if own and info.grenades:
        session = match.battle.session
        names = [f"{session.weapons[g].name if g in session.weapons else g} ×{n}"
                 for g, n in info.grenades]
        text.append("; ".join(names) + "\n", style="grey70")
    text.rstrip()                 # no blank line under the card
    return text


def turn_card(match: Match, viewer: str) -> Text:
    """The round, the initiative order and each side's morale."""
    session = match.battle.session
    text = Text()
    text.append(f"Round {session.round}", style="bold")
    limit = session.setup.scenario.victory.max_rounds
    text.append(f" of {limit}\n", style="grey70")
    active = session.active
    for uid in session.order:
        side = match.side_of(uid)
        index = match.side_index(side)
        down = not match.is_up(uid)
        pointer = "▶ " if uid == active else "  "
        text.append(pointer, style="bold")
        text.append(side_letter(index), style=f"bold {side_color(index)}")
        text.append(f" {match.name(uid)}\n", style="strike grey50" if down else "")
    text.append("Morale\n", style="bold")
    for side in match.sides:
        index = match.side_index(side)
        percent = round(session.morale_percent(side))
        modifier = session.morale_modifier(side)
        text.append(side_letter(index), style=f"bold {side_color(index)}")
        text.append(f" {match.name(side)[:16]:<16} {percent:>3}% {modifier:+d}\n")
    return text


def target_card(match: Match, preview: AttackPreview, location: str, distance: int,
                planning: bool = False) -> Text:
    """The exact odds of an attack, every modifier itemised, before anything is committed
    (`planning`: odds of an attack to be ordered, from where the unit will then stand)."""
    text = Text()
    text.append("Target ", style="grey70")
    text.append(f"{match.name(preview.target)}", style="bold")
    text.append(f" ({distance} sq)\n")
    weapon = match.battle.session.weapons.get(preview.weapon)
    text.append(f"{weapon.name if weapon else preview.weapon}, {mode_words(preview.mode)}  [m]\n")
    rules = match.battle.session.rules
    if "aim" in rules.supports:     # aim and hit locations
        text.append(f"aim +{preview.aim} [+/-]  at {location} [t]\n")
    elif len(rules.p.hit_locations) > 1:    # Eclipse Phase: a called shot
        text.append(f"at {location.replace('_', ' ')} [t]\n")
    text.append(f"Cost {preview.ap_cost} AP\n")
    if preview.how:
        text.append(f"{preview.how}\n", style="grey70")
    text.append("Hit chance ", style="bold")
    text.append(f"{preview.hit_chance * 100:.1f}%\n", style="bold green")
    if len(preview.hits) > 2:
        spread = "  ".join(f"{k}:{p * 100:.0f}%" for k, p in enumerate(preview.hits) if p >= 0.005)
        text.append(f"hits {spread}\n", style="grey70")
    text.append(f"Expected damage {preview.expected_damage:.1f}\n", style="bold")
    text.append(f"({preview.damage_per_hit:.1f} per hit after armor)\n", style="grey70")
    text.append("Attack\n", style="bold")
    for label, value in preview.attack_modifiers:
        text.append(f"  {label:<15} {value:+d}\n")
    text.append("Defense\n", style="bold")
    for label, value in preview.defense_modifiers:
        text.append(f"  {label:<15} {value:+d}\n")
    if planning:
        text.append("Odds from its planned place.\n[f] order it  [Esc] back", style="grey70")
    else:
        text.append("[f] fire  [Tab] next\n[Esc] back", style="grey70")
    return text


def action_line(items: list[ActionItem]) -> Text:
    """The action bar: every action with its key and AP cost, greyed when out of reach."""
    text = Text()
    for number, item in enumerate(items):
        style = "" if item.enabled else "grey42"
        if number:
            text.append("  ")
        text.append(item.key, style="bold #f0c050" if item.enabled else "grey42")
        text.append(f" {item.label}", style=style)
        if item.cost is not None:
            text.append(f" {item.cost}", style="bold cyan" if item.enabled else style)
    return text
