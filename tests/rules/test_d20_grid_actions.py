"""The d20 text's combat actions and skills on the grid: Disengage from one enemy (One Action),
Grace and Finesse (two reactions a round, not the same twice), Combat Prowess (more than one
attack a turn) and an ambush rolled as the text rolls it (Stealth against each target's
Awareness, per member). Dice are forced, in the order the engine rolls them."""

from __future__ import annotations

from game.core import components as c
from game.core.commands import Attack, Defend, Draw, EndTurn, Move
from game.core.events import AttackResolved, Defended, StatusChanged
from game.core.queries import action_costs, preview_attack
from game.rulesets.d20.core import Situation
from game.rulesets.d20.odds import d20_odds
from tests.rules.test_d20_grid import arik, battle, cond, devin, of, ok, refused, thrasher


# --- Disengage (One Action) ---------------------------------------------------------------------

def test_disengaging_from_one_enemy_spares_its_attack_of_opportunity_only():
    """The text's actions table: Disengage, One Action, "You can move away from them without
    them getting an attack of opportunity". Devin disengages from the first Thrasher; walking
    away still draws the second one's attack (1 + 3 = 4 against AR 13: a miss)."""
    with battle([(devin(), (5, 3))], [(thrasher(), (6, 3)), (thrasher(), (6, 4))],
                initiative=(20, 2, 1)) as fight:
        costs = action_costs(fight, "red-1").defend
        assert costs["disengage:blue-1"] == 1 and costs["disengage:blue-2"] == 1
        assert "disengage" not in costs and costs["total_disengage"] == 2
        events = ok(fight.submit(Defend("red-1", "disengage:blue-1")))
        assert of(events, Defended)[0].ap_cost == 1
        assert "disengage:blue-1" not in action_costs(fight, "red-1").defend
        refused(fight, Defend("red-1", "disengage:blue-1"), "already disengaged from")
        fight.session.dice.force(1)
        events = ok(fight.submit(Move("red-1", ((4, 3), (3, 3)))))
        attacks = of(events, AttackResolved)
        assert [a.attacker for a in attacks] == ["blue-2"] and not attacks[0].hit
        assert "attack of opportunity" in attacks[0].detail
        assert fight.session.position("red-1") == (3, 3)
        assert fight.session.dice.forced_left == 0


def test_disengage_needs_an_engaged_enemy_and_the_action_and_lasts_until_the_next_turn():
    with battle([(devin(), (5, 3))], [(thrasher(), (6, 3)), (thrasher(), (12, 6))],
                initiative=(20, 2, 1)) as fight:
        assert "disengage:blue-2" not in action_costs(fight, "red-1").defend
        refused(fight, Defend("red-1", "disengage:blue-2"), "not engaged with")
        refused(fight, Defend("red-1", "disengage:nobody"), "not engaged with")
    with battle([(devin(), (5, 3))], [(thrasher(), (6, 3))], initiative=(20, 1)) as fight:
        ok(fight.submit(Defend("red-1", "disengage:blue-1")))
        ok(fight.submit(EndTurn("red-1")))
        ok(fight.submit(EndTurn("blue-1")))
        assert fight.session.active == "red-1"
        assert "disengage:blue-1" in action_costs(fight, "red-1").defend     # gone: offered again
        fight.session.dice.force(1)
        events = ok(fight.submit(Move("red-1", ((4, 3),))))
        assert [a.attacker for a in of(events, AttackResolved)] == ["blue-1"]


# --- Grace and Finesse --------------------------------------------------------------------------

def test_grace_and_finesse_gives_two_reactions_never_the_same_twice():
    """"If you have the Grace and Finesse skill, you can use two of these reactions a round
    (cannot use same reaction twice in one round)." Devin (dodge, parry) parries the first
    Thrasher (auto: parry before dodge on a tie) and dodges the second; a Devin who knows only
    dodge has nothing left for the second."""
    both = devin(reactions=("dodge", "parry"), abilities=("grace_and_finesse",))
    with battle([(both, (5, 3))], [(thrasher(), (4, 3)), (thrasher(), (6, 3))],
                initiative=(20, 2, 1)) as fight:
        ok(fight.submit(Draw("red-1", 1)))                       # the sword
        ok(fight.submit(EndTurn("red-1")))                       # one Action held: +1
        fight.session.dice.force(14, 16)            # 14 + 3 + flanking 2 = 19; parry 16 + 4 = 20
        first = of(ok(fight.submit(Attack("blue-1", "red-1", "basic"))), AttackResolved)[0]
        assert not first.hit and "Devin parries 16+4 = 20: stops it" in first.detail
        assert cond(fight, "red-1").reacted_round == 0           # one reaction left
        ok(fight.submit(EndTurn("blue-1")))
        fight.session.dice.force(14, 16)
        second = of(ok(fight.submit(Attack("blue-2", "red-1", "basic"))), AttackResolved)[0]
        assert not second.hit and "Devin dodges 16+4 = 20: stops it" in second.detail
        assert cond(fight, "red-1").reacted_round == 1
        assert fight.session.dice.forced_left == 0
    one = devin(reactions=("dodge",), abilities=("grace_and_finesse",))
    with battle([(one, (5, 3))], [(thrasher(), (4, 3)), (thrasher(), (6, 3))],
                initiative=(20, 2, 1)) as fight:
        ok(fight.submit(Draw("red-1", 1)))
        ok(fight.submit(Draw("red-1", 0)))
        fight.session.dice.force(14, 2, 1)
        of(ok(fight.submit(Attack("blue-1", "red-1", "basic"))), AttackResolved)
        ok(fight.submit(EndTurn("blue-1")))
        fight.session.dice.force(14, 1)
        second = of(ok(fight.submit(Attack("blue-2", "red-1", "basic"))), AttackResolved)[0]
        assert second.hit and "Devin has no reaction against this attack" in second.detail
        assert fight.session.dice.forced_left == 0


def test_with_two_reactions_a_riposte_and_a_parry_never_share_a_round():
    """"Cannot Parry in the same round as you Riposte": after his riposte, Devin (riposte,
    parry, dodge, Grace and Finesse) meets the second Thrasher with a dodge, not a parry."""
    fencer = devin(reactions=("dodge", "parry", "riposte"), abilities=("grace_and_finesse",),
                   weapons=("sword", "pistol"))
    with battle([(fencer, (5, 3))], [(thrasher(), (4, 3)), (thrasher(), (6, 3))],
                initiative=(20, 2, 1)) as fight:
        ok(fight.submit(EndTurn("red-1")))                       # two Actions held: +2
        fight.session.dice.force(14, 1, 1)             # 19; riposte 1 + 5 too low; 1d6 = 1
        first = of(ok(fight.submit(Attack("blue-1", "red-1", "basic"))), AttackResolved)[0]
        assert "Devin ripostes 1+5 = 6: too low" in first.detail, first.detail
        ok(fight.submit(EndTurn("blue-1")))
        fight.session.dice.force(14, 18)
        second = of(ok(fight.submit(Attack("blue-2", "red-1", "basic"))), AttackResolved)[0]
        assert "Devin dodges 18+5 = 23: stops it" in second.detail, second.detail
        assert fight.session.dice.forced_left == 0


def test_grace_and_finesse_changes_the_odds_of_a_second_attack():
    """After one reaction (a parry), a second attack's exact odds count the dodge still left
    with Grace and Finesse and no reaction without it: the preview is the core's d20_odds."""
    chances = {}
    for abilities, left in (((), "none"), (("grace_and_finesse",), "dodge")):
        target = devin(reactions=("dodge", "parry"), abilities=abilities)
        with battle([(target, (5, 3))], [(thrasher(), (4, 3)), (thrasher(), (6, 3))],
                    initiative=(20, 2, 1)) as fight:
            ok(fight.submit(Draw("red-1", 1)))
            ok(fight.submit(Draw("red-1", 0)))                   # no Actions held
            fight.session.dice.force(14, 1, 1)                   # 19; parry 1 + 3: too low; 1d6
            first = of(ok(fight.submit(Attack("blue-1", "red-1", "basic"))), AttackResolved)[0]
            assert "Devin parries 1+3 = 4: too low" in first.detail
            ok(fight.submit(EndTurn("blue-1")))
            preview = preview_attack(fight, "blue-2", "red-1", "basic")
            session, rules = fight.session, fight.session.rules
            odds = d20_odds(rules.core, rules.fighter(session, "blue-2"),
                            rules.fighter(session, "red-1"), rules.weapon(session.weapons["claws"]),
                            Situation(attack_type="basic", modifiers=("flanking",), reaction=left))
            assert abs(preview.hit_chance - odds.p_hit) < 1e-12
            chances[left] = preview.hit_chance
    assert chances["dodge"] < chances["none"]


# --- Combat Prowess -----------------------------------------------------------------------------

def test_combat_prowess_allows_a_second_attack_in_the_turn():
    """"Without the Combat Prowess skill, only one attack or magical ability can be used per
    turn": with it, Devin's two Actions buy two Basic Attacks."""
    with battle([(devin(), (5, 3))], [(thrasher(), (9, 3))], initiative=(20, 1)) as fight:
        fight.session.dice.force(1)
        ok(fight.submit(Attack("red-1", "blue-1", "basic")))
        refused(fight, Attack("red-1", "blue-1", "basic"),
                "has made its attack this turn (Combat Prowess allows more)")
    with battle([(devin(abilities=("combat_prowess",)), (5, 3))], [(thrasher(), (9, 3))],
                initiative=(20, 1)) as fight:
        fight.session.dice.force(1, 1)
        first = ok(fight.submit(Attack("red-1", "blue-1", "basic")))
        second = ok(fight.submit(Attack("red-1", "blue-1", "basic")))
        assert len(of(first, AttackResolved)) == len(of(second, AttackResolved)) == 1
        assert fight.session.dice.forced_left == 0
        assert fight.session.active == "blue-1"                  # both Actions spent


# --- Ambush -------------------------------------------------------------------------------------

def test_an_ambush_is_rolled_per_member_and_only_the_hidden_act_first():
    """"The ambushers roll a Stealth(DEX) test against the target ... Awareness(PER). If they
    win, they remain hidden, and are able to take a turn before initiative is rolled." Arik
    (stealth 2 + DEX 1 = 3) is noticed (awareness 18); Devin (15 + 3 = 18 against 5) is not:
    Devin acts first, then everyone by initiative (Thrasher 15, Arik 7). The Thrasher cannot
    dodge Devin's shot, which it did not see coming."""
    red = [(arik(), (1, 3)), (devin(), (1, 5))]
    blue = [(thrasher(reactions=("dodge",)), (6, 4))]
    with battle(red, blue, initiative=(6, 16, 13, 2, 18, 15, 5), ambush="red") as fight:
        notes = [e for e in fight.opening if isinstance(e, StatusChanged)]
        assert [(e.status, e.detail) for e in notes] == [
            ("alert", "stealth 3 against awareness 18: Wicked Thrasher notices Arik"),
            ("ambushed", "stealth 18 against awareness 5: Wicked Thrasher does not notice Devin")]
        assert fight.session.order == ["red-2", "blue-1", "red-1"]
        fight.session.dice.force(15, 4)                          # 15 + 3 = 18 against AR 14; 1d10
        attack = of(ok(fight.submit(Attack("red-2", "blue-1", "basic"))), AttackResolved)[0]
        assert attack.hit and "Wicked Thrasher has not noticed Devin: no reaction" in attack.detail
        assert fight.session.dice.forced_left == 0
        ok(fight.submit(EndTurn("red-2")))
        ok(fight.submit(EndTurn("blue-1")))                      # its turn: it is in the fight
        ok(fight.submit(EndTurn("red-1")))
        assert fight.session.round == 2 and fight.session.order == ["red-2", "blue-1", "red-1"]
        fight.session.dice.force(15, 3, 4)             # now it dodges: 3 + DEX 2 + 2 held, too low
        attack = of(ok(fight.submit(Attack("red-2", "blue-1", "basic"))), AttackResolved)[0]
        assert "dodges 3+4 = 7: too low" in attack.detail
        assert fight.session.dice.forced_left == 0


def test_an_ambusher_noticed_by_everyone_keeps_its_initiative_place():
    """Both ambushers fail (a tie goes to the target: "If they win"): round one is in
    initiative order, the Thrasher (15) before Devin (13) and Arik (7)."""
    red = [(arik(), (1, 3)), (devin(), (1, 5))]
    with battle(red, [(thrasher(), (10, 4))], initiative=(6, 10, 13, 1, 5, 2, 5),
                ambush="red") as fight:
        assert fight.session.dice.forced_left == 0
        assert fight.session.order == ["blue-1", "red-2", "red-1"]
        assert [e.status for e in fight.opening if isinstance(e, StatusChanged)] == [
            "alert", "alert"]


def test_stealth_and_awareness_skills_count_in_the_ambush():
    """Devin's stealth 4 + DEX 3 + 10 = 17 against the Thrasher's awareness 6 + 10 = 16: hidden."""
    red = [(devin(stealth=4), (1, 5))]
    with battle(red, [(thrasher(awareness=6), (10, 4))], initiative=(1, 19, 10, 10),
                ambush="red") as fight:
        assert fight.session.order == ["red-1", "blue-1"]
        ok(fight.submit(EndTurn("red-1")))
        assert fight.session.active == "blue-1"


# --- Stealth (One Action) -----------------------------------------------------------------------

def test_stealth_cannot_be_taken_while_an_enemy_sees_the_unit():
    """The text: "Slip into the shadows to move unseen. Cannot be done if an enemy's focus is
    on you"."""
    with battle([(devin(), (2, 3))], [(thrasher(), (7, 3))], initiative=(20, 1)) as fight:
        assert "stealth" not in action_costs(fight, "red-1").defend
        refused(fight, Defend("red-1", "stealth"), "Wicked Thrasher has its eye on Devin")


def hidden(fight, uid: str) -> None:
    """The unit in Stealth, as if it had slipped out of sight and the target had since come
    into view (the rules' own path to it is played in the overwatch test below)."""
    fight.session.use()
    fight.session.add(uid, c.Guard("stealth", None, 0))


def test_an_attack_from_stealth_rolls_stealth_against_awareness_and_goes_unanswered():
    """Stealth 10 + DEX 3 = 13 against awareness 5: unnoticed, so the Thrasher cannot dodge;
    15 + 3 = 18 hits AR 14; 1d10 = 4. Rolled 2 + 3 against 5: noticed, and it dodges."""
    blue = [(thrasher(reactions=("dodge",)), (8, 3))]
    with battle([(devin(), (2, 3))], blue, initiative=(20, 1)) as fight:
        hidden(fight, "red-1")
        fight.session.dice.force(10, 5, 15, 4)
        events = ok(fight.submit(Attack("red-1", "blue-1", "basic")))
        note = of(events, StatusChanged)[0]
        assert note.status == "ambushed"
        assert note.detail == "stealth 13 against awareness 5: Wicked Thrasher does not notice Devin"
        attack = of(events, AttackResolved)[0]
        assert attack.hit and "Wicked Thrasher has not noticed Devin: no reaction" in attack.detail
        assert fight.session.dice.forced_left == 0
        fight.session.use()
        assert not fight.session.has("red-1", c.Guard)          # the shot gave Devin away
    with battle([(devin(), (2, 3))], blue, initiative=(20, 1)) as fight:
        hidden(fight, "red-1")
        fight.session.dice.force(2, 5, 15, 1, 4)       # 5 against 5: noticed; the dodge 1 + 2 fails
        events = ok(fight.submit(Attack("red-1", "blue-1", "basic")))
        assert of(events, StatusChanged)[0].status == "alert"
        assert "dodges 1+2 = 3: too low" in of(events, AttackResolved)[0].detail
        assert fight.session.dice.forced_left == 0


def test_the_preview_of_an_attack_from_stealth_weighs_the_stealth_test_exactly():
    """P(d20 + 3 > d20 + 0) = 247/400; the hit chance mixes the odds without a reaction and
    with the Thrasher's dodge in that proportion."""
    blue = [(thrasher(reactions=("dodge",)), (8, 3))]
    with battle([(devin(), (2, 3))], blue, initiative=(20, 1)) as fight:
        before = preview_attack(fight, "red-1", "blue-1", "basic")
        hidden(fight, "red-1")
        after = preview_attack(fight, "red-1", "blue-1", "basic")
        session, rules = fight.session, fight.session.rules
        won = sum(1 for a in range(1, 21) for t in range(1, 21) if a + 3 > t) / 400
        assert won == 247 / 400
        args = (rules.core, rules.fighter(session, "red-1"), rules.fighter(session, "blue-1"),
                rules.weapon(session.weapons["pistol"]))
        seen = d20_odds(*args, Situation(attack_type="basic", reaction="dodge"))
        unseen = d20_odds(*args, Situation(attack_type="basic"))
        assert abs(before.hit_chance - seen.p_hit) < 1e-12
        assert abs(after.hit_chance - (won * unseen.p_hit + (1 - won) * seen.p_hit)) < 1e-12
        assert abs(after.expected_damage - (won * unseen.expected_damage
                                            + (1 - won) * seen.expected_damage)) < 1e-9
        assert after.hit_chance > before.hit_chance


WALLED = ["." * 14, "." * 14, "....#........." , "....#.........", "....#.........",
          "." * 14, "." * 14, "." * 14]


def test_stealth_behind_a_wall_then_an_attack_of_opportunity_the_target_never_sees_coming():
    """Devin, sword in hand and out of the Thrasher's sight behind a wall, slips into Stealth
    (One Action) and holds the other. The Thrasher walks round the wall past him; stepping out
    of his reach draws his attack of opportunity, which rolls Stealth 10 + 3 = 13 against
    Awareness 5: unnoticed, no dodge; 15 + STR 2 = 17 hits AR 14."""
    blue = [(thrasher(reactions=("dodge",)), (7, 3))]
    with battle([(devin(weapons=("sword", "pistol")), (3, 3))], blue, initiative=(20, 1),
                rows=WALLED) as fight:
        assert action_costs(fight, "red-1").defend["stealth"] == 1
        ok(fight.submit(Defend("red-1", "stealth")))
        ok(fight.submit(EndTurn("red-1")))
        fight.session.dice.force(10, 5, 15, 4)
        events = ok(fight.submit(Move("blue-1", ((6, 4), (5, 5), (4, 5), (3, 5), (3, 4), (2, 5)))))
        assert of(events, StatusChanged)[0].status == "ambushed"
        attack = of(events, AttackResolved)[0]
        assert attack.attacker == "red-1" and attack.hit
        assert "Wicked Thrasher has not noticed Devin: no reaction" in attack.detail
        assert fight.session.dice.forced_left == 0
