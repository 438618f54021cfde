"""The skirmish terminal app: `run_app()` opens the main menu.

The app owns the screens, the save folder and the match being played. It never decides a
rule: battles are played through `game.core.engine.Battle.submit`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from game.saves import SaveError, list_campaign_saves, resolve_save_dir, saved_battle, write_save
from game.ui.screens.menu import MainMenu

if TYPE_CHECKING:                      # the engine loads when a battle starts, not before the menu
    from game.ui.match import Match, Seat
    from game.ui.screens.campaign import CampaignRun
    from game.ui.screens.new_battle import FormChoices

COMPUTER_DELAY = 0.45          # seconds between a computer player's commands
CAMPAIGN_LEVEL = "normal"      # the computer player of a campaign's other sides


class SkirmishApp(App):
    CSS_PATH = Path(__file__).with_name("app.tcss")     # absolute: subclasses live elsewhere
    TITLE = "skirmish"
    ENABLE_COMMAND_PALETTE = True
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (80, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (24, "-tall")]
    BINDINGS = [
        Binding("f1", "help", "Help"),
        Binding("question_mark", "help", "Help", show=False),
        Binding("ctrl+q", "quit", "Quit", priority=True),
    ]

    def __init__(self, save_dir: str | None = None, *,
                 computer_delay: float = COMPUTER_DELAY, watch: dict | None = None,
                 library: Any = None) -> None:
        super().__init__()
        self.computer_delay = computer_delay
        self.watch = watch                  # a save's state to open in the Replay screen
        self.save_problem = ""
        try:
            self.save_folder = resolve_save_dir(save_dir)
        except SaveError as error:
            self.save_folder = None
            self.save_problem = str(error)
        self.library: Any = library         # the bundled content and a mod's (--content)
        self.library_problem = ""
        self.form_choices: FormChoices | None = None   # the New battle form's last choices
        self.match: Match | None = None
        self.campaign: CampaignRun | None = None

    async def on_event(self, event: events.Event) -> None:
        # Keys and clicks queued in a burst can arrive after quitting began: Textual 8 then
        # raises ScreenStackError looking for a screen to give them to, or hands them to a
        # screen whose widgets are already being removed (NoMatches in its key handlers).
        if isinstance(event, (events.Key, events.MouseEvent)) and not self._takes_input():
            return
        await super().on_event(event)

    def _takes_input(self) -> bool:
        if self._exit or not self.screen_stack:
            return False
        screen = self.screen_stack[-1]
        return screen.is_attached and not (screen._closing or screen._pruning)

    def on_mount(self) -> None:
        self.push_screen(MainMenu())
        if self.watch is not None:
            self.watch_replay(self.watch)
        if self.save_problem:
            self.notify(f"{self.save_problem} Saving is off.", severity="warning", timeout=8,
                        markup=False)

    # --- content ------------------------------------------------------------------------------

    def get_library(self) -> Any:
        if self.library is None and not self.library_problem:
            from game.content.loader import ContentError, load_library
            try:
                self.library = load_library()
            except ContentError as error:
                self.library_problem = f"The bundled content has problems:\n{error}"
        return self.library

    # --- starting and leaving battles -----------------------------------------------------------

    def action_new_battle(self) -> None:
        self.leave_battle(then=self._open_new_battle)

    def _open_new_battle(self) -> None:
        from game.ui.screens.new_battle import FormChoices, NewBattle
        library = self.get_library()
        if library is None:
            self._tell("Cannot start a battle", self.library_problem)
            return
        if self.form_choices is None:
            self.form_choices = FormChoices()
        self.push_screen(NewBattle(library, choices=self.form_choices))

    async def begin_battle(self, setup: Any, seed: int, seats: dict[str, Seat]) -> None:
        """Build a battle from the New battle form; a problem is shown, never raised."""
        from game.core.dice import BadRoll, RollNeeded
        from game.rulesets import new_battle
        from game.ui import players
        from game.ui.match import Match, table_sides
        from game.ui.screens.roll_prompt import RollPrompt
        await players.settle()
        opening: tuple[int, ...] = ()
        while True:
            try:
                battle = new_battle(setup, seed, table=table_sides(seats), opening_rolls=opening,
                                    asking=tuple(side for side in table_sides(seats) if seats[side].human))
                break
            except (RollNeeded, BadRoll) as need:   # initiative rolled at the table
                faces = await self.push_screen_wait(RollPrompt(need.wanted))
                if faces is None:
                    return                      # back to the form
                opening = (*need.wanted.typed, *faces)
            except Exception as error:          # content that validates but cannot be played
                self._tell("This battle cannot start", str(error) or type(error).__name__)
                return
        await self.start_match(Match(battle, seats))

    async def start_match(self, match: Match) -> None:
        from game.ui.screens.battle import BattleScreen
        await self._back_to_menu()
        self.match = match
        self.push_screen(BattleScreen(match))

    async def _back_to_menu(self) -> None:
        """Pop every screen above the main menu, then close the battle once no computer player
        is still reading it. The pops are not awaited: a worker cancelled while awaiting one
        (when the app quits) makes Textual 8 raise during shutdown."""
        while len(self.screen_stack) > 2 and not isinstance(self.screen, MainMenu):
            self.pop_screen()
        if self.match is not None:
            from game.ui import players
            await players.settle()
            self.match.close()
            self.match = None

    def leave_battle(self, then: Callable[[], Any] | None = None) -> None:
        """Back to the main menu, asking first if the battle changed since it was saved."""
        def done() -> None:
            self.run_worker(partial(self._leave, then), exclusive=True, group="leave")

        self._ask_unsaved(done, "Leave the battle")

    async def _leave(self, then: Callable[[], Any] | None) -> None:
        await self._back_to_menu()
        if then is not None:
            then()

    def after_game_over(self, choice: str | None) -> None:
        if self.match is not None:
            self.match.mark_saved()                        # nothing left to save
        if self._campaign_battle_over(quitting=choice == "quit"):
            return
        if choice == "quit":
            self.call_later(self.exit)         # after the game-over screen has been popped
        elif choice == "new":
            self.action_new_battle()
        else:
            self.leave_battle()

    # --- campaigns ----------------------------------------------------------------------------------
    # A campaign is saved (one campaign save per campaign) when it starts and after each of its
    # battles; a battle of it saved midway carries the campaign with it.

    def action_campaign(self) -> None:
        self.leave_battle(then=self._open_campaigns)

    def _open_campaigns(self) -> None:
        from game.ui.screens.campaign import CampaignMenu
        library = self.get_library()
        if library is None:
            self._tell("Cannot start a campaign", self.library_problem)
            return

        def chosen(run: CampaignRun | None) -> None:
            if run is not None:
                self.campaign = run
                self._save_campaign()
                self.show_briefing()

        self.push_screen(CampaignMenu(library, self.save_folder), callback=chosen)

    def show_briefing(self) -> None:
        from game.ui.screens.campaign import Briefing
        if self.campaign is None:
            return

        def chosen(choice: str | None) -> None:
            if choice == "fight":
                self.run_worker(self._fight_campaign, exclusive=True, group="begin")
            elif choice == "quit":
                self.call_later(self.exit)

        self.push_screen(Briefing(self.campaign, CAMPAIGN_LEVEL), callback=chosen)

    async def _fight_campaign(self) -> None:
        from game.campaign import battle_seed, battle_setup
        from game.rulesets import new_battle
        from game.ui import players
        from game.ui.match import Match, Seat
        run = self.campaign
        if run is None or run.state.step is None:
            return
        await players.settle()
        try:
            setup = battle_setup(run.state, run.campaign, run.library)
            battle = new_battle(setup, battle_seed(run.state))
        except Exception as error:              # content that changed since the campaign began
            self._tell("This battle cannot start", str(error) or type(error).__name__)
            return
        side = run.campaign.side_of(run.campaign.step(run.state.step))
        seats = {spec.id: Seat(spec.id, True, spec.name) if spec.id == side else
                 Seat(spec.id, False, f"Computer ({CAMPAIGN_LEVEL})", CAMPAIGN_LEVEL)
                 for spec in setup.scenario.sides}
        match = Match(battle, seats)
        run.match = match
        await self.start_match(match)

    def _campaign_battle_over(self, *, quitting: bool) -> bool:
        """Take a finished campaign battle into its campaign, save it and brief the player on
        what comes next; False when the battle was not a campaign's."""
        from game.campaign import after_battle
        run, match = self.campaign, self.match
        if run is None or match is None or run.match is not match or not match.over:
            return False
        session = match.battle.session
        session.use()
        fought = len(run.state.history)
        run.state = after_battle(run.state, run.campaign, session)
        run.match = None
        self._keep_a_campaign_that_moved_on(fought)
        self._save_campaign()
        if quitting:
            self.call_later(self.exit)
        else:
            self.leave_battle(then=self.show_briefing)
        return True

    def _keep_a_campaign_that_moved_on(self, fought: int) -> None:
        """A battle loaded from an older save of a campaign that has since gone on (more
        battles fought, or ended) writes its outcome beside that campaign save, never over it."""
        from game.campaign import read_campaign
        run = self.campaign
        if run is None or run.save_name is None or self.save_folder is None:
            return
        try:
            kept = read_campaign(self.save_folder, run.save_name)
        except SaveError:
            return                         # no save yet, or one that cannot be read: nothing to keep
        if len(kept.history) <= fought and kept.ending is None:
            return
        base = run.save_name
        run.save_name = self._unused_campaign_name(base)
        self.notify(f"The campaign save {base} had gone on since this battle was saved; it is "
                    f"kept as it was, and this outcome is saved as {run.save_name}.",
                    title="Campaign kept", timeout=10, markup=False)

    def _unused_campaign_name(self, base: str) -> str:
        """`base`, or `base-2`, `base-3`...: the first no campaign save has."""
        assert self.save_folder is not None
        names = {info.path.stem for info in list_campaign_saves(self.save_folder)}
        name, number = base, 2
        while name in names:
            name, number = f"{base}-{number}", number + 1
        return name

    def _save_campaign(self) -> None:
        from game.campaign import save_campaign, save_name
        run = self.campaign
        if run is None:
            return
        if self.save_folder is None:
            self.notify("Saving is off: the campaign will not be kept.", severity="warning",
                        timeout=5, markup=False)
            return
        if run.save_name is None:          # a campaign begun afresh: never over an earlier one
            run.save_name = self._unused_campaign_name(save_name(run.state))
        try:
            save_campaign(self.save_folder, run.state, run.save_name)
        except SaveError as error:
            self.notify(str(error), title="The campaign was not saved", severity="warning",
                        timeout=8, markup=False)

    def _campaign_of(self, state: dict) -> CampaignRun | None:
        """The campaign a saved battle belongs to, if any (a problem is told, not raised)."""
        from game.campaign import reopen, state_from_dict
        from game.ui.screens.campaign import CampaignRun
        saved = state.get("campaign")
        if not isinstance(saved, dict):
            return None
        try:
            campaign_state = state_from_dict(saved.get("state"))
            campaign, library = reopen(campaign_state)
        except ValueError as error:
            self.notify(f"The battle is played on its own: its campaign cannot go on ({error}).",
                        severity="warning", timeout=8, markup=False)
            return None
        name = saved.get("save_name")
        return CampaignRun(campaign, library, campaign_state,
                           name if isinstance(name, str) else None)

    # --- saving and loading -----------------------------------------------------------------------

    def save_match(self, then: Callable[[], Any] | None = None, problem: str = "") -> None:
        from game.ui.screens.dialogs import Choice, SaveAs
        match = self.match
        if match is None:
            return
        if self.save_folder is None:
            self._tell("Saving is off", self.save_problem or "There is no save folder.")
            return
        session = match.battle.session
        folder = self.save_folder
        base = suggestion = f"{session.setup.scenario.id}-round{session.round}"
        for number in range(2, 100):      # not the name of another battle's save
            if saved_battle(folder, suggestion) in (None, match.battle_id):
                break
            suggestion = f"{base}-{number}"

        def chosen(name: str | None) -> None:
            if name is None:
                return
            if saved_battle(folder, name) not in (None, match.battle_id):
                self.push_screen(Choice("Replace that save?",
                                        f"A save called {name} is there already, of another "
                                        "battle or an earlier point of this one. Replace it?",
                                        [("replace", "Replace it"), ("rename", "Another name")]),
                                 callback=lambda answer: write(name) if answer == "replace"
                                 else self.save_match(then, "Choose another name."))
                return
            write(name)

        def write(name: str) -> None:
            assert folder is not None
            state = match.state()
            run = self.campaign
            if run is not None and run.match is match:
                state["campaign"] = {"state": run.state.model_dump(mode="json"),
                                     "save_name": run.save_name}
            try:
                write_save(folder, name, state)
            except SaveError as error:
                self.save_match(then, str(error))
                return
            match.mark_saved()
            self.notify(f"Saved as {name}.", timeout=3, markup=False)
            if then is not None:
                then()

        self.push_screen(SaveAs(suggestion, problem), callback=chosen)

    def action_load(self) -> None:
        from game.ui.screens.load import LoadSave

        def chosen(state: dict | None) -> None:
            if state is not None:
                self.run_worker(partial(self._load, state), exclusive=True, group="load")

        self._ask_unsaved(lambda: self.push_screen(LoadSave(self.save_folder), callback=chosen),
                          "Load another battle")

    async def _load(self, state: dict) -> None:
        from game.ui import players
        from game.ui.match import Match
        await players.settle()
        try:
            match = Match.from_state(state)
        except Exception as error:       # a damaged state, or content that no longer loads
            self._tell("This save cannot be loaded",
                       f"{load_problem(error)}\nThe file was left as it was.")
            return
        run = self._campaign_of(state)
        if run is not None:
            self.campaign, run.match = run, match
        await self.start_match(match)

    def watch_replay(self, state: dict, *, leave: bool = True) -> None:
        """Open the Replay screen of a saved battle's state; `leave` the battle being played
        first (watching from the load screen), else watch over the current screen."""
        self.run_worker(partial(self._watch, state, leave), exclusive=True, group="load")

    async def _watch(self, state: dict, leave: bool) -> None:
        from game.replay import Replay, ReplayError, open_views
        from game.ui import players
        from game.ui.screens.replay import ReplayScreen
        await players.settle()           # no computer player may be reading a battle meanwhile
        try:
            replay = Replay.from_state(state)
        except ReplayError as error:
            self._tell("This battle cannot be replayed",
                       f"{load_problem(error)}\nThe file was left as it was.")
            return
        views, why = open_views(replay, state)
        if not views:
            replay.close()
            self._tell("This battle cannot be replayed yet", why)
            return
        if leave:
            await self._back_to_menu()
        self.push_screen(ReplayScreen(replay, views))

    def _ask_unsaved(self, go_on: Callable[[], Any], title: str) -> None:
        """Run `go_on` at once, or after the player chose what to do with an unsaved battle."""
        match = self.match
        if match is None or match.over or not match.dirty:
            go_on()
            return
        from game.ui.screens.dialogs import Choice

        def chosen(answer: str | None) -> None:
            if answer == "save":
                self.save_match(then=go_on)
            elif answer == "discard":
                go_on()

        body = "The battle has changed since it was last saved."
        choices = [("save", "Save first"), ("discard", "Don't save"), ("cancel", "Cancel")]
        self.push_screen(Choice(title, body, choices), callback=chosen)

    def action_quit(self) -> None:
        # exit once the dialogs are gone: quitting with a screen half popped raises in Textual 8
        self._ask_unsaved(lambda: self.call_later(self.exit), "Quit skirmish")

    # --- help and the command palette -----------------------------------------------------------

    def action_help(self) -> None:
        from game.ui.screens.help import Help
        if isinstance(self.screen, Help):
            return
        terrain: list[tuple[str, str, str]] = []
        if self.match is not None:
            setup = self.match.battle.session.setup
            rules = [(setup.ruleset.name, setup.ruleset.description)]
            full = Path(__file__).resolve().parents[2] / "docs" / f"RULES-{setup.ruleset.id}.md"
            if full.is_file():
                rules.append(("in full", f"Every rule and choice: {full}"))
            from game.ui.glyphs import safe_color
            terrain = [(t.glyph, safe_color(t.color), t.name) for t in setup.terrain]
            viewer = getattr(self.screen, "viewer", None)
            if isinstance(viewer, str):         # the items its side has seen on the floor (d20)
                from game.core.queries import floor_items
                from game.ui.scene import ITEM_COLOR
                seen = {(i.glyph, i.name) for i in floor_items(self.match.battle, viewer)}
                terrain += [(glyph, ITEM_COLOR, f"{name} (on the floor)") for glyph, name in sorted(seen)]
        else:
            library = self.get_library()
            rules = [(r.name, r.description) for r in library.rulesets.values()] if library else []
        self.push_screen(Help(rules, terrain))

    def _tell(self, title: str, body: str) -> None:
        from game.ui.screens.dialogs import message
        self.push_screen(message(title, body))

    def action_command_palette(self) -> None:
        from game.ui.screens.base import Palette
        # a second Ctrl+P queued before the first palette is current would push a palette of
        # the same id (DuplicateIds): any palette on the stack counts as open
        if self.use_command_palette and not any(isinstance(screen, Palette)
                                                for screen in self.screen_stack):
            self.push_screen(Palette(id="--command-palette"))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield SystemCommand("New battle", "Set up and start a new battle", self.action_new_battle)
        yield SystemCommand("Load", "Load a saved battle", self.action_load)
        yield SystemCommand("Campaign", "Start or continue a campaign", self.action_campaign)
        yield SystemCommand("How to play", "Keys, the map's symbols and the rules",
                            self.action_help)
        from game.ui.screens.battle import BattleScreen
        if isinstance(screen, BattleScreen):
            for title, help_text, action in (
                    ("Save", "Save the battle", screen.action_save),
                    ("End turn", "End the active unit's turn", screen.action_end_turn),
                    ("Undo", "Take back the last move or change of stance (z)",
                     screen.action_undo),
                    ("Next target", "Target the next enemy in sight",
                     lambda: screen.action_target(1)),
                    ("Reload", "Reload the weapon in hand", screen.action_reload),
                    ("Leave battle", "Back to the main menu", screen.action_leave)):
                yield SystemCommand(title, help_text, action)
        yield SystemCommand("Quit", "Quit skirmish", self.action_quit)


def load_problem(error: Exception) -> str:
    """Why a save's battle could not be rebuilt, in full, as a sentence."""
    from game.content.problems import ContentError
    if isinstance(error, ContentError):
        return f"Its battle content does not load:\n{error}"
    if isinstance(error, KeyError) and error.args:
        return f"It names {error.args[0]!r}, which its own content does not define."
    text = str(error).rstrip(".")
    if isinstance(error, (ValueError, TypeError)):
        return f"{text[:1].upper()}{text[1:]}." if text else type(error).__name__
    return f"{type(error).__name__}: {text}." if text else f"{type(error).__name__}."


def run_app(save_dir: str | None = None, watch: dict | None = None, library: Any = None) -> None:
    """Open the app (plain `skirmish`). `save_dir` overrides the save folder; `watch`, a saved
    battle's state, opens its Replay screen (`skirmish replay SAVE`); `library`, the content
    with a mod loaded (`--content DIR`), else the bundled content is loaded when needed."""
    SkirmishApp(save_dir, watch=watch, library=library).run()
