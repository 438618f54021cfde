"""Units that come into a battle as an earlier battle of their campaign left them.

The setup's `carried` list (game.content.schema.CarriedUnit) names deployed units by id; each
gets its hit points, condition, ammunition and grenades put back, once, right after
deployment and before morale, sight and initiative are reckoned. Nothing is rolled or worked
out here: the numbers are the ones the earlier battle's rules left.
"""

from __future__ import annotations

from game.core import components as c
from game.core.session import Session


def apply_carried(session: Session) -> None:
    for carried in session.setup.carried:
        if carried.uid not in session.entities:
            raise ValueError(f"the campaign carries unit {carried.uid!r}, which this battle "
                             "does not deploy")
        uid = carried.uid
        health = session.get(uid, c.Health)
        health.hp = min(carried.hp, health.max_hp)
        health.state = carried.state
        health.stabilized = carried.stabilized
        loadout = session.get(uid, c.Loadout)
        for weapon, (ammo, spare) in zip(loadout.weapons, carried.weapons, strict=False):
            weapon.ammo = min(ammo, session.weapons[weapon.weapon].magazine)
            weapon.spare = spare
        loadout.grenades = {name: count for name, count in carried.grenades.items() if count > 0}
        if session.has(uid, c.Condition):
            condition = session.get(uid, c.Condition)
            condition.wounds = carried.wounds
            condition.armor_loss = carried.armor_loss
