"""A mod in the app: its scenarios in the New battle list, what it replaced told, and a scenario
path that brings the files beside it."""

from __future__ import annotations

from game.content.loader import load_library
from game.ui.app import SkirmishApp
from game.ui.screens.battle import BattleScreen
from game.ui.screens.new_battle import NewBattle
from tests.content.test_mod_folders import CASES, make_mod
from tests.ui.ui_helpers import wait_until


async def test_a_mods_scenarios_are_listed_and_played(save_dir, tmp_path):
    mod = make_mod(tmp_path / "mod", CASES["override a bundled unit"][0])
    app = SkirmishApp(str(save_dir), computer_delay=0, library=load_library([mod]))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, NewBattle))
        listing = app.screen.query_one("#scenarios")
        labels = {listing.get_option_at_index(i).id: str(listing.get_option_at_index(i).prompt)
                  for i in range(listing.option_count)}
        assert labels["slingers"].endswith("(mod)")
        assert not labels["alley"].endswith("(mod)")
        notes = str(app.screen.query_one("#mod-notes").render())
        assert "using the mod's unit 'rifleman' over the bundled one" in notes
        assert app.screen.query_one("#mod-notes").region.height > 0
        listing.highlighted = list(labels).index("slingers")
        await pilot.pause()
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, BattleScreen))
        assert app.match.battle.session.setup.scenario.id == "slingers"


async def test_a_scenario_path_brings_the_files_beside_it(save_dir, tmp_path):
    mod = make_mod(tmp_path / "mod", CASES["override a bundled unit"][0])
    app = SkirmishApp(str(save_dir), computer_delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, NewBattle))
        assert app.screen.query_one("#mod-notes").display is False       # no mod loaded
        field = app.screen.query_one("#scenario-path")
        field.focus()
        field.value = str(mod / "scenario.yaml")
        await pilot.press("enter")
        await pilot.pause()
        assert str(app.screen.query_one("#new-problem").render()) == ""
        about = str(app.screen.query_one("#scenario-about").render())
        assert about.startswith("Slingers") and "unit 'rifleman' over the bundled one" in about
