"""OpenD6 on the grid: declared actions and their penalty, active and full defense, Body Points,
initiative every round, exact previews, refusals. Dice are forced; every unit's Perception is
1D, so its initiative is one Wild Die face."""

from __future__ import annotations


import pytest

from game.content.schema import ArmorSpec, BattleSetup, RulesetSpec, WeaponSpec
from game.core import components as c
from game.core.commands import (Attack, ChooseDefense, Declare, Defend, Draw, EndTurn, Move,
                                SetOverwatch)
from game.core.dice import Dice
from game.core.engine import Battle
from game.rulesets import new_battle
from game.core.narrate import describe
from game.core.events import (ActionsDeclared, AttackResolved, Damaged, Defended, HealthChanged,
                              InitiativeOrder, InitiativeRolled, Refused, StatusChanged)
from game.core.queries import action_costs, preview_attack, reach, unit_info
from game.core.systems.attack import plan_attack
from game.rulesets.opend6.odds import opend6_odds
from tests.core import builders as b
from tests.rules.rules_helpers import play_out_and_replay, spec, with_rules

OPEN = ["." * 16 for _ in range(8)]


def ruleset() -> RulesetSpec:
    return spec("opend6")


CROSSBOW = with_rules(b.PISTOL, id="crossbow", name="Crossbow",
                      rules={"opend6": {"skill": "marksmanship", "damage": "4D", "ranges": [10, 50, 100]}})
SLING = with_rules(b.PISTOL, id="sling", name="Sling",
                   rules={"opend6": {"skill": "throwing", "damage": "2D", "ranges": [2, 4, 6]}})
SWORD = with_rules(b.KNIFE, id="sword", name="Sword",
                   rules={"opend6": {"skill": "melee_combat", "damage": "+1D+1"}})
HIDE = ArmorSpec(id="hide", name="Hide", rules={"opend6": {"armor": 2}})
WEAPONS: list[WeaponSpec] = [CROSSBOW, SLING, SWORD]


def cian(weapons=("crossbow",), **update):
    spec = b.unit("cian", weapons=weapons, abilities={"overwatch": 1})
    profile = {"hp": 20,
               "attributes": {"agility": "3D", "coordination": "3D+1", "physique": "2D+2", "perception": "1D"},
               "skills": {"marksmanship": "5D", "dodge": "4D", "brawling": "3D", "melee_combat": "3D",
                          "throwing": "3D"}}
    return with_rules(spec, rules={"opend6": profile}, **update)


def goblin(weapons=("crossbow",), **update):
    spec = b.unit("goblin", weapons=weapons)
    profile = {"hp": 12,
               "attributes": {"agility": "2D+2", "coordination": "2D", "physique": "2D", "perception": "1D"},
               "skills": {"marksmanship": "3D", "dodge": "3D", "brawling": "3D", "melee_combat": "2D",
                          "throwing": "2D"}}
    return with_rules(spec, rules={"opend6": profile}, **update)


def battle(c_at=(2, 3), g_at=(6, 3), *, first="cian", cian_spec=None, goblin_spec=None,
           forced: bool = True, rows=OPEN) -> Battle:
    setup = b.setup(rows, {"red": [(cian_spec or cian(), c_at)], "blue": [(goblin_spec or goblin(), g_at)]})
    setup = BattleSetup.model_validate({**setup.model_dump(), "ruleset": ruleset().model_dump(),
                                        "weapons": [w.model_dump() for w in WEAPONS],
                                        "armor": [HIDE.model_dump()]})
    if not forced:
        return new_battle(setup, seed=3)
    dice = Dice(1)
    dice.force(*((5, 2) if first == "cian" else (2, 5)))   # initiative: red's Wild Die, then blue's
    return new_battle(setup, seed=1, dice=dice)


def of(events, kind):
    assert not isinstance(events, Refused), events
    return [e for e in events if isinstance(e, kind)]


# --- declared actions --------------------------------------------------------------------------

def test_cians_two_standing_actions_cost_a_die_and_the_crossbow_kills_the_goblin():
    """The seed's example on the grid: 24 m is medium range (+5). Marksmanship 5D - 1D = 4D:
    4+5+3 and a Wild Die 6 that explodes into 3, 21 against 15; the crossbow's 4D rolls 18 and
    the goblin's 12 Body Points are gone."""
    with battle(c_at=(2, 3), g_at=(14, 3)) as fight:
        assert fight.session.active == "red-1"
        assert fight.session.get("red-1", c.ActionPoints).current == 2
        fight.session.dice.force(4, 5, 3, 6, 3, 5, 4, 6, 3)
        events = fight.submit(Attack("red-1", "blue-1"))
        attack = of(events, AttackResolved)[0]
        assert attack.attack.rolls == (4, 5, 3, 6, 3) and attack.attack.total == 21
        assert attack.defense.total == 15
        assert attack.defense.modifiers == (("passive defense", 10), ("medium range", 5))
        assert attack.hit and attack.ap_cost == 1
        assert attack.detail == ("Marksmanship 5D-1D rolls 4+5+3, Wild Die 6+3 = 21 against "
                                 "difficulty 15 (passive defense 10, medium range +5)")
        assert describe(attack, fight.names().get).endswith("(passive defense 10, medium range +5): 1 hit.")
        damaged = of(events, Damaged)[0]
        assert (damaged.rolls, damaged.rolled, damaged.taken, damaged.hp_after) == ((5, 4, 6, 3), 18, 18, -6)
        assert [e.state for e in of(events, HealthChanged)] == ["dead"]
        fight.session.use()
        assert fight.session.position("blue-1") is None          # the dead leave the map
        assert fight.session.over and fight.session.dice.forced_left == 0


@pytest.mark.parametrize("declared, dice", [(1, 5), (2, 4), (3, 3), (4, 2)])
def test_declared_actions_take_a_die_each_beyond_the_first(declared, dice):
    with battle() as fight:
        events = fight.submit(Declare("red-1", declared))
        announced = of(events, ActionsDeclared)[0]
        assert (announced.unit, announced.actions, announced.penalty) == ("red-1", declared, declared - 1)
        fight.session.use()
        assert fight.session.get("red-1", c.ActionPoints).current == declared
        assert fight.session.get("red-1", c.Tempo).actions == declared
        fight.session.dice.force(*([1] * dice))                   # a miss: dice - 1 ones and a Wild 1
        attack = of(fight.submit(Attack("red-1", "blue-1")), AttackResolved)[0]
        assert len(attack.attack.rolls) == dice and not attack.hit
        assert "complication" in attack.detail


def test_the_penalty_stays_on_every_roll_of_the_round():
    with battle() as fight:
        fight.submit(Declare("red-1", 3))
        fight.session.dice.force(1, 1, 1)
        first = of(fight.submit(Attack("red-1", "blue-1")), AttackResolved)[0]
        fight.session.dice.force(1, 1, 1)
        second = of(fight.submit(Attack("red-1", "blue-1")), AttackResolved)[0]
        assert len(first.attack.rolls) == len(second.attack.rolls) == 3
        fight.session.dice.force(2, 2)                           # dodge 4D - 2D = 2D: one die + Wild
        defended = of(fight.submit(Defend("red-1", "dodge")), Defended)[0]
        assert defended.check.rolls == (2, 2) and defended.check.total == 4
        assert fight.session.active == "blue-1"                   # three actions spent
        assert fight.session.dice.forced_left == 0


def test_a_move_action_buys_five_squares_and_a_second_one_five_more():
    with battle(c_at=(0, 0), g_at=(15, 7)) as fight:
        assert reach(fight, "red-1").cost((5, 0)) == 1
        assert reach(fight, "red-1").cost((10, 0)) == 2
        assert reach(fight, "red-1").cost((11, 0)) is None
        fight.submit(Move("red-1", ((1, 0), (2, 0))))
        fight.session.use()
        assert fight.session.get("red-1", c.ActionPoints).current == 1
        assert fight.session.get("red-1", c.Tempo).actions == 2       # still two declared
        fight.submit(Move("red-1", ((3, 0), (4, 0), (5, 0))))          # the same move action
        assert fight.session.get("red-1", c.ActionPoints).current == 1
        fight.submit(Move("red-1", ((6, 0),)))                          # a second one
        assert fight.session.get("red-1", c.ActionPoints).current == 0
        assert fight.session.active == "red-1"                          # four squares still to walk
        assert action_costs(fight, "red-1").defend == {"dodge": 1, "block": 1, "parry": 1, "full": 0}


# --- defenses ------------------------------------------------------------------------------------

def test_an_active_dodge_replaces_the_passive_ten_until_the_defenders_next_turn():
    with battle(first="goblin") as fight:
        assert fight.session.active == "blue-1"
        fight.session.dice.force(1, 2)                   # dodge 3D - 1D: 1 and a Wild Die 2 = 3
        defended = of(fight.submit(Defend("blue-1", "dodge")), Defended)[0]
        assert (defended.defense, defended.check.total, defended.ap_cost) == ("dodge", 3, 1)
        assert "defending (dodge 3)" in unit_info(fight, "blue-1").statuses
        fight.submit(EndTurn("blue-1"))
        fight.session.dice.force(1, 1, 1, 2, 1, 1, 1, 1)     # attack 4D = 5; damage 4D = 4
        events = fight.submit(Attack("red-1", "blue-1"))
        attack = of(events, AttackResolved)[0]
        assert attack.defense.modifiers == (("dodge", 3),) and attack.defense.total == 3
        assert attack.hit and of(events, Damaged)[0].taken == 4
        fight.session.dice.force(2, 5)                    # round 2: the goblin first again
        fight.submit(EndTurn("red-1"))
        assert fight.session.round == 2 and fight.session.active == "blue-1"
        fight.session.use()
        assert not fight.session.has("blue-1", c.Guard)
        fight.submit(EndTurn("blue-1"))
        fight.session.dice.force(1, 1, 1, 2)
        again = of(fight.submit(Attack("red-1", "blue-1")), AttackResolved)[0]
        assert again.defense.modifiers == (("passive defense", 10),) and not again.hit


def test_a_low_dodge_at_point_blank_range_still_leaves_difficulty_three():
    with battle(c_at=(5, 3), g_at=(6, 3), first="goblin") as fight:
        fight.session.dice.force(1, 2)                   # dodge 3D - 1D = 3
        fight.submit(Defend("blue-1", "dodge"))
        fight.submit(EndTurn("blue-1"))
        fight.session.dice.force(1, 1, 1, 1, 1, 1, 1, 2)   # the crossbow at 2 m: 4 against 3
        attack = of(fight.submit(Attack("red-1", "blue-1")), AttackResolved)[0]
        assert attack.defense.modifiers == (("dodge", 3), ("point blank range", -5), ("lowest difficulty", 5))
        assert attack.defense.total == 3 and attack.hit


def test_a_defender_that_has_not_acted_yet_has_only_passive_defense():
    with battle() as fight:                              # Cian acts first
        fight.session.dice.force(6, 6, 6, 5, 1, 1, 1, 1)
        attack = of(fight.submit(Attack("red-1", "blue-1")), AttackResolved)[0]
        assert attack.defense.modifiers == (("passive defense", 10),)


def test_full_defense_adds_ten_and_takes_every_action():
    with battle(first="goblin") as fight:
        fight.session.dice.force(2, 2, 3)               # the whole round: dodge 3D, no penalty = 7
        events = fight.submit(Defend("blue-1", "full"))
        announced = of(events, ActionsDeclared)[0]
        assert (announced.unit, announced.actions, announced.penalty) == ("blue-1", 1, 0)
        defended = of(events, Defended)[0]
        assert (defended.check.rolls, defended.check.total, defended.bonus, defended.ap_cost) == (
            (2, 2, 3), 7, 10, 2)
        assert fight.session.active == "red-1"           # no actions left: the turn is over
        fight.session.dice.force(6, 6, 1, 2)             # 15 against 7 + 10
        attack = of(fight.submit(Attack("red-1", "blue-1")), AttackResolved)[0]
        assert attack.defense.modifiers == (("dodge", 7), ("full defense", 10))
        assert attack.defense.total == 17 and not attack.hit
        assert "full dodge 7+10" in attack.detail


def test_full_defense_after_an_action_takes_the_rest_at_the_rounds_penalty():
    with battle(first="goblin") as fight:
        fight.submit(Move("blue-1", ((7, 3),)))
        fight.session.dice.force(2, 3)                  # dodge 3D - 1D = 2D: 2 and a Wild 3
        defended = of(fight.submit(Defend("blue-1", "full")), Defended)[0]
        assert (defended.check.total, defended.ap_cost) == (5, 1)
        assert fight.session.get("blue-1", c.Tempo).actions == 2


def test_a_block_does_not_stop_a_crossbow_bolt():
    with battle(first="goblin") as fight:
        fight.session.dice.force(5, 5)                  # brawling 3D - 1D = 2D: 10
        fight.submit(Defend("blue-1", "block"))
        fight.submit(EndTurn("blue-1"))
        fight.session.dice.force(1, 1, 1, 2)
        attack = of(fight.submit(Attack("red-1", "blue-1")), AttackResolved)[0]
        assert attack.defense.modifiers == (("passive defense", 10),)
        assert attack.detail.endswith("(passive defense 10, short range; a block does not stop a ranged attack)")


def test_a_parry_stops_a_sword():
    with battle(c_at=(5, 3), g_at=(6, 3), first="goblin", cian_spec=cian(weapons=("sword",)),
                goblin_spec=goblin(weapons=("sword",))) as fight:
        fight.session.dice.force(6, 5)                  # melee combat 2D - 1D = 1D: a Wild 6, 5: 11
        defended = of(fight.submit(Defend("blue-1", "parry")), Defended)[0]
        assert defended.check.total == 11
        fight.submit(EndTurn("blue-1"))
        fight.session.dice.force(1, 3)                  # melee combat 3D - 1D = 2D: 4
        attack = of(fight.submit(Attack("red-1", "blue-1")), AttackResolved)[0]
        # A sword at arm's length is not "an attack made at a distance": no range modifier, the
        # parry's 11 is the difficulty (not 11 - 5 for point blank).
        assert attack.defense.modifiers == (("parry", 11),) and attack.defense.total == 11
        assert not attack.hit


def test_a_sword_blow_meets_the_passive_defense_of_ten_not_five():
    """Seed 002, Range: "The effectiveness of a punch, weapon, Special Ability, or any other
    attack made at a distance depends on its range." A melee blow is made at arm's length, so
    the passive defense 10 stands (the old reading made it Point Blank: 10 - 5 = 5). A
    crossbow shot from the next square is made at a distance and keeps Point Blank -5."""
    with battle(c_at=(5, 3), g_at=(6, 3), first="cian", cian_spec=cian(weapons=("sword", "crossbow"))) as fight:
        fight.session.dice.force(3, 4)                  # melee combat 3D - 1D = 2D: 3 + 4 = 7
        attack = of(fight.submit(Attack("red-1", "blue-1")), AttackResolved)[0]
        assert attack.defense.modifiers == (("passive defense", 10),) and attack.defense.total == 10
        assert attack.attack.total == 7 and not attack.hit          # 7 would have beaten 5
    with battle(c_at=(5, 3), g_at=(6, 3), first="cian") as fight:
        fight.session.dice.force(1, 1, 1, 2)
        attack = of(fight.submit(Attack("red-1", "blue-1")), AttackResolved)[0]
        assert ("point blank range", -5) in attack.defense.modifiers and attack.defense.total == 5


# --- damage ---------------------------------------------------------------------------------------

def test_armor_and_body_points_and_a_wound_costs_a_die_on_later_rolls():
    with battle(goblin_spec=goblin(armor="hide")) as fight:
        fight.session.dice.force(6, 6, 6, 5, 3, 3, 1, 2)         # 23 hits; 4D = 9, armor 2: 7
        events = fight.submit(Attack("red-1", "blue-1"))
        damaged = of(events, Damaged)[0]
        assert (damaged.rolled, damaged.resisted, damaged.taken, damaged.hp_after) == (9, 2, 7, 5)
        status = of(events, StatusChanged)[0]
        assert (status.unit, status.status, status.turns, status.lasting) == ("blue-1", "wounded", 0, True)
        assert describe(status, fight.names().get).startswith("Goblin: wounded until healed - ")
        assert "wounded" in unit_info(fight, "blue-1").statuses
        assert unit_info(fight, "blue-1").state == "ok"
        fight.submit(EndTurn("red-1"))
        fight.session.dice.force(4)                      # marksmanship 3D - 1D - 1D = 1D: a Wild 4
        attack = of(fight.submit(Attack("blue-1", "red-1")), AttackResolved)[0]
        assert attack.attack.rolls == (4,)
        assert attack.detail.startswith("Marksmanship 3D-1D-1D wounded rolls Wild Die 4 = 4 ")


def test_strength_damage_for_a_punch():
    with battle(c_at=(5, 3), g_at=(6, 3), cian_spec=cian(weapons=())) as fight:
        # brawling 3D - 1D = 2D: 6 + Wild 5 = 11 against the passive 10 (a punch at arm's
        # length has no range modifier); +0D + Strength Damage (2D+2 -> 2 / 2 = 1D): a Wild 4
        fight.session.dice.force(6, 5, 4)
        events = fight.submit(Attack("red-1", "blue-1", "unarmed"))
        attack = of(events, AttackResolved)[0]
        assert attack.hit and attack.defense.total == 10
        assert of(events, Damaged)[0].taken == 4


def test_cover_and_concealment_raise_the_difficulty():
    rows = list(OPEN)
    rows[3] = '.......=".......'          # a crate, then brush: the goblin stands in the brush
    with battle(c_at=(4, 3), g_at=(8, 3), rows=rows) as fight:
        fight.session.dice.force(6, 6, 4, 3, 1, 1, 1, 1)        # 19 against 10 + 6 + 3 at 8 m
        attack = of(fight.submit(Attack("red-1", "blue-1")), AttackResolved)[0]
        assert attack.defense.modifiers == (("passive defense", 10), ("50% hidden", 6), ("25% hidden", 3))
        assert attack.defense.total == 19 and attack.hit
        assert attack.detail.endswith("(passive defense 10, short range, 50% hidden +6, 25% hidden +3)")
        preview = preview_attack(fight, "red-1", "blue-1")
        assert preview.defense_modifiers == (("passive defense", 10), ("50% hidden", 6), ("25% hidden", 3))


# --- initiative -----------------------------------------------------------------------------------

def test_initiative_is_rolled_again_every_round():
    with battle() as fight:
        first = of(fight.opening, InitiativeRolled)
        assert [(e.unit, e.check.total) for e in first] == [("red-1", 5), ("blue-1", 2)]
        fight.submit(EndTurn("red-1"))
        fight.session.dice.force(1, 4)
        events = fight.submit(EndTurn("blue-1"))
        rolled = of(events, InitiativeRolled)
        assert [(e.unit, e.check.rolls, e.check.total) for e in rolled] == [("red-1", (1,), 1),
                                                                            ("blue-1", (4,), 4)]
        assert of(events, InitiativeOrder)[0].order == ("blue-1", "red-1")
        assert fight.session.round == 2 and fight.session.active == "blue-1"


# --- previews -------------------------------------------------------------------------------------

def test_preview_is_the_exact_odds_and_rolls_nothing():
    with battle(c_at=(2, 3), g_at=(14, 3)) as fight:
        before = fight.digest()
        preview = preview_attack(fight, "red-1", "blue-1")
        assert fight.digest() == before and fight.session.dice.forced_left == 0
        s, rules = fight.session, fight.session.rules
        s.use()
        weapon, profile = rules.weapon(s.weapons["crossbow"])
        sit, _ = rules.situation(s, plan_attack(s, "red-1", "blue-1", None, "torso", 0), profile, False)
        assert (sit.actions, sit.range, sit.defense) == (2, "medium", "passive")
        odds = opend6_odds(rules.core, rules.fighter(s, "red-1"), rules.fighter(s, "blue-1"), weapon, sit)
        assert preview.hit_chance == pytest.approx(odds.p_hit)
        assert 0 < preview.hit_chance < 1
        assert preview.hits == pytest.approx((1 - odds.p_hit, odds.p_hit))
        assert preview.expected_damage == pytest.approx(odds.expected_damage)
        assert preview.damage_per_hit == pytest.approx(odds.expected_damage / odds.p_hit)
        assert ("marksmanship D", 5) in preview.attack_modifiers
        assert ("2 actions D", -1) in preview.attack_modifiers
        assert preview.defense_modifiers == (("passive defense", 10), ("medium range", 5))
        fight.submit(Declare("red-1", 1))
        assert preview_attack(fight, "red-1", "blue-1").hit_chance > preview.hit_chance


# --- overwatch --------------------------------------------------------------------------------------

def test_an_overwatch_shot_is_a_held_action_at_the_rounds_penalty():
    with battle(c_at=(2, 3), g_at=(10, 3)) as fight:
        events = fight.submit(SetOverwatch("red-1", (10, 3)))
        assert not isinstance(events, Refused)
        assert fight.session.active == "blue-1"
        fight.session.dice.force(1, 1, 1, 2)             # marksmanship 5D - 1D: a miss
        events = fight.submit(Move("blue-1", ((9, 3),)))
        shot = of(events, AttackResolved)[0]
        assert shot.reaction and len(shot.attack.rolls) == 4 and not shot.hit


# --- refusals -----------------------------------------------------------------------------------------

def refused(fight: Battle, command) -> str:
    before = fight.digest()
    result = fight.submit(command)
    assert isinstance(result, Refused), result
    assert fight.digest() == before
    return result.reason


def test_refused_commands_say_why_and_change_nothing():
    with battle(c_at=(2, 3), g_at=(14, 3)) as fight:
        assert "from 1 to 4" in refused(fight, Declare("red-1", 5))
        assert "from 1 to 4" in refused(fight, Declare("red-1", 0))
        assert "needs a melee weapon in hand to parry" in refused(fight, Defend("red-1", "parry"))
        assert "not a defense here" in refused(fight, ChooseDefense("red-1", "block"))
        assert "no 'stance' defense" in refused(fight, Defend("red-1", "stance"))
        fight.submit(Move("red-1", ((2, 4),)))
        assert "already acted" in refused(fight, Declare("red-1", 3))
        fight.session.dice.force(3, 3, 3)               # dodge 4D - 1D = 3D
        fight.submit(Defend("red-1", "dodge"))
        assert fight.session.active == "red-1"          # no actions left, but the rest of its Move
        assert fight.session.get("red-1", c.ActionPoints).current == 0
        fight.submit(Move("red-1", ((2, 5),)))


def test_a_dodge_twice_and_a_shot_beyond_long_range_are_refused():
    with battle(c_at=(2, 3), g_at=(14, 3), cian_spec=cian(weapons=("sling", "crossbow"))) as fight:
        assert "beyond the Sling's long range (6 m)" in refused(fight, Attack("red-1", "blue-1"))
        assert isinstance(preview_attack(fight, "red-1", "blue-1"), Refused)
        fight.submit(Declare("red-1", 3))
        fight.session.dice.force(3, 3)                  # dodge 4D - 2D = 2D
        fight.submit(Defend("red-1", "dodge"))
        assert "already defending" in refused(fight, Defend("red-1", "dodge"))
        assert "already acted" in refused(fight, Declare("red-1", 1))
        fight.submit(Draw("red-1", 1))
        assert fight.session.active == "red-1"


# --- a whole battle ---------------------------------------------------------------------------------

def test_the_battle_plays_to_an_end_and_replays():
    play_out_and_replay(battle(c_at=(1, 1), g_at=(14, 6), forced=False))


def test_declaring_is_a_what_if_the_odds_answer_to_and_nothing_changes():
    from game.core.queries import declaring, preview_attack
    with battle() as fight:
        s = fight.session
        before = preview_attack(fight, "red-1", "blue-1")
        with declaring(fight, "red-1", 3) as what_if:
            three = preview_attack(what_if, "red-1", "blue-1")
        after = preview_attack(fight, "red-1", "blue-1")
        assert three.hit_chance < before.hit_chance         # -2D on the shot
        assert after == before and s.get("red-1", c.ActionPoints).current == 2   # as it was
