"""Simultaneous orders on the battle screen: the Turns choice of the new-battle screen, orders
planned with the usual keys into each unit's queue, the round carried out step by step, and
hot-seat planning that never shows one side the other's orders or units it cannot see."""

from __future__ import annotations

import random

import pytest

from game.content.loader import load_setup, with_turns
from game.core import components as c
from game.core.commands import (Attack, ChangeStance, GiveOrders, Move, Order, Proceed,
                                SetOverwatch)
from game.core.events import (AttackResolved, Moved, OrdersGiven, Refused, StanceChanged,
                              TurnStarted)
from game.core.queries import as_planned, unit_info, units_known_to
from game.core.orders import rehearse
from game.rulesets import new_battle
from game.ui.app import SkirmishApp
from game.ui.match import Match
from game.ui.planning import Plan
from game.ui.screens.flow import PACES
from game.ui.screens.battle import BattleScreen
from game.ui.screens.dialogs import Choice
from game.ui.screens.handoff import Handoff, Summary
from game.ui.screens.new_battle import NewBattle
from game.ui.screens.replay import ReplayScreen
from tests.ui.test_random_input import KEYS, key_event
from tests.ui.ui_helpers import (DATA, DUEL, FOG, make_app, open_new_battle, screen_text, seats_for,
                                 wait_until)


@pytest.mark.slow
async def test_the_new_battle_screen_sets_the_rulesets_turns(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_new_battle(pilot, str(DUEL), "5")
        screen = app.screen
        assert screen.query_one("#turns").display          # skirmish has the choice
        assert screen.query_one("#turns-sequential").value  # the scenario file's way
        await pilot.click("#turns-simultaneous")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, BattleScreen))
        session = app.screen.match.battle.session
        assert session.setup.ruleset.params["turns"] == "simultaneous"
        assert session.rules.simultaneous


@pytest.mark.slow
async def test_the_turns_choice_is_hidden_for_a_ruleset_without_it(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_new_battle(pilot, str(DUEL), "5")
        await pilot.click("#ruleset-d20")
        await pilot.pause()
        assert not app.screen.query_one("#turns").display

WATCH = DATA / "watch.yaml"


def simultaneous_match(scenario, seed: int, humans: set[str]) -> Match:
    setup = with_turns(load_setup(str(scenario)), "simultaneous")
    return Match(new_battle(setup, seed), seats_for(setup, humans))


async def planning(app, pilot, match: Match) -> BattleScreen:
    await app.start_match(match)
    screen = app.screen
    assert isinstance(screen, BattleScreen)
    await wait_until(pilot, screen.planning_now)
    return screen


@pytest.mark.slow
async def test_a_move_and_an_attack_are_planned_then_carried_out(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        match = simultaneous_match(DUEL, 5, {"blue"})
        screen = await planning(app, pilot, match)
        session = match.battle.session
        hollis = screen.selected
        assert hollis == "blue-1" and session.planning == ["blue", "red"]
        start = session.position(hollis)
        await pilot.press("right", "enter")            # a move one square east: queued
        await pilot.pause()
        assert [type(o.command) for o in screen.plan.queue(hollis)] == [Move]
        assert session.position(hollis) == start        # nothing carried out yet
        assert screen.acting.position(hollis) == (start[0] + 1, start[1])
        text = screen_text(app)
        assert "1. move to" in text and "left" in text
        card = screen.queue_card.card.plain
        assert "from where Hollis will stand after its 1 order" in " ".join(card.split())
        await pilot.press("f")                          # target the trooper; f again queues
        await pilot.pause()
        assert screen.target == "red-1"
        await pilot.press("f")
        await pilot.pause()
        queue = screen.plan.queue(hollis)
        assert [type(o.command) for o in queue] == [Move, Attack]
        await pilot.press("F")                          # the attack's fallback: hold
        await pilot.pause()
        assert screen.plan.queue(hollis)[-1].fallback == "hold"
        assert "hold (no more orders)" in " ".join(screen.queue_card.card.plain.split())
        steps = rehearse(session, hollis, screen.plan.queue(hollis))
        assert f"{steps[1].ap_cost} AP, {steps[1].ap_left} left" in screen_text(app)
        await pilot.press("e")                          # every unit has orders: given at once
        await wait_until(pilot, lambda: match.over or match.battle.session.round > 1)
        kinds = [e for e in match.history if isinstance(e, (Moved, AttackResolved, TurnStarted))
                 and getattr(e, "unit", getattr(e, "attacker", "")) == hollis]
        assert isinstance(kinds[0], TurnStarted) and isinstance(kinds[1], Moved)
        assert any(isinstance(e, AttackResolved) and e.attacker == hollis for e in kinds)
        given = [e.side for e in match.history if isinstance(e, OrdersGiven)]
        assert given[:2] == ["blue", "red"]                 # the computer planned after
        turns = [e.unit for e in match.history if isinstance(e, TurnStarted)]
        assert turns[:2] == ["blue-1", "red-1"] == session.order   # in initiative order
        if not match.over:                                   # the next round is planned
            await wait_until(pilot, screen.planning_now)
            assert screen.plan.round == 2 and screen.plan.queue(hollis) == []


@pytest.mark.slow
async def test_a_removed_order_is_gone_and_a_unit_without_orders_is_asked_about(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        match = simultaneous_match(DUEL, 5, {"blue"})
        screen = await planning(app, pilot, match)
        hollis = screen.selected
        start = match.position(hollis)
        await pilot.press("c")                          # crouch, then take it back
        await pilot.pause()
        assert [type(o.command) for o in screen.plan.queue(hollis)] == [ChangeStance]
        assert "1. crouch" in screen_text(app)
        await pilot.press("backspace")
        await pilot.pause()
        assert screen.plan.queue(hollis) == []
        assert "1. crouch" not in screen_text(app) and "No orders yet" in screen_text(app)
        assert screen.acting.position(hollis) == start
        await pilot.press("e")                          # no orders at all: asked first
        await wait_until(pilot, lambda: isinstance(app.screen, Choice))
        assert "Hollis has no orders" in screen_text(app)
        await pilot.click("#cancel")
        await wait_until(pilot, lambda: app.screen is screen)
        assert match.planning and match.battle.session.planning[0] == "blue"
        await pilot.press("e")
        await wait_until(pilot, lambda: isinstance(app.screen, Choice))
        await pilot.click("#give")
        await wait_until(pilot, lambda: match.over or match.battle.session.round > 1)
        stances = [e for e in match.history if isinstance(e, StanceChanged) and e.unit == hollis]
        assert stances == []                            # the removed order was never carried out


@pytest.mark.slow
async def test_hot_seat_planning_shows_neither_the_others_orders_nor_unseen_units(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        match = simultaneous_match(FOG, 3, {"blue", "red"})
        battle = match.battle
        await app.start_match(match)
        screen = app.screen
        await wait_until(pilot, lambda: isinstance(app.screen, Handoff)
                         and "Blue team: your orders for round 1" in screen_text(app))
        await pilot.press("space")
        await wait_until(pilot, lambda: isinstance(app.screen, Summary))
        await pilot.press("enter")
        await wait_until(pilot, screen.planning_now)
        assert screen.viewer == "blue"
        first = screen.selected
        x, y = match.position(first)
        screen.move_cursor_to((x + 1, y + 1))
        await pilot.press("enter")                      # the first unit: a move
        await pilot.pause()
        blue_order = f"move to ({x + 1},{y + 1})"
        assert blue_order in screen_text(app)
        await pilot.press("tab", "d")                   # the other: drop prone
        await pilot.pause()
        assert "drop prone" in screen_text(app)
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, Handoff)          # the board is hidden at once
        await wait_until(pilot, lambda: isinstance(app.screen, Handoff)
                         and not app.screen.waiting and "Red team" in screen_text(app))
        await pilot.press("space")
        await wait_until(pilot, lambda: isinstance(app.screen, Summary))
        assert blue_order not in screen_text(app)
        await pilot.press("enter")
        await wait_until(pilot, screen.planning_now)
        assert screen.viewer == "red" and screen.plan.side == "red"
        known = {info.uid for info in units_known_to(battle, "red")}
        hidden = {uid for uid in battle.session.order
                  if match.side_of(uid) == "blue" and uid not in known}
        assert hidden                                    # the walls hide blue from red
        for keys in ((), ("c",), ("tab", "c")):
            await pilot.press(*keys)
            await pilot.pause()
            text = screen_text(app)
            assert blue_order not in text and "drop prone" not in text
            drawn = {info.uid for info in screen.picture.known.values()}
            assert not drawn & hidden                    # the board shows only what red sees
            assert screen.picture.viewer == "red"
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, Handoff)          # carried out behind a neutral screen
        await wait_until(pilot, lambda: isinstance(app.screen, Handoff)
                         and not app.screen.waiting
                         and "your orders for round 2" in screen_text(app))
        assert "Blue team" in screen_text(app)
        await pilot.press("space")
        await wait_until(pilot, lambda: isinstance(app.screen, Summary))
        told = "\n".join(app.screen.lines)
        assert f"{match.name(first)} moves" in told      # what blue saw of the round
    match.close()


@pytest.mark.slow
async def test_overwatch_is_planned_with_the_chosen_fire_mode_and_aim(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        match = simultaneous_match(WATCH, 4, {"red"})
        screen = await planning(app, pilot, match)
        watcher = next(uid for uid in screen.plan.units() if match.name(uid) == "Watcher")
        while screen.selected != watcher:
            await pilot.press("tab")
        modes = [m.name for m in screen.orders.held_weapon().modes]
        await pilot.press("m", "plus")
        await pilot.pause()
        x, y = match.position(watcher)
        screen.move_cursor_to((x - 4, y))
        await pilot.press("o")
        await pilot.pause()
        order = screen.plan.queue(watcher)[-1]
        assert order.command == SetOverwatch(watcher, (x - 4, y), modes[1 % len(modes)], 1)
        card = " ".join(screen.queue_card.card.plain.split())
        assert f"overwatch to ({x - 4},{y}): {modes[1 % len(modes)]}, aim 1" in card
        assert "overwatch to" in screen_text(app)


@pytest.mark.slow
async def test_the_round_is_paused_paced_and_skipped_with_keys(save_dir):
    app = SkirmishApp(str(save_dir), computer_delay=0.3)
    async with app.run_test(size=(120, 40)) as pilot:
        match = simultaneous_match(DUEL, 5, {"blue"})
        screen = await planning(app, pilot, match)
        await pilot.press("c", "s", "c", "s")           # four orders: a round of several steps
        await pilot.pause()
        assert len(screen.plan.queue(screen.selected)) == 4
        await pilot.press("e")
        await wait_until(pilot, lambda: screen.flow.playing)
        await pilot.press("space")                      # paused: nothing more is carried out
        await pilot.pause(0.5)                          # the step under way ends
        assert "PAUSED" in screen_text(app)
        assert "End turn" not in screen_text(app) and "Fire" not in screen_text(app)  # not now
        steps = len(match.history)
        await pilot.pause(1.0)
        assert len(match.history) == steps and match.battle.session.round == 1
        await pilot.press("greater_than_sign")          # faster, said while paused too
        assert screen.flow.pace == PACES.index(1.0) - 1
        await pilot.pause()
        assert "PAUSED: Space goes on · Pace x2 (< >)" in screen_text(app)
        await pilot.press(*["less_than_sign"] * 5)      # slowest: a step every 1.2 s
        assert screen.flow.pace == len(PACES) - 1
        assert match.battle.session.orders             # orders are left to carry out
        await pilot.press("space", "enter")             # on, and the rest of the round at once
        await wait_until(pilot, lambda: match.battle.session.round == 2 or match.over, tries=60)


@pytest.mark.slow
async def test_random_keys_while_planning_and_carrying_out_never_raise(save_dir):
    rng = random.Random(11)
    keys = [k for k in KEYS if k not in ("q", "ctrl+o", "ctrl+s", "ctrl+p")] + [
        "F", "backspace", "greater_than_sign", "less_than_sign", "e", "e", "enter"]
    app = make_app(save_dir)
    async with app.run_test(size=(90, 28)) as pilot:
        match = simultaneous_match(FOG, 8, {"blue"})
        await app.start_match(match)
        for _ in range(40):
            for _ in range(rng.choice((1, 5, 20))):
                app.post_message(key_event(rng.choice(keys)))
            await pilot.pause()
            if app.screen.__class__.__name__ == "Palette":
                await pilot.press("escape")
            if match.over:
                break
        assert app.return_code in (None, 0)
        assert match.battle.session.round > 1 or match.over    # orders were given and carried out


@pytest.mark.slow
async def test_overwatch_is_planned_at_one_enemy_and_as_near_as_the_cursor(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        match = simultaneous_match(WATCH, 4, {"red"})
        screen = await planning(app, pilot, match)
        watcher = next(uid for uid in screen.plan.units() if match.name(uid) == "Watcher")
        while screen.selected != watcher:
            await pilot.press("tab")
        hollis = next(uid for uid in match.battle.session.order if match.side_of(uid) == "blue")
        square = match.position(hollis)
        assert screen.picture.info(hollis) is not None          # red sees him at the start
        screen.move_cursor_to(square)
        await pilot.press("enter")                      # targeted, not fired at
        await pilot.pause()
        assert screen.target == hollis and screen.plan.queue(watcher) == []
        await pilot.press("O")
        await pilot.pause()
        order = screen.plan.queue(watcher)[-1].command
        distance = match.battle.session.grid.distance(match.position(watcher), square)
        assert order == SetOverwatch(watcher, square, None, 0, (hollis,), distance)
        card = " ".join(screen.queue_card.card.plain.split())
        assert f"only at Hollis, within {distance} sq" in card


@pytest.mark.slow
async def test_a_battle_saved_while_planning_loads_and_replays(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        match = simultaneous_match(DUEL, 5, {"blue"})
        screen = await planning(app, pilot, match)
        await pilot.press("c", "e")                     # a round carried out, the next planned
        await wait_until(pilot, lambda: match.battle.session.round == 2 or match.over)
        if match.over:
            return
        await wait_until(pilot, screen.planning_now)
        state = match.state()
        loaded = Match.from_state(state)
        assert loaded.planning and loaded.battle.session.round == 2
        await app.start_match(loaded)
        again = app.screen
        await wait_until(pilot, again.planning_now)
        assert again.plan.queue(again.selected) == []
        await wait_until(pilot, lambda: "Orders: Hollis" in screen_text(app))
        app.watch_replay(state)
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.press("end")                        # to the saved position
        await pilot.pause()
        assert "Round 2" in screen_text(app)


def test_previews_while_planning_leave_the_battle_as_it_was():
    match = simultaneous_match(WATCH, 4, {"red"})
    battle = match.battle
    watcher = next(uid for uid in battle.session.order if match.name(uid) == "Watcher")
    x, y = match.position(watcher)
    queue = (Order(ChangeStance(watcher, "crouch")), Order(SetOverwatch(watcher, (x - 3, y))))
    before = battle.digest()
    view = as_planned(battle, watcher, queue)
    assert unit_info(view, watcher).stance == "crouch"          # asked where it will stand
    assert unit_info(battle, watcher).stance == "stand"
    view.close()
    assert battle.digest() == before                 # the battle's own world was never touched
    match.close()


def test_a_unit_on_overwatch_is_given_two_orders_the_next_round():
    match = simultaneous_match(WATCH, 4, {"red"})
    battle = match.battle
    watcher = next(uid for uid in battle.session.order if match.name(uid) == "Watcher")
    x, y = match.position(watcher)
    for side in list(battle.session.planning):     # round 1: the watcher keeps watch
        orders = ((watcher, (Order(SetOverwatch(watcher, (x - 3, y))),)),) if side == "red" else ()
        assert not isinstance(battle.submit(GiveOrders(side=side, orders=orders)), Refused)
    while not battle.session.planning and not battle.session.over:
        assert not isinstance(battle.submit(Proceed(battle.session.active)), Refused)
    assert battle.session.has(watcher, c.Overwatch) and battle.session.round == 2
    plan = Plan(match, "red")
    assert plan.add(watcher, ChangeStance(watcher, "crouch")) == ""
    assert plan.add(watcher, ChangeStance(watcher, "stand")) == ""
    match.close()


@pytest.mark.slow
async def test_an_ambushing_side_sets_the_order_its_units_act_in(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        match = simultaneous_match(WATCH, 4, {"red"})
        session = match.battle.session
        screen = await planning(app, pilot, match)
        places = [i for i, uid in enumerate(session.order) if match.side_of(uid) == "red"]
        first, second = (session.order[i] for i in places)
        assert screen.selected == first
        assert "Ambush: acts 1 of 2" in " ".join(screen.queue_card.card.plain.split())
        await pilot.press("greater_than_sign")          # the first acts after the second
        await pilot.pause()
        assert screen.plan.sequence == [second, first]
        assert "Ambush: acts 2 of 2" in " ".join(screen.queue_card.card.plain.split())
        await pilot.press("c", "tab", "c", "e")
        await wait_until(pilot, lambda: not match.planning or session.round > 1 or match.over)
        assert [session.order[i] for i in places] == [second, first]


def test_orders_planned_but_not_given_are_saved_and_come_back():
    import json

    match = simultaneous_match(DUEL, 5, {"blue"})
    plan = Plan(match, "blue")
    assert not match.dirty                           # a plan just begun: nothing to save
    uid = plan.units()[0]
    assert plan.add(uid, ChangeStance(uid, "crouch")) == ""
    assert plan.cycle_fallback(uid) == "hold"
    assert match.dirty                               # a quit now asks first
    state = json.loads(json.dumps(match.state()))
    match.mark_saved()
    assert not match.dirty
    loaded = Match.from_state(state)
    again = Plan(loaded, "blue")
    assert again.queue(uid) == plan.queue(uid) and again.dropped == 0
    assert not loaded.dirty                          # taken back as saved
    assert not any(Plan(loaded, "red").queues.values())    # the other side is given none of it
    loaded.close()

    state["draft"]["orders"]["orders"][0][1][0]["command"]["stance"] = "stand"   # already is
    changed = Match.from_state(state)
    refused = Plan(changed, "blue")
    assert not any(refused.queues.values()) and refused.dropped == 1
    assert refused.dropped_from == [(uid, 1)]                 # whose, and from which order
    changed.close()
    given = match.submit(plan.command())
    assert not isinstance(given, Refused) and match.draft is None
    match.close()


async def test_f_orders_fire_on_sight_for_a_unit_that_cannot_see_the_enemy_its_side_sees(save_dir):
    """Hollis stands behind the wall; Maire, through the gap, sees the trooper. Planning
    Hollis, f orders fire on sight (the nearest enemy he sees when his turn comes), not an
    attack he could not make."""
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        match = simultaneous_match(DATA / "wall_gap.yaml", 5, {"blue"})
        screen = await planning(app, pilot, match)
        assert screen.selected == "blue-1" and match.battle.session.sees("blue", (10, 1))
        await pilot.press("f")
        await pilot.pause()
        queue = screen.plan.queue("blue-1")
        assert [(type(o.command), o.command.target) for o in queue] == [(Attack, "")], queue
        assert screen.target is None
    match.close()


def test_an_attack_at_the_nearest_enemy_is_not_offered_the_same_fallback():
    match = simultaneous_match(DUEL, 5, {"blue"})
    plan = Plan(match, "blue")
    uid = plan.units()[0]
    named = next(u for u in match.battle.session.order if match.side_of(u) == "red")
    assert plan.add(uid, Attack(uid, "")) == ""
    assert [plan.cycle_fallback(uid) for _ in range(3)] == ["hold", "skip", "hold"]
    plan.pop(uid)
    assert plan.add(uid, Attack(uid, named)) == ""
    assert [plan.cycle_fallback(uid) for _ in range(3)] == ["hold", "nearest", "skip"]
    match.close()


def test_two_units_planned_onto_one_square_are_told_of():
    match = simultaneous_match(WATCH, 4, {"red"})
    plan = Plan(match, "red")
    watcher, gunner = (uid for uid in plan.units() if match.name(uid) in ("Watcher", "Gunner"))
    assert match.position(watcher) == (12, 1) and match.position(gunner) == (12, 7)
    first, second = sorted((watcher, gunner), key=match.battle.session.order.index)
    start = {uid: match.position(uid)[1] for uid in (watcher, gunner)}

    def walk(uid, to_row):
        step = 1 if to_row > start[uid] else -1
        return Move(uid, tuple((12, row) for row in range(start[uid] + step, to_row + step, step)))
    assert plan.add(second, walk(second, 4)) == ""
    assert plan.failing() == {}
    # the one acting first may be sent there too: then the other's order would be refused
    assert plan.add(first, walk(first, 4)) == ""
    number, why = plan.failing()[second]
    assert number == 1 and "(12, 4) is occupied" in why
    plan.pop(first)
    assert plan.failing() == {}
    # the one acting second cannot be: its friend stands there by then
    plan.pop(second)
    assert plan.add(first, walk(first, 4)) == ""
    assert "occupied" in plan.add(second, walk(second, 4))
    match.close()


@pytest.mark.slow
async def test_the_new_battle_form_offers_the_last_choices_again(save_dir):
    """Solo or hot-seat, the difficulty, the scenario and a ruleset's turns (where the scenario
    does not set them) come back as they were last started."""
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, NewBattle))
        form = app.screen
        assert form.query_one("#turns-simultaneous").value      # skirmish's own way
        assert form.query_one("#solo").value and form.query_one("#level-hard").value
        await pilot.press("down", "down")                        # another scenario
        chosen = form.query_one("#scenarios").highlighted_option.id
        await pilot.click("#turns-sequential")
        await pilot.click("#level-easy")
        await pilot.click("#hotseat")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.match is not None)   # hot-seat: the handoff first
        assert not app.match.battle.session.rules.simultaneous
        assert all(seat.human for seat in app.match.seats.values())
        first = form
        app.action_new_battle()
        await wait_until(pilot, lambda: isinstance(app.screen, NewBattle) and app.screen is not first)
        form = app.screen
        await pilot.pause()
        assert form.query_one("#scenarios").highlighted_option.id == chosen
        assert form.query_one("#turns-sequential").value
        assert form.query_one("#hotseat").value and not form.query_one("#solo").value
        assert form.query_one("#level-easy").value and not form.query_one("#level-hard").value


@pytest.mark.slow
async def test_a_scenarios_own_turns_are_not_remembered_and_the_list_wins_over_a_path(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_new_battle(pilot, str(DUEL), "5")           # its file: turns sequential
        form = app.screen
        assert form.query_one("#turns-sequential").value
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.match is not None)
        assert app.form_choices.turns == {}                     # the scenario's way, not a choice
        app.action_new_battle()
        await wait_until(pilot, lambda: isinstance(app.screen, NewBattle) and app.screen is not form)
        form = app.screen
        await pilot.pause()
        assert form.query_one("#turns-simultaneous").value       # skirmish's own way again
        form.query_one("#scenario-path").focus()
        await pilot.press(*str(DUEL), "enter")
        await pilot.pause()
        assert form.path_scenario is not None
        form.query_one("#scenarios").focus()
        await pilot.press("down")                                # back to the list
        await pilot.pause()
        assert form.query_one("#scenario-path").value == "" and form.path_scenario is None
        chosen = form.query_one("#scenarios").highlighted_option.id
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.match is not None and app.screen is not form)
        assert app.match.battle.session.setup.scenario.id == chosen


async def test_a_fallback_changed_while_the_odds_hide_the_orders_card_is_told(save_dir):
    app = make_app(save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        match = simultaneous_match(DUEL, 5, {"blue"})
        screen = await planning(app, pilot, match)
        await pilot.press("f", "f")                      # the trooper targeted, then ordered
        await pilot.pause()
        await pilot.press("f")                           # its odds again: the card gives way
        await pilot.pause()
        assert screen.target is not None and not screen.queue_card.display
        await pilot.press("F")
        await wait_until(pilot, lambda: any(
            "last order, if not possible: hold (no more orders)" in n.message
            for n in app._notifications))
        assert screen.plan.queue(screen.selected)[-1].fallback == "hold"
