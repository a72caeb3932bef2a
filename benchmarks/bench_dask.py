"""Dask backend throughput against the local backend, and what 10 or 100 machines would give.

    python benchmarks/bench_dask.py [--seconds 60 | --games N] [--repeat 1]

Plays the default 4-player tournament (the built-in presets, duplicate format, ``--detail
games``, a report directory without plots: what ``quacks tournament`` does) three ways, each run
about ``--seconds`` long (the game count is calibrated once on the local backend at 2 threads,
or fixed with ``--games``):

- local backend, 1 Numba thread, and 2 threads (scaling efficiency = rate2 / (2 x rate1));
- Dask backend on a local cluster of two worker processes, one Numba thread each (started and
  warmed outside the clock, as the command does), against the local backend at 2 threads; its
  summary must equal the local one.

It measures the per-chunk costs: the client's own work per chunk (deserializing, the layout
columns, statistics and the parquet writer, done in chunk order: in the Dask run, sharing the
cores with the workers, and alone), the size of a chunk's result as a worker ships it, the
scheduler's round trip for one small task and its throughput for many, the fixed start-up; and
prints a paper estimate of throughput on 10 and 100 machines like this one, as the
smallest of what the workers can play, what one client can take in, what its network link can
carry, and what the scheduler can hand out.
"""

from __future__ import annotations

import argparse
import os
import pickle
import tempfile
import time
from pathlib import Path

import numba

from sim.study.backend import make_backend
from sim.study.chunks import play_chunk
from sim.study.tournament import TournamentConfig, resolve_plan, run_tournament

LINK_BYTES = {"1 Gbit/s": 125e6, "10 Gbit/s": 1.25e9}


class TimedBackend:
    """Wraps a backend and adds up, per run, the client's time blocked waiting for chunks and
    its time between chunks (statistics, the parquet writer, progress)."""

    def __init__(self, backend):
        self.backend = backend
        self.wait = self.busy = 0.0
        self.chunks_done = 0
        self._last = None

    def chunks(self, plan):
        src = self.backend.chunks(plan)
        outer = self

        class Source:
            def rows(self, k, on_rounds=None):
                t = time.perf_counter()
                if outer._last is not None:
                    outer.busy += t - outer._last
                r = src.rows(k, on_rounds)
                outer._last = time.perf_counter()
                outer.wait += outer._last - t
                outer.chunks_done += 1
                return r

            def close(self):
                src.close()

        return Source()


def timed_run(plan, backend=None) -> tuple[float, object]:
    """Wall seconds of one run into a temporary report directory (no plots), and the result."""
    with tempfile.TemporaryDirectory() as d:
        t0 = time.perf_counter()
        res = run_tournament(plan, out=Path(d) / "r", plots=False, backend=backend)
        return time.perf_counter() - t0, res


def scheduler_costs(client, n_seq: int = 200, n_bulk: int = 2000) -> tuple[float, float]:
    """(round trip of one small task in s, small tasks per second in bulk) on this scheduler."""
    client.submit(int, 0, pure=False).result()
    t0 = time.perf_counter()
    for i in range(n_seq):
        client.submit(int, i, pure=False).result()
    latency = (time.perf_counter() - t0) / n_seq
    t0 = time.perf_counter()
    client.gather([client.submit(int, i, pure=False) for i in range(n_bulk)])
    return latency, n_bulk / (time.perf_counter() - t0)


def largest_chunk(plan) -> tuple[int, int, int]:
    """(first deal, end deal, games) of the plan's largest chunk."""
    b = plan.chunk_bounds
    k = max(range(len(b) - 1), key=lambda i: b[i + 1] - b[i])
    return b[k], b[k + 1], (b[k + 1] - b[k]) * plan.games_per_deal


def client_costs(plan, reps: int = 5) -> tuple[int, float]:
    """(bytes a worker ships for the plan's largest chunk, seconds of the client's work per such
    chunk on an idle core: deserialize, add the layout columns, sums, parquet writer)."""
    from sim.study import reports
    from sim.study.chunks import GAME_LAYOUT, ChunkRows, layout_columns
    from sim.study.report_stats import Accumulator

    d0, d1, _ = largest_chunk(plan)
    rows = play_chunk(plan, d0, d1)
    blob = pickle.dumps({k: v for k, v in rows.games.items() if k not in GAME_LAYOUT}, protocol=5)

    def acc():
        return Accumulator(plan.names, plan.players, plan.rounds, paired=plan.config.duplicate,
                           head_to_head=len(plan.tables) > 1)

    with tempfile.TemporaryDirectory() as d:
        writer = reports.ReportWriter(Path(d) / "r", plan)
        writer.open(acc())
        sums = acc()
        t0 = time.perf_counter()
        for i in range(reps + 1):
            if i == 1:  # the first round warms up
                t0 = time.perf_counter()
            games = {**layout_columns(plan, d0, d1)[0], **pickle.loads(blob)}
            chunk = ChunkRows(games, None, rows.first_game, rows.n_games)
            writer.write_chunk(chunk)
            sums.add_games(chunk.games)
        seconds = (time.perf_counter() - t0) / reps
        writer.close()
    return len(blob), seconds


def summary_equal(a, b) -> bool:
    drop = ("seconds", "games_per_second", "report_seconds", "out")
    ja = {k: v for k, v in a.to_json().items() if k not in drop}
    jb = {k: v for k, v in b.to_json().items() if k not in drop}
    return ja == jb


def main() -> None:
    """Run the benchmark and print the table and the estimate."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=60.0, help="length of each run (default 60)")
    ap.add_argument("--games", type=int, default=None, help="games per run (instead of --seconds)")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each kind; the best counts")
    args = ap.parse_args()
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    plan = resolve_plan(TournamentConfig(games=100_000, seed=1))
    play_chunk(plan, 0, 10)  # kernels loaded outside the clocks
    if args.games is None:
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        sec, _ = timed_run(plan)
        games = int(100_000 / sec * args.seconds)
    else:
        games = args.games
    plan = resolve_plan(TournamentConfig(games=games, seed=1))
    g = plan.max_games
    b = plan.chunk_bounds
    big = largest_chunk(plan)[2]
    print(f"{g:,} games per run ({plan.deals:,} deals x {plan.games_per_deal}), default field, "
          f"{len(b) - 1} chunks of up to {big:,} games; {cores} cores; load average before: "
          f"{os.getloadavg()[0]:.2f}")
    best: dict[str, float] = {}
    results = {}
    timer = None
    startup = 0.0
    for _ in range(args.repeat):
        for threads in (1, 2):
            numba.set_num_threads(threads)
            sec, results[f"local {threads}"] = timed_run(plan)
            best[f"local {threads}"] = min(best.get(f"local {threads}", 1e99), sec)
            print(f"  local backend, {threads} thread(s): {g / sec:,.0f} games/s ({sec:.1f} s)", flush=True)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        t0 = time.perf_counter()
        with make_backend("dask", workers=2) as be:
            be.chunks(plan)  # payload sent, workers warmed: outside the clock, as the command does
            startup = time.perf_counter() - t0
            timer = TimedBackend(be)
            sec, results["dask"] = timed_run(plan, timer)
            best["dask"] = min(best.get("dask", 1e99), sec)
            print(f"  dask backend, 2 workers x 1 thread: {g / sec:,.0f} games/s ({sec:.1f} s; "
                  f"cluster start and warm-up {startup:.1f} s outside the clock)", flush=True)
            latency, per_s = scheduler_costs(be.client)
    same = summary_equal(results["local 2"], results["dask"])
    r1, r2, rd = (g / best[k] for k in ("local 1", "local 2", "dask"))
    print()
    print(f"{'backend':<34}{'games/s':>12}{'vs local 2 threads':>22}")
    print(f"{'local, 1 thread':<34}{r1:>12,.0f}{r1 / r2:>22.2f}")
    print(f"{'local, 2 threads':<34}{r2:>12,.0f}{1:>22.2f}")
    print(f"{'dask, 2 local workers x 1 thread':<34}{rd:>12,.0f}{rd / r2:>22.2f}")
    print(f"scaling efficiency of the local backend, 1 -> 2 threads: {r2 / (2 * r1):.2f}")
    print(f"dask / local at 2 threads: {rd / r2:.2f} (target >= 0.80: "
          f"{'met' if rd / r2 >= 0.8 else 'NOT met'}); dask summary equal to local: {same}")

    # per-chunk costs, from the largest chunk size
    blob, client_s = client_costs(plan)
    busy = timer.busy / max(1, timer.chunks_done - 1)  # between chunks: the client's own work
    chunk_worker_s = big / r1  # one worker, one thread
    print()
    print(f"per-chunk costs (largest chunk, {big:,} games):")
    print(f"  worker compute (1 thread)              {chunk_worker_s:8.3f} s")
    print(f"  result size as shipped                 {blob / 1e6:8.2f} MB ({blob / big:.0f} bytes/game)")
    print(f"  client work, no workers running        {client_s * 1e3:8.1f} ms (deserialize, layout "
          "columns, sums, parquet)")
    print(f"  client work between chunks in the run  {busy * 1e3:8.1f} ms (mean; sharing "
          f"{cores} cores with the workers)")
    print(f"  scheduler round trip, one task         {latency * 1e3:8.2f} ms "
          f"({latency / chunk_worker_s:.2%} of a chunk)")
    print(f"  scheduler throughput, small tasks      {per_s:8,.0f} tasks/s")
    print(f"  cluster start + payload + warm-up      {startup:8.1f} s per run (fixed)")
    print(f"  load average after                     {os.getloadavg()[0]:8.2f}")

    # paper estimate: machines like this one, two workers each, one client
    per_machine = cores * r1  # every core a worker of one thread, the client elsewhere
    client_cap = big / client_s
    sched_cap = per_s * big
    print()
    print(f"paper estimate, machines like this one ({cores} workers x 1 thread each, "
          f"{per_machine:,.0f} games/s per machine), one client, chunks of {big:,} games:")
    print(f"  the client takes in at most  {client_cap:12,.0f} games/s ({client_s * 1e3:.0f} ms per chunk)")
    for name, bw in LINK_BYTES.items():
        print(f"  a {name} client link carries {bw / (blob / big):12,.0f} games/s")
    print(f"  the scheduler hands out      {sched_cap:12,.0f} games/s")
    print(f"{'machines':>10}{'workers can play':>20}{'estimate (games/s)':>22}{'limited by':>16}"
          f"{'1e9 games take':>18}")
    for n in (1, 10, 100):
        caps = {"workers": n * per_machine, "client": client_cap,
                "link 1 Gbit/s": LINK_BYTES["1 Gbit/s"] / (blob / big), "scheduler": sched_cap}
        lim = min(caps, key=caps.get)
        est = caps[lim]
        hours = (1e9 / est + startup) / 3600
        print(f"{n:>10}{n * per_machine:>20,.0f}{est:>22,.0f}{lim:>16}{hours:>16.2f} h")


if __name__ == "__main__":
    main()
