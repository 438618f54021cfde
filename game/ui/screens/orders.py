"""What the player's keys and clicks do on the battle screen: each ends as an engine command.

A mixin of BattleScreen. Moving the cursor and choosing a target, fire mode, aim or hit
location are UI state; every order goes to `play`, which submits it and shows the engine's
answer (its events, or the reason it refused).
"""

from __future__ import annotations

from game.core.commands import (Attack, ChangeStance, ChooseDefense, Command, Declare, Defend, Draw,
                                EndTurn, Move, Reload, Respond, Revive, SetOverwatch, Suppress,
                                Throw)
from game.core.events import Refused
from game.core.queries import UnitInfo, action_costs, unit_info, unit_sees_square
from game.ui.widgets.map_view import MapView

Square = tuple[int, int]


class Orders:
    # --- the cursor -------------------------------------------------------------------------

    def move_cursor_to(self, square: Square) -> None:
        if not self.ready or not self.alive():
            return
        session = self.match.battle.session
        x = max(0, min(session.grid.width - 1, square[0]))
        y = max(0, min(session.grid.height - 1, square[1]))
        if (x, y) == self.cursor:
            self.map.keep_in_view(self.cursor)      # it may have started out of view
            return
        self.cursor = (x, y)
        if self.target is not None and self.target_square() != self.cursor:
            self.target = None
        self.map.keep_in_view(self.cursor)
        self.redraw()

    def action_cursor(self, dx: int, dy: int) -> None:
        self.move_cursor_to((self.cursor[0] + dx, self.cursor[1] + dy))

    def action_home(self) -> None:
        if not self.alive() or self.busy:
            return
        uid = self.selected or self.match.active_uid
        square = self.match.position(uid)
        if square is not None:
            self.move_cursor_to(square)

    def on_map_view_hovered(self, message: MapView.Hovered) -> None:
        self.move_cursor_to(message.square)

    def on_map_view_clicked(self, message: MapView.Clicked) -> None:
        self.move_cursor_to(message.square)
        if message.button == 1 and self.my_turn():
            self.action_act()

    # --- choosing ---------------------------------------------------------------------------

    def action_act(self) -> None:
        """Enter: target the enemy under the cursor, select an own unit, or walk there."""
        if self.target is not None:
            self.action_fire()
            return
        info = self.known.get(self.cursor)
        if info is not None and info.side != self.viewer and info.state != "dead":
            self.aim_at(info.uid)
        elif info is not None:
            self.selected = info.uid
            self.refresh_state()
        elif self.reach_of is not None and self.reach_of.cost(self.cursor) is not None:
            path = self.reach_of.path_to(self.cursor)
            if path:
                self.play(Move(self.match.active_uid, tuple(path)))
        elif self.selected != self.match.active_uid:
            self.select_active()
        else:
            self.notify("Out of reach: the highlighted squares are where the unit can walk.",
                        severity="warning", timeout=3)

    def select_active(self) -> None:
        self.selected = self.match.active_uid
        self.refresh_state()

    def enemies(self) -> list[UnitInfo]:
        """Enemies the side sees now: those in the active unit's own sight first, nearest first
        (the others, seen by its side only, come last: their cards say why it cannot fire)."""
        session = self.match.battle.session
        here = self.match.position(self.match.active_uid)
        found = [i for i in self.known.values() if i.side != self.viewer]
        if here is None:
            return found
        battle, active = self.match.battle, self.match.active_uid
        return sorted(found, key=lambda i: (not unit_sees_square(battle, active, i.square),
                                            session.grid.distance(here, i.square), i.uid))

    def aim_at(self, uid: str) -> None:
        self.target = uid
        self.selected = self.match.active_uid
        square = self.target_square()
        if square is not None:
            self.cursor = square
            self.map.keep_in_view(square)
        self.redraw()

    def action_target(self, step: int) -> None:
        enemies = self.enemies()
        if not enemies:
            self.notify("No enemy in sight.", timeout=2)
            return
        uids = [i.uid for i in enemies]
        index = (uids.index(self.target) + step) if self.target in uids else 0
        self.aim_at(uids[index % len(uids)])

    def action_cancel(self) -> None:
        if self.target is not None:
            self.target = None
            self.action_home()
            self.redraw()
        elif self.selected != self.match.active_uid:
            self.select_active()

    def held_weapon(self):
        info = unit_info(self.match.battle, self.match.active_uid)
        return self.match.battle.session.weapons.get(info.weapon) if info.weapon else None

    def action_mode(self) -> None:
        weapon = self.held_weapon()
        names = [m.name for m in weapon.modes] if weapon else ["unarmed"]
        current = names.index(self.mode) if self.mode in names else 0
        self.mode = names[(current + 1) % len(names)]
        self.refresh_state()

    def action_aim(self, step: int) -> None:
        weapon = self.held_weapon()
        most = weapon.aim_max if weapon else 0
        self.aim = max(0, min(most, self.aim + step))
        self.refresh_state()

    def action_location(self) -> None:
        locations = list(self.match.battle.session.rules.p.hit_locations) or ["torso"]
        current = locations.index(self.location) if self.location in locations else 0
        self.location = locations[(current + 1) % len(locations)]
        self.refresh_state()

    # --- orders -----------------------------------------------------------------------------

    def action_fire(self) -> None:
        if self.target is None:
            self.action_target(1)           # show the odds first; the next f fires
            return
        self.play(Attack(self.match.active_uid, self.target, self.mode, self.location, self.aim))

    def action_stance(self, stance: str, drop: bool = False) -> None:
        self.play(ChangeStance(self.match.active_uid, stance, drop))

    def action_overwatch(self) -> None:
        if self.cursor == self.match.position(self.match.active_uid):
            self.notify("Put the cursor where the unit should watch, then press o.", timeout=3)
            return
        self.play(SetOverwatch(self.match.active_uid, self.cursor))

    def action_suppress(self) -> None:
        self.play(Suppress(self.match.active_uid, self.cursor))

    def action_throw(self) -> None:
        info = unit_info(self.match.battle, self.match.active_uid)
        grenades = [g for g, n in info.grenades if n > 0]
        if not grenades:
            self.notify(f"{info.name} has no grenades.", severity="warning", timeout=3)
            return
        self.play(Throw(info.uid, self.cursor, grenades[0]))

    def action_reload(self) -> None:
        self.play(Reload(self.match.active_uid))

    def action_draw(self) -> None:
        info = unit_info(self.match.battle, self.match.active_uid)
        if len(info.weapons) < 2:
            self.notify(f"{info.name} carries one weapon.", timeout=3)
            return
        current = info.weapons.index(info.weapon) if info.weapon in info.weapons else -1
        self.mode, self.aim = None, 0
        self.play(Draw(info.uid, (current + 1) % len(info.weapons)))

    def revive_target(self) -> str | None:
        """The downed ally under the cursor, or else the one next to the active unit."""
        under = self.known.get(self.cursor)
        downed = ("unconscious", "dying")
        if under is not None and under.side == self.viewer and under.state in downed:
            return under.uid
        active = self.match.active_uid
        here = self.match.position(active)
        for square, info in self.known.items():
            if (here and info.side == self.viewer and info.state in downed
                    and max(abs(square[0] - here[0]), abs(square[1] - here[1])) == 1):
                return info.uid
        return None

    def action_revive(self) -> None:
        target = self.revive_target()
        if target is None:
            self.notify("No downed ally next to the unit.", timeout=3)
            return
        self.play(Revive(self.match.active_uid, target))

    def action_end_turn(self) -> None:
        self.play(EndTurn(self.match.active_uid))

    def play(self, command: Command) -> None:
        """Submit a person's order; show the refusal, or the events and what comes next."""
        if not self.my_turn():
            return
        result = self.match.submit(command)
        if isinstance(result, Refused):
            self.notify(result.reason, title="Not possible", severity="warning", timeout=4)
            return
        self.took_effect(result)
        if self.match.battle.pending is not None:
            self.app.push_screen(self.defense_prompt(), callback=self.after_defense)
            return
        self.next_turn()

    # --- the tabletop rulesets' choices ---------------------------------------------------

    def defense_prompt(self):
        """The question an attack puts to its defender's player (see Battle.pending)."""
        from game.ui.screens.dialogs import Choice
        defender, attacker, choices = self.match.battle.pending
        weapon = self.match.battle.names().get(self.match.battle.session.pending[0].weapon.id, "")
        body = (f"{self.match.name(attacker)} attacks {self.match.name(defender)} with the {weapon}. "
                "How does the defender meet it?")
        title = f"{self.match.seats[self.match.side_of(defender)].name}: defend"
        return Choice(title, body, [(f"r-{choice}", choice) for choice in choices])

    def after_defense(self, answer: str | None) -> None:
        pending = self.match.battle.pending
        if pending is None or not self.alive():
            return
        choice = answer.split("-", 1)[1] if answer else pending[2][0]     # Escape: the first
        result = self.match.submit(Respond(pending[0], choice))
        if not isinstance(result, Refused):
            self.took_effect(result)
        self.next_turn()

    def _ask(self, title: str, body: str, choices: list[tuple[str, str]], order,
             greyed: frozenset[str] = frozenset()) -> None:
        from game.ui.screens.dialogs import Choice

        def chosen(answer: str | None) -> None:
            if answer is not None and answer != "cancel":
                self.play(order(answer.split("-", 1)[1]))
        self.app.push_screen(Choice(title, body, [*choices, ("cancel", "Cancel")], greyed),
                             callback=chosen)

    def action_defend(self) -> None:
        """u: an active or full defense until the unit's next turn (rulesets that have one)."""
        uid = self.match.active_uid
        kinds = action_costs(self.match.battle, uid).defend
        if not kinds:
            self.notify("These rules have no active defense: take cover or go prone.", timeout=3)
            return
        if len(kinds) == 1:
            self.play(Defend(uid, next(iter(kinds))))
            return
        ap = unit_info(self.match.battle, uid).ap
        short = frozenset(f"d-{kind}" for kind, cost in kinds.items() if not 0 < cost <= ap)
        if len(short) == len(kinds):
            self.notify(f"No defense is affordable: {ap} AP left.", title="Not possible",
                        severity="warning", timeout=4)
            return
        self._ask("Defend", "The defense lasts until this unit's next turn.",
                  [(f"d-{kind}", f"{kind.replace('_', ' ')} ({cost} AP)"
                    + (f": {ap} AP left" if f"d-{kind}" in short else ""))
                   for kind, cost in kinds.items()],
                  lambda kind: Defend(uid, kind), short)

    def action_declare(self) -> None:
        """n: how many actions the unit takes this round (OpenD6: -1D each beyond the first)."""
        rules = self.match.battle.session.rules
        uid = self.match.active_uid
        most = rules.max_actions
        if not most:
            self.notify("These rules have no declared actions.", timeout=3)
            return
        self._ask("Declare actions", "Every action beyond the first takes 1D off every roll "
                  "this round. Declare before the unit acts.",
                  [(f"n-{k}", f"{k}") for k in range(1, most + 1)], lambda k: Declare(uid, int(k)))

    def action_reaction(self) -> None:
        """y: the defense or reaction this unit uses whenever it is attacked."""
        rules = self.match.battle.session.rules
        uid = self.match.active_uid
        choices = rules.standing_choices()
        if len(choices) < 2:
            self.notify("These rules leave the defender no standing choice.", timeout=3)
            return
        self._ask("When attacked", "Auto picks the best defense each time.",
                  [(f"y-{choice}", choice) for choice in choices], lambda choice: ChooseDefense(uid, choice))

