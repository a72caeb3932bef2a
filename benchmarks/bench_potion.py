"""Potion kernel throughput against a minimal hand-written Numba loop (same bag, policy, threads).

    python benchmarks/bench_potion.py [--n 20000000] [--threads 2]

Prints potions per second for both and their ratio (kernel / minimal). The minimal loop knows
only white chips, the start bag and ``white:6``: it is the floor any general kernel is measured
against. Both use the same counter-based streams and the same parallel chunking.
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np
from numba import njit, prange

from sim.api import potion
from sim.kernel.rng import randint, stream_seed
from sim.rules.ruleset import load_ruleset


@njit(cache=True, parallel=True)
def minimal_loop(seed, n, values, is_white, threshold, limit, n_chunks):
    """Draw without replacement, place by value, stop at white >= threshold or explosion."""
    hist = np.zeros((n_chunks, 54, 2), dtype=np.int64)
    m = values.shape[0]
    for c in prange(n_chunks):
        lo = c * n // n_chunks
        hi = (c + 1) * n // n_chunks
        bag = np.empty(m, dtype=np.int64)
        rng = np.empty(1, dtype=np.uint64)
        for i in range(lo, hi):
            rng[0] = stream_seed(seed, i, 0)
            for k in range(m):
                bag[k] = k
            left = m
            pos = 0
            white = 0
            exploded = 0
            while left > 0:
                j = randint(rng, 0, left)
                chip = bag[j]
                bag[j] = bag[left - 1]
                left -= 1
                pos = min(pos + values[chip], 52)
                if is_white[chip]:
                    white += values[chip]
                    if white > limit:
                        exploded = 1
                        break
                if white >= threshold or pos >= 52:
                    break
            hist[c, min(pos + 1, 53), exploded] += 1
    return hist.sum(axis=0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=20_000_000)
    ap.add_argument("--threads", type=int, default=numba.config.NUMBA_NUM_THREADS)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    numba.set_num_threads(args.threads)
    rs = load_ruleset("base")
    q = potion.make_query("start", "white:6", None, 0, rs)
    values = np.array([1, 1, 1, 1, 2, 2, 3, 1, 1], dtype=np.int64)
    is_white = np.array([1, 1, 1, 1, 1, 1, 1, 0, 0], dtype=np.int64)
    chunks = 64
    # warm up (compile)
    potion.sample(q, 1000, 1, chunks)
    minimal_loop(np.uint64(1), 1000, values, is_white, 6, 7, chunks)
    best_k = best_m = float("inf")
    for _ in range(args.repeat):
        t = time.perf_counter()
        hk = potion.sample(q, args.n, 1, chunks)
        best_k = min(best_k, time.perf_counter() - t)
        t = time.perf_counter()
        hm = minimal_loop(np.uint64(1), args.n, values, is_white, 6, 7, chunks)
        best_m = min(best_m, time.perf_counter() - t)
    pk = hk[:, 1].sum() / args.n
    pm = hm[:, 1].sum() / args.n
    print(f"threads {args.threads}, {args.n:,} potions, start bag, white:6 (best of {args.repeat})")
    print(f"kernel  : {args.n / best_k:14,.0f} potions/s   P(explode) {pk:.5f}")
    print(f"minimal : {args.n / best_m:14,.0f} potions/s   P(explode) {pm:.5f}")
    print(f"ratio kernel/minimal: {best_m / best_k:.2f}")


if __name__ == "__main__":
    main()
