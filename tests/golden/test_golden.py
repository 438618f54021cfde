"""The bundled battles play exactly as recorded (see record.py beside this file)."""

from __future__ import annotations

import pytest

from tests.golden.record import BATTLES, battle_lines, cases, path_of, read

CASES = list(cases())


def test_every_bundled_scenario_and_ruleset_is_recorded() -> None:
    recorded = sorted(p.name for p in BATTLES.glob("*.jsonl.gz"))
    assert recorded == sorted(path_of(s, r).name for s, r in CASES)
    assert len(CASES) >= 35


@pytest.mark.slow
@pytest.mark.parametrize(("scenario", "ruleset"), CASES, ids=[f"{s}-{r}" for s, r in CASES])
def test_battle_plays_as_recorded(scenario: str, ruleset: str) -> None:
    expected = read(path_of(scenario, ruleset))
    played = battle_lines(scenario, ruleset)
    for n, (want, got) in enumerate(zip(expected, played, strict=False), start=1):
        assert got == want, f"{scenario} under {ruleset}: line {n} differs"
    assert len(played) == len(expected), f"{scenario} under {ruleset}: {len(played)} lines, recorded {len(expected)}"
