"""The end screen: accuracy from shots and hits, damage to enemies, friendly damage apart."""

from __future__ import annotations

from tests.ui.ui_helpers import DUEL, make_app, new_match, screen_text

from game.ui.screens.game_over import GameOver


async def test_friendly_damage_has_its_own_column_only_when_there_is_some(save_dir):
    match = new_match(DUEL, 1, {"blue", "red"})
    session = match.battle.session
    session.winner, session.end_reason = "blue", "the enemy was eliminated"
    blue, red = session.records["blue"], session.records["red"]
    blue.shots, blue.hits, blue.damage_dealt = 4, 3, 37
    red.shots, red.hits, red.damage_dealt = 5, 1, 8
    app = make_app(save_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(GameOver(match))
        await pilot.pause()
        text = screen_text(app)
        assert "75%" in text and "20%" in text and "37" in text
        assert "Friendly" not in text
        app.pop_screen()
        blue.friendly_damage = 13
        app.push_screen(GameOver(match))
        await pilot.pause()
        text = screen_text(app)
        assert "Friendly" in text and "13" in text and "37" in text
    match.close()
