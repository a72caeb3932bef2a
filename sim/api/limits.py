"""The accepted range of every integer input (seed, games, potions, players, ...), one rule for
the command line and for experiment files."""

from __future__ import annotations

INT64_MAX = 2**63 - 1
# The potion kernel samples 15-30 million potions/s on the 2-core reference machine (README,
# Performance), so 10**12 potions is about a day's work; games run at 20,000-250,000 games/s.
MAX_POTIONS = 10**12
MAX_GAMES = 10**9
MAX_WORKERS = 1024  # --workers: local Dask worker processes
MAX_STEPS = 50  # --steps: values of a KEY=LO:HI knob in a sensitivity run
_DAY = "more than this machine could finish in a day"


def int_range(option: str) -> tuple[int, int, str]:
    """(lowest, highest, why the highest) accepted for the integer option ``--option`` of any
    command; an option not listed takes 0 to 2**63 - 1 (what the kernels' int64 can hold). A
    command may narrow a range further, with its own one-line error."""
    if option == "threads":  # only this range asks Numba (an import of a second or more)
        import numba

        return (1, numba.config.NUMBA_NUM_THREADS, "the threads Numba can use here")
    if option in ("round", "leader_round"):  # a game round (0 for thresholds: outside a game)
        from sim.rules.schema import MAX_ROUNDS

        return (int(option == "leader_round"), MAX_ROUNDS, "no ruleset plays more rounds")
    if option == "steps":
        return (2, MAX_STEPS, "")
    return {
        "seed": (0, INT64_MAX, ""),
        "n": (1, MAX_POTIONS, _DAY),
        "games": (1, MAX_GAMES, _DAY),
        "budget": (1, MAX_GAMES, _DAY),  # tune: games the search may play
        "players": (1, 5, "no ruleset seats more"),
        "seat": (0, 4, ""),
        # the command holds it to 0..players-1 and says so, naming the players
        "rotation": (-INT64_MAX - 1, INT64_MAX, ""),
        "start": (0, 52, "the last chip space"),
        "flask": (1, 3, "white chips have values 1 to 3"),
        "n_optimal": (1, MAX_POTIONS, _DAY),
        "first_rung": (2, MAX_GAMES, _DAY),  # design: deals of the first rung
        "retest_games": (1, MAX_GAMES, _DAY),
        "retune_budget": (1, MAX_GAMES, _DAY),
        "workers": (1, MAX_WORKERS, ""),
    }.get(option, (0, INT64_MAX, ""))
