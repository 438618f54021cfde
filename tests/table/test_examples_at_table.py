"""The rules texts' worked examples played at the table: every die typed in as the text rolls
it, the prompts naming who rolls what, and the texts' numbers reached."""

from __future__ import annotations

from game.core.commands import Attack, Draw, EndTurn, Move, SetOverwatch, Throw
from game.core.events import AttackResolved, Damaged, Exploded, GrenadeThrown, HealthChanged, StatusChanged
from game.core.dice import RollNeeded
from game.rulesets import load_battle, new_battle
from tests.core.builders import GRENADE, RIFLE, setup, unit
from tests.core.test_worked_examples import OPEN, maire, support
from tests.rules import test_d20_grid as d20
from tests.rules import test_eclipse_grid as eclipse
from tests.rules import test_opend6_grid as opend6
from tests.table.table_helpers import opened, typed


def of(events, kind):
    return [e for e in events if isinstance(e, kind)]


def setup_of(battle):
    with battle:
        return battle.session.setup


def test_hollis_hits_the_trooper_for_four():
    hollis = unit("hollis", ap=10, aim=6, dexterity=1, weapons=("pistol",))
    trooper = unit("trooper", dodge=4, agility=0, armor="light")
    s = setup(OPEN, {"spacer": [(hollis, (2, 3))], "olea": [(trooper, (8, 3))]}, ambush="spacer")
    with opened(s, (5, 5)) as fight:
        events, prompts = typed(fight, Attack("spacer-1", "olea-1", aim=2), (4, 5, 3, 4))
        assert prompts == ["Hollis, attacking Trooper: roll a d10 for the aim",
                           "Trooper: roll a d10 for the dodge against Hollis's attack",
                           "Hollis, attacking Trooper: roll 2d6 for the damage",
                           "Hollis, attacking Trooper: roll a d6 for the damage"]
        shot = of(events, AttackResolved)[0]
        assert (shot.attack.total, shot.defense.total, shot.hit) == (11, 9, True)
        damage = of(events, Damaged)[0]
        assert (damage.rolled, damage.resisted, damage.taken) == (7, 3, 4)


def test_maires_grenade_and_the_soldiers_overwatch_shot():
    """The thrower, the blast and the watcher's shot during Maire's own move: each die asked of
    the unit that rolls it. 5d20 = 58 kills the Support; the Soldier's shot does 13 to Maire."""
    soldier = unit("soldier", hp=30, morale=8, aim=5, dexterity=4, weapons=("rifle5",),
                   abilities={"overwatch": 1})
    rifle5 = RIFLE.model_copy(update={"id": "rifle5", "damage": "5d8"})
    s = setup(OPEN, {"scout": [(maire(), (0, 5))],
                     "olea": [(support(), (9, 1)), (soldier, (13, 4))]}, ambush="olea")
    s = s.model_copy(update={"weapons": [*s.weapons, rifle5]})
    with opened(s, (1, 10, 8), seed=0) as fight:
        typed(fight, EndTurn("olea-1"), ())
        typed(fight, SetOverwatch("olea-2", (2, 5)), ())
        events, prompts = typed(fight, Throw("scout-1", (10, 5), GRENADE.id), (6, 8, 16, 3, 15, 12, 12))
        assert prompts[:2] == ["Maire: roll a d10 for the demolitions", "Maire: roll a d10 for the scatter"]
        assert prompts[2:] == [f"Maire: roll {n}d20 for the blast damage" for n in (5, 4, 3, 2)] + [
            "Maire: roll a d20 for the blast damage"]
        thrown = of(events, GrenadeThrown)[0]
        assert (thrown.check.total, thrown.difficulty, thrown.scatter_distance) == (6, 10, 4)
        assert sum(of(events, Exploded)[0].rolls) == 58
        assert ("olea-1", "dead") in [(h.unit, h.state) for h in of(events, HealthChanged)]
        events, prompts = typed(fight, Move("scout-1", ((1, 5),)), (8, 2, 6, 5, 2, 7, 8))
        assert prompts[:2] == ["Soldier, attacking Maire: roll a d10 for the aim",
                               "Maire: roll a d10 for the dodge against Soldier's attack"]
        assert prompts[2:] == [f"Soldier, attacking Maire: roll {n}d8 for the damage" for n in (5, 4, 3, 2)] + [
            "Soldier, attacking Maire: roll a d8 for the damage"]
        shot = of(events, AttackResolved)[0]
        assert shot.reaction and shot.attack.total == 16 and shot.hits == 1
        damage = of(events, Damaged)[0]
        assert (damage.rolled, damage.resisted, damage.taken) == (28, 15, 13)
        state = fight.state()
        with load_battle(state) as again:
            assert again.digest() == fight.digest()


def test_jinx_burst_against_the_exhuman():
    """69 against 70, the exhuman's 07 against 30; 3d10 + 2d6 = 21 less 10 armor: one wound."""
    with opened(setup_of(eclipse.battle(forced=False)), (10, 1)) as fight:
        assert fight.session.active == "red-1"
        events, prompts = typed(fight, Attack("red-1", "blue-1", "burst"), (69, 7, 7, 5, 5, 1, 3, 9))
        assert prompts[:2] == ["Jinx, attacking Exhuman: roll a d100 for the attack",
                               "Exhuman: roll a d100 for the defense against Jinx's attack"]
        attack = of(events, AttackResolved)[0]
        assert (attack.attack.rolls, attack.attack.total) == ((69,), 70)
        assert (attack.defense.rolls, attack.defense.total) == ((7,), 30)
        damaged = of(events, Damaged)[0]
        assert (damaged.rolled, damaged.resisted, damaged.taken) == (21, 10, 11)
        assert of(events, StatusChanged)[0].status == "1 wound"


def test_cians_crossbow_kills_the_goblin():
    """Marksmanship 5D - 1D: 4 + 5 + 3 and a Wild Die 6 that explodes into 3, 21 against 15;
    the crossbow's 4D rolls 18."""
    with opened(setup_of(opend6.battle(c_at=(2, 3), g_at=(14, 3), forced=False)), (5, 2)) as fight:
        assert fight.session.active == "red-1"
        events, prompts = typed(fight, Attack("red-1", "blue-1"), (4, 5, 3, 6, 3, 5, 4, 6, 3))
        assert prompts[:5] == [f"Cian, attacking Goblin: roll {n} and the Wild Die for the attack"
                               for n in ("3d6", "2d6", "a d6")] + [
            "Cian, attacking Goblin: roll a d6 for the attack (Wild Die)"] * 2
        attack = of(events, AttackResolved)[0]
        assert attack.attack.rolls == (4, 5, 3, 6, 3) and attack.attack.total == 21
        assert attack.defense.total == 15 and attack.hit
        damaged = of(events, Damaged)[0]
        assert (damaged.rolled, damaged.taken, damaged.hp_after) == (18, 18, -6)


def test_arik_devin_and_the_thrasher():
    """Initiative 6 + 1, 16 + 3, 13 + 2; the Thrasher hits Devin for 4 + 3; Arik's 5 + 1 = 6 is
    below the Thrasher's Armor Rating 14."""
    s = setup_of(d20.battle([(d20.arik(), (1, 3)), (d20.devin(), (1, 5))], [(d20.thrasher(), (10, 4))],
                            initiative=(1, 1, 1)))
    with opened(s, (6, 16, 13)) as fight:
        assert fight.session.order == ["red-2", "blue-1", "red-1"]
        typed(fight, Draw("red-2", 1), ())
        typed(fight, Move("red-2", tuple((x, 5) for x in range(2, 8))), ())
        typed(fight, Move("blue-1", ((9, 4), (8, 4))), ())
        events, prompts = typed(fight, Attack("blue-1", "red-2", "basic"), (12, 4))
        assert prompts == ["Wicked Thrasher, attacking Devin: roll a d20 for the hit",
                           "Wicked Thrasher, attacking Devin: roll a d6 for the damage"]
        attack = of(events, AttackResolved)[0]
        assert attack.hit and (attack.attack.total, attack.defense.total) == (15, 13)
        assert of(events, Damaged)[0].taken == 7
        typed(fight, Draw("red-1", 1), ())
        events, prompts = typed(fight, Attack("red-1", "blue-1", "basic"), (5,))
        assert prompts == ["Arik, attacking Wicked Thrasher: roll a d20 for the hit"]
        attack = of(events, AttackResolved)[0]
        assert attack.detail == "hit test 6 (d20 5 + DEX 1) against Armor Rating 14: miss"


def test_the_defenders_choice_is_asked_of_the_table_then_its_dice():
    """Eclipse Phase melee: the exhuman's player chooses Fray or Melee (as the "ask" defense
    does), then Jinx's and the exhuman's d100s are asked for; the save replays it."""
    from game.core.commands import Respond
    from game.core.events import DefenseAsked, Refused, RollWanted
    knifer = eclipse.jinx(weapons=[{"weapon": "knife"}])
    s = setup_of(eclipse.battle(j_at=(5, 3), x_at=(6, 3), j=knifer, forced=False))
    with opened(s, (10, 1), asking=("red", "blue")) as fight:
        asked = fight.submit(Attack("red-1", "blue-1"))
        assert not isinstance(asked, Refused)
        assert of(asked, DefenseAsked)[0].choices == ("fray", "melee")
        wanted = fight.submit(Respond("blue-1", "melee"))
        jinx = "Jinx, attacking Exhuman: roll a d100 for the attack"
        assert isinstance(wanted, RollWanted) and wanted.reason == jinx
        events, prompts = typed(fight, Respond("blue-1", "melee"), (90, 20))
        assert prompts == [jinx, "Exhuman: roll a d100 for the defense against Jinx's attack"]
        attack = of(events, AttackResolved)[0]
        assert attack.defense.modifiers[0] == ("melee", 80)
        assert (attack.attack.rolls, attack.defense.rolls, attack.hit) == ((90,), (20,), False)
        with load_battle(fight.state()) as again:
            assert again.digest() == fight.digest()


def test_a_d20_ambush_names_whom_each_stealth_and_awareness_die_is_against():
    s = setup_of(d20.battle([(d20.arik(), (1, 3)), (d20.devin(), (1, 5))], [(d20.thrasher(), (10, 4))],
                            initiative=(1, 1, 1), ambush="red"))
    asked = []
    faces: tuple[int, ...] = (6, 16, 13)
    while True:
        try:
            with new_battle(s, 1, table=("red", "blue"), opening_rolls=faces):
                break
        except RollNeeded as need:
            asked.append(need.wanted.reason)
            faces += (10,)
    assert asked == ["Arik, sneaking up on Wicked Thrasher: roll a d20 for the stealth",
                     "Wicked Thrasher: roll a d20 for the awareness against Arik's stealth",
                     "Devin, sneaking up on Wicked Thrasher: roll a d20 for the stealth",
                     "Wicked Thrasher: roll a d20 for the awareness against Devin's stealth"]
