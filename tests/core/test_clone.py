"""The copy of components a copy of the battle makes: equal to the original, sharing nothing
that can be changed in place, and a battle's copy played on leaves the battle as it was."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from game.core import components as c
from game.core.clone import clone

atoms = st.one_of(st.integers(), st.text(max_size=5), st.booleans(), st.none(), st.floats(allow_nan=False))
weapon_states = st.builds(c.WeaponState, st.text(max_size=5), st.integers(0, 30), st.integers(0, 5))
loadouts = st.builds(c.Loadout, st.lists(weapon_states, max_size=3), st.integers(0, 2), st.booleans(),
                     st.dictionaries(st.text(max_size=5), st.integers(0, 3), max_size=3))
plain = st.recursive(
    st.one_of(atoms, weapon_states, loadouts),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.tuples(inner, inner),
                            st.dictionaries(st.text(max_size=4), inner, max_size=4),
                            st.sets(st.integers(), max_size=4)),
    max_leaves=20)


def mutables(value, found: list) -> list:
    """Every list, dict, set and component inside `value`."""
    if isinstance(value, (list, dict, set, c.WeaponState, c.Loadout)):
        found.append(value)
    if isinstance(value, (list, tuple, set)):
        for item in value:
            mutables(item, found)
    elif isinstance(value, dict):
        for item in value.values():
            mutables(item, found)
    elif isinstance(value, c.Loadout):
        mutables(value.weapons, found)
        mutables(value.grenades, found)
    return found


@settings(max_examples=300, deadline=None)
@given(plain)
def test_a_clone_is_equal_and_shares_nothing_changeable(value):
    other = clone(value)
    assert other == value and type(other) is type(value)
    theirs = {id(part) for part in mutables(value, [])}
    assert not theirs & {id(part) for part in mutables(other, [])}


def test_a_copy_of_the_battle_played_on_leaves_the_battle_as_it_was():
    from game.ai import make_player
    from game.content.loader import load_setup
    from game.rulesets import new_battle

    with new_battle(load_setup("depot_raid"), 2) as battle:
        s = battle.session
        players = {side: make_player("simple", side, 2) for side in s.sides}
        before = battle.digest()
        with battle.copy() as other:
            t = other.session
            while t.round < 4 and not t.over:
                other.submit(players[t.acting_side].next_command(other))
            assert other.digest() != before
        assert battle.digest() == before
