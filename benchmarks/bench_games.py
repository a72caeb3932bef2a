"""Full-game throughput: complete base games per second with the built-in strategies.

    python benchmarks/bench_games.py [--games 200000] [--threads 2] [--presets] [--variants]

Reports 4-, 3- and 2-player games per second (best of --repeat runs, after a warm-up that
compiles the kernels) for a mixed lineup of the built-in strategies, in the base game with Set 1
and no fortune-teller deck (the reference). --variants adds 4-player games with the deck on and
each ingredient set, and the published variants (test-tube side, sequential brewing, teams),
as a share of the reference (target: at least 80%). --herb-witches adds the Herb Witches
(witches, overflow bowl, orange 6, the deck) at 4 players, as a share of the reference (target:
at least 70%), and at 5 players.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numba
import numpy as np

from sim.api.game import play_batch
from sim.rules.ruleset import load_ruleset
from strategies.builtin import parse_strategy

LINEUPS = {
    4: ["threshold", "threshold:t=5", "threshold:t=7", "random"],
    3: ["threshold", "threshold:t=5", "random"],
    2: ["threshold", "random"],
}


def bench(rs, specs, games: int, repeat: int) -> float:
    """Best games-per-second of ``repeat`` batches of ``games`` games (seats rotating)."""
    lineup = [parse_strategy(s) for s in specs]
    n = len(lineup)
    warm = np.arange(1000, dtype=np.int64)
    play_batch(rs, lineup, games=warm, rotations=warm % n, seed=1)
    idx = np.arange(games, dtype=np.int64)
    best = float("inf")
    for r in range(repeat):
        t = time.perf_counter()
        play_batch(rs, lineup, games=idx, rotations=idx % n, seed=r + 2)
        best = min(best, time.perf_counter() - t)
    return games / best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--threads", type=int, default=numba.config.NUMBA_NUM_THREADS)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--variants", action="store_true",
                    help="also time the deck on with each ingredient set (4 players)")
    ap.add_argument("--herb-witches", action="store_true",
                    help="also time the Herb Witches expansion (4 and 5 players, the deck on)")
    ap.add_argument("--presets", action="store_true",
                    help="also time each preset (4 copies) and a user-file twin of threshold")
    args = ap.parse_args()
    numba.set_num_threads(args.threads)
    rs = load_ruleset("base", ["cards.deck=false"])
    print(f"threads {args.threads}, {args.games:,} games per run, best of {args.repeat}")
    print("base game, Set 1, no deck:")
    ref = {}
    for n in (4, 3, 2):
        ref[n] = bench(rs, LINEUPS[n], args.games, args.repeat)
        print(f"{n} players: {ref[n]:12,.0f} games/s   lineup {', '.join(LINEUPS[n])}")
    if args.variants:
        print("4 players, with the fortune-teller deck:")
        for books in (1, 2, 3, 4):
            v = load_ruleset("base", [f"books.all={books}"])
            gps = bench(v, LINEUPS[4], args.games, args.repeat)
            print(f"  deck + Set {books}: {gps:12,.0f} games/s   {gps / ref[4]:.0%} of the "
                  "reference")
        for label, sets in (("test-tube side", ["pot.side=test-tube"]),
                            ("sequential brewing", ["game.info_model=sequential"]),
                            ("teams of two", ["game.teams=true"])):
            gps = bench(load_ruleset("base", sets), LINEUPS[4], args.games, args.repeat)
            print(f"  deck + {label}: {gps:12,.0f} games/s   {gps / ref[4]:.0%} of the reference")
    if args.herb_witches:
        hw = load_ruleset("herb-witches")
        print("the Herb Witches (witches, overflow bowl, orange 6, deck on):")
        for specs in (LINEUPS[4], [*LINEUPS[4], "threshold:t=6"]):
            gps = bench(hw, specs, args.games, args.repeat)
            print(f"  {len(specs)} players: {gps:12,.0f} games/s   {gps / ref[4]:.0%} of the "
                  f"4-player reference   lineup {', '.join(specs)}")
    if args.presets:
        from strategies.builtin import PRESETS
        from strategies.registry import load_strategy_file

        load_strategy_file(Path(__file__).with_name("twin_threshold.py"))
        print("4 copies of one strategy per game:")
        for name in (*PRESETS, "threshold", "threshold-twin"):
            g = 64 if name == "optimal" else args.games
            gps = bench(rs, [name] * 4, g, 1 if name == "optimal" else args.repeat)
            print(
                f"  {name:16s} {gps:12,.0f} games/s"
                + (f"   ({g:,} games)" if g != args.games else ""))


if __name__ == "__main__":
    main()
