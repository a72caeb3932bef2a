"""Tournament throughput and memory: the reporting layer must not be the bottleneck.

    python benchmarks/bench_tournament.py [--games 1000000] [--threads 2] [--no-plots]

Plays a 4-player duplicate-format tournament with ``--detail games`` into a temporary report
directory (games.parquet, tables, plots, run.json) and compares its games per second with the
raw ``play_batch`` throughput on the same lineup, the same games and the same batch sizes
(kernel only: no statistics, no files). Because other processes on a shared machine can slow
one run and not the next, it also times the kernel calls *inside* each tournament run: the
kernel's share of the tournament's wall time is the same ratio measured under the same load.
Peak memory is the process's maximum resident set size (``resource.getrusage``). Targets: peak
RSS below 1 GB, tournament throughput at least 80% of raw.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np

import sim.study.tournament.chunks as T  # the module whose kernel calls are timed
from sim.api.game import play_batch
from sim.study.tournament.chunks import play_chunk
from sim.study.tournament.plan import TournamentConfig, resolve_plan
from sim.study.tournament.run import run_tournament

LINEUP = ("threshold", "threshold:t=5", "threshold:t=7", "random")


def max_rss_mb() -> float:
    """Peak resident set size of this process so far, in MB."""
    r = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return r / (1024 * 1024) if sys.platform == "darwin" else r / 1024


def raw_seconds(plan) -> float:
    """Wall time of the kernel alone over the plan's games, chunk by chunk as the tournament."""
    t = 0.0
    b = plan.chunk_bounds
    for k in range(len(b) - 1):
        deals = np.repeat(np.arange(b[k], b[k + 1], dtype=np.int64), plan.rotations)
        rots = np.tile(np.arange(plan.rotations, dtype=np.int64), b[k + 1] - b[k])
        t0 = time.perf_counter()
        play_batch(plan.ruleset, plan.lineup(0), games=deals, rotations=rots, seed=plan.config.seed,
                   chunks=min(64, len(deals)))
        t += time.perf_counter() - t0
    return t


class KernelClock:
    """Wraps the tournament's ``play_batch`` and adds up the time spent in it."""

    def __init__(self):
        self.seconds = 0.0

    def __call__(self, *a, **k):
        t0 = time.perf_counter()
        try:
            return play_batch(*a, **k)
        finally:
            self.seconds += time.perf_counter() - t0


def main() -> None:
    """Run the benchmark and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--threads", type=int, default=numba.config.NUMBA_NUM_THREADS)
    ap.add_argument("--no-plots", action="store_true")
    ap.add_argument("--repeat", type=int, default=2,
                    help="alternate raw and tournament runs; best of each")
    args = ap.parse_args()
    numba.set_num_threads(args.threads)
    cfg = TournamentConfig(strategies=LINEUP, players=4, games=args.games, seed=1, detail="games")
    plan = resolve_plan(cfg)
    play_chunk(plan, 0, 10)  # load the compiled kernels outside the clocks
    print(f"threads {args.threads}, {plan.max_games:,} games, 4 players, lineup "
          f"{', '.join(LINEUP)}")
    print(f"rss after warm-up: {max_rss_mb():,.0f} MB")
    g = plan.max_games
    best_raw, best_tour, shares = float("inf"), float("inf"), []
    for i in range(args.repeat):
        raw = raw_seconds(plan)
        clock = KernelClock()
        T.play_batch = clock
        try:
            with tempfile.TemporaryDirectory() as d:
                t0 = time.perf_counter()
                run_tournament(plan, out=Path(d) / "report", plots=not args.no_plots)
                tour = time.perf_counter() - t0
                size = sum(f.stat().st_size for f in (Path(d) / "report").iterdir()) / 1e6
        finally:
            T.play_batch = play_batch
        shares.append(clock.seconds / tour)
        print(f"run {i + 1}: raw {g / raw:,.0f} games/s ({raw:.2f} s); tournament {g / tour:,.0f} "
              f"games/s ({tour:.2f} s{', matplotlib imported in this run' if i == 0 else ''}; "
              f"report {size:,.0f} MB); kernel {clock.seconds:.2f} s = {clock.seconds / tour:.0%} "
              "of the tournament's wall time")
        best_raw, best_tour = min(best_raw, raw), min(best_tour, tour)
    print(f"raw play_batch:  {g / best_raw:12,.0f} games/s  (best {best_raw:.2f} s)")
    print(f"tournament:      {g / best_tour:12,.0f} games/s  (best {best_tour:.2f} s)"
          f"  ratio {best_raw / best_tour:.2f}")
    print(f"kernel share of tournament wall time (same load): best {max(shares):.2f}, "
          f"worst {min(shares):.2f}")
    peak = max_rss_mb()
    print(f"peak RSS:        {peak:12,.0f} MB")
    ok = peak < 1024 and max(best_raw / best_tour, max(shares)) >= 0.8
    print("targets (RSS < 1 GB, ratio >= 0.80):", "met" if ok else "NOT met")


if __name__ == "__main__":
    main()
