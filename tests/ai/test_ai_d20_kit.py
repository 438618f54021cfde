"""The computer players under d20 with something to do beyond fighting (d20_ditch): they clear
the jammed machine gun, pick up the items lying in reach and use them, and the engine never
refuses them."""

from __future__ import annotations

from collections import Counter

from game.ai import make_player
from game.content.loader import load_setup
from game.core.events import ActionTaken, AttackResolved
from game.sim import play

LEVELS = ("easy", "normal", "hard")


def test_computer_players_unjam_pick_up_and_use_items_without_a_refused_command():
    setup = load_setup("d20_ditch")
    done: Counter[str] = Counter()
    for seed in range(9):
        players = {side: make_player(LEVELS[(seed + i) % 3], side, seed)
                   for i, side in enumerate(("jensen", "olea"))}
        result = play(setup, seed, players)
        assert not result.refused, (seed, result.refused)
        done.update(e.action for e in result.events if isinstance(e, ActionTaken))
        jams = sum("jams" in e.detail for e in result.events if isinstance(e, AttackResolved))
        unjams = sum(e.action == "unjam" for e in result.events if isinstance(e, ActionTaken))
        assert unjams <= jams
        done["jam"] += jams
    assert done["jam"] and done["unjam"] and done["recover_item"] and done["use_item"], done
