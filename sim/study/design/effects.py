"""What a knob does to each figure: paired differences between its values, its effect, and the
ranking of knobs by effect (``quacks sensitivity``).

Every value of a knob plays the same deals, so the difference of a figure between two values is
paired by deal: the difference of the two estimates, whose per-deal residuals are subtracted
(``Estimate.minus``), with a 95% t interval over deals.

- **differences**: every pair of values (i < j in the knob's order), ``diff`` = the figure at
  value j minus at value i.
- **effect** of a knob on a figure: the pair with the largest ``|diff|`` (the two values the
  response curve is furthest apart at), its difference with its own interval, and its
  ``strength``, ``|diff|`` in units of the interval's half-width: above 1 exactly when the
  interval excludes 0. ``moves`` is true when any pair's interval excludes 0.
- **ranking**: the knobs by their largest strength over the figures; a knob that moves no
  figure (every paired difference's interval contains 0) has **no effect** and ranks last.
  The intervals are each 95% on their own (not adjusted for the number of pairs and figures).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import pandas as pd

from sim.study.compare.stats import Estimate

DIFF_COLUMNS = ("knob", "metric", "from", "to", "diff", "ci_lo", "ci_hi", "excludes_zero",
                "deals")
EFFECT_COLUMNS = ("knob", "metric", "from", "to", "diff", "ci_lo", "ci_hi", "strength", "moves",
                  "pairs_moving", "pairs")
RANKING_COLUMNS = ("rank", "knob", "effect", "metric", "from", "to", "diff", "ci_lo", "ci_hi",
                   "strength", "metrics_moved")
NO_EFFECT, EFFECT = "no effect", "moves"


def strength(diff: float, lo: float, hi: float) -> float:
    """``|diff|`` in units of the half-width of its interval (0 for an exact 0; infinite for
    a difference that is the same on every deal and not 0; NaN when unknown)."""
    if not all(math.isfinite(x) for x in (diff, lo, hi)):
        return math.nan
    half = (hi - lo) / 2
    if half <= 0:
        return 0.0 if diff == 0 else math.inf
    return abs(diff) / half


def excludes_zero(lo: float, hi: float) -> bool:
    """True when the interval [lo, hi] lies wholly above or below 0."""
    return bool(lo > 0 or hi < 0)


def pair_differences(knob: str, labels: Sequence[str], ests: Sequence[Mapping[str, Estimate]],
                     metrics: Sequence[str]) -> list[dict]:
    """Every pair of values' paired difference of every figure (rows of ``DIFF_COLUMNS``); a
    figure one of the two values does not have is left out."""
    rows = []
    for m in metrics:
        for i in range(len(labels)):
            for j in range(i + 1, len(labels)):
                a, b = ests[i].get(m), ests[j].get(m)
                if a is None or b is None:
                    continue
                d = b.minus(a)
                lo, hi = d.interval()
                rows.append({"knob": knob, "metric": m, "from": labels[i], "to": labels[j],
                             "diff": d.value, "ci_lo": lo, "ci_hi": hi,
                             "excludes_zero": excludes_zero(lo, hi), "deals": d.deals})
    return rows


def knob_effects(diffs: pd.DataFrame) -> pd.DataFrame:
    """One row per knob and figure (``EFFECT_COLUMNS``) from the pair differences."""
    rows = []
    for (knob, metric), g in diffs.groupby(["knob", "metric"], sort=False):
        top = g.loc[g["diff"].abs().idxmax()]
        rows.append({"knob": knob, "metric": metric, "from": top["from"], "to": top["to"],
                     "diff": top["diff"], "ci_lo": top["ci_lo"], "ci_hi": top["ci_hi"],
                     "strength": strength(top["diff"], top["ci_lo"], top["ci_hi"]),
                     "moves": bool(g["excludes_zero"].any()),
                     "pairs_moving": int(g["excludes_zero"].sum()), "pairs": len(g)})
    return pd.DataFrame(rows, columns=list(EFFECT_COLUMNS))


def rank_knobs(effects: pd.DataFrame, knobs: Sequence[str]) -> pd.DataFrame:
    """One row per knob (``RANKING_COLUMNS``): its strongest effect over the figures, ``effect``
    "moves" or "no effect", the figures it moves; ranked by strength (no effect last, sharing
    the last rank)."""
    rows = []
    for knob in knobs:
        g = effects[effects["knob"] == knob]
        if not len(g):
            continue
        s = g["strength"].fillna(-1.0)
        top = g.loc[s.idxmax()]
        moved = [str(m) for m in g.loc[g["moves"], "metric"]]
        rows.append({"knob": knob, "effect": EFFECT if moved else NO_EFFECT,
                     "metric": top["metric"], "from": top["from"], "to": top["to"],
                     "diff": top["diff"], "ci_lo": top["ci_lo"], "ci_hi": top["ci_hi"],
                     "strength": top["strength"], "metrics_moved": ",".join(moved)})
    df = pd.DataFrame(rows)
    if not len(df):
        return pd.DataFrame(columns=list(RANKING_COLUMNS))
    df["_none"] = df["effect"] == NO_EFFECT
    df["_s"] = df["strength"].fillna(-1.0)
    df = df.sort_values(["_none", "_s"], ascending=[True, False], kind="stable")
    movers = int((~df["_none"]).sum())
    df["rank"] = [i + 1 if i < movers else movers + 1 for i in range(len(df))]
    return df[list(RANKING_COLUMNS)].reset_index(drop=True)


def no_effect(ranking: pd.DataFrame) -> list[str]:
    """The knobs that move no figure."""
    return [str(k) for k in ranking.loc[ranking["effect"] == NO_EFFECT, "knob"]]
