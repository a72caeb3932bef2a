"""The error rate and the games saved of ``quacks compare --sequential``, measured on real
games (issue 47 item 4; the check ``benchmarks/interval_coverage.py`` makes of the intervals).

- **No difference** (the error rate): ``base`` against ``base`` with the bonus die's faces
  listed in reverse order, the same game (every face as likely) but other dice on every deal,
  so the paired differences are real noise around a true 0. ``--runs`` runs (seeds 1, 2, ...),
  each with a budget of ``--games`` games per ruleset; a run errs when any of its questions is
  decided (its confidence sequence excludes 0). The same runs looked at after every batch with
  the fixed-size 95% interval (per question, the level split as the sequential mode splits it)
  are counted too: the error that peeking gives.
- **A difference** (the games saved): ``base`` against ``game.explosion_limit=8`` on the same
  field (budget ``--games-diff``): how many games the runs played and saved, how many decided
  every question, and how many decided a question with the wrong sign.

    python benchmarks/sequential_error.py                # 200 runs each, budgets 1,000/4,000
    python benchmarks/sequential_error.py --runs 40      # a quick look
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

FACES = 'die.faces=["pumpkin","droplet","ruby","vp2","vp1","vp1"]'
FIELD = ("balanced", "greedy")


def wilson(k: int, n: int) -> tuple[float, float]:
    """The 95% Wilson interval of k of n."""
    z = 1.959964
    p = k / n
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, c - h), min(1.0, c + h)


def peeking_errs(res, alpha: float) -> bool:
    """Whether a fixed-size interval (level ``alpha`` per question), looked at after every
    batch of the sequential run, would have excluded 0 at some look."""
    from scipy.stats import t as student

    from sim.stats.sequences import Running, batch_bounds
    from sim.study.compare.sequential import deal_values, question_keys

    a, b = res.totals
    bounds = batch_bounds(res.sequential.run.budget)
    for key in question_keys(len(res.plans[0].names)):
        d = deal_values(b, key) - deal_values(a, key)
        r = Running()
        for d0, d1 in zip(bounds[:-1], bounds[1:]):
            if d1 > len(d):
                break
            r.add(d[d0:d1])
            if r.n >= 30 and r.sd > 0:
                h = student.ppf(1 - alpha / 2, r.n - 1) * r.sd / math.sqrt(r.n)
                if abs(r.mean) > h:
                    return True
    return False


def run(variant: tuple[str, ...], seed: int, games: int, width: float | None = None):
    """One sequential compare of base against base with ``variant``."""
    from sim.study.compare.config import CompareConfig
    from sim.study.compare.run import run_compare

    return run_compare(CompareConfig(rulesets=(("base", "base", ()), ("variant", "base", variant)),
                                     strategies=FIELD, players=2, games=games, seed=seed,
                                     sequential=True, width=width))


def main() -> None:
    """Run both cases and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--games", type=int, default=1000,
                    help="budget per ruleset and run, no difference")
    ap.add_argument("--games-diff", type=int, default=4000,
                    help="budget per ruleset and run, a difference")
    ap.add_argument("--width-diff", type=float, default=None,
                    help="--width of the runs with a difference")
    ap.add_argument("--only-diff", action="store_true", help="only the case with a difference")
    a = ap.parse_args()
    t0 = time.perf_counter()
    errs = peeks = 0
    for s in range(1, 0 if a.only_diff else a.runs + 1):
        res = run((FACES,), s, a.games)
        errs += any(q.decided for q in res.sequential.run.sequences.values())
        peeks += peeking_errs(res, res.sequential.alpha)
    lo, hi = wilson(errs, a.runs)
    plo, phi = wilson(peeks, a.runs)
    if not a.only_diff:
        print(f"no difference (base vs base with the die's faces reversed), {a.runs} runs, budget "
              f"{a.games:,} games per ruleset, field {','.join(FIELD)}, 2 players:")
        print(f"  sequential (confidence sequences): {errs} of {a.runs} runs decided a question: "
              f"error rate {errs / a.runs:.3f} [95% CI {lo:.3f}, {hi:.3f}]")
        print(f"  fixed-size intervals looked at after every batch: {peeks} of {a.runs}: "
              f"{peeks / a.runs:.3f} [95% CI {plo:.3f}, {phi:.3f}]")
    played, decided, wrong = [], 0, 0
    for s in range(1, a.runs + 1):
        res = run(("game.explosion_limit=8",), s, a.games_diff, a.width_diff)
        st = res.sequential
        played.append(st.games)
        decided += st.run.decided
        ref = {"mean_vp": 1, "explosion_rate": -1}  # the signs the long runs show (docs)
        for q, seq in st.run.sequences.items():
            key = q.split("|")[1]
            if seq.decided and key in ref and np.sign(seq.mean) != ref[key]:
                wrong += 1
    p = np.asarray(played, float)
    h = 1.959964 * p.std(ddof=1) / math.sqrt(len(p))
    print(f"a difference (base vs game.explosion_limit=8), {a.runs} runs, budget "
          f"{a.games_diff:,} games per ruleset"
          + (f", --width {a.width_diff:g}" if a.width_diff is not None else "") + ":")
    print(f"  games played per ruleset: mean {p.mean():,.0f} [95% CI {p.mean() - h:,.0f}, "
          f"{p.mean() + h:,.0f}] of {a.games_diff:,}; saved {1 - p.mean() / a.games_diff:.1%} "
          f"of the budget; every question decided in {decided} of {a.runs} runs; mean VP or "
          f"explosions decided with the wrong sign: {wrong}")
    print(f"({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
