"""The calculator's d20 ambush and the grid's agree: the goblins_ambush example's dice, played
through a real battle with the same units, catch the same targets unaware, and only the goblin
that caught someone acts before initiative."""

from __future__ import annotations

import json
from pathlib import Path

from game.core.events import StatusChanged
from game.resolve.main import main_resolve
from tests.rules.test_d20_grid import battle, unit

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "resolve" / "goblins_ambush.yaml"


def perceptive(spec, per: int):
    block = dict(spec.rules["d20"])
    block["attributes"] = {**block["attributes"], "per": per}
    return spec.model_copy(update={"rules": {"d20": block}})


def test_the_grid_catches_the_same_targets_as_the_calculator():
    code, text = main_resolve(str(EXAMPLE), as_json=True, odds=False)
    assert code == 0, text
    caught = set(json.loads(text)["ambushed"])
    assert caught == {"Arik"}                           # the example's own verdict
    goblin = unit("goblin", "Goblin", dex=2, stealth=2)
    arik = perceptive(unit("arik", "Arik", awareness=0), 1)
    devin = perceptive(unit("devin", "Devin", awareness=2), 2)
    # initiative (goblin, Arik, Devin), then Stealth and Awareness for each target in turn
    with battle([(goblin, (1, 3))], [(arik, (9, 3)), (devin, (9, 5))],
                initiative=(1, 20, 19, 10, 12, 10, 12), ambush="red") as fight:
        assert fight.session.dice.forced_left == 0
        notes = [e for e in fight.opening if isinstance(e, StatusChanged)]
        names = {"blue-1": "Arik", "blue-2": "Devin"}
        assert {names[e.unit] for e in notes if e.status == "ambushed"} == caught
        assert fight.session.order[0] == "red-1"        # it beat someone: it acts first
