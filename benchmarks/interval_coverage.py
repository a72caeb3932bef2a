"""Coverage of the 95% intervals and false-flag rates of the flags, measured: many small runs of
every command that prints intervals or flags against one large reference (issue 50, item 5).
The other tournament formats (``round-robin``, ``sweep``) can be asked for with ``--cases``.

For each case (a command with fixed options; ``--cases``) this makes ``--runs`` small runs
(seeds 1, 2, ...) and one reference ``--scale`` times larger (its own seed, 10000019), through
the Python API (``sim.tournament``, ``sim.compare``, ``sim.balance``, ``sim.sensitivity``,
``sim.design``: the same numbers as the commands), and prints per table and statistic:

- **intervals**: how many of the small runs' intervals were compared (those with a reference
  value); **coverage**: the share that contain the reference's estimate, with its 95%
  interval over runs (``ci_unit`` ``run``: the intervals of one run share its deals and are
  correlated, so the run is the unit, as the deal is in the project's own rates; ``interval``:
  Wilson as if independent, for a study saved before the per-run sums were kept); a right 95%
  interval lands near 0.95 (a little lower, as the reference has its own noise: at a scale of
  100 that costs about 0.003). The false-flag rates' intervals likewise.
- **both 0**: intervals left out because both runs are exactly 0 with an interval of width 0
  (the two arms are the same game, or the figure cannot happen): they cover trivially.
  **width 0**: the small runs' intervals of width 0 that were counted (a value the run saw on
  every deal alike) and how many of those missed.
- **effects** (``sensitivity``): the picked pair of each knob and figure (the two values
  furthest apart in the small run), its interval against the reference's difference of that
  same pair, so the picking is part of what is measured.
- **left_out**: ``design`` runs whose search picked other best values than the reference's
  (their re-test measures another rule change) are left out.
- **flags**: where the reference says a figure is left alone (every interval of the family
  contains 0 and is at most half as wide as the small runs' median), the share of small runs
  that flag it anyway: ``moves`` (a knob and figure, over the knob's pairs), a pair's
  ``excludes_zero``, the ranking's ``moves`` for a knob that moves nothing, ``compare``'s
  ``significant``, and ``design``'s side effects (per figure, and family-wise: runs that flag
  any figure left alone).

The sensitivity case is the issue's own: ``--knob game.rats_from_round=1:9 --knob
rats.lap=49:97 --games 2000`` with the default field.

    python benchmarks/interval_coverage.py           # every case, 100 runs, 100x reference
    python benchmarks/interval_coverage.py --small   # a quick look (20 runs, 10x, 1/4 games)
    python benchmarks/interval_coverage.py --cases sensitivity --runs 30 --out coverage.md
    # cases in separate processes, then reported together:
    python benchmarks/interval_coverage.py --cases balance --save b.json
    python benchmarks/interval_coverage.py --merge a.json b.json --out coverage.md

``--out FILE`` writes the tables as Markdown; docs/examples/coverage.txt holds the last run,
which the page "Reading the intervals" shows (not a .md: the docs' checks would read its tables
as a page's prose). Not a test: the default run takes long (each case's CPU and wall seconds are
printed); tests/test_coverage_study.py runs a small version.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

# run as a script, this folder comes first on the path, and this file would stand in for the
# coverage package Numba looks for: the folder goes, the checkout comes first
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

import sim  # noqa: E402
from sim.stats.clusters import ratio_mean_var  # noqa: E402
from sim.stats.intervals import rate_interval, wilson  # noqa: E402

REF_SEED = 10_000_019  # the reference's seed (the small runs take 1, 2, ...)
MIN_DETAIL = 30  # a figure's own coverage is named in the summary from this many intervals
NARROWER = 0.5  # "left alone": the reference's interval holds 0 and is at most this share as wide
SENSITIVITY_KNOBS = ("game.rats_from_round=1:9", "rats.lap=49:97")  # the issue's case
DESIGN_KNOB = "game.rats_from_round=1|9"
DESIGN_TARGET = "winner_vp_mean=40:60.5"  # 9 is far the better value: the same best every run
DESIGN_BUDGET = 4_000


@dataclass(frozen=True)
class Table:
    """A table of a case's report: its name, the columns naming a row, the column (or columns,
    joined by a space) that group the per-figure detail (None: pooled only), a filter of the
    rows, and the estimates whose
    intervals are checked (None: every ``X`` with ``X_lo``/``X_hi``, ``X_ci_lo``/``X_ci_hi``, or
    ``value``/``diff``/``mean`` with ``ci_lo``/``ci_hi``)."""

    name: str
    keys: tuple[str, ...]
    group: str | tuple[str, ...] | None = None
    rows: Callable[[pd.DataFrame], pd.DataFrame] | None = None
    stats: tuple[str, ...] | None = None


@dataclass
class Case:
    """One command with fixed options: ``run(games, seed, threads)`` returns its report;
    ``games`` the small runs' games."""

    name: str
    games: int
    run: Callable[[int, int, int | None], object]
    tables: tuple[Table, ...]
    flags: Callable[[object, object], list[dict]] | None = None  # (ref, small) -> flag rows
    note: str = ""


# --- the cases ------------------------------------------------------------------------------

def _tournament(games, seed, threads):
    return sim.tournament(strategies="cautious,balanced,greedy,pumpkin", players=4, games=games,
                          seed=seed, format="rotate", threads=threads, plots=False)


def _round_robin(games, seed, threads):
    return sim.tournament(strategies="cautious,balanced,greedy,pumpkin,blueyellow,blackpurple,"
                          "greenruby,expected-value", players=4, games=games, seed=seed,
                          format="round-robin", threads=threads, plots=False)


def _sweep(games, seed, threads):
    return sim.sweep(strategy="threshold", param="t=5:7:1", vs=["balanced", "greedy"], players=4,
                     games=games, seed=seed, threads=threads, plots=False)


def _compare(games, seed, threads):
    return sim.compare(variant=["lap61=rats.lap=61", "limit8=game.explosion_limit=8"],
                       games=games, seed=seed, threads=threads)


def _balance(games, seed, threads):
    return sim.balance(games=games, seed=seed, parts=["game", "skill", "cards", "books"],
                       threads=threads)


def _sensitivity(games, seed, threads):
    return sim.sensitivity(knob=list(SENSITIVITY_KNOBS), games=games, seed=seed, threads=threads)


def _design(games, seed, threads):
    return sim.design(knob=[DESIGN_KNOB], target=[DESIGN_TARGET], budget=DESIGN_BUDGET,
                      retest_games=games, seed=seed, threads=threads)


def _seat_all(df):
    return df[df["strategy"].astype(str) == "all"]


def _bought(df):
    return df[df["mean"] > 0.05]  # colours a strategy (almost) never buys say nothing


def _not_target(df):
    return df[~df["target"].astype(bool)]


def _targets(df):
    return df[df["target"].astype(bool)]


def _sensitivity_flags(ref, small) -> list[dict]:
    return moves_flags(ref.tables, small.tables)


def _compare_flags(ref, small) -> list[dict]:
    keys = ["ruleset", "metric", "strategy"]
    r, s = ref.tables["differences"], small.tables["differences"]
    return pair_flags(r, s, keys, "significant", "compare", "significant",
                      group=("ruleset", "metric"))


def _design_flags(ref, small) -> list[dict]:
    return side_effect_flags(ref, small)


TOURNAMENT_TABLES = (
    Table("summary", ("strategy",),
          stats=("win_share", "mean_vp", "mean_rank", "explosion_rate", "rating")),
    Table("pairs", ("strategy_a", "strategy_b"), stats=("vp_diff", "win_share_diff")),
    Table("seats", ("seat",), rows=_seat_all, stats=("win_share", "mean_vp")),
    Table("bought", ("strategy", "colour"), rows=_bought),
)
CASES = {
    "tournament": Case("tournament", 400, _tournament, TOURNAMENT_TABLES,
                       note="rotate, cautious,balanced,greedy,pumpkin, 4 players"),
    "compare": Case("compare", 2_000, _compare, (
        Table("rulesets", ("ruleset", "metric"), group="metric"),
        # per ruleset: lap61 is nearly the base game (few deals differ: the count-based floor)
        Table("strategies", ("ruleset", "strategy"), group="ruleset"),
        Table("differences", ("ruleset", "metric", "strategy"), group=("ruleset", "metric")),
    ), flags=_compare_flags, note="base, lap61=rats.lap=61, limit8=game.explosion_limit=8"),
    "balance": Case("balance", 2_000, _balance, (
        Table("game", ("metric",), group="metric"),
        Table("skill", ("metric",)),
        Table("cards", ("card",)),
        Table("books", ("colour",)),
    ), note="base, parts game,skill,cards,books"),
    "sensitivity": Case("sensitivity", 2_000, _sensitivity, (
        Table("levels", ("knob", "setting", "metric"), group="metric"),
        Table("differences", ("knob", "metric", "from", "to"), group="metric",
              stats=("diff",)),
        Table("ranking", ("knob",), stats=("rank",)),  # the rank's interval, where shown
    ), flags=_sensitivity_flags, note="--knob " + " --knob ".join(SENSITIVITY_KNOBS)),
    "design": Case("design", 2_000, _design, (
        Table("figures", ("arm", "metric"), group="metric"),
        Table("differences", ("arm", "metric"), group="metric", rows=_not_target,
              stats=("diff",)),
    ), flags=_design_flags,
        note=f"--knob {DESIGN_KNOB} --target {DESIGN_TARGET} --budget {DESIGN_BUDGET}; the "
             "re-test's games"),
    # not in the default run: the other tournament formats
    "round-robin": Case("round-robin", 5_600, _round_robin, TOURNAMENT_TABLES,
                        note="8 presets, 4 players"),
    "sweep": Case("sweep", 400, _sweep, (
        Table("sweep", ("value",), stats=("win_share", "mean_vp", "mean_rank", "explosion_rate",
                                          "win_share_diff", "vp_diff")),
    ), note="threshold t=5:7:1 against balanced, greedy, 4 players"),
}
DEFAULT_CASES = ("tournament", "compare", "balance", "sensitivity", "design")


# --- measuring ------------------------------------------------------------------------------

def interval_columns(df: pd.DataFrame, stats: tuple[str, ...] | None) -> list[tuple[str, str,
                                                                                    str]]:
    """(estimate, lo, hi) column triples of ``df`` (see :class:`Table`)."""
    cols = set(df.columns)
    out = []
    names = stats if stats is not None else list(df.columns)
    for c in names:
        for lo, hi in ((f"{c}_lo", f"{c}_hi"), (f"{c}_ci_lo", f"{c}_ci_hi")):
            if lo in cols and hi in cols:
                out.append((c, lo, hi))
                break
        else:
            if c in ("value", "diff", "mean") and {"ci_lo", "ci_hi"} <= cols:
                out.append((c, "ci_lo", "ci_hi"))
    return out


def _keyed(df: pd.DataFrame, keys) -> pd.DataFrame:
    df = df.copy()
    for k in keys:
        df[k] = df[k].astype(str)
    return df


@dataclass
class RunSums:
    """Sums over runs of one count ``k_r`` out of ``n_r`` (covered of intervals, fired of
    tests): the clusters, and the sums of ``k_r^2``, ``n_r^2`` and ``k_r n_r``, so that the share
    ``sum k / sum n`` gets an interval with the run as the unit (one run's intervals share its
    deals, and are correlated). Each :meth:`add_run` is one run."""

    runs: int = 0
    kk: float = 0.0
    nn: float = 0.0
    kn: float = 0.0

    def add_run(self, k: int, n: int) -> None:
        if n > 0:
            self.runs += 1
            self.kk, self.nn, self.kn = self.kk + k * k, self.nn + n * n, self.kn + k * n


def share_ci(k: int, n: int, sums: RunSums | None) -> tuple[float, float]:
    """The 95% interval of the share ``k / n``: over runs (the project's rate interval,
    ``sim.stats.intervals.rate_interval``: Wilson at the effective sample size of the
    cluster-robust variance over runs, never narrower than the exact interval on the count,
    exact for few events) where per-run sums were kept for every one of the ``n``; else
    Wilson over the ``n`` as if independent (a study saved before the sums were kept)."""
    if n <= 0:
        return math.nan, math.nan
    if sums is None or sums.runs < 2:
        return wilson(k, n)
    p, var = ratio_mean_var(k, n, sums.kk, sums.kn, sums.nn, sums.runs)
    p, var = float(p), float(var)
    # a variance of exactly 0 (every run the same share) has no design effect to read: the
    # exact interval on the count (rate_interval's rule of three is for deals, not runs)
    lo, hi = rate_interval(p, n, var if var > 0 else None, sums.runs)
    return float(lo[0]), float(hi[0])


@dataclass
class Tally:
    """Counts of one statistic (pooled, or of one figure); ``by_run`` their sums over runs
    (None in a study saved before they were kept). Each :meth:`add` is one run's intervals."""

    intervals: int = 0
    covered: int = 0
    both_zero: int = 0
    width0: int = 0
    width0_missed: int = 0
    width_sum: float = 0.0
    by_run: RunSums | None = field(default_factory=RunSums)

    def add(self, lo, hi, ref, small_value) -> None:
        ok = np.isfinite(lo) & np.isfinite(hi) & np.isfinite(ref)
        lo, hi, ref, v = lo[ok], hi[ok], ref[ok], small_value[ok]
        zero_width = hi - lo == 0
        both = zero_width & (v == 0) & (ref == 0)
        lo, hi, ref, zero_width = lo[~both], hi[~both], ref[~both], zero_width[~both]
        cov = (lo <= ref) & (ref <= hi)
        self.intervals += int(len(lo))
        self.covered += int(cov.sum())
        if self.by_run is not None:
            self.by_run.add_run(int(cov.sum()), int(len(lo)))
        self.both_zero += int(both.sum())
        self.width0 += int(zero_width.sum())
        self.width0_missed += int((zero_width & ~cov).sum())
        self.width_sum += float((hi - lo).sum())

    def ci(self) -> tuple[float, float]:
        """The coverage's 95% interval (:func:`share_ci`)."""
        return share_ci(self.covered, self.intervals, self.by_run)


@dataclass
class Flag:
    """Counts of one flag over figures the reference says are left alone; ``by_run`` their
    sums over runs (:meth:`end_run` closes a run's; None in a study saved before)."""

    tests: int = 0
    fired: int = 0
    families: int = 0  # runs (family-wise flags only)
    families_fired: int = 0
    by_run: RunSums | None = field(default_factory=RunSums)
    run_tests: int = 0  # this run's, until end_run
    run_fired: int = 0

    def add(self, fired: bool) -> None:
        self.tests += 1
        self.fired += int(fired)
        self.run_tests += 1
        self.run_fired += int(fired)

    def end_run(self) -> None:
        if self.by_run is not None:
            self.by_run.add_run(self.run_fired, self.run_tests)
        self.run_tests = self.run_fired = 0

    def ci(self) -> tuple[float, float]:
        """The false-flag rate's 95% interval (:func:`share_ci`)."""
        return share_ci(self.fired, self.tests, self.by_run)


@dataclass
class Study:
    """Everything one case measured."""

    case: Case
    runs: int
    scale: int
    games: int
    tallies: dict = field(default_factory=dict)  # (table, stat, group) -> Tally
    flags: dict = field(default_factory=dict)  # (flag, group) -> Flag
    skipped: int = 0  # small runs left out (design: a best other than the reference's)
    seconds: float = 0.0
    cpu: float = 0.0

    def tally(self, table: str, stat: str, group: str) -> Tally:
        return self.tallies.setdefault((table, stat, group), Tally())

    def flag(self, name: str, group: str) -> Flag:
        return self.flags.setdefault((name, group), Flag())


def compare_table(study: Study, t: Table, ref: pd.DataFrame, small: pd.DataFrame,
                  ref_key: pd.DataFrame | None = None) -> None:
    """Tally the intervals of ``small`` against the estimates of ``ref`` (rows matched on
    ``t.keys``)."""
    if t.rows is not None:
        ref, small = t.rows(ref), t.rows(small)
    keys = list(t.keys)
    ref, small = _keyed(ref, keys), _keyed(small, keys)
    for stat, lo, hi in interval_columns(small, t.stats):
        if stat not in ref.columns:
            continue
        m = small.merge(ref[[*keys, stat]].rename(columns={stat: "_ref"}), on=keys)
        args = [m[c].to_numpy(float) for c in (lo, hi, "_ref", stat)]
        study.tally(t.name, stat, "all").add(*args)
        if t.group is not None:
            cols = [t.group] if isinstance(t.group, str) else list(t.group)
            for g, sub in m.groupby(cols, sort=False):
                label = " ".join(str(x) for x in (g if isinstance(g, tuple) else (g,)))
                study.tally(t.name, stat, label).add(
                    *[sub[c].to_numpy(float) for c in (lo, hi, "_ref", stat)])


def effects_coverage(study: Study, ref: dict, small: dict) -> None:
    """The effects' picked pairs: the small run's interval for its own pick against the
    reference's difference of the same pair; ``ranking`` likewise."""
    keys = ["knob", "metric", "from", "to"]
    rd = _keyed(ref["differences"], keys)[[*keys, "diff"]].rename(columns={"diff": "_ref"})
    for name in ("effects", "ranking"):
        if name not in small:
            continue
        m = _keyed(small[name], keys).merge(rd, on=keys)
        args = [m[c].to_numpy(float) for c in ("ci_lo", "ci_hi", "_ref", "diff")]
        study.tally(name, "diff (picked pair)", "all").add(*args)
        if name == "effects":
            for g, sub in m.groupby("metric", sort=False):
                study.tally(name, "diff (picked pair)", str(g)).add(
                    *[sub[c].to_numpy(float) for c in ("ci_lo", "ci_hi", "_ref", "diff")])


def alone(ref: pd.DataFrame, small_width: pd.Series) -> pd.Series:
    """Rows of a reference's differences whose interval holds 0 and is at most ``NARROWER`` as
    wide as ``small_width`` (the small runs' median width of the same row)."""
    w = ref["ci_hi"] - ref["ci_lo"]
    return (ref["ci_lo"] <= 0) & (ref["ci_hi"] >= 0) & (w <= NARROWER * small_width)


def moves_flags(ref: dict, small: dict) -> list[dict]:
    """Per small run: ``moves`` of each knob and figure, each pair's ``excludes_zero`` and the
    ranking's ``moves``, with whether the reference says the figure (knob) is left alone. The
    widths compared are this run's (a stand-in for the median: the runs are alike)."""
    keys = ["knob", "metric", "from", "to"]
    r = _keyed(ref["differences"], keys)[[*keys, "ci_lo", "ci_hi"]]
    s = _keyed(small["differences"], keys)[[*keys, "ci_lo", "ci_hi", "excludes_zero"]]
    m = r.merge(s.rename(columns={"excludes_zero": "fired_s"}), on=keys, suffixes=("", "_s"))
    m["alone"] = alone(m, m["ci_hi_s"] - m["ci_lo_s"])
    rows = [{"flag": "differences: excludes_zero (one pair)", "group": str(x.metric),
             "alone": bool(x.alone), "fired": bool(x.fired_s)}
            for x in m.itertuples()]
    fam = m.groupby(["knob", "metric"], sort=False)["alone"].all().rename("alone").reset_index()
    e = _keyed(small["effects"], ["knob", "metric"]).merge(fam, on=["knob", "metric"])
    rows += [{"flag": "effects: moves (any of a knob's pairs)", "group": str(x.metric),
              "alone": bool(x.alone), "fired": bool(x.moves)} for x in e.itertuples()]
    knob_alone = fam.groupby("knob")["alone"].all()
    rk = _keyed(small["ranking"], ["knob"])
    rows += [{"flag": "ranking: moves (any figure)", "group": str(x.knob),
              "alone": bool(knob_alone.get(x.knob, False)), "fired": x.effect == "moves"}
             for x in rk.itertuples()]
    return rows


def pair_flags(ref: pd.DataFrame, small: pd.DataFrame, keys, column: str, case: str, name: str,
               group: str | tuple[str, ...]) -> list[dict]:
    """One flag per row: fired in the small run, and whether the reference leaves it alone;
    grouped by the ``group`` column (or columns, joined by a space)."""
    cols = (group,) if isinstance(group, str) else tuple(group)
    r, s = _keyed(ref, keys)[[*keys, "ci_lo", "ci_hi"]], _keyed(small, keys)
    m = r.merge(s[[*keys, "ci_lo", "ci_hi", column]].rename(columns={column: "fired_s"}),
                on=keys, suffixes=("", "_s"))
    m["alone"] = alone(m, m["ci_hi_s"] - m["ci_lo_s"])
    return [{"flag": f"{case}: {name}", "group": " ".join(str(getattr(x, c)) for c in cols),
             "alone": bool(x.alone), "fired": bool(x.fired_s)} for x in m.itertuples()]


def side_effect_flags(ref, small) -> list[dict]:
    """``design``'s side effects of the best arm (``sim.study.design.design.side_effects``:
    what the report lists) on the figures the reference leaves alone; one family per run."""
    from sim.study.design.design import side_effects

    keys = ["arm", "metric"]
    r = _keyed(_not_target(ref.tables["differences"]), keys)
    s = _keyed(_not_target(small.tables["differences"]), keys)
    fired = set(side_effects(small.tables["differences"], "best")["metric"].astype(str))
    m = r.merge(s[[*keys, "ci_lo", "ci_hi"]], on=keys, suffixes=("", "_s"))
    m = m[m["arm"] == "best"]
    m["alone"] = alone(m, m["ci_hi_s"] - m["ci_lo_s"])
    rows = [{"flag": "design: side effect", "group": str(x.metric), "alone": bool(x.alone),
             "fired": x.metric in fired} for x in m.itertuples()]
    fam = [x for x in rows if x["alone"]]
    if fam:
        rows.append({"flag": "design: any side effect (family-wise)", "group": "all",
                     "alone": True, "fired": any(x["fired"] for x in fam), "family": True})
    return rows


def same_best(ref, small) -> bool:
    """Whether a design run re-tested the same best values as the reference."""
    return ref.result.best["values"] == small.result.best["values"]


def run_case(case: Case, runs: int, scale: int, games: int | None, threads: int | None,
             first_seed: int = 1, say: Callable[[str], None] = lambda s: None) -> Study:
    """The reference and ``runs`` small runs of ``case``, tallied."""
    g = games or case.games
    st = Study(case, runs, scale, g)
    t0, c0 = time.perf_counter(), time.process_time()
    ref = case.run(g * scale, REF_SEED, threads)
    say(f"{case.name}: reference of {g * scale:,} games done "
        f"({time.perf_counter() - t0:.0f} s)")
    for i in range(runs):
        small = case.run(g, first_seed + i, threads)
        if case.name == "design" and not same_best(ref, small):
            st.skipped += 1
            continue
        for t in case.tables:
            if t.name in ref.tables and t.name in small.tables:
                compare_table(st, t, ref.tables[t.name], small.tables[t.name])
        if case.name == "sensitivity":
            effects_coverage(st, ref.tables, small.tables)
        if case.flags is not None:
            for row in case.flags(ref, small):
                if not row["alone"]:
                    continue
                for grp in ("all", row["group"]) if row["group"] != "all" else ("all",):
                    st.flag(row["flag"], grp).add(row["fired"])
            for f in st.flags.values():
                f.end_run()
        if (i + 1) % 10 == 0:
            say(f"{case.name}: {i + 1} of {runs} runs ({time.perf_counter() - t0:.0f} s)")
    st.seconds, st.cpu = time.perf_counter() - t0, time.process_time() - c0
    return st


# --- reporting ------------------------------------------------------------------------------

def _share(k: int, n: int) -> float:
    return k / n if n else math.nan


def _unit(x: Tally | Flag) -> str:
    return "run" if x.by_run is not None and x.by_run.runs >= 2 else "interval"


def coverage_rows(st: Study, detail: bool = False) -> list[dict]:
    """Rows of the coverage table: pooled per statistic, or (``detail``) per figure."""
    out = []
    for (table, stat, group), t in st.tallies.items():
        if (group == "all") == detail or not t.intervals and not t.both_zero:
            continue
        lo, hi = t.ci()
        row = {"case": st.case.name, "table": table, "statistic": stat}
        if detail:
            row["figure"] = group
        row.update({"intervals": t.intervals, "coverage": _share(t.covered, t.intervals),
                    "coverage_lo": lo, "coverage_hi": hi, "ci_unit": _unit(t),
                    "mean_width": t.width_sum / t.intervals if t.intervals else math.nan,
                    "both_0": t.both_zero, "width_0": t.width0,
                    "width_0_missed": t.width0_missed})
        out.append(row)
    return out


def flag_rows(st: Study, detail: bool = False) -> list[dict]:
    """Rows of the false-flag table: pooled per flag, or (``detail``) per figure."""
    out = []
    for (name, group), f in st.flags.items():
        if (group == "all") == detail:
            continue
        lo, hi = f.ci()
        row = {"case": st.case.name, "flag": name}
        if detail:
            row["figure"] = group
        row.update({"left_alone": f.tests, "fired": f.fired,
                    "false_flag_rate": _share(f.fired, f.tests), "rate_lo": lo, "rate_hi": hi,
                    "ci_unit": _unit(f)})
        out.append(row)
    return out


def pooled(studies: list[Study], table: str, stat: str | None = None) -> tuple[int, int]:
    """(covered, intervals) of a table (and statistic) over every case, pooled."""
    c = n = 0
    for st in studies:
        for (tb, s, g), t in st.tallies.items():
            if tb == table and g == "all" and (stat is None or s == stat):
                c, n = c + t.covered, n + t.intervals
    return c, n


def _fmt(df: pd.DataFrame) -> pd.DataFrame:
    df = df.copy()
    for c in df.columns:
        if df[c].dtype.kind == "f":
            spec = ".4g" if c == "mean_width" else ".4f"
            df[c] = df[c].map(lambda x, f=spec: format(x, f) if math.isfinite(x) else "")
    return df


def markdown(df: pd.DataFrame) -> str:
    """A pipe table (no tabulate needed)."""
    if not len(df):
        return "(none)\n"
    df = _fmt(df).astype(str)
    lines = ["| " + " | ".join(df.columns) + " |", "|" + "---|" * len(df.columns)]
    lines += ["| " + " | ".join(c.replace("|", "\\|") for c in r) + " |"
              for r in df.itertuples(index=False)]
    return "\n".join(lines) + "\n"


def summary_rows(studies: list[Study]) -> tuple[list[dict], list[dict]]:
    """The short tables: coverage per statistic with its lowest figure (of those with at least
    ``MIN_DETAIL`` intervals), and the false-flag rates with their highest figure."""
    cov, flags = [], []
    for st in studies:
        detail = coverage_rows(st, True)
        for r in coverage_rows(st):
            figs = [d for d in detail if (d["table"], d["statistic"]) == (r["table"],
                                                                          r["statistic"])
                    and d["intervals"] >= MIN_DETAIL]
            low = min(figs, key=lambda d: d["coverage"], default=None)
            cov.append({"case": r["case"], "table": r["table"], "statistic": r["statistic"],
                        "intervals": r["intervals"], "coverage": f"{r['coverage']:.3f}",
                        "lowest figure": "" if low is None else
                        f"{low['figure']} {low['coverage']:.3f}",
                        "width 0 missed": r["width_0_missed"]})
        fd = flag_rows(st, True)
        for r in flag_rows(st):
            figs = [d for d in fd if d["flag"] == r["flag"] and d["left_alone"] >= MIN_DETAIL]
            high = max(figs, key=lambda d: d["false_flag_rate"], default=None)
            flags.append({"case": r["case"], "flag": r["flag"], "left alone": r["left_alone"],
                          "fired": r["fired"], "rate": f"{r['false_flag_rate']:.3f}",
                          "highest figure": "" if high is None else
                          f"{high['figure']} {high['false_flag_rate']:.3f}"})
    return cov, flags


def report(studies: list[Study]) -> str:
    """The whole result as Markdown: the settings, coverage pooled and per figure, flags."""
    parts = ["# Coverage of the intervals and false-flag rates\n",
             f"`python benchmarks/interval_coverage.py` (quacks-sim {sim.__version__}): per case, "
             f"small runs with seeds 1, 2, ... against one reference run with seed {REF_SEED}.\n"]
    cases = pd.DataFrame([{"case": st.case.name, "runs": st.runs - st.skipped,
                           "left_out": st.skipped,
                           "games": st.games, "reference_games": st.games * st.scale,
                           "cpu_s": round(st.cpu), "wall_s": round(st.seconds),
                           "options": st.case.note} for st in studies])
    parts += ["## Cases\n", markdown(cases)]
    short_cov, short_flags = summary_rows(studies)
    parts += ["## Summary\n",
              f"Coverage per statistic (lowest figure: of those with at least {MIN_DETAIL} "
              "intervals):\n", markdown(pd.DataFrame(short_cov)),
              "False flags where the reference leaves the figure alone:\n",
              markdown(pd.DataFrame(short_flags))]
    parts += ["## Coverage, pooled per statistic\n",
              markdown(pd.DataFrame([r for st in studies for r in coverage_rows(st)]))]
    fl = [r for st in studies for r in flag_rows(st)]
    parts += ["## False flags, pooled\n", markdown(pd.DataFrame(fl))]
    parts += ["## Coverage per figure\n",
              markdown(pd.DataFrame([r for st in studies for r in coverage_rows(st, True)]))]
    fd = [r for st in studies for r in flag_rows(st, True)]
    parts += ["## False flags per figure\n", markdown(pd.DataFrame(fd))]
    return "\n".join(parts)


def _counts(x: Tally | Flag) -> dict:
    """A tally's or flag's counts, JSON-ready (its sums over runs as a dict, or None)."""
    d = {k: v for k, v in vars(x).items() if k not in ("run_tests", "run_fired")}
    d["by_run"] = None if x.by_run is None else vars(x.by_run)
    return d


def _from_counts(kind: type, d: dict) -> Tally | Flag:
    d = dict(d)
    sums = d.pop("by_run", None)  # absent in a study saved before the sums were kept
    return kind(**d, by_run=None if sums is None else RunSums(**sums))


def to_json(st: Study) -> dict:
    """A study's counts, JSON-ready (``--save``)."""
    return {"case": st.case.name, "runs": st.runs, "scale": st.scale, "games": st.games,
            "skipped": st.skipped, "seconds": st.seconds, "cpu": st.cpu,
            "tallies": [[*k, _counts(t)] for k, t in st.tallies.items()],
            "flags": [[*k, _counts(f)] for k, f in st.flags.items()]}


def from_json(d: dict) -> Study:
    """A study back from :func:`to_json` (``--merge``)."""
    st = Study(CASES[d["case"]], d["runs"], d["scale"], d["games"], skipped=d["skipped"],
               seconds=d["seconds"], cpu=d["cpu"])
    st.tallies = {(a, b, c): _from_counts(Tally, t) for a, b, c, t in d["tallies"]}
    st.flags = {(a, b): _from_counts(Flag, f) for a, b, f in d["flags"]}
    return st


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary name in the same folder."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=None, help="small runs per case (default 100)")
    ap.add_argument("--scale", type=int, default=None,
                    help="reference games / small run games (default 100)")
    ap.add_argument("--games", type=int, default=None,
                    help="games of each small run (default: each case's own)")
    ap.add_argument("--cases", default=",".join(DEFAULT_CASES),
                    help=f"comma-separated, of {', '.join(CASES)} (default "
                    f"{','.join(DEFAULT_CASES)})")
    ap.add_argument("--small", action="store_true",
                    help="a quick version: 20 runs, a 10x reference, a quarter of the games")
    ap.add_argument("--threads", type=int, default=None, help="threads per run")
    ap.add_argument("--first-seed", type=int, default=1, help="seed of the first small run")
    ap.add_argument("--out", type=Path, help="write the result as Markdown to this file")
    ap.add_argument("--save", type=Path, help="write the counts as JSON to this file")
    ap.add_argument("--merge", type=Path, nargs="+", metavar="JSON",
                    help="play nothing: report the studies of these --save files together")
    a = ap.parse_args(argv)
    runs = a.runs or (20 if a.small else 100)
    scale = a.scale or (10 if a.small else 100)
    names = [x.strip() for x in a.cases.split(",") if x.strip()]
    bad = [x for x in names if x not in CASES]
    if bad or not names or runs < 1 or scale < 1 or (a.games is not None and a.games < 8):
        print(f"coverage: bad option ({', '.join(bad) or 'runs, scale or games'}); cases are "
              f"{', '.join(CASES)}", file=sys.stderr)
        return 2
    if a.out is not None and not a.out.parent.is_dir():
        print(f"coverage: --out {a.out}: no such folder", file=sys.stderr)
        return 2

    def say(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    studies = []
    if a.merge:
        try:
            studies = [from_json(d) for f in a.merge
                       for d in json.loads(f.read_text(encoding="utf-8"))]
        except (OSError, ValueError, KeyError, TypeError) as e:
            print(f"coverage: --merge: {e}", file=sys.stderr)
            return 2
        names = []
    for name in names:
        case = CASES[name]
        games = a.games or (max(40, case.games // 4) if a.small else case.games)
        st = run_case(case, runs, scale, games, a.threads, a.first_seed, say)
        studies.append(st)
        if a.save is not None:  # after every case: a long run interrupted keeps what it did
            write_atomic(a.save, json.dumps([to_json(x) for x in studies], indent=1))
        say(f"{name}: done in {st.seconds:.0f} s ({st.cpu:.0f} CPU s)")
        with pd.option_context("display.width", 200, "display.max_rows", 500):
            say(_fmt(pd.DataFrame(coverage_rows(st))).to_string(index=False))
            if st.flags:
                say(_fmt(pd.DataFrame(flag_rows(st))).to_string(index=False))
    text = report(studies)
    print(text)
    if a.out is not None:
        write_atomic(a.out, text)
    if a.save is not None:
        write_atomic(a.save, json.dumps([to_json(st) for st in studies], indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
