"""Where the kernels' compile time goes: every Numba compilation of a ``quacks warmup``, timed.

Usage:  python benchmarks/compile_profile.py [--csv FILE] [--top N] [--cache DIR]

It points Numba's cache at an empty folder (or ``--cache``), listens to Numba's ``numba:compile``
events while ``quacks warmup`` runs, and prints one row per compiled function: how often it was
compiled (one per type signature), its inclusive seconds (with the callees compiled inside it)
and its exclusive seconds (without them). Functions marked ``@kernel(inline=True)``
(``inline="always"``) never appear on their own: they are compiled into every caller, which is
what the exclusive time of a big caller measures. The tail lists, per module, how many functions
are inlined that way.

This is a measurement, not a test: it compiles everything from scratch (about 20 minutes on 2
cores) and touches no cache in use.
"""

from __future__ import annotations

import argparse
import ast
import os
import resource
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def inline_counts() -> dict[str, tuple[int, int]]:
    """Per kernel module: (functions compiled with ``inline="always"``, all njit functions)."""
    out = {}
    for p in sorted([*ROOT.glob("sim/**/*.py"), *ROOT.glob("strategies/*.py")]):
        tree = ast.parse(p.read_text(encoding="utf-8"))
        n_jit = n_inline = 0
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef):
                continue
            for d in node.decorator_list:
                name = getattr(d.func if isinstance(d, ast.Call) else d, "id", "")
                if name not in ("njit", "kernel"):
                    continue
                n_jit += 1
                if isinstance(d, ast.Call):
                    n_inline += any(k.arg == "inline" and getattr(k.value, "value", "") in
                                    ("always", True) for k in d.keywords)
        if n_jit:
            out[p.relative_to(ROOT).as_posix()] = (n_inline, n_jit)
    return out


def profile(top: int, csv: str | None) -> None:
    from numba.core import event

    stack: list[list] = []  # [name, start, seconds spent in nested compiles]
    rows: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0])  # n, inclusive, exclusive

    class Timer(event.Listener):
        def on_start(self, ev):
            d = ev.data["dispatcher"]
            f = d.py_func
            stack.append([f"{f.__module__}.{f.__qualname__}", time.perf_counter(), 0.0])

        def on_end(self, ev):
            name, t0, nested = stack.pop()
            took = time.perf_counter() - t0
            r = rows[name]
            r[0] += 1
            r[1] += took
            r[2] += took - nested
            if stack:
                stack[-1][2] += took

    event.register("numba:compile", Timer())
    from sim.cli.warmup import warm_all

    t = time.perf_counter()
    r0 = resource.getrusage(resource.RUSAGE_SELF)
    steps, _ = warm_all()
    r1 = resource.getrusage(resource.RUSAGE_SELF)
    total = time.perf_counter() - t
    for label, sec in steps:
        print(f"step  {label:<45} {sec:8.1f} s")
    print(f"total {total:.1f} s; {len(rows)} functions compiled")
    # the system seconds and page faults stay small because every compile runs in a roomy frame
    # (sim.kernel.jit.in_roomy_frame); without it: ~8 million faults, a quarter of the time
    print(f"CPU {r1.ru_utime - r0.ru_utime:.1f} s user, {r1.ru_stime - r0.ru_stime:.1f} s system; "
          f"{r1.ru_minflt - r0.ru_minflt:,} minor page faults\n")
    order = sorted(rows.items(), key=lambda kv: -kv[1][2])
    print(f"{'function':<62} {'n':>3} {'incl s':>8} {'excl s':>8}")
    for name, (n, inc, exc) in order[:top]:
        print(f"{name:<62} {n:>3} {inc:8.1f} {exc:8.1f}")
    print(f"\n{'module':<45} inline / compiled functions")
    for mod, (ni, nj) in inline_counts().items():
        print(f"{mod:<45} {ni:>4} / {nj}")
    if csv:
        tmp = f"{csv}.partial"
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write("function,compiles,inclusive_s,exclusive_s\n")
            for name, (n, inc, exc) in order:
                fh.write(f"{name},{n},{inc:.3f},{exc:.3f}\n")
        os.replace(tmp, csv)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--csv", help="also write every row to this CSV file")
    ap.add_argument("--top", type=int, default=40, help="rows to print (default 40)")
    ap.add_argument("--cache", help="Numba cache folder (default: a new empty one)")
    a = ap.parse_args(argv)
    os.environ["NUMBA_CACHE_DIR"] = a.cache or tempfile.mkdtemp(prefix="quacks-compile-")
    sys.path.insert(0, str(ROOT))
    profile(a.top, a.csv)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
