"""A tournament's default settings, in a module that imports nothing: the command line's help
texts quote them without loading the simulation."""

from __future__ import annotations

# Preferred default field (the built-in presets); see plan.default_field(). Adjust freely.
DEFAULT_FIELD: tuple[str, ...] = ("cautious", "balanced", "greedy", "expected-value")
DEFAULT_PLAYERS = 4
DEFAULT_GAMES = 20_000
DEFAULT_CI_CAP = 1_000_000  # the cap on games for --until-ci when --games is not given


def default_players(ruleset) -> int:
    """The seats of a game when the command is not told how many (no --players, one strategy
    spec for every seat): ``DEFAULT_PLAYERS`` within the ruleset's game.min_players to
    game.max_players."""
    lo, hi = int(ruleset.game("min_players")), int(ruleset.game("max_players"))
    return min(max(DEFAULT_PLAYERS, lo), hi)
