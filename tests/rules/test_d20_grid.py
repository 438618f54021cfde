"""The d20 ruleset on the grid: the seed's example combat, two Actions and one attack a turn,
moves that cannot be split, held actions and reactions, attacks of opportunity, critical
statuses, stuns and exact previews. Dice are forced, in the order the engine rolls them."""

from __future__ import annotations


import pytest

from game.content.schema import ArmorSpec, BattleSetup, RulesetSpec, UnitSpec, WeaponSpec
from game.core import components as c
from game.rulesets.d20.common import turn_share
from game.core.commands import (Attack, ChangeStance, ChooseDefense, Defend, Draw, EndTurn, Move,
                                Respond, Suppress)
from game.core.dice import Dice
from game.core.engine import Battle
from game.rulesets import new_battle
from game.core.events import (AttackResolved, Damaged, DefenseAsked, Defended, InitiativeOrder,
                              InitiativeRolled, Refused, StatusChanged, TurnEnded, TurnSkipped)
from game.core.narrate import describe
from game.core.queries import action_costs, opportunity_attacks, preview_attack, reach, unit_info
from game.rulesets.d20.core import Fighter, Situation, Weapon
from game.rulesets.d20.odds import d20_odds
from tests.core import builders as b
from tests.rules.rules_helpers import play_out_and_replay, spec, with_rules

OPEN = ["." * 14 for _ in range(8)]


def ruleset() -> RulesetSpec:
    return spec("d20")


PISTOL = with_rules(b.PISTOL, rules={"d20": {
    "damage": "1d10", "damage_type": "piercing", "style": "ranged", "handgun": True}})
RIFLE = with_rules(b.RIFLE, rules={"d20": {
    "damage": "2d6", "damage_type": "piercing", "style": "ranged", "crit_range": 19,
    "two_handed": True}})


def melee(ident: str, name: str, damage: str, damage_type: str, **extra) -> WeaponSpec:
    return WeaponSpec(id=ident, name=name, kind="melee", skill="melee", damage=damage,
                      damage_type="edged", modes=[{"name": "strike", "ap": 3}],
                      rules={"d20": {"damage": damage, "damage_type": damage_type,
                                     "style": "melee", **extra}})


SWORD = melee("sword", "Sword", "1d8", "slashing", crit_range=19)
CLAWS = melee("claws", "Claws", "1d6", "rending")
MAUL = melee("maul", "Aether maul", "1d6", "aether")
SPARK = melee("spark", "Spark baton", "1d4", "lightning")
FROST = melee("frost", "Frost brand", "1d4", "cold")
HIDE = ArmorSpec(id="hide", name="Hide",
                 rules={"d20": {"armor_rating": 2, "resistances": ["slashing"]}})


def unit(ident: str, name: str, *, dex: int = 0, str_: int = 0, ar: int = 12, hp: int = 20,
         vit: int = 0, wil: int = 0, weapons=("pistol",), reactions=(), armor: str | None = None,
         sight: int = 20, abilities=(), stealth: int = 0, awareness: int = 0) -> UnitSpec:
    spec = b.unit(ident, weapons=weapons, armor=armor, sight=sight)
    profile = {"hp": hp, "reactions": list(reactions), "abilities": list(abilities),
               "attributes": {"str": str_, "dex": dex, "per": 0, "wil": wil, "mag": 0, "vit": vit,
                              "armor_rating": ar},
               "skills": {"awareness": awareness, "stealth": stealth}}
    return with_rules(spec, name=name, rules={"d20": profile})


def arik(**kw) -> UnitSpec:
    return unit("arik", "Arik", **{"dex": 1, "weapons": ("sword", "pistol"), **kw})


def devin(**kw) -> UnitSpec:
    return unit("devin", "Devin",
                **{"dex": 3, "str_": 2, "ar": 13, "weapons": ("pistol", "sword"), **kw})


def thrasher(**kw) -> UnitSpec:
    return unit("thrasher", "Wicked Thrasher", **{"dex": 2, "str_": 3, "ar": 14, "hp": 30,
                                                  "weapons": ("claws",), **kw})


def battle(red, blue, *, initiative=(), rows=OPEN, seed: int = 1,
           ambush: str | None = None) -> Battle:
    """`red` and `blue`: lists of (unit spec, square); `initiative`: the d20 faces, in
    listing order."""
    setup = b.setup(rows, {"red": red, "blue": blue}, ambush=ambush)
    setup = BattleSetup.model_validate({
        **setup.model_dump(), "ruleset": ruleset().model_dump(),
        "weapons": [w.model_dump() for w in (PISTOL, RIFLE, SWORD, CLAWS, MAUL, SPARK, FROST)],
        "armor": [HIDE.model_dump()]})
    dice = Dice(seed)
    dice.force(*initiative)
    return new_battle(setup, seed=seed, dice=dice)


def of(events, kind):
    return [e for e in events if isinstance(e, kind)]


def ok(result):
    assert not isinstance(result, Refused), result
    return result


def refused(fight: Battle, command, words: str) -> Refused:
    before = fight.digest()
    result = fight.submit(command)
    assert isinstance(result, Refused), result
    assert words in result.reason, result.reason
    assert fight.digest() == before
    return result


def cond(fight: Battle, uid: str) -> c.Condition:
    fight.session.use()
    return fight.session.get(uid, c.Condition)


# --- the seed's example combat -------------------------------------------------------------------

def test_the_example_combat():
    """Arik rolls 7, Devin 19, the Thrasher 15 (d20 6 + 1, 16 + 3, 13 + 2): Devin, the Thrasher,
    Arik. Devin draws his sword and approaches; the Thrasher approaches and hits him with a
    Basic Attack; Arik draws his firearm and misses: his hit test is below the Armor Rating."""
    with battle([(arik(), (1, 3)), (devin(), (1, 5))], [(thrasher(), (10, 4))],
                initiative=(6, 16, 13)) as fight:
        rolled = {e.unit: e.check.total for e in of(fight.opening, InitiativeRolled)}
        assert rolled == {"red-1": 7, "red-2": 19, "blue-1": 15}
        assert of(fight.opening, InitiativeOrder)[0].order == ("red-2", "blue-1", "red-1")
        assert fight.session.active == "red-2"

        ok(fight.submit(Draw("red-2", 1)))                       # One Action: the sword
        events = ok(fight.submit(Move("red-2", tuple((x, 5) for x in range(2, 8)))))
        assert of(events, TurnEnded)                             # two Actions: the turn is over
        assert fight.session.active == "blue-1"

        ok(fight.submit(Move("blue-1", ((9, 4), (8, 4)))))
        fight.session.dice.force(12, 4)                          # hit 12 + STR 3 = 15; 1d6 4 + 3
        events = ok(fight.submit(Attack("blue-1", "red-2", "basic")))
        attack = of(events, AttackResolved)[0]
        assert attack.hit and attack.attack.total == 15 and attack.defense.total == 13
        assert of(events, Damaged)[0].taken == 7
        assert fight.session.active == "red-1"

        ok(fight.submit(Draw("red-1", 1)))
        fight.session.dice.force(5)                              # 5 + DEX 1 = 6 < 14
        events = ok(fight.submit(Attack("red-1", "blue-1", "basic")))
        attack = of(events, AttackResolved)[0]
        assert not attack.hit and (attack.attack.total, attack.defense.total) == (6, 14)
        assert attack.detail == "hit test 6 (d20 5 + DEX 1) against Armor Rating 14: miss"
        assert describe(attack, str).endswith("Armor Rating 14: miss.")     # the verdict once
        assert not of(events, Damaged) and fight.session.dice.forced_left == 0


def test_initiative_ties_go_to_dex_then_to_d6_rolls():
    a, b_ = unit("a", "Ana", dex=2), unit("b", "Bo", dex=2)
    slow = unit("s", "Slow", dex=1)
    # Ana 10 + 2, Bo 10 + 2, Slow 11 + 1: all 12; Slow has less DEX; Ana and Bo roll d6: 2, 5.
    with battle([(a, (1, 1)), (b_, (1, 3))], [(slow, (10, 3))],
                initiative=(10, 10, 11, 2, 5)) as fight:
        assert fight.session.order == ["red-2", "red-1", "blue-1"]
        assert fight.session.dice.forced_left == 0


def test_an_ambushing_side_acts_first_in_the_first_round_only():
    """Devin (19) and Arik (7) ambush the Thrasher (15), each beating its Awareness (stealth
    16 and 18 against 5): they act first in round one; from round two all act in initiative
    order."""
    setup_red = [(arik(), (1, 3)), (devin(), (1, 5))]
    with battle(setup_red, [(thrasher(), (10, 4))], initiative=(6, 16, 13, 15, 5, 15, 5),
                ambush="red") as fight:
        assert fight.session.dice.forced_left == 0
        assert fight.session.order == ["red-2", "red-1", "blue-1"]
        for uid in ("red-2", "red-1", "blue-1"):
            ok(fight.submit(EndTurn(uid)))
        assert fight.session.round == 2
        assert fight.session.order == ["red-2", "blue-1", "red-1"]
        assert fight.session.active == "red-2"


# --- the turn -------------------------------------------------------------------------------------

def test_two_actions_and_one_attack_a_turn():
    with battle([(devin(), (2, 3))], [(thrasher(), (8, 3))], initiative=(20, 1)) as fight:
        costs = action_costs(fight, "red-1")
        assert costs.modes == {"basic": 1, "all_out": 2, "berserk": 2, "feint": 2}
        assert costs.defend == {"defensive_stance": 2, "total_disengage": 2}
        assert costs.reload == 1 and costs.draw[1] == 1
        assert unit_info(fight, "red-1").ap == 2
        fight.session.dice.force(1)
        ok(fight.submit(Attack("red-1", "blue-1", "basic")))
        assert unit_info(fight, "red-1").ap == 1
        refused(fight, Attack("red-1", "blue-1", "basic"), "Devin has made its attack this turn")
        refused(fight, Attack("red-1", "blue-1", "all_out"), "costs 2 AP")


def test_a_move_cannot_be_split_around_an_attack():
    """Move two of Devin's six squares, attack: the other four are lost, and with both Actions
    spent the turn ends at once."""
    with battle([(devin(), (2, 3))], [(thrasher(), (12, 3))], initiative=(20, 1)) as fight:
        assert reach(fight, "red-1").cost((8, 3)) == 1 and reach(fight, "red-1").cost((9, 3)) == 2
        ok(fight.submit(Move("red-1", ((3, 3), (4, 3)))))
        fight.session.use()
        assert fight.session.get("red-1", c.Tempo).move_left == 4
        fight.session.dice.force(1)
        events = ok(fight.submit(Attack("red-1", "blue-1", "basic")))
        assert of(events, TurnEnded)[0].unit == "red-1" and fight.session.active == "blue-1"
        refused(fight, Move("red-1", ((5, 3),)), "turn")


def test_dropping_low_is_free_and_keeps_the_move_standing_up_is_an_action():
    with battle([(devin(), (2, 3))], [(thrasher(), (12, 3))], initiative=(20, 1)) as fight:
        ok(fight.submit(Move("red-1", ((3, 3), (4, 3)))))
        ok(fight.submit(ChangeStance("red-1", "crouch")))
        assert unit_info(fight, "red-1").ap == 1
        ok(fight.submit(Move("red-1", ((5, 3), (6, 3)))))     # the same move: no new Action
        assert unit_info(fight, "red-1").ap == 1
        ok(fight.submit(EndTurn("red-1")))
        ok(fight.submit(EndTurn("blue-1")))
        ok(fight.submit(ChangeStance("red-1", "prone")))      # a new turn, a new Free Action
        assert unit_info(fight, "red-1").ap == 2
        assert action_costs(fight, "red-1").stance[("stand", False)] == 1
        ok(fight.submit(ChangeStance("red-1", "stand")))
        assert unit_info(fight, "red-1").ap == 1


def test_one_free_action_a_turn():
    """Seed 003, Free Actions: "Typically, you are only allowed one free action per turn, but
    whether additional free actions can be made is at the GM's discretion." Lowering oneself
    a second time in a turn is not free: it takes One Action (the stance table's price), and as
    an Action it ends the move in hand. The next turn has its Free Action again."""
    with battle([(devin(), (2, 3))], [(thrasher(), (12, 3))], initiative=(20, 1)) as fight:
        assert fight.session.rules.core.p.free_actions == 1
        assert action_costs(fight, "red-1").stance[("crouch", False)] == 0
        ok(fight.submit(Move("red-1", ((3, 3), (4, 3)))))
        ok(fight.submit(ChangeStance("red-1", "crouch")))              # the Free Action
        assert unit_info(fight, "red-1").ap == 1
        assert action_costs(fight, "red-1").stance[("prone", False)] == 1
        assert action_costs(fight, "red-1").stance[("prone", True)] == 1
        events = ok(fight.submit(ChangeStance("red-1", "prone")))      # One Action: the last
        assert [e.ap_cost for e in events if hasattr(e, "ap_cost") and e.unit == "red-1"][0] == 1
        assert fight.session.active == "blue-1"
        ok(fight.submit(EndTurn("blue-1")))
        ok(fight.submit(ChangeStance("red-1", "stand")))               # One Action up
        assert action_costs(fight, "red-1").stance[("crouch", False)] == 0
        ok(fight.submit(ChangeStance("red-1", "crouch")))              # free again
        assert unit_info(fight, "red-1").ap == 1


# --- reactions ------------------------------------------------------------------------------------

def test_a_held_action_adds_one_to_the_reaction():
    """Devin ends his turn with an Action unspent; the Thrasher's 14 + 3 = 17 hits AR 13; Devin
    dodges 12 + DEX 3 + 1 held = 16: too low. Then 14 + 3 against a dodge of 14 + 4 = 18."""
    with battle([(devin(reactions=("dodge",)), (2, 3))], [(thrasher(), (3, 3))],
                initiative=(20, 1)) as fight:
        ok(fight.submit(Draw("red-1", 1)))
        ok(fight.submit(EndTurn("red-1")))
        assert cond(fight, "red-1").held == 1
        assert "1 held" in unit_info(fight, "red-1").statuses
        fight.session.dice.force(14, 12, 5)
        events = ok(fight.submit(Attack("blue-1", "red-1", "basic")))
        attack = of(events, AttackResolved)[0]
        assert attack.hit
        assert "Devin dodges 12+4 = 16: too low" in attack.detail
        assert of(events, Damaged)[0].taken == 8
        assert fight.session.dice.forced_left == 0


def test_a_critical_dodge_must_also_beat_the_critical_hit_test():
    """Seed 003: against a critical hit, a reaction succeeds "only ... if the reaction is
    critical as well", and a dodge succeeds when "above your opponent's hit test". The
    Thrasher's natural 20 + STR 5 = 25 is critical; Devin's natural 20 + DEX 3 + 2 held = 25
    is critical but not above: the claws land (2 x 4 + 5 = 13)."""
    with battle([(devin(reactions=("dodge",)), (2, 3))], [(thrasher(str_=5), (3, 3))],
                initiative=(20, 1)) as fight:
        ok(fight.submit(EndTurn("red-1")))
        assert cond(fight, "red-1").held == 2
        fight.session.dice.force(20, 20, 4, 1)         # hit, dodge, 1d6 damage, rending effect
        events = ok(fight.submit(Attack("blue-1", "red-1", "basic")))
        attack = of(events, AttackResolved)[0]
        assert attack.hit and attack.attack.total == 25
        assert "Devin dodges 20+5 = 25: too low" in attack.detail, attack.detail
        assert of(events, Damaged)[0].taken == 13
        assert fight.session.dice.forced_left == 0


def test_one_reaction_between_two_turns():
    """Two Thrashers attack Devin in one round: he dodges the first (and fails), not the second;
    at his next turn his reaction comes back."""
    with battle([(devin(reactions=("dodge",)), (5, 3))],
                [(thrasher(), (4, 3)), (thrasher(), (6, 3))], initiative=(20, 2, 1)) as fight:
        ok(fight.submit(Draw("red-1", 1)))
        ok(fight.submit(Draw("red-1", 0)))                        # both Actions spent: no bonus
        fight.session.dice.force(14, 2, 1)
        first = of(ok(fight.submit(Attack("blue-1", "red-1", "basic"))), AttackResolved)[0]
        assert "Devin dodges 2+3 = 5: too low" in first.detail
        assert cond(fight, "red-1").reacted_round == 1
        ok(fight.submit(EndTurn("blue-1")))
        fight.session.dice.force(14, 1)
        second = of(ok(fight.submit(Attack("blue-2", "red-1", "basic"))), AttackResolved)[0]
        assert second.hit and "(Devin has reacted this round)" in second.detail
        assert fight.session.dice.forced_left == 0
        ok(fight.submit(EndTurn("blue-2")))
        assert fight.session.active == "red-1" and cond(fight, "red-1").reacted_round == 0


def test_a_dodge_above_the_hit_test_stops_the_attack_and_a_feint_cannot_be_dodged():
    with battle([(devin(reactions=("dodge",)), (2, 3))], [(thrasher(), (3, 3))],
                initiative=(20, 1)) as fight:
        ok(fight.submit(EndTurn("red-1")))                        # two Actions held: +2
        fight.session.dice.force(10, 9)                           # 13 against a dodge 9 + 5 = 14
        attack = of(ok(fight.submit(Attack("blue-1", "red-1", "basic"))), AttackResolved)[0]
        assert not attack.hit and attack.detail.endswith("Devin dodges 9+5 = 14: stops it")
        assert fight.session.active == "blue-1"
    with battle([(devin(reactions=("dodge",)), (2, 3))], [(thrasher(), (3, 3))],
                initiative=(20, 1)) as fight:
        ok(fight.submit(EndTurn("red-1")))
        fight.session.dice.force(15, 2)                           # feint: no awareness, 15 + 3 = 18
        attack = of(ok(fight.submit(Attack("blue-1", "red-1", "feint"))), AttackResolved)[0]
        assert attack.hit and "a feint cannot be reacted to" in attack.detail
        assert cond(fight, "red-1").reacted_round == 0 and fight.session.dice.forced_left == 0


def test_a_standing_choice_must_be_a_reaction_the_unit_knows():
    with battle([(devin(reactions=("dodge",)), (2, 3))], [(thrasher(), (8, 3))],
                initiative=(20, 1)) as fight:
        refused(fight, ChooseDefense("red-1", "parry"),
                "Devin lacks the parry skill (it knows: dodge)")
        refused(fight, ChooseDefense("red-1", "block"), "not a defense here")
        ok(fight.submit(ChooseDefense("red-1", "none")))
        assert unit_info(fight, "red-1").ap == 2 and cond(fight, "red-1").standing == "none"


def test_a_riposte_hurts_the_attacker_back():
    """Devin's sword is in hand; the Thrasher's 10 + 3 = 13 meets his parry-and-riposte 12 + 3 +
    2 held = 17; the riposte deals the sword's 1d8 (6), without modifiers."""
    with battle([(devin(reactions=("dodge", "riposte"), weapons=("sword",)), (2, 3))],
                [(thrasher(), (3, 3))], initiative=(20, 1)) as fight:
        ok(fight.submit(EndTurn("red-1")))
        fight.session.dice.force(10, 12, 6)
        events = ok(fight.submit(Attack("blue-1", "red-1", "basic")))
        attack = of(events, AttackResolved)[0]
        assert not attack.hit
        assert "Devin ripostes 12+5 = 17: stops it, 6 damage back" in attack.detail
        damaged = of(events, Damaged)[0]
        assert (damaged.unit, damaged.source, damaged.taken) == ("blue-1", "red-1", 6)


# --- hit modifiers and several hits -------------------------------------------------------------

def test_flanking_and_a_prone_target_in_melee():
    with battle([(devin(weapons=("sword",)), (4, 3)), (arik(), (6, 3))], [(thrasher(), (5, 3))],
                initiative=(20, 1, 2)) as fight:
        fight.session.use()
        fight.session.get("blue-1", c.Posture).stance = "prone"
        fight.session.dice.force(1)
        attack = of(ok(fight.submit(Attack("red-1", "blue-1", "basic"))), AttackResolved)[0]
        assert attack.attack.modifiers == (("STR", 2), ("prone melee", 2), ("flanking", 2))
        assert attack.attack.total == 7


def test_a_burst_hits_once_more_for_every_five_over_the_armor_rating():
    """Burst: 18 + 2 = 20 against AR 12 beats it by 8: two hits of 2d6 (3 + 4, 5 + 6); the
    burst fires the rifle's eight rounds."""
    gunner = unit("gunner", "Gunner", weapons=("rifle",))
    with battle([(gunner, (2, 3))], [(thrasher(ar=12), (7, 3))], initiative=(20, 1)) as fight:
        assert [m.name for m in fight.session.weapons["rifle"].modes] == [
            "basic", "all_out", "berserk", "burst", "feint", "full_auto"]
        fight.session.dice.force(18, 3, 4, 5, 6)
        events = ok(fight.submit(Attack("red-1", "blue-1", "burst")))
        attack = of(events, AttackResolved)[0]
        assert (attack.hits, attack.ammo_used, attack.ap_cost) == (2, 8, 2)
        assert [d.taken for d in of(events, Damaged)] == [7, 11]
        assert "2 hits; damage 3+4 -> 7, 5+6 -> 11" in attack.detail
        assert unit_info(fight, "red-1").ammo == 22


def test_a_concussive_critical_wears_the_armor_down():
    club = unit("clubber", "Clubber", str_=1, weapons=())
    with battle([(club, (2, 3))], [(thrasher(armor="hide"), (3, 3))], initiative=(20, 1)) as fight:
        fight.session.dice.force(20, 2, 17)                       # punch: 1d4 2 doubled + STR 1
        events = ok(fight.submit(Attack("red-1", "blue-1", "unarmed")))
        attack = of(events, AttackResolved)[0]
        assert attack.mode == "unarmed" and attack.defense.total == 16
        assert of(events, Damaged)[0].taken == 5
        assert cond(fight, "blue-1").armor_loss == 1
        assert "armor -1" in unit_info(fight, "blue-1").statuses
        assert fight.session.rules.fighter(fight.session, "blue-1").armor_rating == 15


def test_a_large_unit_punches_harder():
    """Seed 003, Unarmed Combat: "If you are attacking with bare fists, the weapon damage is
    determined by size ... Large: 1d4 + Str + 2". A large brute (STR 3) punches the Thrasher:
    1d4 shows 3, 3 + 3 + 2 = 8 (a medium one would deal 6). The preview's expected damage
    agrees: (2.5 + 5) per hit."""
    brute = unit("brute", "Brute", str_=3, weapons=())
    brute = with_rules(brute, rules={"d20": {**brute.rules["d20"], "size": "large"}})
    with battle([(brute, (2, 3))], [(thrasher(ar=10), (3, 3))], initiative=(20, 1)) as fight:
        preview = preview_attack(fight, "red-1", "blue-1", "unarmed", "torso", 0)
        hit = preview.hit_chance
        assert preview.expected_damage == pytest.approx(hit * 7.5 + (1 / 20) * 2.5, abs=1e-9)
        fight.session.dice.force(15, 3)
        events = ok(fight.submit(Attack("red-1", "blue-1", "unarmed")))
        assert of(events, AttackResolved)[0].mode == "unarmed"
        assert of(events, Damaged)[0].taken == 8


def test_a_unit_that_asks_chooses_its_reaction_before_the_attack():
    with battle([(devin(reactions=("dodge", "riposte"), weapons=("sword",)), (2, 3))],
                [(thrasher(), (3, 3))], initiative=(20, 1)) as fight:
        ok(fight.submit(ChooseDefense("red-1", "ask")))
        ok(fight.submit(EndTurn("red-1")))
        events = ok(fight.submit(Attack("blue-1", "red-1", "basic")))
        asked = of(events, DefenseAsked)[0]
        assert (asked.unit, asked.choices) == ("red-1", ("riposte", "dodge", "none"))
        refused(fight, Respond("red-1", "parry"), "not one of the choices")
        fight.session.dice.force(14, 3)
        attack = of(ok(fight.submit(Respond("red-1", "dodge"))), AttackResolved)[0]
        assert "Devin dodges 3+5 = 8: too low" in attack.detail
        assert cond(fight, "red-1").standing == "ask"
        assert fight.session.dice.forced_left == 0


# --- attacks of opportunity --------------------------------------------------------------------

def test_stepping_out_of_an_adjacent_enemys_reach_provokes_an_attack_of_opportunity():
    with battle([(devin(), (5, 3))], [(thrasher(), (6, 3))], initiative=(20, 1)) as fight:
        ok(fight.submit(Move("red-1", ((5, 4),))))                # still next to it: nothing
        fight.session.dice.force(12, 3)                           # 12 + 3 = 15 hits AR 13; 3 + 3
        events = ok(fight.submit(Move("red-1", ((4, 4), (3, 4)))))
        attack = of(events, AttackResolved)[0]
        assert (attack.attacker, attack.target, attack.mode) == ("blue-1", "red-1", "basic")
        assert attack.reaction
        assert attack.detail.startswith("attack of opportunity: hit test 15")
        assert of(events, Damaged)[0].taken == 6
        assert fight.session.position("red-1") == (3, 4)
        assert cond(fight, "blue-1").reacted_round == 1           # its reaction for the round
        assert fight.session.dice.forced_left == 0


def test_the_walk_query_names_the_attacks_of_opportunity_a_path_would_draw():
    with battle([(devin(), (5, 3))], [(thrasher(), (6, 3))], initiative=(20, 1)) as fight:
        before = fight.digest()
        assert opportunity_attacks(fight, "red-1", [(5, 4)]) == []          # still next to it
        walk = [(5, 4), (4, 4), (3, 4)]
        assert opportunity_attacks(fight, "red-1", walk) == [("blue-1", "basic")]
        assert fight.digest() == before                                     # nothing rolled
        fight.session.dice.force(12, 3)
        events = ok(fight.submit(Move("red-1", tuple(walk))))
        assert [(e.attacker, e.mode) for e in of(events, AttackResolved)] == [("blue-1", "basic")]
        assert opportunity_attacks(fight, "red-1", [(4, 4)]) == []          # not next to it now
    with battle([(devin(), (5, 3))], [(thrasher(), (6, 3))], initiative=(20, 1)) as fight:
        cond(fight, "blue-1").reacted_round = 1                             # its reaction spent
        assert opportunity_attacks(fight, "red-1", [(4, 3), (3, 3)]) == []


def test_total_disengage_takes_the_turn_and_steps_away_without_an_attack_of_opportunity():
    with battle([(devin(), (5, 3))], [(thrasher(), (6, 3))], initiative=(20, 1)) as fight:
        assert action_costs(fight, "red-1").defend["total_disengage"] == 2
        events = ok(fight.submit(Defend("red-1", "total_disengage")))
        assert of(events, Defended)[0].ap_cost == 2
        assert fight.session.active == "red-1"                    # its 5-foot step is still to come
        too_far = fight.submit(Move("red-1", ((4, 3), (3, 3))))
        assert isinstance(too_far, Refused)
        events = ok(fight.submit(Move("red-1", ((4, 3),))))
        assert not of(events, AttackResolved)                     # no attack of opportunity
        assert fight.session.position("red-1") == (4, 3)
        assert fight.session.active == "blue-1"                   # the step was the last of it


def test_a_gun_in_hand_threatens_no_melee_reach():
    gunner = unit("gunner", "Gunner")
    with battle([(devin(), (5, 3))], [(gunner, (6, 3))], initiative=(20, 1)) as fight:
        events = ok(fight.submit(Move("red-1", ((4, 3), (3, 3)))))
        assert not of(events, AttackResolved)


def test_an_attack_of_opportunity_can_stop_the_move():
    with battle([(devin(hp=5), (5, 3))], [(thrasher(), (6, 3))], initiative=(20, 1)) as fight:
        fight.session.dice.force(12, 6)
        events = ok(fight.submit(Move("red-1", ((4, 3), (3, 3)))))
        assert fight.session.position("red-1") == (5, 3) and not fight.session.is_up("red-1")
        assert fight.session.over and fight.session.winner == "blue"
        assert events[-1].kind == "battle_ended"


# --- criticals and statuses -------------------------------------------------------------------

def test_a_slashing_critical_bleeds_and_the_bleeding_ticks_at_the_start_of_the_bleeders_turn():
    """Devin's sword criticals on 19-20: 19 goes through armor, 1d8 5 doubled + STR 2 = 12; the
    effect roll 16 makes the Thrasher bleed for 1d4 = 2 turns, 1d4 at the start of each."""
    with battle([(devin(weapons=("sword",)), (2, 3))], [(thrasher(), (3, 3))],
                initiative=(20, 1)) as fight:
        fight.session.dice.force(19, 5, 16, 2)
        events = ok(fight.submit(Attack("red-1", "blue-1", "basic")))
        attack = of(events, AttackResolved)[0]
        assert attack.hit and "critical hit, through armor" in attack.detail
        assert of(events, Damaged)[0].taken == 12
        status = of(events, StatusChanged)[0]
        assert (status.unit, status.status, status.turns) == ("blue-1", "bleeding", 2)
        fight.session.dice.force(3)
        events = ok(fight.submit(EndTurn("red-1")))
        bleed = of(events, Damaged)[0]
        assert (bleed.unit, bleed.source, bleed.taken) == ("blue-1", "bleeding", 3)
        assert bleed.hp_after == 15 and fight.session.active == "blue-1"
        assert "bleeding 2" in unit_info(fight, "blue-1").statuses
        ok(fight.submit(EndTurn("blue-1")))
        assert cond(fight, "blue-1").statuses == {"bleeding": 1}
        assert fight.session.dice.forced_left == 0


def test_bleeding_runs_its_turns_and_ends():
    with battle([(devin(weapons=("sword",)), (2, 3))], [(thrasher(), (3, 3))],
                initiative=(20, 1)) as fight:
        fight.session.dice.force(19, 5, 16, 2, 3)
        ok(fight.submit(Attack("red-1", "blue-1", "basic")))
        ok(fight.submit(EndTurn("red-1")))                        # bleeds 3 (turn 1 of 2)
        ok(fight.submit(EndTurn("blue-1")))
        fight.session.dice.force(4)
        ok(fight.submit(EndTurn("red-1")))                        # bleeds 4 (turn 2 of 2)
        events = ok(fight.submit(EndTurn("blue-1")))
        ended = of(events, StatusChanged)[0]
        assert (ended.status, ended.turns) == ("bleeding", 0)
        assert unit_info(fight, "blue-1").hp == 30 - 12 - 3 - 4
        assert fight.session.dice.forced_left == 0


def test_a_stunned_unit_loses_its_turns_until_its_vitality_test_lifts_the_stun():
    """An aether critical (20): the Willpower test 5 is below 16, the Thrasher is stunned for 2
    rounds: its turns are skipped, attacks on it get +2; a vitality test of 14 lifts it."""
    with battle([(devin(weapons=("maul",)), (2, 3))], [(thrasher(), (3, 3))],
                initiative=(20, 1)) as fight:
        fight.session.dice.force(20, 1, 5)
        events = ok(fight.submit(Attack("red-1", "blue-1", "basic")))
        assert of(events, StatusChanged)[0].status == "stunned"
        fight.session.dice.force(10)                              # vitality 10: still stunned
        events = ok(fight.submit(EndTurn("red-1")))
        skipped = of(events, TurnSkipped)[0]
        assert skipped.unit == "blue-1" and "stunned" in skipped.reason
        assert fight.session.active == "red-1" and fight.session.round == 2
        assert cond(fight, "blue-1").statuses == {"stunned": 1}
        fight.session.dice.force(1)
        attack = of(ok(fight.submit(Attack("red-1", "blue-1", "basic"))), AttackResolved)[0]
        assert ("target stunned", 2) in attack.attack.modifiers
        fight.session.dice.force(14)                              # vitality 14 > 13: lifted
        events = ok(fight.submit(EndTurn("red-1")))
        assert of(events, TurnSkipped)
        lifted = of(events, StatusChanged)[0]
        assert lifted.turns == 0 and "vitality test 14 + 0 = 14" in lifted.detail
        assert fight.session.active == "red-1" and fight.session.dice.forced_left == 0
        ok(fight.submit(EndTurn("red-1")))
        assert fight.session.active == "blue-1"


def test_damage_ends_a_stun():
    with battle([(devin(weapons=("maul",)), (2, 3))], [(thrasher(), (3, 3))],
                initiative=(20, 1)) as fight:
        fight.session.use()
        fight.session.get("blue-1", c.Condition).statuses["stunned"] = 2
        ok(fight.submit(ChooseDefense("red-1", "auto")))
        fight.session.dice.force(15, 2)
        events = ok(fight.submit(Attack("red-1", "blue-1", "basic")))
        assert of(events, Damaged)[0].taken == 4
        ended = of(events, StatusChanged)[0]
        assert (ended.status, ended.turns, ended.detail) == ("stunned", 0, "4 damage ends the stun")


def test_a_shock_costs_an_action_at_the_next_turn():
    """Seed 003: "Shocked - Target loses One Action at their next turn." Devin's natural 20
    with a spark baton (lightning: shocked on a d20 of 16 or more) shocks the Thrasher: its
    next turn has One Action; the one after has both."""
    with battle([(devin(weapons=("spark",)), (2, 3))], [(thrasher(), (3, 3))],
                initiative=(20, 1)) as fight:
        fight.session.dice.force(20, 1, 16)               # hit, 1d4 damage, critical effect
        events = ok(fight.submit(Attack("red-1", "blue-1", "basic")))
        assert of(events, StatusChanged)[0].status == "shocked"
        events = ok(fight.submit(EndTurn("red-1")))
        assert unit_info(fight, "blue-1").ap == 1
        assert "shocked: 1 Action lost this turn" in [e.detail for e in of(events, StatusChanged)]
        ok(fight.submit(EndTurn("blue-1")))
        ok(fight.submit(EndTurn("red-1")))
        assert unit_info(fight, "blue-1").ap == 2


def test_frost_takes_half_an_action_once_and_halves_the_speed_for_its_duration():
    """Seed 003: "Frozen - Target loses a half action during their next turn. Movement speed
    is halved (rounded down) for Xd4 turns." A cold critical freezes the Thrasher for 3 turns
    (the 1d4 shows 3): its next turn loses half an Action (One Action on a grid of whole
    Actions), the two after lose nothing, and all three move at half speed: (5 + 2 // 2) // 2
    = 3 squares; the fourth turn is back to 6."""
    with battle([(devin(weapons=("frost",)), (2, 3))], [(thrasher(), (3, 3))],
                initiative=(20, 1)) as fight:
        fight.session.dice.force(20, 1, 16, 3)            # hit, damage, effect, 1d4 turns
        events = ok(fight.submit(Attack("red-1", "blue-1", "basic")))
        assert "critical effect (frozen): d20 16, 16 or more to take hold: it does" in (
            of(events, AttackResolved)[0].detail)
        assert cond(fight, "blue-1").statuses["frozen"] == 3
        aps, speeds = [], []
        for _ in range(4):
            ok(fight.submit(EndTurn("red-1")))
            assert fight.session.active == "blue-1"
            aps.append(unit_info(fight, "blue-1").ap)
            speeds.append(fight.session.rules.speed(fight.session, "blue-1"))
            ok(fight.submit(EndTurn("blue-1")))
        assert aps == [1, 2, 2, 2]
        assert speeds == [3, 3, 3, 6]


def test_frost_halves_the_speed():
    with battle([(devin(), (2, 3))], [(thrasher(), (12, 3))], initiative=(20, 1)) as fight:
        fight.session.use()
        fight.session.get("red-1", c.Condition).statuses["frozen"] = 2
        assert fight.session.rules.speed(fight.session, "red-1") == 3     # (5 + 3 // 2) // 2
        assert reach(fight, "red-1").cost((5, 3)) == 1 and reach(fight, "red-1").cost((6, 3)) == 2


def test_statuses_that_take_actions_every_turn_add_up_their_shares():
    assert [turn_share(0.5, t) for t in (4, 3, 2, 1)] == [0, 1, 0, 1]
    assert [turn_share(1, t) for t in (2, 1)] == [1, 1]
    assert turn_share(2, 2) == 2


def test_bleeding_out_ends_the_battle_at_once():
    with battle([(devin(), (2, 3))], [(thrasher(hp=2), (12, 3))], initiative=(20, 1)) as fight:
        fight.session.use()
        fight.session.get("blue-1", c.Condition).statuses["bleeding"] = 3
        fight.session.dice.force(2)
        events = ok(fight.submit(EndTurn("red-1")))
        assert fight.session.over and fight.session.winner == "red"
        assert of(events, Damaged)[0].source == "bleeding"


# --- defenses -----------------------------------------------------------------------------------

def test_defensive_stance_takes_four_off_enemy_hit_tests_until_the_next_turn():
    with battle([(devin(), (2, 3))], [(thrasher(), (3, 3))], initiative=(20, 1)) as fight:
        events = ok(fight.submit(Defend("red-1", "defensive_stance")))
        assert of(events, TurnEnded)
        assert "defending (defensive_stance)" in unit_info(fight, "red-1").statuses
        fight.session.dice.force(12)
        attack = of(ok(fight.submit(Attack("blue-1", "red-1", "basic"))), AttackResolved)[0]
        assert ("target defensive stance", -4) in attack.attack.modifiers
        assert not attack.hit and attack.attack.total == 11
        ok(fight.submit(EndTurn("blue-1")))
        assert not unit_info(fight, "red-1").statuses


def test_no_defensive_stance_after_an_attack_and_a_berserk_attacker_is_exposed():
    with battle([(devin(), (2, 3))], [(thrasher(), (3, 3))], initiative=(20, 1)) as fight:
        fight.session.dice.force(1)
        ok(fight.submit(Attack("red-1", "blue-1", "basic")))
        refused(fight, Defend("red-1", "defensive_stance"), "has attacked this turn")
        ok(fight.submit(EndTurn("red-1")))
        fight.session.dice.force(1)
        ok(fight.submit(Attack("blue-1", "red-1", "berserk")))
        assert cond(fight, "blue-1").exposed == 2
        fight.session.dice.force(1)
        attack = of(ok(fight.submit(Attack("red-1", "blue-1", "basic"))), AttackResolved)[0]
        assert ("target berserk", 2) in attack.attack.modifiers


def test_skirmish_only_actions_are_refused():
    with battle([(devin(), (2, 3))], [(thrasher(), (8, 3))], initiative=(20, 1)) as fight:
        refused(fight, Suppress("red-1", (8, 3)), "rules have no")


# --- previews -----------------------------------------------------------------------------------

def test_preview_matches_d20_odds_and_rolls_nothing():
    """Devin's pistol at the Thrasher behind a crate: DEX 3, covered -2, against AR 14 + hide 2;
    the Thrasher dodges with DEX 2 and one held Action."""
    rows = ["." * 14 for _ in range(8)]
    rows[3] = "......=......."
    beast = thrasher(reactions=("dodge",), armor="hide")
    with battle([(devin(), (2, 3))], [(beast, (8, 3))], initiative=(1, 20), rows=rows) as fight:
        ok(fight.submit(Move("blue-1", ((7, 3),))))               # an Action spent, one held
        ok(fight.submit(EndTurn("blue-1")))
        before, forced = fight.digest(), fight.session.dice.forced_left
        preview = preview_attack(fight, "red-1", "blue-1", "basic")
        assert not isinstance(preview, Refused), preview
        assert fight.digest() == before and fight.session.dice.forced_left == forced
        rules = fight.session.rules
        attacker = Fighter("Devin", {"str": 2, "dex": 3, "per": 0, "wil": 0, "mag": 0, "vit": 0,
                                     "armor_rating": 13}, armor_rating=13)
        defender = Fighter("Wicked Thrasher", {"str": 3, "dex": 2, "per": 0, "wil": 0, "mag": 0,
                                               "vit": 0, "armor_rating": 14},
                           armor_rating=16, armored=True, hp=30,
                           reactions=("dodge",), resistances=("slashing",))
        pistol = Weapon("E&S '63 Custom", "1d10", "piercing", "ranged")
        sit = Situation("basic", ("covered",), reaction="dodge", held_actions=1)
        odds = d20_odds(rules.core, attacker, defender, pistol, sit)
        assert preview.hit_chance == pytest.approx(odds.p_hit)
        assert preview.expected_damage == pytest.approx(odds.expected_damage)
        assert preview.hits == pytest.approx(odds.hits)
        assert preview.attack_modifiers == (("DEX", 3), ("covered", -2))
        assert preview.defense_modifiers == (("armor rating", 14), ("Hide", 2),
                                             ("dodge (d20 +)", 3))
        assert preview.ap_cost == 1 and 0 < preview.hit_chance < 1


def test_out_of_range_is_refused():
    with battle([(devin(), (0, 0))], [(thrasher(), (13, 7))], initiative=(20, 1)) as fight:
        s = fight.session
        s.weapons["pistol"] = s.weapons["pistol"].model_copy(update={"range": 5})
        refused(fight, Attack("red-1", "blue-1", "basic"), "beyond the E&S '63 Custom's range of 5")


def test_the_battle_plays_to_an_end_and_replays():
    play_out_and_replay(battle([(devin(reactions=("dodge",)), (1, 1)), (arik(), (1, 5))],
                               [(thrasher(reactions=("dodge",)), (12, 6))], seed=5))
