"""The lineups the game benchmarks time, by player count: bench_games.py's reference, and the
profile (profile_kernel.py) and the Herb Witches ablation (witch_ablation.py) of the same games."""

LINEUPS = {
    4: ["threshold", "threshold:t=5", "threshold:t=7", "random"],
    3: ["threshold", "threshold:t=5", "random"],
    2: ["threshold", "random"],
}
