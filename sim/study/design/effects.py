"""What a knob does to each figure: paired differences between its values, its effect, and the
ranking of knobs by effect (``quacks sensitivity``), with the choices made in the same run
accounted for (``sim.stats.multiplicity``).

Every value of a knob plays the same deals, so the difference of a figure between two values is
paired by deal: the difference of the two estimates, whose per-deal residuals are subtracted
(``Estimate.minus``). A **family** is one knob and one figure: every pair of the knob's values.

- **differences**: every pair of values (i < j in the knob's order), ``diff`` = the figure at
  value j minus at value i, with its own 95% t interval over deals (``excludes_zero``), its
  p-value ``p`` and ``p_adj``, adjusted over its family (Holm by default, Benjamini-Hochberg or
  none on request). A difference that is 0 on every deal is ``[0, 0]`` only when the two values
  resolve to the same ruleset; otherwise at most 3/n of the n deals may differ (rule of three),
  each by at most the figure's largest change on one deal (1 for a share; else the span of the
  figure's per-deal values over the two values' deals), and ``note`` says "identical on all n
  deals". When fewer than 10 deals differ, the interval is never narrower than the exact upper
  bound on the share of deals that differ (k of n) times that largest change.
- **effect** of a knob on a figure: the pair with the largest ``|diff|`` (the two values the
  response curve is furthest apart at). Because that pair was picked after seeing every pair,
  its interval is **simultaneous** over the family: ``diff +- q se`` with ``q`` the 95% quantile
  of the largest ``|t|`` over the family's pairs (multivariate t with the pairs' correlation
  over deals), which holds every pair of the family at once, so the picked one too. Its
  ``strength`` is ``|diff|`` in units of that interval's half-width (above 1 exactly when it
  excludes 0). ``moves`` is true when some pair's adjusted p-value is below 0.05,
  ``pairs_moving`` counts them; ``p_adj`` is the family's smallest adjusted p-value.
- **ranking**: the knobs by their largest strength over the figures. Because the ranking picks
  the figure too, its interval (``ci_lo``/``ci_hi``) and ``strength`` are simultaneous over the
  knob's whole family, every pair of every figure (:func:`knob_quantile`: the max-|t| quantile
  over all of them), so the picked figure's pair is held whichever figure was picked; the pair
  of each figure stays the effect's, the figure is the one strongest under that interval. The
  figures a knob moves
  (``metrics_moved``) are decided over the knob's figures: each figure's family ``p_adj``,
  adjusted again over the figures of the knob; a knob that moves no figure has **no effect**
  and ranks last. ``rank_lo``/``rank_hi``: each rank's 95% interval, a percentile bootstrap
  over deals (the deals resampled, every strength, flag and rank recomputed).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from sim.stats.multiplicity import (
    ALPHA,
    DEFAULT_ADJUST,
    SAME_RULESET_NOTE,
    adjust,
    few_deals_half_width,
    frozen_gc,
    identical_note,
    maxt_family,
    maxt_holm,
    maxt_quantile,
    t_pvalue,
    zero_half_width,
)
from sim.study.compare.stats import Estimate

DIFF_COLUMNS = ("knob", "metric", "from", "to", "diff", "ci_lo", "ci_hi", "excludes_zero", "p",
                "p_adj", "deals", "note")
EFFECT_COLUMNS = ("knob", "metric", "from", "to", "diff", "ci_lo", "ci_hi", "strength", "moves",
                  "p_adj", "pairs_moving", "pairs", "note")
RANKING_COLUMNS = ("rank", "rank_lo", "rank_hi", "knob", "effect", "p_adj", "metric", "from",
                   "to", "diff", "ci_lo", "ci_hi", "strength", "metrics_moved")
NO_EFFECT, EFFECT = "no effect", "moves"
RANK_REPS = 200  # bootstrap replicates of the ranking
RANK_STREAM = 50  # the ranking bootstrap's stream of the run seed
SHARE_CHANGE = 1.0  # a share's largest change on one deal: from 0 to 1


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


def largest_change(a: Estimate, b: Estimate) -> float:
    """A bound on how far one deal can move the figure between two arms: 1 for a share (a
    deal's share lies in [0, 1]); else the span of the figure's per-deal values (pseudo-values
    ``value + deals x residual``) over both arms' deals."""
    if a.kind == "share" and b.kind == "share":
        return SHARE_CHANGE
    D = a.deals
    vals = np.concatenate([a.value + D * np.asarray(a.resid), b.value + D * np.asarray(b.resid)])
    vals = vals[np.isfinite(vals)]
    return float(vals.max() - vals.min()) if len(vals) else math.nan


@dataclass
class Diff:
    """One paired difference and what its interval needs: the value, its per-deal residuals,
    whether both sides are the same game by construction (``same``) and the figure's largest
    change on one deal."""

    value: float
    resid: np.ndarray
    same: bool
    change: float

    @property
    def deals(self) -> int:
        return len(self.resid)

    @property
    def se(self) -> float:
        D = self.deals
        return float(math.sqrt(D / (D - 1) * float(np.sum(self.resid ** 2)))) if D > 1 \
            else math.nan

    def differing(self) -> int:
        """How many deals the two sides differ on (per-deal difference not 0)."""
        d = self.value + self.deals * self.resid
        tol = 1e-12 * max(1.0, abs(self.change)) if math.isfinite(self.change) else 1e-12
        return int(np.sum(np.abs(d) > tol))

    def unit(self) -> float:
        """The pair's standard error as its own interval reads it: the half-width of its own
        95% interval over that interval's t quantile. It is ``se``, but never below the
        count-based floor (fewer than ``FEW_DEALS`` deals differ) over the quantile; for a
        difference with no spread over deals 0 when both sides are the same game, else the
        rule of three's half-width over the quantile."""
        se, q1 = self.se, single_quantile(self.deals)
        if not math.isfinite(se):
            return math.nan
        if se > 0:
            return max(se, self.floor())
        return 0.0 if self.same else zero_half_width(self.deals, self.change) / q1

    def floor(self) -> float:
        """The count-based floor on :meth:`unit` (0 from ``FEW_DEALS`` differing deals on)."""
        h = few_deals_half_width(self.differing(), self.deals, self.change)
        return h / single_quantile(self.deals) if h > 0 else 0.0

    def half_width(self, q: float) -> float:
        """The half-width of ``value +- q unit``: at the single t quantile the pair's own 95%
        interval, at a simultaneous quantile that interval widened in proportion (the floors
        too), so that it excludes 0 exactly when ``|t| > q``."""
        return q * self.unit()

    def interval(self, q: float) -> tuple[float, float]:
        h = self.half_width(q)
        return self.value - h, self.value + h

    def t(self) -> float:
        """``value / unit``: 0 for a difference 0 on every deal, infinite for one the same and
        not 0 on every deal."""
        u = self.unit()
        if not math.isfinite(u):
            return math.nan
        if u <= 0:
            return 0.0 if self.value == 0 else math.inf
        return self.value / u

    def p(self) -> float:
        """The two-sided p-value of ``t`` (the paired t test, its floors included), below 0.05
        exactly when the pair's own interval excludes 0."""
        return t_pvalue(self.value, self.unit(), self.deals - 1)

    def note(self) -> str:
        if self.same:
            return SAME_RULESET_NOTE
        if self.se == 0 and self.value == 0:
            return identical_note(self.deals)
        return ""


def paired(a: Estimate, b: Estimate, same: bool) -> Diff:
    """The paired difference b - a over the same deals (``same``: the same game by
    construction)."""
    d = b.minus(a)
    return Diff(d.value, np.asarray(d.resid, np.float64), bool(same), largest_change(a, b))


@dataclass
class Family:
    """One knob and one figure: every pair (from, to) of its values and their differences."""

    knob: str
    metric: str
    pairs: list[tuple[str, str]]
    diffs: list[Diff]
    _q: float | None = None
    _p: np.ndarray | None = None

    @property
    def deals(self) -> int:
        return self.diffs[0].deals

    def resid(self) -> np.ndarray:
        """Deals x pairs: every pair's per-deal residuals."""
        return np.column_stack([d.resid for d in self.diffs])

    def values(self) -> np.ndarray:
        return np.array([d.value for d in self.diffs], np.float64)

    def quantile(self) -> float:
        """The family's simultaneous quantile (``maxt_quantile`` of its residuals; computed
        once)."""
        if self._q is None:
            self._q = maxt_quantile(self.resid())
        return self._q

    def t(self) -> np.ndarray:
        return np.array([d.t() for d in self.diffs], np.float64)

    def p_adj(self, method: str = DEFAULT_ADJUST) -> np.ndarray:
        """Every pair's p-value adjusted over the family: ``holm`` by Holm's step-down with the
        max-|t| bound of the effect's simultaneous interval (``maxt_holm``), ``bh`` and ``none``
        as :func:`sim.stats.multiplicity.adjust`."""
        if method != "holm":
            return adjust([d.p() for d in self.diffs], method)
        if self._p is None:  # the quantile and the adjusted p-values from the same draws
            self._q, self._p = maxt_family(self.resid(), self.t())
        return self._p.copy()


def pair_families(knob: str, labels: Sequence[str], ests: Sequence[Mapping[str, Estimate]],
                  metrics: Sequence[str], arms: Sequence[str] | None = None) -> list[Family]:
    """Every figure's family of pairs of values (i < j); a figure one of the two values does
    not have is left out of its family. ``arms``: each value's ruleset hash (values with the
    same one are the same game)."""
    arms = list(arms) if arms is not None else [str(i) for i in range(len(labels))]
    out = []
    for m in metrics:
        pairs, diffs = [], []
        for i in range(len(labels)):
            for j in range(i + 1, len(labels)):
                a, b = ests[i].get(m), ests[j].get(m)
                if a is None or b is None:
                    continue
                pairs.append((labels[i], labels[j]))
                diffs.append(paired(a, b, arms[i] == arms[j]))
        if diffs:
            out.append(Family(knob, m, pairs, diffs))
    return out


def single_quantile(deals: int) -> float:
    """The t quantile of one pair's own 95% interval."""
    from sim.stats.intervals import t_quantile

    return t_quantile(0.975, deals - 1) if deals > 1 else math.nan


def difference_rows(families: Sequence[Family], method: str = DEFAULT_ADJUST) -> list[dict]:
    """Every pair of every family (rows of ``DIFF_COLUMNS``): its own 95% interval, its p-value
    and its p-value adjusted over the family."""
    rows = []
    with frozen_gc():
        for f in families:
            q = single_quantile(f.deals)
            ps = [d.p() for d in f.diffs]
            padj = f.p_adj(method)
            for (a, b), d, p, pa in zip(f.pairs, f.diffs, ps, padj):
                lo, hi = d.interval(q)
                rows.append({"knob": f.knob, "metric": f.metric, "from": a, "to": b,
                             "diff": d.value, "ci_lo": lo, "ci_hi": hi,
                             "excludes_zero": excludes_zero(lo, hi), "p": p, "p_adj": float(pa),
                             "deals": d.deals, "note": d.note()})
    return rows


def _min(x) -> float:
    x = np.asarray(x, np.float64)
    return float(np.nanmin(x)) if np.any(~np.isnan(x)) else math.nan


def effect_rows(families: Sequence[Family], method: str = DEFAULT_ADJUST) -> list[dict]:
    """One row per family (``EFFECT_COLUMNS``): the pair furthest apart with its simultaneous
    interval over the family, the flags from the adjusted p-values."""
    rows = []
    with frozen_gc():
        for f in families:
            padj = f.p_adj(method)  # first: under holm it draws the quantile too
            top = picked_pair(f)
            d = f.diffs[top]
            lo, hi = d.interval(f.quantile())
            moving = int(np.sum(padj < ALPHA))
            rows.append({"knob": f.knob, "metric": f.metric, "from": f.pairs[top][0],
                         "to": f.pairs[top][1], "diff": d.value, "ci_lo": lo, "ci_hi": hi,
                         "strength": strength(d.value, lo, hi), "moves": moving > 0,
                         "p_adj": _min(padj), "pairs_moving": moving, "pairs": len(f.diffs),
                         "note": d.note()})
    return rows


def knob_effects(families: Sequence[Family], method: str = DEFAULT_ADJUST) -> pd.DataFrame:
    """:func:`effect_rows` as a frame."""
    return pd.DataFrame(effect_rows(families, method), columns=list(EFFECT_COLUMNS))


def knob_quantile(families: Sequence[Family], knob: str) -> float:
    """The simultaneous quantile over every pair of every figure of ``knob`` (the max-|t|
    quantile of all their residuals; NaN when the knob has no family)."""
    fams = [f for f in families if f.knob == knob]
    if not fams:
        return math.nan
    if len(fams) == 1:
        return fams[0].quantile()
    return maxt_quantile(np.column_stack([f.resid() for f in fams]))


def knob_quantiles(families: Sequence[Family], knobs: Sequence[str]) -> dict[str, float]:
    """:func:`knob_quantile` of each knob (computed once, shared by the ranking and its
    bootstrap)."""
    return {k: knob_quantile(families, k) for k in knobs}


def knob_figure_p(families: Sequence[Family], knob: str) -> dict[str, float]:
    """Each figure's smallest p-value over the pairs of ``knob``'s whole family (every pair of
    every figure), adjusted by ``maxt_holm``: below 0.05 when some pair of the figure
    excludes 0 at the knob's simultaneous quantile (the ranking's interval)."""
    fams = [f for f in families if f.knob == knob]
    if not fams:
        return {}
    p = maxt_holm(np.column_stack([f.resid() for f in fams]),
                      np.concatenate([f.t() for f in fams]))
    out, at = {}, 0
    for f in fams:
        out[f.metric] = _min(p[at:at + len(f.diffs)])
        at += len(f.diffs)
    return out


def picked_pair(f: Family) -> int:
    """The index of the family's pair furthest apart (the effect's pair)."""
    return int(np.argmax(np.abs(f.values())))


def ranks_of(moving: Sequence[bool], strengths: Sequence[float]) -> np.ndarray:
    """The ranks of knobs: the ones that move a figure by strength (largest first, ties in the
    given order), then those that move none, sharing the last rank."""
    moving = np.asarray(moving, bool)
    s = np.nan_to_num(np.asarray(strengths, np.float64), nan=-1.0)
    order = sorted(range(len(s)), key=lambda i: (not moving[i], -s[i]))
    movers = int(moving.sum())
    ranks = np.empty(len(s), np.int64)
    for pos, i in enumerate(order):
        ranks[i] = pos + 1 if pos < movers else movers + 1
    return ranks


def knob_interval(g: pd.DataFrame, families: Sequence[Family], q: float) -> pd.DataFrame:
    """The effects rows ``g`` of one knob with ``ci_lo``, ``ci_hi`` and ``strength`` of each
    figure's picked pair at the knob's simultaneous quantile ``q``."""
    knobs = set(g["knob"])
    by_metric = {f.metric: f for f in families if f.knob in knobs}
    g = g.copy()
    for i, m in zip(g.index, g["metric"]):
        f = by_metric.get(m)
        if f is None:
            continue
        d = f.diffs[picked_pair(f)]
        lo, hi = d.interval(q)
        g.loc[i, ["ci_lo", "ci_hi", "strength"]] = [lo, hi, strength(d.value, lo, hi)]
    return g


def rank_knobs(effects: pd.DataFrame, knobs: Sequence[str], method: str = DEFAULT_ADJUST,
               rank_ci: Mapping[str, tuple[int, int]] | None = None,
               families: Sequence[Family] | None = None,
               knob_q: Mapping[str, float] | None = None) -> pd.DataFrame:
    """One row per knob (``RANKING_COLUMNS``): its strongest effect over the figures, ``effect``
    "moves" or "no effect", ``p_adj`` and the figures it moves (``holm`` with ``families``:
    :func:`knob_figure_p`, so a figure whose interval at the knob's quantile excludes 0 is
    moved; otherwise each figure's family p-value adjusted again over the knob's figures);
    ranked by :func:`ranks_of`; ``rank_ci`` each knob's rank interval (NaN without). With
    ``families`` the interval and strength of each figure's pick are simultaneous over the
    knob's whole family (``knob_q``: the knobs' :func:`knob_quantile`, computed when not given)
    and the strongest figure is picked by them; without, the effects' own (one figure's family)."""
    rows = []
    with frozen_gc():
        for knob in knobs:
            g = effects[effects["knob"] == knob]
            if not len(g):
                continue
            if families is not None:
                q = (knob_q or {}).get(knob)
                g = knob_interval(g, families, knob_quantile(families, knob) if q is None else q)
            s = g["strength"].fillna(-1.0)
            top = g.loc[s.idxmax()]
            if families is not None and method == "holm":
                kp = knob_figure_p(families, knob)
                fig_p = np.array([kp.get(m, math.nan) for m in g["metric"]], np.float64)
            else:
                fig_p = adjust(g["p_adj"].to_numpy(np.float64), method)
            moved = [str(m) for m, p in zip(g["metric"], fig_p) if p < ALPHA]
            lo, hi = (rank_ci or {}).get(knob, (math.nan, math.nan))
            rows.append({"knob": knob, "effect": EFFECT if moved else NO_EFFECT,
                         "p_adj": _min(fig_p), "metric": top["metric"], "from": top["from"],
                         "to": top["to"], "diff": top["diff"], "ci_lo": top["ci_lo"],
                         "ci_hi": top["ci_hi"], "strength": top["strength"],
                         "metrics_moved": ",".join(moved), "rank_lo": lo, "rank_hi": hi})
    if not rows:
        return pd.DataFrame(columns=list(RANKING_COLUMNS))
    df = pd.DataFrame(rows)
    df["rank"] = ranks_of(df["effect"] == EFFECT, df["strength"])
    df["_s"] = df["strength"].fillna(-1.0)
    df = df.sort_values(["rank", "_s"], ascending=[True, False], kind="stable")
    return df[list(RANKING_COLUMNS)].reset_index(drop=True)


def rank_intervals(families: Sequence[Family], knobs: Sequence[str],
                   method: str = DEFAULT_ADJUST, seed: int = 1,
                   reps: int = RANK_REPS, knob_q: Mapping[str, float] | None = None
                   ) -> dict[str, tuple[int, int]]:
    """Each knob's 95% rank interval: ``reps`` bootstrap resamples of the deals (the deal the
    unit; seeded by ``seed``), in each every pair's difference and spread recomputed from the
    per-deal residuals, the pick, strengths (at the knob's simultaneous quantile: ``knob_q``,
    computed when not given), adjusted flags and ranks made as for the run;
    the 2.5% and 97.5% percentiles of each knob's ranks."""
    from scipy.stats import t as student

    fams = [f for f in families if f.knob in knobs]
    if not fams:
        return {}
    kq = dict(knob_q) if knob_q is not None else knob_quantiles(fams, knobs)
    D = fams[0].deals
    rng = np.random.default_rng([int(seed), RANK_STREAM])
    W = rng.multinomial(D, np.full(D, 1 / D), size=reps).astype(np.float64)
    fig_p: dict[str, list] = {k: [] for k in knobs}
    fig_s = {k: [] for k in knobs}
    with frozen_gc():
        for f in fams:
            R = f.resid()
            v = f.values()[None, :] + W @ R
            s1 = W @ R
            var = D / (D - 1) * np.clip(W @ (R * R) - s1 * s1 / D, 0, None)
            se = np.sqrt(var)
            unit = np.array([x.unit() for x in f.diffs])
            floor = np.array([x.floor() for x in f.diffs])
            u = np.where(se > 0, np.maximum(se, floor[None, :]), unit[None, :])
            q = kq[f.knob]
            with np.errstate(divide="ignore", invalid="ignore"):
                tb = np.where(u > 0, np.abs(v) / u, np.where(v == 0, 0.0, np.inf))
            if method == "holm":  # moves: some pair beyond the knob's quantile
                fig_p.setdefault(f.knob, []).append(np.where(tb.max(axis=1) > q, 0.0, 1.0))
            else:
                p = np.minimum(2 * student.sf(tb, D - 1), 1.0)
                fig_p.setdefault(f.knob, []).append(
                    [_min(adjust(p[b], method)) for b in range(reps)])
            pick = np.argmax(np.abs(v), axis=1)
            rows = np.arange(reps)
            half = q * u[rows, pick]
            with np.errstate(divide="ignore", invalid="ignore"):
                st = np.where(half > 0, np.abs(v[rows, pick]) / half,
                              np.where(v[rows, pick] == 0, 0.0, np.inf))
            fig_s[f.knob].append(st)
        present = [k for k in knobs if fig_p[k]]
        ranks = np.empty((reps, len(present)), np.int64)
        for b in range(reps):
            moving = [bool(np.any(np.asarray([fp[b] for fp in fig_p[k]]) == 0.0))
                      if method == "holm" else
                      bool(np.any(adjust([fp[b] for fp in fig_p[k]], method) < ALPHA))
                      for k in present]
            strongest = [float(np.max(np.nan_to_num([s[b] for s in fig_s[k]], nan=-1.0,
                                                    posinf=np.inf))) for k in present]
            ranks[b] = ranks_of(moving, strongest)
    lo = np.percentile(ranks, 2.5, axis=0, method="lower")
    hi = np.percentile(ranks, 97.5, axis=0, method="higher")
    return {k: (int(a), int(c)) for k, a, c in zip(present, lo, hi)}


def analyse(families: Sequence[Family], knobs: Sequence[str], method: str = DEFAULT_ADJUST,
            seed: int = 1, reps: int = RANK_REPS) -> dict[str, pd.DataFrame]:
    """The ``differences``, ``effects`` and ``ranking`` tables of a run's families."""
    diffs = pd.DataFrame(difference_rows(families, method), columns=list(DIFF_COLUMNS))
    effects = knob_effects(families, method)
    kq = knob_quantiles(families, knobs)
    ci = rank_intervals(families, knobs, method, seed, reps, kq)
    return {"differences": diffs, "effects": effects,
            "ranking": rank_knobs(effects, knobs, method, ci, families, kq)}


def no_effect(ranking: pd.DataFrame) -> list[str]:
    """The knobs that move no figure."""
    return [str(k) for k in ranking.loc[ranking["effect"] == NO_EFFECT, "knob"]]
