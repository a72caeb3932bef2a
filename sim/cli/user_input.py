"""What the commands share about a user's input: the errors that are the user's to fix (one
line, exit status 2) and loading the user's strategy files.

Light to import: the error classes that live in modules importing NumPy are imported when a
command asks for ``USER_ERRORS``, not when ``quacks --help`` runs; none of them loads a kernel.
"""

from __future__ import annotations


def user_errors() -> tuple[type[Exception], ...]:
    """The exceptions a command reports as one line ``error: ...`` with exit status 2."""
    from sim.api.errors import GameInputError, RoundFileError, TooLargeError
    from sim.rules import chips
    from sim.rules.ruleset import RulesetError
    from strategies.registry import StrategyFileError
    from strategies.spec_types import StrategySpecError

    return (RulesetError, chips.BagSpecError, StrategySpecError, TooLargeError, GameInputError,
            RoundFileError, StrategyFileError, ValueError)


def __getattr__(name: str):
    """``USER_ERRORS``: :func:`user_errors`, imported on first use."""
    if name == "USER_ERRORS":
        return user_errors()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def load_strategies(files: list[str] | None) -> None:
    """Load strategies/user_*.py and every --strategy-file (StrategyFileError on a bad file)."""
    from strategies.registry import load_plugins_dir, load_strategy_file

    load_plugins_dir()
    for f in files or []:
        load_strategy_file(f)
