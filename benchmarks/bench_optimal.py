"""The optimal stopper's speed against its aims (issue 10), on this machine.

    python benchmarks/bench_optimal.py [--games 2000] [--threads 2]

1. ``quacks potion --stop optimal --bag start`` (1,000,000 potions), from the command line,
   start-up included (aim: under 5 s once compiled);
2. 4-player games with one ``optimal`` seat and three ``expert`` seats (aim: 200 games/s);
3. 4-player games with one ``master`` seat and three ``expert`` (aim: 2,000 games/s, issue 24);
4. ``quacks potion --regret`` on a 20-chip mid-game bag with the flask, default sizes
   (1,000,000 potions per rule, 100,000 for the optimal stopper; aim: under 60 s).

The first run after a change to ``sim/kernel/decisions/optimal.py`` compiles it (about 2 minutes);
run ``quacks warmup`` first, or read the second run's figures.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

import numba
import numpy as np

MID_GAME_BAG = "start,o1x2,r2,b2,g2,y2,r4,b4,k1,p1,g4"  # 20 chips


def cli_seconds(*args: str) -> float:
    """Wall time of one ``quacks`` command in a fresh process."""
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "sim.cli", *args], check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t


def games_per_second(games: int, first: str = "optimal") -> float:
    """4-player games per second with ``first`` in one seat and three ``expert``."""
    from sim.api.game import play_batch
    from sim.rules.ruleset import load_ruleset
    from strategies.builtin import parse_strategy

    rs = load_ruleset("base")
    lineup = [parse_strategy(s) for s in (first, "expert", "expert", "expert")]
    warm = np.arange(50, dtype=np.int64)
    play_batch(rs, lineup, games=warm, rotations=warm % 4, seed=1)
    idx = np.arange(games, dtype=np.int64)
    t = time.perf_counter()
    play_batch(rs, lineup, games=idx, rotations=idx % 4, seed=2)
    return games / (time.perf_counter() - t)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--threads", type=int, default=numba.config.NUMBA_NUM_THREADS)
    args = ap.parse_args()
    numba.set_num_threads(args.threads)
    print(f"threads {args.threads}")
    cli_seconds("potion", "--stop", "optimal", "--bag", "start", "--n", "1000")  # loads the cache
    s = cli_seconds("potion", "--stop", "optimal", "--bag", "start")
    print(f"potion --stop optimal --bag start (1,000,000 potions): {s:6.2f} s   (aim < 5 s)")
    g = games_per_second(args.games)
    print(f"4 players, 1 optimal + 3 expert ({args.games:,} games): {g:8,.0f} games/s   "
          "(aim >= 200)")
    g = games_per_second(max(args.games, 10_000), "master")
    print(f"4 players, 1 master + 3 expert ({max(args.games, 10_000):,} games): {g:8,.0f} "
          "games/s   (aim >= 2,000)")
    s = cli_seconds("potion", "--regret", "--bag", MID_GAME_BAG, "--flask", "1")
    print(f"potion --regret --bag {MID_GAME_BAG} --flask 1: {s:6.2f} s   (aim < 60 s)")


if __name__ == "__main__":
    main()
