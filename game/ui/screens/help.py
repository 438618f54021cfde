"""How to play: the keys, what the map's letters and colours mean, and the rules in brief."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Label, Static

from game.content.text import printable
from game.ui.glyphs import SIDE_COLORS, SIDE_LETTERS, TINTS, plain
from game.ui.screens.base import GameModal

KEYS = """\
Arrows or h j k l    move the cursor (the mouse works too)
Enter or click       act on the square under the cursor: move there, target the
                     enemy on it, or select your unit on it
Tab / Shift+Tab      target the next / previous enemy in sight (while planning: the
                     next / previous unit)
f                    fire at the target (the first key shows the odds first)
m                    next fire mode       + / -   aim more / less
t                    next hit location (torso, head, arm, leg; Eclipse Phase: a
                     called shot, -10, that needs a superior success to land)
Escape               stop targeting or aiming (the cursor stays)
s c p                stand, crouch, go prone          d   drop flat (quick, prone)
o                    overwatch, facing the cursor: when an enemy steps into its cone
                     you choose the shot (each with its odds), or hold fire for a
                     later step or the rest of that move    O   only once the enemy
                     is as near as the cursor         r   reload
i                    lean out from total cover / back (skirmish)
x                    aim suppressive fire at the cursor: the circle and the odds of
                     everyone in it; x again (or Enter) fires
g                    aim a grenade at the cursor: where it may land, its rings, the
                     odds of everyone caught; m another grenade; g again throws
w                    draw the next weapon             v   revive the downed ally
                                                          under the cursor (odds first)
u                    defend (full or active defense, Eclipse Phase, OpenD6, d20)
n                    declare this round's actions (OpenD6: -1D each beyond the first)
a  b                 OpenD6: aim over rounds (+1D a round), a Character Point
R  T  U  J           d20: unjam the weapon in hand / pick up the item (! medical kit,
                     | magazine) on or next to the unit / use an item carried / jump
                     over a ditch (_) to the square under the cursor
y                    how this unit meets attacks (Eclipse melee, d20 reactions; ask =
                     a prompt every time)
e                    end the turn (or give orders)    .   cursor back to the active unit
z                    undo the last move or change of stance (not once it revealed
                     something or rolled dice: the log says why)
Shift+Up / Down      scroll the cards beside the map (also Ctrl+Up / Down)
Space                skip the computer's slow replay
G                    the game master's view: every unit in its rules' words, the
                     modifier table, a modifier for a unit's next attack, health by hand
Ctrl+S  save         Ctrl+O  load          Ctrl+P  command palette
F1 or ?  this help   q  leave the battle   Ctrl+Q  quit"""

PLANNING_KEYS = """Planning (skirmish with simultaneous orders: every side gives its orders, then the round
is carried out). The keys above add an order to the selected unit's queue instead of
acting; nothing happens until the round is carried out.
Tab / Shift+Tab      the next / previous unit of your side (target enemies with Enter
                     on them, or f)
f                    with a target: order an attack on it; with no enemy in the unit's
                     own sight, an attack on the nearest enemy it sees when the order
                     comes (with none then, it holds fire: the order did not trigger,
                     nothing is spent)
m  + / -  then o     overwatch that fires the chosen mode with the chosen aim; with a
                     target (Enter on an enemy), only at that enemy
O                    the same, firing only once the enemy is as near as the cursor
Backspace or z       remove the selected unit's last order
F                    what the last order does if it cannot be carried out when its
                     turn comes: skip it and go on / hold (no more orders) / an
                     attack only: fire at the nearest enemy in sight instead
< / >                an ambushing side: the unit acts earlier / later among its own
e                    give your side's orders (asks first if a unit has none)
The card beside the map lists the unit's orders, the AP each costs and the AP left,
and says where the previews come from: reach, path cost and odds are worked out from
where the unit will stand after its orders, as the board looked at the round's start
(the unit is drawn there, its walk as a path).

Carrying out: the units act in initiative order, each step drawn on the board.
Space                pause / go on
< / >                slower / faster
Enter                skip to the end of the round
Hot-seat: each player plans behind the handoff screen; the round is carried out
behind a neutral screen, and each player is then told what their side saw of it."""


def legend() -> Text:
    text = Text()
    text.append("Sides: ")
    for letter, color in zip(SIDE_LETTERS, SIDE_COLORS, strict=True):
        text.append(f" {letter} ", style=f"bold {color}")
    text.append("  (each side has its own letter and colour)\n")
    text.append("A  standing (upper case)    a  crouched (lower case)    ")
    text.append("a", style="underline")
    text.append("  prone (underlined)\n")
    text.append("A+ down    A! pinned by suppressive fire    A^ on overwatch\n")
    text.append("The unit whose turn it is is drawn in reverse.\n")
    for key, words in (("reach", "where the selected unit can walk this turn"),
                       ("path", "the path to the cursor"),
                       ("danger", "a path square inside an enemy overwatch cone"),
                       ("cone", "an enemy's overwatch cone"), ("own_cone", "your overwatch cone"),
                       ("suppressed", "an area under suppressive fire"),
                       ("target", "the enemy you are targeting"),
                       ("aim_blast", "a grenade's blast, ring by ring (while aiming)"),
                       ("aim_landing", "where else the grenade may land"),
                       ("aim_area", "the circle of suppressive fire being aimed")):
        text.append("    ", style=f"on {TINTS[key]}")
        text.append(f"  {words}\n")
    text.append("Squares you cannot see now are grey as you last saw them; black is unexplored.\n")
    text.append("Enemies are only shown where your side can see them.\n")
    text.append("Cover guards the side it stands on (attacks from within 45° of it); an attacker "
                "next to the unit is past it. The status line names the cover a square gives, "
                "side by side: \"full cover N NE, half cover E\".")
    return text


class Help(GameModal[None]):
    BINDINGS = [Binding("escape,f1,question_mark,q", "dismiss(None)", "Close")]

    def __init__(self, rules: list[tuple[str, str]], terrain: list[tuple[str, str, str]]) -> None:
        """`rules`: (ruleset name, description); `terrain`: (glyph, colour, name)."""
        super().__init__()
        self.rules, self.terrain = rules, terrain

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide", id="help"):
            yield Label("How to play", classes="dialog-title")
            with VerticalScroll(classes="dialog-body"):
                yield Static("Keys", classes="section")
                yield Static(KEYS, markup=False)
                yield Static("Simultaneous orders", classes="section")
                yield Static(PLANNING_KEYS, markup=False)
                yield Static("The map", classes="section")
                yield Static(legend())
                if self.terrain:
                    text = Text()
                    for glyph, color, name in self.terrain:
                        text.append(f"{glyph} ", style=f"bold {color}")
                        text.append(f"{name}   ")
                    yield Static(text)
                for name, description in self.rules:
                    yield Static(plain(f"Rules: {name}"), classes="section")
                    yield Static(printable(description) or "(no description)", markup=False)
                yield Static("Turns", classes="section")
                yield Static(
                    "Units act one at a time in initiative order. Each turn a unit gets its "
                    "Action Points (AP) and spends them on moving, aiming, shooting and the rest; "
                    "its turn ends when they run out or you press e. Under simultaneous orders "
                    "(skirmish, chosen on the New battle screen) every side first gives all its "
                    "units' orders for the round, then the units carry them out in initiative "
                    "order. A side wins when no enemy is left standing or when it meets the "
                    "scenario's objective.", markup=False)
            yield Label("Escape to close", classes="hint")
