"""A sixth ruleset, written outside game/: a coin decides every roll.

    RULESETS["coin"] = CoinRuleset          # the registry, game.rulesets.RULESETS
    load_library([RULESET_FILE])            # its ruleset file joins the content
"""

from pathlib import Path

from tests.rulesets.coin.ruleset import CoinParams, CoinRuleset

RULESET_FILE = Path(__file__).with_name("coin.yaml")

__all__ = ["RULESET_FILE", "CoinParams", "CoinRuleset"]
