"""What the player's orders on the battle screen become: engine commands.

`Orders` belongs to the battle screen (it holds a reference to it) and does the work of its
order keys: Enter on a square, firing, throwing, the tabletop rulesets' dialogs. Every order
goes to `play`, which submits it and shows the engine's answer (its events, or the reason it
refused).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING


from game.core.commands import (Attack, ChooseDefense, Command, Declare, Defend, Draw, Move,
                                Respond, Revive, Suppress, Throw, parse_shot)
from game.core.events import Event, Refused
from game.core.narrate import watch_choice
from game.core.queries import (action_costs, extra_actions, not_offered, out_of_reach, preview_attack,
                               preview_suppress, revive_cost, revive_odds, unit_info,
                               unit_sees_square)
from game.core.ruleset import ThrowOdds
from game.ui.area import AreaAim, area_odds, friends_caught, pct
from game.ui.match import Match
from game.ui.picture import Picture, enemies, revive_target
from game.ui.screens.dialogs import Choice
from game.ui.screens.roll_prompt import TAKEN_BACK, submit_at_table

if TYPE_CHECKING:
    from game.ui.screens.battle import BattleScreen


class Orders:
    def __init__(self, screen: BattleScreen) -> None:
        self.screen = screen
        self.grenade: str | None = None        # the kind last chosen with m while aiming

    @property
    def match(self) -> Match:
        """The match the orders read: while planning, as the unit being planned will stand
        after its queued orders (`BattleScreen.acting`)."""
        return self.screen.acting

    def act(self) -> None:
        """Enter: target the enemy under the cursor, select an own unit, or walk there."""
        screen, match = self.screen, self.match
        picture = screen.picture
        if screen.area is not None:
            self.commit_area()
            return
        if screen.target is not None:
            self.fire()
            return
        if picture is None:
            return
        info = picture.known.get(screen.cursor)
        if info is not None and info.side != screen.viewer and info.state != "dead":
            screen.aim_at(info.uid)
        elif info is not None:
            screen.selected = info.uid
        elif picture.reach is not None and picture.reach.cost(screen.cursor) is not None:
            path = picture.reach.path_to(screen.cursor)
            if path:
                self.play(Move(match.active_uid, tuple(path)))
        elif screen.selected != match.active_uid:
            screen.select_active()
        else:
            screen.notify(out_of_reach(match.battle, match.active_uid, screen.cursor),
                          title="Out of reach", severity="warning", timeout=4, markup=False)

    def held_weapon(self):
        info = unit_info(self.match.battle, self.match.active_uid)
        return self.match.battle.session.weapons.get(info.weapon) if info.weapon else None

    def fire(self) -> None:
        screen = self.screen
        if screen.target is None and screen.planning_now() and screen.picture is not None \
                and not self.in_own_sight(screen.picture):      # no one in sight: the nearest
            self.play(Attack(self.match.active_uid, "", screen.mode, screen.location, screen.aim))
            return
        if screen.target is None:
            screen.action_target(1)           # show the odds first; the next f fires
            return
        self.play(Attack(self.match.active_uid, screen.target, screen.mode, screen.location,
                         screen.aim))

    def in_own_sight(self, picture: Picture) -> bool:
        """Whether the unit itself sees an enemy (its side may see more, whom it cannot fire at:
        planning, f then orders fire on sight)."""
        battle, uid = self.match.battle, self.match.active_uid
        return uid is not None and any(unit_sees_square(battle, uid, i.square)
                                       for i in enemies(self.match, picture))

    # --- area actions: aimed first, then thrown or fired ------------------------------------

    def grenades(self) -> list[str]:
        """The kinds of grenade the active unit has left."""
        if self.match.active_uid is None:
            return []
        return [g for g, n in unit_info(self.match.battle, self.match.active_uid).grenades if n > 0]

    def throw(self) -> None:
        """g: aim a grenade at the cursor (its odds on the card, its rings on the map); g again
        (or Enter) throws it."""
        screen = self.screen
        if screen.area is not None and screen.area.kind == "throw":
            self.commit_area()
            return
        kinds = self.grenades()
        if not kinds:
            name = self.match.name(self.match.active_uid)
            screen.notify(f"{name} has no grenades.", severity="warning", timeout=3, markup=False)
            return
        screen.target = None
        screen.area = AreaAim("throw", self.grenade if self.grenade in kinds else kinds[0])

    def next_grenade(self) -> None:
        """m while aiming a throw: the unit's next kind of grenade."""
        screen, kinds = self.screen, self.grenades()
        if screen.area is None or screen.area.kind != "throw" or not kinds:
            return
        if len(kinds) == 1:
            screen.notify("Only one kind of grenade.", timeout=2)
            return
        current = kinds.index(screen.area.grenade) if screen.area.grenade in kinds else -1
        self.grenade = kinds[(current + 1) % len(kinds)]
        screen.area = AreaAim("throw", self.grenade)

    def suppress(self) -> None:
        """x: aim suppressive fire at the cursor (the circle and who is in it); x again (or
        Enter) fires."""
        screen, match = self.screen, self.match
        if screen.area is not None and screen.area.kind == "suppress":
            self.commit_area()
            return
        uid = match.active_uid
        if uid is not None and action_costs(match.battle, uid).suppress is None:
            here = match.position(uid) or screen.cursor      # refused before any aiming
            odds = preview_suppress(match.battle, uid, here)
            reason = odds.reason if isinstance(odds, Refused) else "Not possible here."
            screen.notify(reason, title="Not possible", severity="warning", timeout=4,
                          markup=False)
            return
        screen.target = None
        screen.area = AreaAim("suppress")

    def commit_area(self) -> None:
        """Throw or fire what is aimed: refused with the engine's reason before anything is
        spent; with the side's own units in the area, only once the player confirms."""
        screen, match = self.screen, self.match
        aim, at, uid = screen.area, screen.cursor, match.active_uid
        if aim is None or uid is None:
            return
        odds = area_odds(match, aim, at)
        if isinstance(odds, Refused):
            screen.notify(odds.reason, title="Not possible", severity="warning", timeout=4,
                          markup=False)
            return
        command: Command = (Throw(uid, at, aim.grenade) if aim.kind == "throw" and aim.grenade
                            else Suppress(uid, at))
        friends = friends_caught(match, odds)
        if not friends:
            self._fire_area(command)
            return
        throwing = isinstance(odds, ThrowOdds)
        lines = []
        for harm in friends:
            name = match.name(harm.uid) + (" (itself)" if harm.uid == uid else "")
            if throwing:
                lines.append(f"{name}: caught {pct(harm.caught)}, "
                             f"{harm.expected_damage:.1f} damage, down {pct(harm.down)}")
            else:
                lines.append(f"{name}: hit {pct(harm.hit)}, pinned {pct(harm.pinned)}, "
                             f"down {pct(harm.down)}")
        what = "blast" if throwing else "fire"     # Cancel comes first: Enter does not harm them
        body = f"Your own side may be caught in the {what}:\n" + "\n".join(lines)

        def chosen(answer: str | None) -> None:
            if answer == "go" and screen.alive() and screen.area == aim and screen.cursor == at:
                self._fire_area(command)
        screen.app.push_screen(
            Choice("Friends in the area", body,
                   [("cancel", "Cancel"), ("go", "Throw anyway" if throwing else "Fire anyway")]),
            callback=chosen)

    def _fire_area(self, command: Command) -> None:
        self.screen.area = None
        self.play(command)

    def draw(self) -> None:
        info = unit_info(self.match.battle, self.match.active_uid)
        if len(info.weapons) < 2:
            self.screen.notify(f"{info.name} carries one weapon.", timeout=3, markup=False)
            return
        current = info.weapons.index(info.weapon) if info.weapon in info.weapons else -1
        self.screen.mode, self.screen.aim = None, 0
        self.play(Draw(info.uid, (current + 1) % len(info.weapons)))

    def revive(self) -> None:
        """v: first aid on the fallen ally under the cursor (or next to the unit), after a
        dialog with the check's odds (`queries.revive_odds`)."""
        screen, match = self.screen, self.match
        target = (revive_target(match, screen.picture, screen.cursor)
                  if screen.picture else None)
        if target is None:
            screen.notify("No downed ally next to the unit.", timeout=3)
            return
        uid = match.active_uid
        odds = revive_odds(match.battle, uid, target)
        if odds is None:
            self.play(Revive(uid, target))
            return
        chance, stage = odds
        if chance <= 0:                   # no roll of the check reaches its difficulty
            screen.notify(f"{match.name(uid)}'s Heal check cannot succeed: no roll reaches what it "
                          f"takes to {stage} {match.name(target)}. An ally with more Heal skill may.",
                          title="First aid", severity="warning", timeout=5, markup=False)
            return
        cost = revive_cost(match.battle, uid)
        body = (f"{match.name(uid)}'s Heal check to {stage} {match.name(target)} succeeds "
                f"{pct(chance)} of the time; it costs {cost} AP either way.")
        if stage == "stabilize":
            body += " A second check, once stabilized, brings the ally back."
        self._ask("Revive", body, [("v-go", f"{stage.capitalize()} ({cost} AP, {pct(chance)})")],
                  lambda _: Revive(uid, target))

    def play(self, command: Command) -> None:
        """Submit a person's order; show the refusal, or the events and what comes next."""
        screen = self.screen
        if not screen.my_turn():
            return
        if screen.planning_now():         # simultaneous orders: it joins the unit's queue
            screen.planned(command)
            return
        if self.match.battle.table:       # dice rolled at the table: asked for in a worker
            screen.run_worker(self._play_at_table(command), exclusive=True, group="table")
            return
        self._played(self.match.submit(command))

    async def _play_at_table(self, command: Command) -> None:
        self._played(await submit_at_table(self.screen.app, self.match.submit, command))

    def _played(self, result: list[Event] | Refused) -> None:
        screen = self.screen
        if not screen.alive():
            return
        if result == Refused(TAKEN_BACK):           # the table's own choice: no warning
            screen.notify(result.reason, timeout=3, markup=False)
            return
        if isinstance(result, Refused):
            screen.notify(result.reason, title="Not possible", severity="warning", timeout=4,
                          markup=False)
            return
        screen.flow.took_effect(result)
        if self.match.battle.pending is not None:
            screen.app.push_screen(self.defense_prompt(), callback=self.after_defense)
            return
        screen.flow.next_turn()

    # --- the tabletop rulesets' choices ---------------------------------------------------

    def defense_prompt(self) -> Choice:
        """The question an attack puts to its defender's player (see Battle.pending)."""
        match = self.match
        defender, attacker, choices = match.battle.pending
        weapon = match.battle.names().get(match.battle.session.pending[0].weapon.id, "")
        body = (f"{match.name(attacker)} attacks {match.name(defender)} with the {weapon}. "
                "How does the defender meet it?")
        title = f"{match.seats[match.side_of(defender)].name}: defend"    # shown as plain text
        return Choice(title, body, [(f"r-{choice}", choice) for choice in choices])

    def watch_prompt(self) -> Choice:
        """The question a move puts to a watcher's player (see Battle.watch_question): each
        shot the watch's held AP pay for, with its exact odds, or hold fire."""
        match = self.match
        battle = match.battle
        watcher, mover, at, choices = battle.watch_question
        distance = battle.session.grid.distance(battle.session.position(watcher), at)
        body = (f"{match.name(mover)} steps into {match.name(watcher)}'s overwatch at {at}, "
                f"{distance} squares away. Fire now, or hold fire for a later step?")
        shots, holds = [], []
        for index, choice in enumerate(choices):
            label = watch_choice(choice)
            if choice not in ("wait", "pass"):
                mode, aim = parse_shot(choice)
                odds = preview_attack(battle, watcher, mover, mode, aim=aim, reaction=True)
                if not isinstance(odds, Refused):
                    label += f": {pct(odds.hit_chance)} to hit, {odds.expected_damage:.1f} damage"
            # ids take no "+": the choice by its place
            (holds if choice in ("wait", "pass") else shots).append((f"w-{index}", label))
        buttons = holds[:1] + shots + holds[1:]      # holding fire first: a stray Enter waits
        title = f"{match.seats[match.side_of(watcher)].name}: overwatch"
        return Choice(title, body, buttons)

    def watch_answer(self, answer: str | None) -> Respond:
        """The Respond a button of `watch_prompt` stands for (Escape: hold fire, as the first
        button does)."""
        watcher, _, _, choices = self.match.battle.watch_question
        if answer is None:
            return Respond(watcher, "wait" if "wait" in choices else "pass")
        return Respond(watcher, choices[int(answer.split("-", 1)[1])])

    def after_watch(self, answer: str | None) -> None:
        """The watcher's player's answer, carried out."""
        if self.match.battle.watch_question is None or not self.screen.alive():
            return
        command = self.watch_answer(answer)
        if self.match.battle.table:
            self.screen.run_worker(self._respond_at_table(command), exclusive=True, group="table")
            return
        self._responded(self.match.submit(command))

    def after_defense(self, answer: str | None) -> None:
        pending = self.match.battle.pending
        if pending is None or not self.screen.alive():
            return
        choice = answer.split("-", 1)[1] if answer else pending[2][0]     # Escape: the first
        if self.match.battle.table:
            self.screen.run_worker(self._respond_at_table(Respond(pending[0], choice)),
                                   exclusive=True, group="table")
            return
        self._responded(self.match.submit(Respond(pending[0], choice)))

    async def _respond_at_table(self, command: Respond) -> None:
        result = await submit_at_table(self.screen.app, self.match.submit, command)
        if self.screen.alive() and result == Refused(TAKEN_BACK):
            if self.match.battle.watch_question is not None:
                self.screen.app.push_screen(self.watch_prompt(), callback=self.after_watch)
                return                    # the move still waits: choose again
            self.screen.app.push_screen(self.defense_prompt(), callback=self.after_defense)
            return                        # the attack still waits: choose again
        self._responded(result)

    def _responded(self, result: list[Event] | Refused) -> None:
        if not self.screen.alive():
            return
        if not isinstance(result, Refused):
            self.screen.flow.took_effect(result)
        self.screen.flow.next_turn()

    def _ask(self, title: str, body: str, choices: list[tuple[str, str]],
             order: Callable[[str], Command], greyed: frozenset[str] = frozenset()) -> None:
        def chosen(answer: str | None) -> None:
            if answer is not None and answer != "cancel":
                self.play(order(answer.split("-", 1)[1]))
        self.screen.app.push_screen(Choice(title, body, [*choices, ("cancel", "Cancel")], greyed),
                                    callback=chosen)

    def defend(self) -> None:
        """u: an active or full defense until the unit's next turn (rulesets that have one)."""
        uid = self.match.active_uid
        kinds = action_costs(self.match.battle, uid).defend
        if not kinds:
            self.screen.notify("These rules have no active defense: take cover or go prone.",
                               timeout=3)
            return
        if len(kinds) == 1:
            self.play(Defend(uid, next(iter(kinds))))
            return
        ap = unit_info(self.match.battle, uid).ap
        keys = {kind.replace(":", "-"): kind for kind in kinds}    # a widget id has no ":"
        short = frozenset(f"d-{key}" for key, kind in keys.items() if not 0 < kinds[kind] <= ap)
        if len(short) == len(kinds):
            self.screen.notify(f"No defense is affordable: {ap} AP left.", title="Not possible",
                               severity="warning", timeout=4)
            return
        self._ask("Defend", "The defense lasts until this unit's next turn.",
                  [(f"d-{key}", f"{self._defense_words(kind)} ({kinds[kind]} AP)"
                    + (f": {ap} AP left" if f"d-{key}" in short else ""))
                   for key, kind in keys.items()],
                  lambda key: Defend(uid, keys[key]), short)

    def _defense_words(self, kind: str) -> str:
        """A defense's label; one against a single enemy (`disengage:<id>`) names it."""
        kind, _, against = kind.partition(":")
        words = kind.replace("_", " ")
        if against:
            words += f" from {unit_info(self.match.battle, against).name}"
        return words

    def extra(self, key: str) -> None:
        """a, b, R...: the ruleset's own actions (OpenD6: aim over rounds, a Character Point;
        d20: unjam, pick up or use an item, jump to the square under the cursor)."""
        screen, uid = self.screen, self.match.active_uid
        found = next((e for e in extra_actions(self.match.battle, uid) if e.key == key), None)
        if found is None:
            self.screen.notify(not_offered(self.match.battle, uid, key), title="Not possible",
                               severity="warning", timeout=4, markup=False)
            return
        if found.needs_target and not found.why:
            if screen.target is None:
                screen.action_target(1)           # pick the target first; the key again takes it
                return
            found = next(e for e in extra_actions(self.match.battle, uid, screen.target) if e.key == key)
        elif found.needs_square and not found.why:    # toward the square under the cursor
            found = next(e for e in extra_actions(self.match.battle, uid, square=screen.cursor)
                         if e.key == key)
        if found.command is None:
            screen.notify(found.why or "Not possible now.", title="Not possible", severity="warning",
                          timeout=4, markup=False)
            return
        self.play(found.command)

    def declare(self) -> None:
        """n: how many actions the unit takes this round (OpenD6: -1D each beyond the first)."""
        uid = self.match.active_uid
        most = self.match.battle.session.rules.max_actions
        if not most:
            self.screen.notify("These rules have no declared actions.", timeout=3)
            return
        self._ask("Declare actions", "Every action beyond the first takes 1D off every roll "
                  "this round. Declare before the unit acts.",
                  [(f"n-{k}", f"{k}") for k in range(1, most + 1)], lambda k: Declare(uid, int(k)))

    def reaction(self) -> None:
        """y: the defense or reaction this unit uses whenever it is attacked."""
        uid = self.match.active_uid
        choices = self.match.battle.session.rules.standing_choices()
        if len(choices) < 2:
            self.screen.notify("These rules leave the defender no standing choice.", timeout=3)
            return
        self._ask("When attacked", "Auto picks the best defense each time.",
                  [(f"y-{choice}", choice) for choice in choices],
                  lambda choice: ChooseDefense(uid, choice))
