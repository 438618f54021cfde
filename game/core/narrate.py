"""Events told in words a person reads, every roll and modifier included."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from game.core import events as ev

Namer = Callable[[str], str]


HELD = {"next step": "the next step", "move over": "this move is over"}


def watch_choice(choice: str) -> str:
    """A watcher's possible answer (see OverwatchAsked) in words: "fire burst aimed +2"."""
    if choice == "wait":
        return "wait for the next step"
    if choice == "pass":
        return "let this move pass"
    mode, _, aim = choice.partition("+")
    return f"fire {mode.replace('_', ' ')}" + (f" aimed +{aim}" if aim else "")


def describe(event: ev.Event, name: Namer, measure: str = "HP") -> str:
    """One line for the log. `name` turns a uid (or side id) into a display name; `measure` is
    what the ruleset calls what damage takes off (HP, Durability left, Body Points)."""
    if isinstance(event, ev.Damaged):
        return _damaged(event, name, measure)
    if isinstance(event, ev.HealthChanged):
        return _health(event, name, measure)
    teller = _TELLERS.get(type(event))
    return teller(event, name) if teller else event.kind.replace("_", " ")


def tell(events: Iterable[ev.Event], line: Callable[[ev.Event], str],
         name: Namer, after: Callable[[ev.Event, str], str] | None = None) -> list[str]:
    """The log's lines for `events`, each told by `line`, but a unit's steps one after another
    (nothing happening between them) are one line: where it went, and the AP it all cost.
    The move that lands a jump is left to the jump's own line. `after`, if given, gets each
    line with its (first) event and may reword it."""
    lines: list[str] = []
    walk: list[ev.Moved] = []
    last: ev.Event | None = None

    def end_walk() -> None:
        if walk:
            text = line(walk[0]) if len(walk) == 1 else _walked(walk, name)
            lines.append(after(walk[0], text) if after else text)
            walk.clear()

    for event in events:
        landed = _lands_jump(last, event)
        last = event
        if landed:
            continue
        if isinstance(event, ev.Moved):
            if walk and (walk[-1].unit, walk[-1].end) != (event.unit, event.start):
                end_walk()
            walk.append(event)
        else:
            end_walk()
            lines.append(after(event, line(event)) if after else line(event))
    end_walk()
    return lines


def _lands_jump(before: ev.Event | None, event: ev.Event) -> bool:
    """Whether `event` is the move a jump just told of (its line names the landing square)."""
    return (isinstance(event, ev.Moved) and isinstance(before, ev.ActionTaken)
            and before.action == "jump" and before.success and before.unit == event.unit
            and event.ap_cost == 0)


def _walked(steps: list[ev.Moved], n: Namer) -> str:
    rough = sum(step.rough for step in steps)
    over = f", {rough} of them rough ground" if rough else ""
    return (f"{n(steps[0].unit)} moves {len(steps)} squares to {steps[-1].end} "
            f"({sum(step.ap_cost for step in steps)} AP{over}; {steps[-1].ap_left} left).")


ORDER_WORDS = {"move": "move", "stance": "change of stance", "attack": "attack",
               "overwatch": "overwatch", "suppress": "suppressive fire", "throw": "throw",
               "reload": "reload", "draw": "draw", "revive": "first aid", "lean": "lean"}


def _order_lost(e: ev.OrderLost, n: Namer) -> str:
    what = ORDER_WORDS.get(e.order, e.order.replace("_", " "))
    at = f" on {n(e.target)}" if e.target else ""
    then = {"skip": "", "hold": f" {n(e.unit)} holds for the rest of the round.",
            "nearest": f" {n(e.unit)} fires at the nearest enemy in sight, {n(e.instead)}, instead."}
    reason = e.reason.rstrip(".")
    alike = f" (and the {e.orders - 1} after it)" if e.orders > 2 else " (and the next)" if e.orders == 2 else ""
    return f"{n(e.unit)}'s {what}{at}{alike} cannot be carried out: {reason}.{then.get(e.then, '')}"


def _order_untriggered(e: ev.OrderUntriggered, n: Namer) -> str:
    if e.order == "attack":
        shots = f" (none of its {e.orders} orders to fire went off)" if e.orders > 1 else ""
        return f"{n(e.unit)} holds fire: {e.reason}{shots}."
    what = ORDER_WORDS.get(e.order, e.order.replace("_", " "))
    return f"{n(e.unit)}'s {what} is not needed: {e.reason}."


def _attack(e: ev.AttackResolved, n: Namer) -> str:
    how = "attacks"
    if e.reaction:               # an overwatch shot, or a blow at a unit leaving one's reach
        how = "reacts and fires at" if e.ammo_used else "reacts and strikes at"
    where = "" if e.location == "torso" else f" (aimed at the {e.location})"
    outcome = (f"{e.hits} hit{'s' if e.hits != 1 else ''}" if e.hit else "miss")
    mode = e.mode.replace("_", " ")
    if e.detail:
        verdict = "" if e.detail.endswith(outcome) else f": {outcome}"   # said once, not twice
        return f"{n(e.attacker)} {how} {n(e.target)} with {n(e.weapon)} ({mode}): {e.detail}{verdict}."
    return (f"{n(e.attacker)} {how} {n(e.target)}{where} with {n(e.weapon)} ({mode}): "
            f"attack {e.attack.describe()} against defense {e.defense.describe()}: {outcome}.")


def _defense(kind: str, n: Namer) -> str:
    """A defense's words; one against a single enemy is written `<kind>:<its id>`."""
    kind, _, against = kind.partition(":")
    return kind.replace("_", " ") + (f" from {n(against)}" if against else "")


def _damaged(e: ev.Damaged, n: Namer, measure: str) -> str:
    if e.source == "bleeding":
        return f"{n(e.unit)} bleeds: {e.taken} {measure} ({e.hp_before} -> {e.hp_after})."
    dice = "+".join(map(str, e.rolls))
    if e.rolls and sum(e.rolls) != e.rolled:       # a bonus, a multiplier: say the dice's sum
        dice += f" = {sum(e.rolls)}, {e.rolled} after bonuses and multipliers"
    armor = f", armor stops {e.resisted}" if e.resisted else ""
    took = (f"{e.taken} to HP ({e.hp_before} -> {e.hp_after})" if measure == "HP" else
            f"{e.taken} through, {measure} {e.hp_before} -> {e.hp_after}")
    return f"{n(e.unit)} takes {e.rolled} {e.damage_type} damage ({dice}){armor}: {took}."


def _health(e: ev.HealthChanged, n: Namer, measure: str) -> str:
    words = {"knocked_out": "is knocked unconscious", "dying": "is down and dying",
             "dead": "is dead", "stabilized": "is stabilized", "revived": "is back on their feet"}
    return f"{n(e.unit)} {words.get(e.state, e.state)} ({measure} {e.hp})."


def _morale(e: ev.MoraleChanged, n: Namer) -> str:
    return (f"{n(e.side)} morale {e.before:g} -> {e.after:g} ({e.cause}): {e.percent}% of the "
            f"start, modifier {e.modifier:+d}.")


def _thrown(e: ev.GrenadeThrown, n: Namer) -> str:
    text = (f"{n(e.unit)} throws {n(e.grenade)} at {e.target}: Demolitions {e.check.describe()} "
            f"against {e.difficulty}")
    if e.scatter_roll is None:
        return text + ": right on target."
    text += f": off by {e.scatter_distance} (direction d10 {e.scatter_roll})"
    if e.landed == e.target and e.scatter_distance:    # its first square of scatter is a wall
        return text + f", but a wall stops it at {e.landed}."
    return text + f", lands at {e.landed}."


def _tested(e: ev.SuppressionTested, n: Namer) -> str:
    text = f"{n(e.unit)} tries to break suppression: Willpower {e.willpower.describe()} against {e.against}"
    if e.dodge is None:
        return text + ": stays pinned."
    return text + f", then Dodge {e.dodge.describe()}: {'breaks free' if e.broken else 'is caught by the fire'}."


_TELLERS: dict[type, Callable] = {
    ev.BattleStarted: lambda e, n: f"Battle begins: {n(e.scenario)} under {e.ruleset} rules (seed {e.seed}).",
    ev.InitiativeRolled: lambda e, n: (f"{n(e.unit)} initiative {e.check.describe()}"
                                       + (" (ambushing)" if e.ambusher else "") + "."),
    ev.InitiativeOrder: lambda e, n: "Initiative order: " + ", ".join(n(u) for u in e.order) + ".",
    ev.RoundStarted: lambda e, n: f"Round {e.round} begins.",
    ev.ObjectiveChanged: lambda e, n: f"Objective {e.state} ({n(e.side)}): {e.detail}.",
    ev.UnitLeft: lambda e, n: f"{n(e.unit)} leaves the battle by {e.zone.replace('_', ' ')}.",
    ev.Reinforced: lambda e, n: (f"Reinforcements for {n(e.side)} at {e.zone.replace('_', ' ')}: "
                                 + ", ".join(n(u) for u in e.units) + "."),
    ev.Announced: lambda e, n: e.message,
    ev.TurnStarted: lambda e, n: (f"{n(e.unit)}'s turn: {e.ap} AP"
                                  + (f" ({e.debt} still owed)" if e.debt else "") + "."),
    ev.TurnUnseen: lambda e, n: f"{n(e.unit)} acts, out of sight.",
    ev.PlanningStarted: lambda e, n: (f"Round {e.round}: orders are chosen at once "
                                      f"({', '.join(n(side) for side in e.sides)})."),
    ev.OrdersGiven: lambda e, n: f"Orders given: {n(e.side)}.",
    ev.OrderLost: lambda e, n: _order_lost(e, n),
    ev.OrderUntriggered: lambda e, n: _order_untriggered(e, n),
    ev.TurnSkipped: lambda e, n: f"{n(e.unit)} skips the turn: {e.reason}.",
    ev.TurnEnded: lambda e, n: f"{n(e.unit)} ends the turn.",
    ev.BattleEnded: lambda e, n: (f"Battle over: victory for {n(e.winner)} ({e.reason})." if e.winner
                                  else f"Battle over: a draw ({e.reason})."),
    ev.Moved: lambda e, n: (f"{n(e.unit)} moves to {e.end} ({e.ap_cost} AP"
                            + (", rough ground" if e.rough else "") + f"; {e.ap_left} left)."),
    ev.MoveStopped: lambda e, n: f"{n(e.unit)} stops at {e.at}: {e.reason}.",
    ev.StanceChanged: lambda e, n: (f"{n(e.unit)} is pinned prone." if e.forced
                                    else f"{n(e.unit)} goes from {e.old} to {e.new} ({e.ap_cost} AP)."),
    ev.WeaponDrawn: lambda e, n: f"{n(e.unit)} draws the {n(e.weapon)} ({e.ap_cost} AP).",
    ev.Reloaded: lambda e, n: (f"{n(e.unit)} reloads the {n(e.weapon)}: {e.ammo} rounds, "
                               f"{e.spare} magazine{'' if e.spare == 1 else 's'} left ({e.ap_cost} AP)."),
    ev.Aimed: lambda e, n: f"{n(e.unit)} aims: +{e.level} ({e.ap_cost} AP).",
    ev.PointsSpent: lambda e, n: (f"{n(e.unit)} spends {e.points} Character Point{'s' if e.points != 1 else ''}: "
                                  f"+{e.points}D on the next roll ({e.left} left)."),
    ev.AttackResolved: _attack,
    ev.Leaned: lambda e, n: (f"{n(e.unit)} leans out from total cover ({e.ap_cost} AP)." if e.out
                             else f"{n(e.unit)} leans back behind total cover ({e.ap_cost} AP)." if e.ap_cost
                             else f"{n(e.unit)} steps out from behind total cover."),
    ev.HealAttempted: lambda e, n: (f"{n(e.healer)} tries to {e.stage} {n(e.target)}: Heal "
                                    f"{e.check.describe()} against DS {e.difficulty}: "
                                    f"{'success' if e.success else 'failure'}."),
    ev.MoraleChanged: _morale,
    ev.OverwatchSet: lambda e, n: (f"{n(e.unit)} watches toward {e.toward} ({e.ap_cost} AP, "
                                   f"{e.held_ap} held for the shot"
                                   + ("; asks before it fires" if e.asks else "")
                                   + (f"; only within {e.within} squares" if e.within else "") + ")."),
    ev.OverwatchTriggered: lambda e, n: f"{n(e.mover)} moves into {n(e.unit)}'s overwatch at {e.at}!",
    ev.OverwatchEnded: lambda e, n: f"{n(e.unit)} stops watching: {e.reason}.",
    ev.OverwatchAsked: lambda e, n: (f"{n(e.mover)} steps into {n(e.unit)}'s overwatch at {e.at}: "
                                     "fire, or hold?"),
    ev.OverwatchHeld: lambda e, n: f"{n(e.unit)} holds fire until {HELD[e.until]}.",
    ev.SuppressionDodged: lambda e, n: (f"{n(e.unit)} dodges {e.dodge.describe()}: "
                                        + ("hit, and pinned prone." if e.hit else "pinned prone.")),
    ev.SuppressionTested: _tested,
    ev.SuppressionEnded: lambda e, n: f"{n(e.unit)} is no longer pinned: {e.reason}.",
    ev.GrenadeThrown: _thrown,
    ev.Defended: lambda e, n: (f"{n(e.unit)}: {_defense(e.defense, n)} until its next turn"
                               + (f", {e.check.total} to beat" if e.check is not None else "")
                               + (f" ({e.bonus:+d})" if e.bonus else "") + f" ({e.ap_cost} AP)."),
    ev.DefenseChosen: lambda e, n: f"{n(e.unit)} will defend with: {e.choice}.",
    ev.DefenseAsked: lambda e, n: (f"{n(e.attacker)} attacks {n(e.unit)} with {n(e.weapon)}: "
                                   f"{n(e.unit)}'s player chooses how to meet it "
                                   f"({', '.join(e.choices)})."),
    ev.ActionsDeclared: lambda e, n: (f"{n(e.unit)} declares {e.actions} action"
                                      + ("s" if e.actions != 1 else "")
                                      + (f": -{e.penalty}D to each." if e.penalty else ".")),
    ev.StatusChanged: lambda e, n: (f"{n(e.unit)}: {e.status}"
                                    + (f" ({e.turns})" if e.turns else " until healed" if e.lasting else " ends")
                                    + f" - {e.detail}."),
    ev.ActionTaken: lambda e, n: f"{n(e.unit)} {e.detail} ({e.ap_cost} AP).",
    ev.ModifierGiven: lambda e, n: (f"The game master gives {n(e.unit)}'s next attack roll "
                                    f"{e.modifier:+d}: {e.reason}." if e.modifier else
                                    f"The game master takes back {n(e.unit)}'s modifier: {e.reason}."),
    ev.HealthSet: lambda e, n: (f"The game master sets {n(e.unit)}'s {e.measure} to {e.hp_after} "
                                f"(was {e.hp_before}): {e.reason}."),
    ev.Exploded: lambda e, n: (f"The {n(e.grenade)} explodes at {e.at}: "
                               f"{'+'.join(map(str, e.rolls))} = {sum(e.rolls)} {e.damage_type}, "
                               f"one die less each ring out to {e.radius}."),
}
