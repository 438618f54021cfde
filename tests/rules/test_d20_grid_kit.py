"""The d20 text's Unjam Weapon, Recover Item, Use Item, Jump and Attribute Test on the grid:
a weapon that jams on a natural 1 (`jams_on`), items a scenario leaves on the floor (the
params' `items`), a ditch jumped over with a DEX test (the params' `jump`). Dice are forced,
in the order the engine rolls them."""

from __future__ import annotations

from dataclasses import replace

from game.ai import make_player
from game.content.loader import load_setup
from game.content.schema import BattleSetup, TerrainSpec
from game.core import components as c
from game.core.commands import Attack, EndTurn, Jump, Move, RecoverItem, Unjam, UseItem
from game.core.dice import Dice
from game.core.events import ActionTaken, AttackResolved, Moved
from game.core.narrate import describe, tell
from game.core.queries import extra_actions, floor_items, preview_attack, unit_info
from game.rulesets import load_battle, new_battle
from game.rulesets.d20.core import Situation
from game.rulesets.d20.odds import d20_odds
from tests.core import builders as b
from tests.rules.rules_helpers import with_rules
from tests.rules.test_d20_grid import PISTOL, SWORD, of, ok, refused, ruleset, unit

JAMMY = with_rules(PISTOL, rules={"d20": {**PISTOL.rules["d20"], "jams_on": 1}})
DITCH = TerrainSpec(id="ditch", name="Ditch", glyph="_", walkable=False)
ROWS = ["....._........" for _ in range(8)]          # a ditch down x = 5


def kit_battle(red, blue, *, initiative=(), items=(), seed: int = 1):
    setup = b.setup(ROWS, {"red": red, "blue": blue})
    data = setup.model_dump()
    data["scenario"]["items"] = [{"item": item, "at": list(at)} for item, at in items]
    data["terrain"] = [*data["terrain"], DITCH.model_dump()]
    setup = BattleSetup.model_validate({
        **data, "ruleset": ruleset().model_dump(),
        "weapons": [w.model_dump() for w in (JAMMY, SWORD)]})
    dice = Dice(seed)
    dice.force(*initiative)
    return new_battle(setup, seed=seed, dice=dice)


def gunner(**kw):
    return unit("gunner", "Gunner", **{"dex": 3, "ar": 12, "hp": 20, "weapons": ("pistol",), **kw})


def target(**kw):
    return unit("target", "Target", **{"dex": 0, "ar": 4, "hp": 30, "weapons": ("sword",), **kw})


# --- jams and Unjam Weapon ----------------------------------------------------------------------

def test_a_natural_one_jams_the_gun_until_two_actions_unjam_it():
    with kit_battle([(gunner(), (2, 3))], [(target(), (8, 3))], initiative=(20, 1)) as fight:
        before = unit_info(fight, "red-1").ammo
        fight.session.dice.force(1)                      # 1 + DEX 3 = 4 reaches AR 4, but jams
        attack = of(ok(fight.submit(Attack("red-1", "blue-1", "basic"))), AttackResolved)[0]
        assert not attack.hit and attack.ammo_used == 0
        assert "a natural 1 jams the E&S '63 Custom" in attack.detail
        assert unit_info(fight, "red-1").ammo == before              # no round left the barrel
        assert "E&S '63 Custom jammed" in unit_info(fight, "red-1").statuses
        assert fight.session.dice.forced_left == 0
        ok(fight.submit(EndTurn("red-1")))
        ok(fight.submit(EndTurn("blue-1")))
        refused(fight, Attack("red-1", "blue-1", "basic"), "is jammed: unjam it first")
        assert "jammed" in preview_attack(fight, "red-1", "blue-1", "basic").reason
        offered = {e.key: e for e in extra_actions(fight, "red-1")}
        assert offered["R"].cost == 2 and offered["R"].command == Unjam("red-1")
        events = ok(fight.submit(Unjam("red-1")))
        taken = of(events, ActionTaken)[0]
        assert (taken.action, taken.ap_cost) == ("unjam", 2)
        assert describe(taken, fight.names().get) == \
            "Gunner clears the jam of the E&S '63 Custom (2 AP)."
        assert fight.session.active == "blue-1"                      # Two Actions: the turn
        assert "R" not in {e.key for e in extra_actions(fight, "red-1")}
        ok(fight.submit(EndTurn("blue-1")))
        refused(fight, Unjam("red-1"), "holds no jammed weapon")
        fight.session.dice.force(2, 3)                               # 2 + 3 = 5: a hit; 1d10 3
        attack = of(ok(fight.submit(Attack("red-1", "blue-1", "basic"))), AttackResolved)[0]
        assert attack.hit and attack.ammo_used == 1


def test_the_jam_is_in_the_exact_odds():
    """Against Armor Rating 4 every roll hits (DEX 3); jamming on a natural 1 takes 1 in 20."""
    with kit_battle([(gunner(), (2, 3))], [(target(), (8, 3))], initiative=(20, 1)) as fight:
        assert abs(preview_attack(fight, "red-1", "blue-1", "basic").hit_chance - 0.95) < 1e-12
        s, rules = fight.session, fight.session.rules
        weapon = rules.weapon(s.weapons["pistol"])
        shooter, shot = rules.fighter(s, "red-1"), rules.fighter(s, "blue-1")
        assert weapon.jams_on == 1
        plain = d20_odds(rules.core, shooter, shot, replace(weapon, jams_on=0), Situation())
        assert abs(plain.p_hit - 1.0) < 1e-12


def test_unjamming_needs_two_actions_left():
    with kit_battle([(gunner(), (2, 3))], [(target(), (8, 3))], initiative=(20, 1)) as fight:
        fight.session.dice.force(1)
        ok(fight.submit(Attack("red-1", "blue-1", "basic")))         # One Action left
        refused(fight, Unjam("red-1"), "takes 2 Actions; Gunner has 1")
        offered = {e.key: e for e in extra_actions(fight, "red-1")}
        assert offered["R"].command is None and "takes 2 Actions" in offered["R"].why


# --- items on the floor: Recover Item and Use Item ------------------------------------------------

def test_an_item_is_picked_up_next_to_the_unit_and_used():
    items = (("medkit", (3, 3)), ("magazine", (2, 3)), ("medkit", (7, 7)))
    with kit_battle([(gunner(), (2, 3))], [(target(), (12, 3))], initiative=(20, 1),
                    items=items) as fight:
        assert [(i.at, i.name, i.glyph) for i in floor_items(fight, "red")] == \
            [((3, 3), "Medical kit", "!"), ((2, 3), "Spare magazine", "|"), ((7, 7), "Medical kit", "!")]
        refused(fight, RecoverItem("red-1", (7, 7)), "out of Gunner's reach")
        refused(fight, RecoverItem("red-1", (1, 1)), "no item at (1, 1)")
        offered = {e.key: e for e in extra_actions(fight, "red-1")}
        assert offered["T"].command == RecoverItem("red-1", (2, 3))  # its own square first
        taken = of(ok(fight.submit(RecoverItem("red-1", (3, 3)))), ActionTaken)[0]
        assert (taken.action, taken.ap_cost) == ("recover_item", 1)
        assert "picks up the Medical kit at (3, 3)" in taken.detail
        assert (3, 3) not in {i.at for i in floor_items(fight, "red")}
        assert "carries Medical kit" in unit_info(fight, "red-1").statuses
        refused(fight, UseItem("red-1", "medkit"), "unhurt")
        refused(fight, UseItem("red-1", "magazine"), "carries no Spare magazine")
        refused(fight, UseItem("red-1", ["medkit"]), "is not an item")       # type: ignore[arg-type]
        refused(fight, RecoverItem("red-1", "3,3"), "is not a square")      # type: ignore[arg-type]
        refused(fight, Jump("red-1", (3,)), "is not a square")              # type: ignore[arg-type]
        fight.session.use()
        fight.session.get("red-1", c.Health).hp = 11
        ok(fight.submit(EndTurn("red-1")))
        ok(fight.submit(EndTurn("blue-1")))
        fight.session.dice.force(3, 4)                               # 2d4: 3 + 4
        taken = of(ok(fight.submit(UseItem("red-1", "medkit"))), ActionTaken)[0]
        assert (taken.action, taken.ap_cost) == ("use_item", 2)
        assert "2d4 = 7: 7 hit points back (18/20)" in taken.detail
        assert unit_info(fight, "red-1").hp == 18
        assert fight.session.dice.forced_left == 0
        ok(fight.submit(EndTurn("blue-1")))
        ok(fight.submit(RecoverItem("red-1", (2, 3))))
        spare = unit_info(fight, "red-1").spare
        taken = of(ok(fight.submit(UseItem("red-1", "magazine"))), ActionTaken)[0]
        assert taken.ap_cost == 1 and unit_info(fight, "red-1").spare == spare + 1
        assert [i.at for i in floor_items(fight, "red")] == [(7, 7)]


# --- Jump and its Attribute Test ---------------------------------------------------------------

def test_a_jump_over_the_ditch_is_a_dex_test_against_its_dc():
    """DC 12 (d20.yaml: `jump.over.ditch`): 10 + DEX 2 = 12 clears it, 9 + 2 does not."""
    jumper = gunner(dex=2)
    with kit_battle([(jumper, (4, 3))], [(target(), (12, 6))], initiative=(20, 1)) as fight:
        refused(fight, Move("red-1", ((5, 3),)), "cannot be walked on")
        refused(fight, Jump("red-1", (7, 3)), "two squares away")
        refused(fight, Jump("red-1", (4, 5)), "a unit can jump over a ditch only")
        offered = {e.key: e for e in extra_actions(fight, "red-1", square=(6, 3))}
        assert offered["J"].command == Jump("red-1", (6, 3)) and offered["J"].cost == 1
        fight.session.dice.force(10)
        events = ok(fight.submit(Jump("red-1", (6, 3))))
        taken = of(events, ActionTaken)[0]
        assert taken.success and taken.check.total == 12 and taken.ap_cost == 1
        assert "jumps the ditch at (5, 3) to (6, 3): DEX test 10 + 2 DEX = 12 against DC 12" \
            in taken.detail
        assert of(events, Moved)[0].end == (6, 3)
        assert fight.session.position("red-1") == (6, 3)
        told = tell(events, lambda e: describe(e, str), str)
        assert sum("(6, 3)" in line for line in told) == 1       # the jump's line, no "moves to"
        fight.session.dice.force(9)
        events = ok(fight.submit(Jump("red-1", (4, 3))))
        taken = of(events, ActionTaken)[0]
        assert not taken.success and "falls prone" in taken.detail
        assert fight.session.position("red-1") == (6, 3)
        fight.session.use()
        assert fight.session.get("red-1", c.Posture).stance == "prone"
        assert fight.session.dice.forced_left == 0


def test_a_jump_offered_toward_a_square_says_its_dc_and_chance_as_the_dice_decide():
    """Asked with the landing square, the jump names the test and its chance; forcing each
    face of the d20 in turn passes exactly that share of the jumps."""
    with kit_battle([(gunner(dex=2), (4, 3))], [(target(), (12, 6))], initiative=(20, 1)) as fight:
        offered = {e.key: e for e in extra_actions(fight, "red-1", square=(6, 3))}["J"]
        assert offered.odds == "DEX d20+2 vs DC 12, 55%"
        assert not {e.key: e for e in extra_actions(fight, "red-1", square=(7, 3))}["J"].odds
        passed = 0
        for face in range(1, 21):
            trial = fight.copy()
            trial.session.dice.force(face)
            taken = of(ok(trial.submit(Jump("red-1", (6, 3)))), ActionTaken)[0]
            passed += taken.success
            trial.close()
        assert passed == 11                    # 10..20: 55%
        fight.session.use()


def test_a_prone_unit_cannot_jump_and_no_jump_is_offered_away_from_a_gap():
    with kit_battle([(gunner(), (4, 3))], [(target(), (12, 6))], initiative=(20, 1)) as fight:
        fight.session.use()
        fight.session.get("red-1", c.Posture).stance = "prone"
        refused(fight, Jump("red-1", (6, 3)), "prone: stand up to jump")
        jump = {e.key: e for e in extra_actions(fight, "red-1")}["J"]    # greyed, and why
        assert jump.command is None and jump.why == "Gunner is prone: stand up to jump."
    with kit_battle([(gunner(), (1, 3))], [(target(), (12, 6))], initiative=(20, 1)) as fight:
        assert "J" not in {e.key for e in extra_actions(fight, "red-1")}


def test_a_jump_with_no_action_left_is_offered_greyed_with_the_reason():
    with kit_battle([(gunner(), (4, 3))], [(target(), (12, 6))], initiative=(20, 1)) as fight:
        fight.session.use()
        fight.session.get("red-1", c.ActionPoints).current = 0
        jump = {e.key: e for e in extra_actions(fight, "red-1")}["J"]
        assert jump.command is None and jump.why == "A jump takes 1 Action; Gunner has 0."


# --- the bundled scenario -------------------------------------------------------------------------

def test_each_action_on_the_grid_of_the_bundled_scenario():
    """d20_ditch as bundled, its units placed by hand: Hollis picks up the medical kit at
    (4, 6), jumps the ditch, is hurt and uses the kit; the gunner's Harrow LMG (jams_on: 1)
    jams on a natural 1 and is unjammed."""
    setup = load_setup("d20_ditch")
    data = setup.model_dump()
    spots = {"jensen": [(4, 5), (1, 1)], "olea": [(18, 10), (12, 7)]}   # the gunner last
    for side in data["scenario"]["sides"]:
        for member, at in zip(side["members"], spots[side["id"]], strict=True):
            member["at"] = list(at)
    setup = BattleSetup.model_validate(data)
    with new_battle(setup, seed=3) as fight:
        s = fight.session
        hollis = next(uid for uid, unit in s.units() if unit.template == "hollis")
        gunner_id = next(uid for uid, unit in s.units() if unit.template == "gunner")

        def turn_of(uid: str) -> None:
            while s.active != uid:
                ok(fight.submit(EndTurn(s.active or "")))

        turn_of(hollis)
        ok(fight.submit(RecoverItem(hollis, (4, 6))))
        ok(fight.submit(Move(hollis, ((5, 5), (6, 5), (7, 5), (8, 5)))))
        turn_of(gunner_id)
        s.dice.force(1)
        attack = of(ok(fight.submit(Attack(gunner_id, hollis, "burst"))), AttackResolved)[0]
        assert "jams the Harrow LMG" in attack.detail and not attack.hit
        turn_of(hollis)
        s.dice.force(15)
        taken = of(ok(fight.submit(Jump(hollis, (10, 5)))), ActionTaken)[0]
        assert taken.success and s.position(hollis) == (10, 5)
        s.use()
        s.get(hollis, c.Health).hp -= 5
        ok(fight.submit(EndTurn(hollis)))
        turn_of(gunner_id)
        ok(fight.submit(Unjam(gunner_id)))
        turn_of(hollis)
        s.dice.force(2, 2)
        taken = of(ok(fight.submit(UseItem(hollis, "medkit"))), ActionTaken)[0]
        assert "2d4 = 4: 4 hit points back" in taken.detail
        assert s.dice.forced_left == 0


def test_a_save_keeps_the_floor_what_is_carried_and_the_jams():
    """The bundled scenario between computer players (seed 18: the gunner's LMG jams), saved
    after each of the new actions and loaded: the same items on the floor, the same words on
    every unit card (what it carries, a jammed weapon)."""
    setup = load_setup("d20_ditch")
    seen: set[str] = set()
    for seed in (0, 18):
        players = {"jensen": make_player("hard", "jensen", seed),
                   "olea": make_player("normal", "olea", seed)}
        with new_battle(setup, seed=seed) as fight:
            while not fight.session.over:
                uid = fight.session.active
                events = ok(fight.submit(players[fight.session.side_of(uid)].next_command(fight)))
                new = {e.action for e in of(events, ActionTaken)}
                new |= {"jam" for e in of(events, AttackResolved) if "jams" in e.detail}
                if not new - seen:
                    continue
                seen |= new
                state = fight.state()
                with load_battle(state) as again:
                    assert again.digest() == state["digest"]
                    assert floor_items(again, "jensen") == floor_items(fight, "jensen")
                    for unit_id, _ in fight.session.units():
                        assert unit_info(again, unit_id).statuses == unit_info(fight, unit_id).statuses
    assert {"jam", "unjam", "recover_item", "use_item"} <= seen
