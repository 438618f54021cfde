"""`skirmish resolve` on bad files: a clear message naming the file, line and key; no traceback."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from game.resolve.main import main_resolve

ECLIPSE = """\
ruleset: eclipse2
attacker: {name: A, skills: {guns: 70}}
defender: {name: B, skills: {fray: 40}}
weapon: {name: pistol, skill: guns, damage: 2d10}
"""


def fails(tmp_path: Path, text: str) -> str:
    path = tmp_path / "attack.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    code, message = main_resolve(str(path), as_json=False, odds=False)
    assert code == 2, message
    assert "Traceback" not in message and str(path) in message
    return message


@pytest.mark.parametrize("text, expected", [
    (ECLIPSE.replace("skills: {fray: 40}", "durabilty: 3"),
     ":3:21: defender.durabilty: unknown key 'durabilty' (did you mean 'durability'?)"),
    (ECLIPSE.replace("2d10", "2x10"), ":4:45: weapon.damage: '2x10' is not a dice code"),
    (ECLIPSE.replace("eclipse2", "eclipse9"), ":1:10: ruleset: unknown ruleset 'eclipse9' (did you mean 'eclipse2'?); known: d20,"),
    (ECLIPSE + "rolls: {attack: 100}\n", ":5:17: rolls.attack: fixed roll 100 cannot come up on this die (0 to 99)"),
    (ECLIPSE + "situation: {attacker_modifiers: [flanking]}\n",
     ":5:34: situation.attacker_modifiers[0]: unknown modifier 'flanking'"),
    (ECLIPSE + "situation: {range: far}\n", ":5:20: situation.range: unknown range 'far'"),
    ("\n".join(ECLIPSE.splitlines()[:3]) + "\n", "missing required key 'weapon'"),
    ("ruleset: [eclipse2\n", "YAML syntax error"),
    ("a: &x 1\nb: *x\n", "aliases (*x) are not allowed"),
    ("- ruleset: eclipse2\n", "expected a mapping with ruleset, attacker, defender and weapon"),
    ("ruleset: skirmish\nattacker: {unit: holis}\ndefender: {unit: support}\nweapon: thensi_smg\n",
     ":2:18: attacker.unit: unknown unit 'holis'"),
    ("ruleset: skirmish\nattacker: {unit: hollis}\ndefender: {unit: support}\nweapon: laser\n",
     ":4:9: weapon: unknown weapon 'laser'"),
    ("ruleset: skirmish\nattacker: {unit: hollis}\ndefender: {unit: support}\nweapon: es63_custom\n"
     "situation: {mode: burst}\n", "situation.mode: E&S '63 Custom has no mode 'burst'"),
    ("ruleset: opend6\nattacker: {name: A, skills: {marksmanship: 5X}}\ndefender: {name: B}\n"
     "weapon: {name: w, skill: marksmanship, damage: 3D}\n", ":2:44: attacker.skills.marksmanship: '5X' is not a die code"),
    ("ruleset: d20\nattacker: {name: A}\ndefender: {name: B}\nweapon: {name: w, damage: 1d6}\n"
     "situation: {reaction: parry}\n", "situation.reaction: B lacks the parry skill"),
])
def test_bad_files_name_the_spot(tmp_path: Path, text: str, expected: str) -> None:
    assert expected in fails(tmp_path, text)


def test_a_missing_file() -> None:
    code, message = main_resolve("/nonexistent/attack.yaml", as_json=True, odds=True)
    assert code == 2 and "cannot read" in message


def test_unused_fixed_rolls_are_noted(tmp_path: Path) -> None:
    path = tmp_path / "a.yaml"
    path.write_text(ECLIPSE + "seed: 3\nrolls: {attack: 90, damage: [1, 2], typo: 5}\n")
    code, text = main_resolve(str(path), as_json=False, odds=False)
    assert code == 0 and "fixed rolls not used: damage [1, 2], typo [5]" in text


@pytest.mark.parametrize("ruleset", ["skirmish", "eclipse2", "opend6", "d20"])
def test_a_fighter_named_with_a_control_character_is_refused(tmp_path: Path, ruleset: str) -> None:
    path = tmp_path / "attack.yaml"
    path.write_text(f'ruleset: {ruleset}\nattacker: {{name: "Arik\\x1b[2J"}}\n')
    code, text = main_resolve(str(path), as_json=False, odds=False)
    assert code == 2
    assert f"{path}:2:" in text and "attacker.name: a name may not hold control characters" in text
    assert "\x1b" not in text
