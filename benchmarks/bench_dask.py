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

Each run also counts the CPU seconds it used (this process, and the Dask workers'): on a machine
other work shares, games per CPU-second is the figure that load does not move, and each
repeat's Dask run is compared with the local run just before it.

It measures the per-chunk costs: the client's own work per chunk (deserializing, the layout
columns, statistics and the parquet writer, done in chunk order: in the Dask run, sharing the
cores with the workers, and alone), the size of a chunk's result as a worker ships it, the
scheduler's round trip for one small task and its throughput for many, the fixed start-up; and
prints a paper estimate of throughput on 10 and 100 machines like this one (every core a Dask
worker playing at the measured games per CPU-second), as the
smallest of what the workers can play, what one client can take in, what its network link can
carry, and what the scheduler can hand out.
"""

from __future__ import annotations

import argparse
import os
import pickle
import resource
import tempfile
import time
from pathlib import Path

import numba

from sim.study.tournament.backend import make_backend
from sim.study.tournament.chunks import play_chunk
from sim.study.tournament.plan import TournamentConfig, resolve_plan
from sim.study.tournament.run import run_tournament

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


def cpu_seconds() -> float:
    """CPU time (user + system) of this process so far."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def timed_run(plan, backend=None, client=None) -> tuple[float, float, object]:
    """(wall seconds, CPU seconds, result) of one run into a temporary report directory (no
    plots); the CPU of this process, plus that of the Dask workers when ``client`` is given."""
    with tempfile.TemporaryDirectory() as d:
        w0 = client.run(cpu_seconds) if client is not None else {}
        c0, t0 = cpu_seconds(), time.perf_counter()
        res = run_tournament(plan, out=Path(d) / "r", plots=False, backend=backend)
        wall, cpu = time.perf_counter() - t0, cpu_seconds() - c0
        if client is not None:
            w1 = client.run(cpu_seconds)
            cpu += sum(w1[a] - w0[a] for a in w0 if a in w1)
        return wall, cpu, res


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
    from sim.study.reports.writer import ReportWriter
    from sim.study.tournament.chunks import GAME_LAYOUT, ChunkRows, layout_columns
    from sim.study.tournament.statistics import Accumulator

    d0, d1, _ = largest_chunk(plan)
    rows = play_chunk(plan, d0, d1)
    blob = pickle.dumps({k: v for k, v in rows.games.items() if k not in GAME_LAYOUT}, protocol=5)

    def acc():
        return Accumulator(plan.names, plan.players, plan.rounds, paired=plan.config.duplicate,
                           head_to_head=len(plan.tables) > 1)

    with tempfile.TemporaryDirectory() as d:
        writer = ReportWriter(Path(d) / "r", plan)
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
        sec, _, _ = timed_run(plan)
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
    walls: dict[str, list[float]] = {"local 1": [], "local 2": [], "dask": []}
    cpus: dict[str, list[float]] = {k: [] for k in walls}
    results = {}
    for _ in range(args.repeat):
        for threads in (1, 2):
            numba.set_num_threads(threads)
            wall, cpu, results[f"local {threads}"] = timed_run(plan)
            walls[f"local {threads}"].append(wall)
            cpus[f"local {threads}"].append(cpu)
            print(f"  local backend, {threads} thread(s): {g / wall:,.0f} games/s ({wall:.1f} s, "
                  f"CPU {cpu:.1f} s; load average {os.getloadavg()[0]:.1f})", flush=True)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        t0 = time.perf_counter()
        with make_backend("dask", workers=2) as be:
            be.chunks(plan)  # payload sent, workers warmed: outside the clock, as the command does
            startup = time.perf_counter() - t0
            timer = TimedBackend(be)
            wall, cpu, results["dask"] = timed_run(plan, timer, be.client)
            walls["dask"].append(wall)
            cpus["dask"].append(cpu)
            print(f"  dask backend, 2 workers x 1 thread: {g / wall:,.0f} games/s ({wall:.1f} s, "
                  f"CPU {cpu:.1f} s in all processes; load average {os.getloadavg()[0]:.1f}; "
                  f"cluster start and warm-up {startup:.1f} s outside the clock)", flush=True)
            latency, per_s = scheduler_costs(be.client)
    same = summary_equal(results["local 2"], results["dask"])
    r1, r2, rd = (g / min(walls[k]) for k in ("local 1", "local 2", "dask"))
    c1, c2, cd = (g / min(cpus[k]) for k in ("local 1", "local 2", "dask"))
    paired = [l2 / d for l2, d in zip(walls["local 2"], walls["dask"])]
    print()
    print(f"{'backend':<34}{'games/s (best)':>16}{'vs local 2':>12}{'games per CPU-s':>17}")
    print(f"{'local, 1 thread':<34}{r1:>16,.0f}{r1 / r2:>12.2f}{c1:>17,.0f}")
    print(f"{'local, 2 threads':<34}{r2:>16,.0f}{1:>12.2f}{c2:>17,.0f}")
    print(f"{'dask, 2 local workers x 1 thread':<34}{rd:>16,.0f}{rd / r2:>12.2f}{cd:>17,.0f}")
    print(f"scaling efficiency of the local backend, 1 -> 2 threads: {r2 / (2 * r1):.2f} "
          f"(wall); CPU per game 1 -> 2 threads: {c1 / c2:.2f}x")
    print(f"dask / local at 2 threads: best {rd / r2:.2f}, each repeat "
          f"{', '.join(f'{x:.2f}' for x in paired)} (target >= 0.80); CPU efficiency "
          f"{cd / c2:.2f}; dask summary equal to local: {same}")

    # per-chunk costs, from the largest chunk size
    blob, client_s = client_costs(plan)
    busy = timer.busy / max(1, timer.chunks_done - 1)  # between chunks: the client's own work
    chunk_worker_s = big / cd  # one worker, one thread, its own core
    print()
    print(f"per-chunk costs (largest chunk, {big:,} games):")
    print(f"  worker compute (1 thread)              {chunk_worker_s:8.3f} s")
    print(f"  result size as shipped                 {blob / 1e6:8.2f} MB ({blob / big:.0f} "
          "bytes/game)")
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
    per_machine = cores * cd  # every core a worker of one thread, the client elsewhere
    client_cap = big / client_s
    sched_cap = per_s * big
    print()
    print(f"paper estimate, machines like this one ({cores} workers x 1 thread each, "
          f"{per_machine:,.0f} games/s per machine), one client, chunks of {big:,} games:")
    print(f"  the client takes in at most  {client_cap:12,.0f} games/s ({client_s * 1e3:.0f} ms "
          "per chunk)")
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
