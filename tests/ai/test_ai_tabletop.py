"""The computer players under the four tabletop rulesets: legal orders only, battles that end."""

from __future__ import annotations

import pytest

from game.ai import make_player
from game.ai.simple import SimplePlayer
from game.content.loader import load_setup
from game.core import components as c
from game.core.commands import Attack, Declare, Defend, EndTurn
from game.rulesets import new_battle
from game.core.events import AttackResolved, Defended, Refused
from game.core.queries import Sighting, sightings, unit_info
from game.sim import play

SCENARIOS = ["eclipse2_alley", "eclipse1_depot", "opend6_alley", "d20_depot"]


@pytest.mark.slow
@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("level", ["simple", "hard"])
def test_computer_players_give_only_legal_orders_and_fight_it_out(scenario, level):
    setup = load_setup(scenario)
    sides = [side.id for side in setup.scenario.sides]
    decided = 0
    for seed in (1, 2):
        players = {side: make_player(level, side, seed) for side in sides}
        result = play(setup, seed, players)
        assert result.refused == [], result.refused[:3]
        assert any(isinstance(e, AttackResolved) for e in result.events)
        decided += result.winner is not None
    assert decided >= 1


def test_the_same_scenario_plays_under_every_ruleset():
    for ruleset in ("skirmish", "eclipse2", "eclipse1", "opend6", "d20"):
        setup = load_setup("alley", ruleset=ruleset)
        assert setup.ruleset.id == ruleset
        players = {side.id: make_player("simple", side.id) for side in setup.scenario.sides}
        result = play(setup, 3, players)
        assert result.refused == [] and result.reason, ruleset
        started = result.events[0]
        assert started.ruleset == ruleset


def test_with_nothing_to_shoot_a_unit_defends_in_the_rulesets_order():
    setup = load_setup("opend6_alley")
    with new_battle(setup, 1) as battle:
        player = SimplePlayer(battle.session.side_of(battle.session.active))
        me = unit_info(battle, battle.session.active)
        enemy = Sighting("x", (0, 0), 1, "ok")
        command = player._guard(battle, me, [enemy])
        assert command == Defend(me.uid, "dodge")       # dodge first: block and parry stop no bullets
        events = battle.submit(command)
        assert any(isinstance(e, Defended) for e in events)


def test_under_opend6_it_declares_as_many_shots_as_pay_for_their_penalty():
    from game.ai.levels import EASY, HARD
    from game.ai.tabletop import TabletopPlayer
    from tests.rules.test_opend6_grid import battle as opend6_battle
    rows = ["." * 16, "." * 16, "...=............", "." * 16, "." * 16]
    declared = {}
    for hp, level in ((12, HARD), (1, HARD), (12, EASY)):
        with opend6_battle(c_at=(2, 2), g_at=(6, 2), rows=rows) as fight:
            fight.session.use()
            fight.session.get("blue-1", c.Health).hp = hp
            player = TabletopPlayer("red", 1, level)
            first = player.next_command(fight)
            assert isinstance(first, Declare)
            assert not isinstance(fight.submit(first), Refused)
            second = player.next_command(fight)
            assert isinstance(second, Attack) and second.target == "blue-1"
            declared[hp, level.name] = first.actions
    assert declared[12, "hard"] > 1           # a healthy goblin: more shots, -1D each
    assert declared[1, "hard"] == 1           # one shot puts it down: no penalty on it
    assert declared[12, "easy"] == 1          # easy does not weigh it (no tactics)


def _two_exhumans_one_wounded(wounded: str):
    from game.content.schema import BattleSetup
    from tests.core import builders as b
    from tests.rules import test_eclipse_grid as e
    setup = b.setup(e.OPEN, {"red": [(e.jinx(), (2, 3))],
                             "blue": [(e.exhuman(), (7, 2)), (e.exhuman(), (7, 5))]})
    setup = BattleSetup.model_validate({**setup.model_dump(), "ruleset": e.ruleset().model_dump(),
                                        "weapons": [e.PISTOL.model_dump(), e.KNIFE.model_dump()],
                                        "armor": [e.HIDE.model_dump()]})
    fight = new_battle(setup, 5)
    while fight.session.active != "red-1":
        fight.submit(EndTurn(fight.session.active))
    fight.session.use()
    fight.session.get(wounded, c.Health).hp = 4          # one good hit from down
    return fight


def test_it_finishes_the_wounded_enemy_first():
    from game.ai.levels import HARD
    from game.ai.tabletop import TabletopPlayer
    for wounded in ("blue-1", "blue-2"):
        with _two_exhumans_one_wounded(wounded) as fight:
            command = TabletopPlayer("red", 1, HARD).next_command(fight)
            assert isinstance(command, Attack) and command.target == wounded


@pytest.mark.slow
def test_easy_misjudges_targets_now_and_then_and_normal_and_hard_do_not():
    """The levels' noise: over 40 players (seeds) easy sometimes shoots the healthy enemy, and
    mostly the wounded one; normal's small noise and hard's none never waver."""
    from game.ai.levels import EASY, HARD, NORMAL
    from game.ai.tabletop import TabletopPlayer
    wrong = {}
    for level in (EASY, NORMAL, HARD):
        wrong[level.name] = 0
        for seed in range(40):
            with _two_exhumans_one_wounded("blue-2") as fight:
                command = TabletopPlayer("red", seed, level).next_command(fight)
                assert isinstance(command, Attack)
                wrong[level.name] += command.target != "blue-2"
    assert 0 < wrong["easy"] < 20
    assert wrong["normal"] == 0 and wrong["hard"] == 0


def test_of_two_enemies_alike_it_hits_the_one_that_can_hurt_its_side():
    from game.ai.levels import HARD
    from game.ai.tabletop import TabletopPlayer
    from game.content.schema import BattleSetup
    from tests.core import builders as b
    from tests.rules import test_eclipse_grid as e
    knife, gun = e.exhuman(), e.exhuman(id="gunman", weapons=[{"weapon": "pistol"}])
    setup = b.setup(e.OPEN, {"red": [(e.jinx(), (2, 3))],
                             "blue": [(knife, (7, 1)), (gun, (7, 5))]})    # the same odds at both
    setup = BattleSetup.model_validate({**setup.model_dump(), "ruleset": e.ruleset().model_dump(),
                                        "weapons": [e.PISTOL.model_dump(), e.KNIFE.model_dump()],
                                        "armor": [e.HIDE.model_dump()]})
    with new_battle(setup, 5) as fight:
        while fight.session.active != "red-1":
            fight.submit(EndTurn(fight.session.active))
        command = TabletopPlayer("red", 1, HARD).next_command(fight)
        assert isinstance(command, Attack) and command.target == "blue-2"   # the gun, not the knife


def test_with_its_gun_dry_it_draws_the_knife_it_carries():
    from game.ai.levels import HARD
    from game.ai.tabletop import TabletopPlayer
    from game.core.commands import Draw
    from tests.rules import test_eclipse_grid as e
    armed = e.jinx(weapons=[{"weapon": "pistol", "spare_magazines": 0}, {"weapon": "knife"}])
    with e.battle(j=armed, x_at=(3, 3)) as fight:
        while fight.session.active != "red-1":
            fight.submit(EndTurn(fight.session.active))
        fight.session.use()
        fight.session.get("red-1", c.Loadout).weapons[0].ammo = 0
        command = TabletopPlayer("red", 1, HARD).next_command(fight)
        assert command == Draw("red-1", 1)
        assert not isinstance(fight.submit(command), Refused)


def test_hard_steps_out_of_sight_after_its_shot_and_easy_does_not_look_that_far():
    from game.ai.levels import EASY, HARD
    from game.ai.tabletop import TabletopPlayer
    from game.core.commands import Move
    from tests.rules import test_eclipse_grid as e
    rows = ["." * 16, "." * 16, "." * 16, "....#" + "." * 11, "." * 16]   # a pillar to hide behind
    gunman = e.exhuman(weapons=[{"weapon": "pistol"}])
    after = {}
    for level in (HARD, EASY):
        with e.battle(j_at=(3, 2), x_at=(9, 2), x=gunman, rows=rows) as fight:
            while fight.session.active != "red-1":
                fight.submit(EndTurn(fight.session.active))
            player = TabletopPlayer("red", 1, level)
            shot = player.next_command(fight)
            assert isinstance(shot, Attack)
            fight.submit(shot)
            after[level.name] = player.next_command(fight)
    hard = after["hard"]
    assert isinstance(hard, Move)
    with e.battle(j_at=hard.path[-1], x_at=(9, 2), x=gunman, rows=rows) as fight:
        assert sightings(fight, "red") == []        # behind the pillar, out of its sight
    assert isinstance(after["easy"], EndTurn)


def test_a_weak_blow_is_struck_not_walked_away_from_and_back():
    """A knife against a giant: each blow is a sliver of its health, still worth striking (as
    the simple player would). The unit neither walks off and back nor lets its turn go."""
    from game.ai.levels import HARD
    from game.ai.tabletop import TabletopPlayer
    from game.core.commands import Move
    from tests.rules import test_eclipse_grid as e
    knife_only = e.jinx(weapons=[{"weapon": "knife"}])
    with e.battle(j=knife_only, j_at=(4, 2), x_at=(5, 2)) as fight:
        while fight.session.active != "red-1":
            fight.submit(EndTurn(fight.session.active))
        fight.session.use()
        fight.session.get("blue-1", c.Health).hp = 400
        player, start, commands = TabletopPlayer("red", 1, HARD), (4, 2), []
        while fight.session.active == "red-1" and len(commands) < 8:
            commands.append(player.next_command(fight))
            assert not isinstance(fight.submit(commands[-1]), Refused)
        assert isinstance(commands[0], Attack) and commands[0].target == "blue-1"
        walked = any(isinstance(command, Move) for command in commands)
        assert not (walked and fight.session.position("red-1") == start)


def test_under_d20_it_keeps_its_magazine_for_the_fight_and_empties_it_at_the_end():
    """A d20 full auto fires the whole magazine for +4: a fine volley, and on the last magazine
    the gun is dry after it. Early on it bursts (8 rounds); with the round limit at hand it
    empties the magazine. With spare magazines it fires full auto."""
    from game.ai.levels import HARD
    from game.ai.tabletop import TabletopPlayer
    from tests.rules.test_d20_grid import RIFLE, battle as d20_battle, unit as d20_unit
    red = d20_unit("gunner", "Gunner", dex=2, weapons=("rifle",))
    blue = d20_unit("target", "Target", ar=10, hp=40)
    chosen = {}
    for level, late, spare in ((HARD, False, 0), (HARD, True, 0), (HARD, False, 2)):
        with d20_battle([(red, (2, 2))], [(blue, (8, 2))], initiative=(20, 1)) as fight:
            s = fight.session
            s.use()
            s.get(s.active, c.Loadout).current.spare = spare
            if late:
                s.round = s.setup.scenario.victory.max_rounds
            me = unit_info(fight, s.active)
            assert me.side == "red" and me.magazine == RIFLE.magazine
            command = TabletopPlayer("red", 1, level).next_command(fight)
            assert isinstance(command, Attack), command
            chosen[late, spare] = command.mode
    assert chosen[True, 0] == "full_auto"         # nothing left to keep the rounds for
    assert chosen[False, 0] == "burst"            # the fight goes on: 8 rounds, not the last 30
    assert chosen[False, 2] == "full_auto"        # two more magazines: the volley


def test_both_players_press_harder_only_once_a_third_of_the_rounds_are_gone():
    from game.ai.goals import HURRY_FROM, lateness
    with new_battle(load_setup("d20_depot"), 1) as fight:
        s = fight.session
        limit = s.setup.scenario.victory.max_rounds
        pushes = []
        for round_ in (1, int(HURRY_FROM * limit), (limit + int(HURRY_FROM * limit)) // 2, limit):
            s.round = round_
            pushes.append(lateness(fight)[1])
    assert pushes[0] == pushes[1] == 0.0
    assert 0.3 < pushes[2] < 0.7 and pushes[3] == 1.0


def test_under_d20_it_does_not_step_out_of_reach_of_claws_that_would_strike_it_for_the_step():
    """After its shot it walks off to safety, unless the walk draws an attack of opportunity
    worth more than the safety: the thrasher next to it has not reacted this round."""
    from game.ai.levels import HARD
    from game.ai.tabletop import TabletopPlayer
    from tests.rules.test_d20_grid import battle as d20_battle, thrasher, unit as d20_unit
    ended = {}
    for reacted in (False, True):
        gunner = d20_unit("gunner", "Gunner", dex=2, weapons=("pistol",))
        with d20_battle([(gunner, (5, 3))], [(thrasher(), (6, 3))], initiative=(20, 1)) as fight:
            s = fight.session
            s.use()
            if reacted:
                s.get("blue-1", c.Condition).reacted_round = s.round
            player, commands = TabletopPlayer("red", 1, HARD), []
            while s.active == "red-1" and len(commands) < 5:
                commands.append(player.next_command(fight))
                assert not isinstance(fight.submit(commands[-1]), Refused)
            assert isinstance(commands[0], Attack) and commands[0].target == "blue-1"
            ended[reacted] = s.position("red-1")
    assert ended[False] == (5, 3)              # the step would draw the claws: it stays
    assert ended[True] != (5, 3)               # the thrasher's reaction is spent: it walks off
