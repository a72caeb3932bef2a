"""Coverage of the 95% intervals, measured: many small tournaments against one large reference.

For every format (rotate, round-robin, vs-field, sweep) this runs ``--reps`` small runs with
independent seeds and one run ``--scale`` times larger with yet another seed, and reports per
statistic the share of the small runs' 95% intervals that contain the large run's value (over
every strategy, pair, seat or value the statistic has). A right interval lands near 0.95; the
issue's target band is 0.92-0.98. The binomial interval of each coverage figure is shown too (the
cells of one run are correlated, so read it as a rough guide).

    python benchmarks/coverage.py                 # every format, 200 runs each (~15-30 min here)
    python benchmarks/coverage.py --reps 50 --formats round-robin
    python benchmarks/coverage.py --csv coverage.csv --md coverage.md

Not a test: it takes minutes and its figures go in the closing notes and README.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sim.stats.intervals import wilson  # noqa: E402
from sim.study.sweep.run import run_sweep  # noqa: E402
from sim.study.tournament.plan import TournamentConfig, resolve_plan
from sim.study.tournament.run import run_tournament  # noqa: E402

FORMATS = {
    # name: (strategies, players, games per small run)
    "rotate": (("cautious", "balanced", "greedy", "pumpkin"), 4, 400),
    "round-robin": (("cautious", "balanced", "greedy", "pumpkin", "blueyellow", "blackpurple",
                     "greenruby", "expected-value"), 4, 5_600),
    "vs-field": (("threshold:t=7", "balanced", "greedy"), 4, 400),
}
SWEEP = {"strategy": "threshold", "param": "t=5:7:1", "vs": ("balanced", "greedy"), "players": 4,
         "games": 400}
REF_SEED = 10_000_019

STRATEGY_STATS = ("win_share", "mean_vp", "mean_rank", "explosion_rate", "rating")
PAIR_STATS = ("vp_diff", "win_share_diff", "vp_diff_unpaired", "win_share_diff_unpaired")


def _cover(ref: pd.DataFrame, small: pd.DataFrame, key: list[str], stat: str,
           ci: str | None = None) -> tuple[int, int, float]:
    """(covered, intervals, mean width) of ``stat`` over matching rows."""
    ci = ci or stat + "_ci"
    m = small.merge(ref[[*key, stat]], on=key, suffixes=("", "_ref"))
    lo, hi, r = (m[ci + "_lo"].to_numpy(float), m[ci + "_hi"].to_numpy(float),
                 m[stat + "_ref"].to_numpy(float))
    ok = np.isfinite(lo) & np.isfinite(hi) & np.isfinite(r)
    return int(((lo <= r) & (r <= hi) & ok).sum()), int(ok.sum()), float(np.nanmean(hi - lo))


def _tables(summary) -> dict[str, tuple[pd.DataFrame, list[str]]]:
    st = summary.strategies.assign(strategy=lambda d: d["strategy"].astype(str))
    pr = summary.pairs.assign(strategy_a=lambda d: d["strategy_a"].astype(str),
                              strategy_b=lambda d: d["strategy_b"].astype(str))
    for s in ("vp_diff", "win_share_diff"):
        pr[s + "_unpaired"] = pr[s]
    se = summary.seats.assign(strategy=lambda d: d["strategy"].astype(str))
    se = se[se["strategy"] == "all"]
    bo = summary.bought.assign(strategy=lambda d: d["strategy"].astype(str),
                               colour=lambda d: d["colour"].astype(str))
    return {"strategies": (st, ["strategy"]), "pairs": (pr, ["strategy_a", "strategy_b"]),
            "seats": (se, ["seat"]), "bought": (bo, ["strategy", "colour"])}


def _tournament_checks(ref_summary, small_summary) -> list[tuple[str, int, int, float]]:
    ref, small = _tables(ref_summary), _tables(small_summary)
    out = []
    for stat in STRATEGY_STATS:
        out.append((stat,
                    *_cover(ref["strategies"][0], small["strategies"][0], ["strategy"], stat)))
    for stat in PAIR_STATS:
        base = stat.replace("_unpaired", "")
        ci = base + ("_ci_unpaired" if stat.endswith("_unpaired") else "_ci")
        out.append((stat, *_cover(ref["pairs"][0], small["pairs"][0], ["strategy_a", "strategy_b"],
                                  stat, ci)))
    for stat in ("win_share", "mean_vp"):
        out.append((f"seat {stat}", *_cover(ref["seats"][0], small["seats"][0], ["seat"], stat)))
    b_ref, b_small = ref["bought"][0], small["bought"][0]
    b_ref = b_ref[b_ref["mean"] > 0.05]  # colours a strategy (almost) never buys say nothing
    out.append(("chips bought", *_cover(b_ref, b_small, ["strategy", "colour"], "mean", "ci")))
    return out


FIRST_SEED = 1  # seeds of the small runs: FIRST_SEED, FIRST_SEED + 1, ... (--first-seed)


def run_format(name: str, reps: int, scale: int) -> list[dict]:
    specs, players, games = FORMATS[name]
    fmt = name
    cfg = TournamentConfig(strategies=specs, players=players, games=games * scale, seed=REF_SEED,
                           format=fmt)
    t0 = time.perf_counter()
    ref = run_tournament(cfg, plots=False).summary
    base = resolve_plan(replace(cfg, games=games, seed=1))
    sums: dict[str, list] = {}
    for r in range(reps):
        plan = replace(base, config=replace(base.config, seed=FIRST_SEED + r))
        small = run_tournament(plan, plots=False).summary
        for stat, c, n, w in _tournament_checks(ref, small):
            acc = sums.setdefault(stat, [0, 0, 0.0])
            acc[0] += c
            acc[1] += n
            acc[2] += w
    secs = time.perf_counter() - t0
    deals = games // base.games_per_deal
    return [_row(name, stat, c, n, w / reps, reps, deals, secs) for stat, (c, n, w) in sums.items()]


def run_sweep_format(reps: int, scale: int) -> list[dict]:
    s = SWEEP
    t0 = time.perf_counter()

    def sweep(games: int, seed: int):
        return run_sweep(s["strategy"], s["param"], list(s["vs"]), players=s["players"],
                         games=games,
                         seed=seed, plots=False).table

    ref = sweep(s["games"] * scale, REF_SEED)
    sums: dict[str, list] = {}
    for r in range(reps):
        small = sweep(s["games"], FIRST_SEED + r)
        for stat in ("win_share", "mean_vp", "mean_rank", "explosion_rate", "win_share_diff",
                     "vp_diff"):
            sm = small[~small["baseline"]] if stat.endswith("_diff") else small
            c, n, w = _cover(ref, sm, ["value"], stat)
            acc = sums.setdefault(stat, [0, 0, 0.0])
            acc[0] += c
            acc[1] += n
            acc[2] += w
    secs = time.perf_counter() - t0
    deals = s["games"] // s["players"]
    return [_row("sweep", stat, c, n, w / reps, reps, deals, secs)
            for stat, (c, n, w) in sums.items()]


def _row(fmt, stat, covered, n, width, reps, deals, secs) -> dict:
    lo, hi = wilson(covered, n)
    return {"format": fmt, "statistic": stat, "intervals": n,
            "coverage": covered / n if n else np.nan,
            "coverage_ci_lo": lo, "coverage_ci_hi": hi, "mean_width": width, "runs": reps,
            "deals_per_run": deals, "in_band": bool(0.92 <= covered / n <= 0.98) if n else False,
            "seconds": round(secs, 1)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=200, help="small runs per format (default 200)")
    ap.add_argument("--scale", type=int, default=100, help="reference run size / small run size")
    ap.add_argument("--formats", default="rotate,round-robin,vs-field,sweep")
    ap.add_argument("--first-seed", type=int, default=1, help="seed of the first small run")
    ap.add_argument("--csv", type=Path, help="write the table as CSV")
    ap.add_argument("--md", type=Path, help="write the table as markdown")
    a = ap.parse_args(argv)
    global FIRST_SEED
    FIRST_SEED = a.first_seed
    rows = []
    for f in [x.strip() for x in a.formats.split(",") if x.strip()]:
        if f == "sweep":
            new = run_sweep_format(a.reps, a.scale)
        elif f in FORMATS:
            new = run_format(f, a.reps, a.scale)
        else:
            ap.error(f"unknown format {f}")
        rows += new
        part = pd.DataFrame(new).drop(columns=["seconds"]).to_string(
            index=False, float_format=lambda x: f"{x:.4f}")
        print(f"{f}: done ({new[-1]['seconds']} s)\n{part}", file=sys.stderr, flush=True)
    df = pd.DataFrame(rows)
    with pd.option_context("display.width", 200, "display.max_rows", 200):
        print(df.drop(columns=["seconds"]).to_string(index=False,
                                                     float_format=lambda x: f"{x:.4f}"))
    if a.csv:
        df.to_csv(a.csv, index=False)
    if a.md:
        a.md.write_text(df.to_markdown(index=False, floatfmt=".4f") if _has_tabulate()
                        else df.to_string())
    bad = df[~df["in_band"]]
    print(f"\n{len(df) - len(bad)} of {len(df)} statistics inside 0.92-0.98", file=sys.stderr)
    return 0


def _has_tabulate() -> bool:
    try:
        import tabulate  # noqa: F401
    except ImportError:
        return False
    return True


if __name__ == "__main__":
    raise SystemExit(main())
