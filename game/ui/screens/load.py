"""Loading a saved battle: the saves in the save folder, or any save file by its path."""

from __future__ import annotations

import time
from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Footer, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from game.saves import AUTOSAVES_KEPT, SaveError, SaveInfo, list_saves, parse_autosave, read_save
from game.ui.glyphs import plain
from game.ui.screens.base import GameModal
from game.ui.widgets.choices import Choices
from game.ui.widgets.problem import Problem


def describe_save(info) -> str:
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(info.modified))
    if not info.ok:
        return f"{info.name}  ({when})  cannot be loaded: {info.problem}"
    summary = info.summary or {}
    scenario = summary.get("scenario", "?")
    state = "over" if summary.get("over") else f"round {summary.get('round', '?')}"
    auto = parse_autosave(info.name)
    if auto is not None:
        return f"  {scenario}, {state}  ({when})  battle {auto.battle}"
    return f"{info.name}  ({when})  {scenario}, {state}"


def in_order(infos: list[SaveInfo]) -> list[SaveInfo | str]:
    """The saves as listed: the player's own saves newest first, then the autosaves battle by
    battle (the battle autosaved last first), each battle's latest round first; a heading
    (a string) before each group."""
    own = [info for info in infos if parse_autosave(info.name) is None]
    battles: dict[str, list[tuple[int, SaveInfo]]] = {}
    for info in infos:                     # newest first already: battles in that order
        auto = parse_autosave(info.name)
        if auto is not None:
            battles.setdefault(auto.battle, []).append((auto.round, info))
    out: list[SaveInfo | str] = list(own)
    if battles:
        out.append(f"Autosaves: the last {AUTOSAVES_KEPT} rounds of each battle")
        for rounds in battles.values():
            out.extend(info for _, info in sorted(rounds, key=lambda pair: -pair[0]))
    return out


class LoadSave(GameModal[dict | None]):
    """Dismissed with the save's battle state, or None. A broken save is shown, never changed."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel"),
                Binding("w", "watch", "Watch replay")]
    AUTO_FOCUS = "#saves, #save-path"

    def __init__(self, folder: Path | None) -> None:
        super().__init__()
        self.folder = folder

    def compose(self) -> ComposeResult:
        infos = list_saves(self.folder) if self.folder else []
        with Vertical(classes="dialog wide"):
            yield Label("Load a saved battle", classes="dialog-title")
            if not infos:
                yield Static("No saves yet." if self.folder else "No save folder is available.")
            if infos:      # (an empty OptionList breaks on Page Down in Textual 8)
                options = [Option(plain(i), disabled=True) if isinstance(i, str) else
                           Option(plain(describe_save(i)), id=str(i.path), disabled=not i.ok)
                           for i in in_order(infos)]
                yield Choices(*options, id="saves")
            yield Input(placeholder="…or the path of a save file, then Enter", id="save-path")
            yield Problem(id="load-problem")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Cancel", id="cancel")
        yield Footer()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id:
            self._load(event.option.id)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.value.strip():
            path = Path(event.value.strip()).expanduser()
            self._load(str(path.resolve()))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)

    def action_watch(self) -> None:
        """`w`: watch the highlighted save from its start instead of loading it."""
        saves = next(iter(self.query("#saves").results(Choices)), None)
        option = saves.highlighted_option if saves is not None else None
        if option is None or option.disabled or not option.id:
            self.notify("Choose a save in the list to watch.", timeout=3)
            return
        try:
            state = read_save(self.folder or Path("."), option.id)
        except SaveError as error:
            self.query_one("#load-problem", Problem).update(str(error))
            return
        self.dismiss(None)
        self.app.watch_replay(state)

    def _load(self, path: str) -> None:
        try:
            state = read_save(self.folder or Path("."), path)
        except SaveError as error:
            self.query_one("#load-problem", Problem).update(str(error))
            return
        self.dismiss(state)
