"""At the table: the prompt for each die, a face refused with the reason, a pool on one line,
the Wild Die's re-roll, Escape taking the order back, and the seat choice on the form."""

from __future__ import annotations

from pathlib import Path

from game.content.loader import load_setup
from game.core.commands import Attack
from game.core.dice import RollNeeded
from game.core.events import AttackResolved
from game.rulesets import new_battle
from game.ui.match import Match, Seat
from game.ui.screens.new_battle import NewBattle
from game.ui.screens.roll_prompt import RollPrompt
from tests.ui.ui_helpers import DUEL, at_my_turn, make_app, screen_text, wait_until


def table_match(ruleset: str) -> Match:
    """The yard duel with both sides' dice typed in: Hollis (blue, a person at the table) acts
    first; the computer's trooper (red) has its rolls asked of the table too."""
    setup = load_setup(str(DUEL), ruleset=ruleset)
    opening: tuple[int, ...] = ()
    while True:
        try:
            battle = new_battle(setup, 3, table=("blue", "red"), opening_rolls=opening)
            break
        except RollNeeded as need:
            wanted = need.wanted
            opening += (wanted.last - 1 if wanted.unit.startswith("blue") else wanted.first,)
    seats = {"blue": Seat("blue", True, "Ann", rolls="table"),
             "red": Seat("red", False, "Computer", "simple", rolls="table")}
    return Match(battle, seats)


def ids(match):
    s = match.battle.session
    return (next(uid for uid, u in s.units() if u.side == "blue"),
            next(uid for uid, u in s.units() if u.side == "red"))


async def type_in(pilot, text: str) -> None:
    # a prompt just pushed may not have its field yet (the computer asks from its worker)
    await wait_until(pilot, lambda: bool(pilot.app.screen.query("#roll-faces")))
    field = pilot.app.screen.query_one("#roll-faces")
    field.value = ""
    field.focus()
    await pilot.press(*text, "enter")
    await pilot.pause()


async def test_each_die_is_asked_for_and_a_face_the_die_cannot_show_is_refused(save_dir: Path):
    match = table_match("skirmish")
    hollis, trooper = ids(match)
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await at_my_turn(app, pilot, match)
        screen.orders.play(Attack(hollis, trooper))
        await wait_until(pilot, lambda: isinstance(app.screen, RollPrompt))
        assert "Ann" not in app.screen.wanted.reason
        await wait_until(pilot, lambda: "Hollis, attacking Trooper: roll a d10 for the aim" in screen_text(app))
        await type_in(pilot, "12")
        assert isinstance(app.screen, RollPrompt) and app.screen.wanted.what == "aim"
        await wait_until(pilot, lambda: "12 cannot come up on a d10: it shows 1 to 10; a 0 reads 10." in screen_text(app))
        assert app.screen.query_one("#roll-faces").value == "12"      # the line is kept
        assert match.battle.commands == []
        await type_in(pilot, "9")
        await wait_until(pilot, lambda: isinstance(app.screen, RollPrompt) and app.screen.wanted.typed == (9,))
        await wait_until(pilot, lambda: "Trooper: roll a d10 for the dodge against Hollis's attack" in screen_text(app))
        await type_in(pilot, "1")
        await wait_until(pilot, lambda: isinstance(app.screen, RollPrompt) and app.screen.wanted.typed == (9, 1))
        assert app.screen.wanted.what == "damage" and app.screen.wanted.unit == hollis
        await type_in(pilot, " ".join(["3"] * 8))        # a line with a face for every damage die
        await wait_until(pilot, lambda: not isinstance(app.screen, RollPrompt))
        command = match.battle.commands[-1]
        assert isinstance(command, Attack) and command.rolls[:2] == (9, 1)
        assert set(command.rolls[2:]) == {3}
        shot = [e for e in match.history if isinstance(e, AttackResolved)][-1]
        assert shot.attack.rolls == (9,) and shot.defense.rolls == (1,) and shot.hit


async def test_escape_takes_the_order_back(save_dir: Path):
    match = table_match("skirmish")
    hollis, trooper = ids(match)
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await at_my_turn(app, pilot, match)
        before = match.battle.digest()
        screen.orders.play(Attack(hollis, trooper))
        await wait_until(pilot, lambda: isinstance(app.screen, RollPrompt))
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)
        assert match.battle.digest() == before and match.battle.commands == []
        assert screen.my_turn()
        await wait_until(pilot, lambda: bool(list(app._notifications)))
        told = [n for n in app._notifications if "taken back" in n.message]
        assert told and all(n.severity == "information" and n.title != "Not possible" for n in told)


async def test_an_opend6_pool_on_one_line_and_the_wild_die_rerolled(save_dir: Path):
    match = table_match("opend6")
    hollis, trooper = ids(match)
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await at_my_turn(app, pilot, match)
        screen.orders.play(Attack(hollis, trooper))
        await wait_until(pilot, lambda: isinstance(app.screen, RollPrompt))
        assert app.screen.wanted.reason == "Hollis, attacking Trooper: roll 3d6 and the Wild Die for the attack"
        await wait_until(pilot, lambda: "Roll 3d6 and type every face on one line" in screen_text(app))
        assert "The Wild Die's face may follow on the same line" in str(app.screen.query_one("#roll-about").render())
        await type_in(pilot, "4 5")                                 # two of the pool's dice at once
        await wait_until(pilot, lambda: isinstance(app.screen, RollPrompt) and len(app.screen.wanted.typed) == 2)
        await wait_until(pilot, lambda: "Typed so far for this order: 4 5." in screen_text(app))
        while app.screen.wanted.what == "attack":                   # the rest of the pool
            typed = len(app.screen.wanted.typed)
            await type_in(pilot, "3")
            await wait_until(pilot, lambda n=typed: len(app.screen.wanted.typed) == n + 1)
        assert app.screen.wanted.reason == "Hollis, attacking Trooper: roll a d6 for the attack (Wild Die)"
        pool = app.screen.wanted.typed
        await type_in(pilot, "6")                                   # the Wild Die explodes
        await wait_until(pilot, lambda: app.screen.wanted.typed == (*pool, 6))
        assert app.screen.wanted.reason == "Hollis, attacking Trooper: roll a d6 for the attack (Wild Die)"
        await type_in(pilot, "2")
        await wait_until(pilot, lambda: not isinstance(app.screen, RollPrompt)
                         or app.screen.wanted.what != "attack_wild")
        while isinstance(app.screen, RollPrompt):                   # the damage, if it hit
            typed = len(app.screen.wanted.typed)
            await type_in(pilot, "1")
            await wait_until(pilot, lambda n=typed: not isinstance(app.screen, RollPrompt)
                             or len(app.screen.wanted.typed) == n + 1)
        shot = [e for e in match.history if isinstance(e, AttackResolved)][-1]
        assert shot.attack.rolls == (*pool, 6, 2)


async def new_battle_form(app, pilot) -> NewBattle:
    """The main menu's New battle form, its sides shown."""
    await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(app.screen, NewBattle))
    form = app.screen
    await wait_until(pilot, lambda: form.sides)
    return form


async def test_the_form_offers_at_the_table_and_who_rolls_for_the_computer(save_dir: Path):
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        form = await new_battle_form(app, pilot)
        kind, rolls = form.query_one("#kind-1"), form.query_one("#rolls-1")
        assert str(kind.label) == "Computer" and rolls.display and str(rolls.label) == "App rolls"
        rolls.press()
        await pilot.pause()
        assert str(rolls.label) == "Asks rolls"
        first = form.query_one("#kind-0")
        first.press()
        await pilot.pause()
        first.press()
        await pilot.pause()
        assert str(first.label) == "At the table"
        seats = form._seats(load_setup(form.query_one("#scenarios").highlighted_option.id))
        assert seats is not None
        first_side, second_side = (ident for ident, _ in form.sides[:2])
        assert seats[first_side].human and seats[first_side].rolls == "table"
        assert not seats[second_side].human and seats[second_side].rolls == "table"


async def test_the_computers_dice_are_asked_of_the_table_when_the_game_master_says_so(save_dir: Path):
    from game.core.commands import EndTurn
    match = table_match("skirmish")
    hollis, trooper = ids(match)
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await at_my_turn(app, pilot, match)
        screen.orders.play(EndTurn(hollis))
        await wait_until(pilot, lambda: isinstance(app.screen, RollPrompt), tries=1500)
        assert app.screen.wanted.unit == trooper            # the computer's attack, rolled by hand
        asked = app.screen.wanted
        await type_in(pilot, str(asked.first))
        await wait_until(pilot, lambda: not isinstance(app.screen, RollPrompt)
                         or app.screen.wanted != asked, tries=1500)
        assert match.battle.commands[-1].rolls[:1] == (asked.first,) or isinstance(app.screen, RollPrompt)


async def test_two_sides_at_the_table_pass_no_keyboard(save_dir: Path):
    """The game master plays both sides at one screen: no handoff between them, the board
    shows the side whose turn it is."""
    from game.core.commands import EndTurn
    from game.ui.screens.handoff import Handoff
    match = table_match("skirmish")
    match.seats["red"] = Seat("red", True, "Game master", rolls="table")
    hollis, trooper = ids(match)
    assert not match.hot_seat
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await at_my_turn(app, pilot, match)
        assert screen.viewer == "blue" and not isinstance(app.screen, Handoff)
        screen.orders.play(EndTurn(hollis))
        await wait_until(pilot, lambda: match.active_uid == trooper and screen.my_turn())
        assert screen.viewer == "red" and app.screen is screen


async def test_a_long_prompt_wraps_rather_than_being_cut(save_dir: Path):
    from game.core.events import RollWanted

    reason = ("Security rifleman: roll a d100 for the defense against Maire Jensen's attack, "
              "with every word of it shown")
    app = make_app(save_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(RollPrompt(RollWanted(reason, "olea-1", "Security rifleman", "defense", 100, 0)))
        await wait_until(pilot, lambda: isinstance(app.screen, RollPrompt))
        await pilot.pause()
        title = app.screen.query_one("#roll-title")
        assert title.size.height >= 2 and title.size.width < len(reason)
        assert "shown" in screen_text(app)


async def test_a_side_switched_between_person_and_computer_takes_its_default_name(save_dir: Path):
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        form = await new_battle_form(app, pilot)
        kind, name = form.query_one("#kind-1"), form.query_one("#name-1")
        assert (str(kind.label), name.value) == ("Computer", "Computer")
        kind.press()                                   # Computer -> At the table
        await pilot.pause()
        assert (str(kind.label), name.value) == ("At the table", "Player 2")
        kind.press()                                   # -> Person
        await pilot.pause()
        assert (str(kind.label), name.value) == ("Person", "Player 2")
        name.value = "Ines"                            # a name typed is kept
        kind.press()
        await pilot.pause()
        assert (str(kind.label), name.value) == ("Computer", "Ines")
