"""How a tabletop ruleset reads an item's `rules: {engine: ...}` block: through the model its
package gives for that kind (profiles.py beside its grid; `Ruleset.profile_models`), checked
once per item and kept, so the rules read `profile.damage` like any other attribute.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.content.schema import WeaponSpec
from game.core import components as c
from game.core.illegal import Illegal
from game.core.ruleset import Ruleset
from game.rulesets.tabletop.params import TacticalParams

if TYPE_CHECKING:
    from game.core.session import Session


class BlockRules(Ruleset):
    """The blocks of units, weapons and armor under the ruleset's engine."""

    t: TacticalParams
    _blocks: dict[tuple[str, str], tuple[dict, Any]]     # (kind, id) -> (block, as read)

    @property
    def engine(self) -> str:
        return self.spec.engine

    def unit_profile(self, session: Session, uid: str) -> Any:
        template = session.templates[session.get(uid, c.Unit).template]
        return self.block("unit", template.id, template.rules[self.engine])

    def block(self, kind: str, ident: str, raw: dict | None) -> Any | None:
        """An item's `rules[engine]` block (None: it has none) read through this ruleset's model
        of that kind (`profile_models`), checked once per item and kept."""
        if raw is None:
            return None
        kept = self._blocks.get((kind, ident))
        if kept is not None and kept[0] is raw:
            return kept[1]
        model = self.profile_models()[kind]
        # Content is checked strictly when it loads (game/content/profiles.py). A save written
        # before each ruleset had its own models carries every ruleset's keys with their
        # defaults, so a battle reads only the keys its model has.
        profile = model.model_validate({key: raw[key] for key in raw if key in model.model_fields})
        self._blocks[(kind, ident)] = (raw, profile)
        return profile

    def weapon_block(self, weapon: WeaponSpec) -> Any | None:
        """The weapon's block for this ruleset, or None; for bare hands, the ruleset's own."""
        if weapon.id == "unarmed":
            return self.block("weapon", weapon.id, self.t.unarmed.profile)
        return self.block("weapon", weapon.id, weapon.rules.get(self.engine))

    def weapon_profile(self, weapon: WeaponSpec) -> Any:
        """The weapon's block for this ruleset; Illegal when it has none."""
        profile = self.weapon_block(weapon)
        if profile is None:
            raise Illegal(f"The {weapon.name} has no numbers under the {self.spec.name} rules.")
        return profile

    def armor_profile(self, session: Session, uid: str) -> Any | None:
        armor_id = session.get(uid, c.Armor).armor
        armor = session.armors.get(armor_id) if armor_id else None
        return self.block("armor", armor.id, armor.rules.get(self.engine)) if armor is not None else None
