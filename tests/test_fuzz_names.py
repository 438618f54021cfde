"""Random names (markup, control characters, very long strings, any script) through content
loading, saving, the app's screens and the command line: no crash, no raw control character."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from game.cli import main
from game.content.loader import ContentError, load_setup, validate_paths
from game.content.text import is_control, name_problem

from tests.ui.ui_helpers import DUEL, make_app, screen_text

RAW = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
MARKUP = st.sampled_from(["[/]", "[/red]", "[b]", "[bold red]x[/]", "[@click=app.quit]q[/]",
                          "\\[", "[link=file:///etc/passwd]", "[/i", "]["])
CONTROL = st.sampled_from(["\x1b]0;PWNED\x07", "\x1b[2J", "\x1b[8m", "\x00", "\x07", "\r",
                           "\x9b", "\u202e", "\n", "\t"])
NAMES = st.one_of(
    st.text(max_size=80),
    st.lists(st.one_of(MARKUP, CONTROL, st.text(max_size=8)), max_size=12).map("".join),
    st.text(alphabet="ab[]/ \x1b", min_size=60, max_size=5000),
)
FAST = settings(max_examples=20, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


def quoted(text: str) -> str:
    """`text` as a YAML double-quoted scalar: control characters as YAML escapes (\\x1b),
    everything else as written (YAML reads no surrogate-pair escapes, and a raw NEL or line
    separator is a line break to it)."""
    def one(char: str) -> str:
        if char in '"\\':
            return "\\" + char
        if is_control(char) or char in "\x85\ufeff":
            return f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}"
        return char
    return '"' + "".join(map(one, text)) + '"'


def duel_with(folder: Path, side_name: str, unit_name: str) -> Path:
    text = DUEL.read_text().replace("name: Blue team", f"name: {quoted(side_name)}")
    text = text.replace("{unit: olea_trooper, name: Trooper",
                        f"{{unit: olea_trooper, name: {quoted(unit_name)}")
    path = folder / "fuzz_duel.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@FAST
@given(side=NAMES, unit=NAMES)
def test_content_loading_and_validate_output(tmp_path_factory, side: str, unit: str) -> None:
    folder = tmp_path_factory.mktemp("fuzz")
    path = duel_with(folder, side, unit)
    problems = [p for p in validate_paths([folder]) if p.file == str(path)]
    for problem in problems:
        assert not RAW.search(str(problem)), str(problem)
    fine = name_problem(side) is None and name_problem(unit) is None
    if fine:
        setup = load_setup(str(path))
        assert setup.scenario.sides[0].name == side
    else:
        assert problems
        try:
            load_setup(str(path))
        except ContentError as error:
            assert not RAW.search(str(error))
        else:
            raise AssertionError("a bad name was loaded")


@settings(max_examples=10, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(side=NAMES, unit=NAMES)
def test_command_line_output(tmp_path_factory, side: str, unit: str) -> None:
    import contextlib
    import io
    folder = tmp_path_factory.mktemp("cli")
    path = duel_with(folder, side, unit)
    for command in (["validate", str(path)], ["sim", str(path), "--seed", "1"],
                    ["sim", side], ["resolve", side]):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main(command)
            except SystemExit:
                pass                       # argparse refusing an argument
        printed = out.getvalue() + err.getvalue()
        assert not RAW.search(printed), printed[:500]


@settings(max_examples=3, deadline=None, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(names=st.lists(NAMES, min_size=8, max_size=8))
def test_screens_and_saves(tmp_path_factory, names: list[str]) -> None:
    from game.saves import list_saves, read_save, write_save
    from game.ui.match import Match, Seat
    from game.ui.screens.dialogs import message
    from game.ui.screens.game_over import GameOver
    from game.ui.screens.handoff import Handoff, Summary
    from game.ui.screens.help import Help
    from game.ui.screens.load import LoadSave
    from tests.ui.ui_helpers import new_match

    folder = tmp_path_factory.mktemp("screens")
    saves = folder / "saves"
    saves.mkdir()
    valid = [name for name in names if name_problem(name) is None] or ["[/red]"]
    match = new_match(duel_with(folder, valid[0], valid[-1]), 1, {"blue", "red"})
    match.seats["red"] = Seat("red", True, valid[len(valid) // 2])
    write_save(saves, "fuzz", match.state())
    again = Match.from_state(read_save(saves, "fuzz"))
    assert again.name("blue") == valid[0]
    again.close()
    assert all(info.ok for info in list_saves(saves))

    async def show_all() -> None:
        app = make_app(saves)
        async with app.run_test(size=(100, 30)) as pilot:
            session = match.battle.session
            session.winner, session.end_reason = "blue", "the enemy was eliminated"
            screens = [Summary(names[0], names[1:4]), GameOver(match), message(names[4], names[5]),
                       Help([(names[6], names[7])], []), Handoff(names[2]), LoadSave(saves)]
            for screen in screens:
                app.push_screen(screen)
                await pilot.pause()
                assert not RAW.search(screen_text(app))
                app.pop_screen()
                await pilot.pause()
        assert app.return_code in (None, 0)

    asyncio.run(show_all())
    match.close()
