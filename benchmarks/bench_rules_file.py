"""What a user's rules file costs (issue 46): the CPU seconds to compile the kernels with it, cold
and warm, and the games per second with and without it.

    python benchmarks/bench_rules_file.py FILE.py [--set KEY=VALUE ...] [--games 20000]
                                          [--threads 1] [--repeat 3] [--cold]

Each measurement runs in a process of its own (a rules file is loaded before the kernel is
imported): ``without`` plays the reference games (base, Set 1, no deck, 4 players, the lineup of
``bench_games.py``) with no rules file; ``with`` loads FILE and plays the same games with the
``--set`` overrides (``cards.extra=["my-card"]``, ``books.green=7``). Each reports the CPU seconds
of its first batch (compiling or loading the kernels, then 1,000 games) and the best games/s of
``--repeat`` batches. ``--cold`` first removes the rules file's own cache folder
(``rules-<hash>``, see ``sim.numba_cache.cache_folder``), so ``with`` compiles the kernels that
depend on it; run again without ``--cold`` for the warm figure.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINEUP = ["threshold", "threshold:t=5", "threshold:t=7", "random"]

CHILD = r"""
import json, shutil, sys, time
args = json.loads(sys.argv[1])
t0 = time.process_time()
if args["file"]:
    from sim.cli.user_input import load_rules_files
    load_rules_files([args["file"]])
    if args["cold"]:
        import os
        from sim.numba_cache import cache_base, rules_key
        shutil.rmtree(os.path.join(cache_base(), rules_key()), ignore_errors=True)
import numba
import numpy as np
from sim.api.game import play_batch
from sim.rules.ruleset import load_ruleset
from strategies.builtin import parse_strategy
numba.set_num_threads(args["threads"])
rs = load_ruleset("base", ["cards.deck=false", *args["sets"]])
lineup = [parse_strategy(s) for s in args["lineup"]]
warm = np.arange(1000, dtype=np.int64)
play_batch(rs, lineup, games=warm, rotations=warm % 4, seed=1)
first = time.process_time() - t0
idx = np.arange(args["games"], dtype=np.int64)
best = float("inf")
for r in range(args["repeat"]):
    t = time.perf_counter()
    play_batch(rs, lineup, games=idx, rotations=idx % 4, seed=r + 2)
    best = min(best, time.perf_counter() - t)
print(json.dumps({"first_cpu_s": first, "games_per_s": args["games"] / best}))
"""


def measure(file: str, sets: list[str], args) -> dict:
    """One process's figures (see the module)."""
    spec = {"file": file, "sets": sets, "games": args.games, "threads": args.threads,
            "repeat": args.repeat, "cold": args.cold, "lineup": LINEUP}
    got = subprocess.run([sys.executable, "-c", CHILD, json.dumps(spec)], capture_output=True,
                         text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    if got.returncode != 0:
        sys.exit(f"error: {got.stderr.strip().splitlines()[-1]}")
    return json.loads(got.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("--set", action="append", default=[], dest="sets")
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cold", action="store_true")
    args = ap.parse_args()
    print(f"{args.games:,} games per batch (4 players, base, Set 1, no deck), best of "
          f"{args.repeat}, {args.threads} thread(s)")
    for label, file, sets in (("without", "", []), ("with", args.file, args.sets)):
        r = measure(file, sets, args)
        print(f"  {label:<8} {r['games_per_s']:10,.0f} games/s   first batch (compile or load, "
              f"then 1,000 games): {r['first_cpu_s']:.1f} CPU s"
              + (f"   {file} {' '.join(sets)}" if file else ""))


if __name__ == "__main__":
    main()
