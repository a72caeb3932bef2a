"""What the commands share about a user's input: the errors that are the user's to fix (one
line, exit status 2) and loading the user's strategy files."""

from __future__ import annotations

from sim.api.exact import TooLargeError
from sim.api.game import GameInputError
from sim.api.round_file import RoundFileError
from sim.rules import chips
from sim.rules.ruleset import RulesetError
from strategies.builtin import StrategySpecError
from strategies.registry import StrategyFileError

USER_ERRORS = (RulesetError, chips.BagSpecError, StrategySpecError, TooLargeError, GameInputError,
               RoundFileError, StrategyFileError, ValueError)


def load_strategies(files: list[str] | None) -> None:
    """Load strategies/user_*.py and every --strategy-file (StrategyFileError on a bad file)."""
    from strategies.registry import load_plugins_dir, load_strategy_file

    load_plugins_dir()
    for f in files or []:
        load_strategy_file(f)
