"""Where the game kernel spends its time: ``perf`` samples with the names of Numba's functions.

    python benchmarks/profile_kernel.py [--games 100000] [--players 4] [--rules base]
                                        [--set KEY=VALUE ...] [--lineup SPEC ...] [--top 30]
                                        [--keep DIR]

It plays the benchmark lineup of ``bench_games.py`` (or the strategies ``--lineup`` names, one
per seat; base game, no deck unless ``--set`` says otherwise) on one thread, from the on-disk
cache (a warm-up batch first, so a cold cache is filled before the samples start), with
``perf record -e cpu-clock`` (a software clock: this VM has no hardware counters) attached to
the batch alone, and prints the functions with the most samples (self time). Numba's JIT code
has no symbols of its own, so the process writes
``/tmp/perf-PID.map`` from Numba's execution engine (every function defined in this session or
loaded from the cache, from its address to the next one), which ``perf report`` reads. ``--keep
DIR`` keeps ``perf.data`` and the map there for ``perf annotate`` or a second look.

A measurement, not a test; it needs ``perf`` (Debian: ``linux-perf``).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lineups import LINEUPS  # the lineups bench_games.py times

ROOT = Path(__file__).resolve().parent.parent


def jit_symbols() -> list[tuple[int, str]]:
    """(address, name) of every function Numba's engine knows in this process, sorted."""
    from numba.core.registry import cpu_target

    engine = cpu_target.target_context.codegen()._engine
    out = []
    for name in engine._defined_symbols:
        try:
            addr = engine.get_function_address(name)
        except Exception:  # a global variable, not a function
            continue
        if addr:
            out.append((addr, name))
    return sorted(out)


def readable(name: str) -> str:
    """``sim::kernel::brew::potion_step[abi:...]`` from Numba's mangled ``_ZN...`` name."""
    m = re.match(r"_ZN(.*)E", name)
    if not m:
        return name
    parts, rest = [], m.group(1)
    while rest and rest[0].isdigit():
        n = re.match(r"\d+", rest).group(0)
        rest = rest[len(n):]
        parts.append(rest[: int(n)])
        rest = rest[int(n):]
    text = "::".join(parts) or name
    text = re.sub(r"_3c_locals_3e_", "<locals>", text)
    return text.replace("$", "_")


def write_map(path: str) -> int:
    """Write the perf map of this process's JIT code; return the number of functions."""
    syms = jit_symbols()
    with open(path, "w", encoding="utf-8") as fh:
        for (addr, name), nxt in zip(syms, [*syms[1:], (0, "")], strict=True):
            size = (nxt[0] - addr) if nxt[0] > addr else 4096
            size = min(size, 1 << 20)
            label = ("cfunc:" if name.startswith("cfunc.") else "") + readable(name)
            fh.write(f"{addr:x} {size:x} {label}\n")
    return len(syms)


def workload(a: argparse.Namespace) -> None:
    """The sampled part: warm up, play ``a.games`` games on one thread, write the map."""
    import numba
    import numpy as np

    sys.path.insert(0, str(ROOT))
    from sim.api.game import play_batch
    from sim.rules.ruleset import load_ruleset
    from strategies.builtin import parse_strategy

    numba.set_num_threads(1)
    rs = load_ruleset(a.rules, ["cards.deck=false", *a.set] if a.rules == "base" else a.set)
    lineup = [parse_strategy(s) for s in (a.lineup or LINEUPS[a.players])]
    n = len(lineup)
    warm = np.arange(100, dtype=np.int64)
    play_batch(rs, lineup, games=warm, rotations=warm % n, seed=1)
    idx = np.arange(a.games, dtype=np.int64)
    # perf samples this process from here on only: not the imports, the cache load, the warm-up
    perf = subprocess.Popen(["perf", "record", "-q", "-e", "cpu-clock", "-F", "4000", "-o",
                             a.data, "-p", str(os.getpid())])
    time.sleep(1.0)  # perf attaches
    t = time.process_time()
    play_batch(rs, lineup, games=idx, rotations=idx % n, seed=2)
    cpu = time.process_time() - t
    perf.send_signal(signal.SIGINT)
    perf.wait()
    n = write_map(f"/tmp/perf-{os.getpid()}.map")
    print(f"{a.games:,} games in {cpu:.2f} CPU s ({a.games / cpu:,.0f} games/s, 1 thread, "
          f"sampled); {n} JIT functions mapped", file=sys.stderr)


def sample(games: int, players: int = 4, rules: str = "base", sets: list[str] | None = None,
           keep: str | None = None, lineup: list[str] | None = None) -> list[tuple[float, str]]:
    """Sample one batch in a fresh process (see the module docstring) and return its functions
    as (per cent of the samples, name), the largest first. ``keep``: a folder to keep
    ``perf.data`` and the perf map in; ``lineup``: the strategies, one per seat (default: the
    benchmark's lineup for ``players``). Raises ``RuntimeError`` without ``perf``."""
    if shutil.which("perf") is None:
        raise RuntimeError("perf is not installed (Debian: apt-get install linux-perf)")
    work = keep or tempfile.mkdtemp(prefix="quacks-perf-")
    os.makedirs(work, exist_ok=True)
    data = os.path.join(work, "perf.data")
    inner = [sys.executable, __file__, "--inside", "--games", str(games), "--players",
             str(players), "--rules", rules, "--data", data, *[f"--set={x}" for x in sets or []],
             *[f"--lineup={x}" for x in lineup or []]]
    proc = subprocess.Popen(inner)
    if proc.wait() != 0:
        raise RuntimeError(f"the sampled batch failed (exit status {proc.returncode})")
    perf_map = Path(f"/tmp/perf-{proc.pid}.map")
    report = subprocess.run(["perf", "report", "-i", data, "--stdio", "--no-children",
                             "--sort", "symbol", "--percent-limit", "0"],
                            check=True, capture_output=True, text=True).stdout
    rows = []
    for ln in report.splitlines():
        parts = ln.split()  # "27.28%  [.] sim::kernel::brewing::brew_round"
        if len(parts) >= 3 and not ln.startswith("#") and parts[0].endswith("%"):
            rows.append((float(parts[0][:-1]), " ".join(parts[2:]).removesuffix(" - -")))
    if keep:
        shutil.copy(perf_map, work)
    else:
        shutil.rmtree(work, ignore_errors=True)
        perf_map.unlink(missing_ok=True)
    return sorted(rows, reverse=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--players", type=int, default=4, choices=sorted(LINEUPS))
    ap.add_argument("--rules", default="base")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--lineup", action="append", default=[], metavar="SPEC",
                    help="a seat's strategy (repeat once per seat; default: the benchmark's)")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--keep", help="keep perf.data and the perf map in this folder")
    ap.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--data", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.inside:
        workload(a)
        return 0
    try:
        rows = sample(a.games, a.players, a.rules, a.set, a.keep, a.lineup)
    except RuntimeError as e:
        print(f"profile_kernel: {e}", file=sys.stderr)
        return 2
    print("\n".join(f"{pct:5.2f}% {name}" for pct, name in rows[: a.top] if pct >= 0.3))
    if a.keep:
        print(f"kept in {a.keep}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
