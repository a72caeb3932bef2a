"""Start-up time of the ``quacks`` command: whole processes, as a user starts them.

    python benchmarks/bench_startup.py [--runs 15] [--exe quacks] [--root DIR] [--no-pyc]

Times ``quacks --version``, ``quacks --help`` and ``quacks tournament --help`` (the median, the
fastest and the slowest of --runs processes each, after one untimed run that warms the file
cache and writes the bytecode). By default each process is ``python -m sim.cli`` on this
checkout (PYTHONPATH set to the repository root, or to --root, another checkout to compare);
``--exe quacks`` times the installed console script instead. Python may write ``__pycache__``
as an installed package has it, even when PYTHONDONTWRITEBYTECODE is set; ``--no-pyc`` compiles
the sources in every process instead. Target: every median under 0.3 s on an idle 2-core
machine (issue 23). A busy machine shows slower figures: quote the medians and say what else
was running. The last line times the floor under every help: Python starting and importing
Typer's rich help formatter, what quacks cannot start faster than.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = (["--version"], ["--help"], ["tournament", "--help"])
TARGET = 0.3  # seconds


def command(exe: str | None) -> list[str]:
    """The argv prefix that starts ``quacks``."""
    return [exe] if exe else [sys.executable, "-m", "sim.cli"]


def environment(root: Path, pyc: bool) -> dict[str, str]:
    """This process's environment with the checkout ``root`` first on PYTHONPATH."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(root), env.get("PYTHONPATH")) if p)
    env["COLUMNS"] = "100"
    if pyc:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def time_once(argv: list[str], env: dict[str, str], cwd: Path) -> float:
    """Seconds from start to exit of one process (which must exit with status 0)."""
    t0 = time.perf_counter()
    res = subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE)
    secs = time.perf_counter() - t0
    if res.returncode != 0:
        raise SystemExit(f"{' '.join(argv)}: exit status {res.returncode}\n{res.stderr.decode()}")
    return secs


def bench(args: list[str], runs: int, exe: str | None, root: Path,
          env: dict[str, str]) -> list[float]:
    """``runs`` timings of ``quacks ARGS`` after one untimed run, started in ``root`` (python -m
    puts the working directory first on sys.path)."""
    argv = command(exe) + args
    time_once(argv, env, root)
    return [time_once(argv, env, root) for _ in range(runs)]


def main() -> None:
    """Time every case and print one line each: median, fastest and slowest."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=15, help="timed processes per case")
    ap.add_argument("--exe", default=None, help="time this executable (e.g. quacks) instead "
                                                "of python -m sim.cli")
    ap.add_argument("--root", type=Path, default=ROOT, help="the checkout to time")
    ap.add_argument("--no-pyc", action="store_true", help="compile the sources in every process")
    a = ap.parse_args()
    root = a.root.resolve()
    env = environment(root, not a.no_pyc)
    print(f"{' '.join(command(a.exe))} on {root}"
          f"{' (no bytecode cache)' if a.no_pyc else ''}: "
          f"median of {a.runs} processes (target {TARGET} s)")
    for args in CASES:
        t = bench(args, a.runs, a.exe, root, env)
        med = statistics.median(t)
        flag = "" if med < TARGET else "  (over target)"
        print(f"  quacks {' '.join(args):<20} median {med:6.3f} s  min {min(t):6.3f} s  "
              f"max {max(t):6.3f} s{flag}")
    floor = [sys.executable, "-c", "import typer.rich_utils"]
    time_once(floor, env, root)
    t = [time_once(floor, env, root) for _ in range(a.runs)]
    print(f"  {'floor (import typer.rich_utils)':<27} median {statistics.median(t):6.3f} s  "
          f"min {min(t):6.3f} s  max {max(t):6.3f} s")


if __name__ == "__main__":
    main()
