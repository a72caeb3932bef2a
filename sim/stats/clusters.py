"""Intervals that treat the deal, not the game, as the independent unit.

Every game of a deal replays the same per-seat random streams (in every rotation, and in
round-robin at every table), so a strategy's games within one deal are correlated: treating them
as independent makes intervals too narrow. Here each statistic is a *ratio mean* over deals,

    m = sum_d X_d / sum_d N_d,

where X_d is the total of the quantity in deal d (VP, share units, explosions, ...) and N_d the
number of observations behind it (games, potions, rows). Its variance is the cluster-robust
(sandwich, "CR1") variance of a ratio estimator,

    var(m) = D / (D - 1) * sum_d (X_d - m N_d)^2 / (sum_d N_d)^2,

with D the number of deals, and intervals use Student's t with D - 1 degrees of freedom. Only
five integer sums per cell are kept (sum X, sum N, sum X^2, sum X N, sum N^2 over deals), so the
result does not depend on how the work was chunked, and memory stays flat.

Rates and shares (win share, explosions per potion) get a Wilson interval at the *effective*
sample size n_eff = m (1 - m) / var(m) (the cluster design effect folded into the count), with
the t quantile in place of z: it stays inside [0, 1] and widens exactly as the cluster variance
says. A rate with few events (fewer than ``sim.stats.intervals.RARE_EVENTS``, or a variance of
zero) has no design effect to estimate: it gets the exact Clopper-Pearson interval on its count,
which covers at 0, 1 and 2 events, and no clustered interval is ever narrower than that one
(``sim.stats.intervals.rate_interval``).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from sim.stats.intervals import METHOD_RATE, rate_interval, t_quantile

METHOD_MEAN = "cluster-robust t over deals"
METHOD_SHARE = METHOD_RATE
METHOD_DIFF = "paired t over deals"
METHOD_UNPAIRED = "cluster-robust t over deals, covariance ignored"
METHOD_RATING = "Plackett-Luce with cluster-robust sandwich covariance over deals"


class ClusterSums:
    """Per cell, integer sums over deals of X_d, N_d, X_d^2, X_d N_d and N_d^2.

    ``add`` takes one chunk of observations holding *whole deals* (every observation of each
    deal in it), ``add_totals`` per-deal totals directly. Deals with no observation in a cell
    add nothing to it, so the sums are the same however deals are grouped into chunks.
    """

    def __init__(self, cells: int):
        self.cells = int(cells)
        z = np.zeros(self.cells, np.int64)
        self.sx, self.sn, self.sxx, self.sxn, self.snn = (z.copy(), z.copy(), z.copy(), z.copy(),
                                                          z.copy())

    def add(self, dl: np.ndarray, nd: int, cell: np.ndarray, x: np.ndarray,
            n: np.ndarray | None = None) -> None:
        """Add a chunk of whole deals: ``dl`` each observation's deal as an index 0..nd-1
        within the chunk, ``cell`` its cell, ``x`` its value, ``n`` its weight (default 1)."""
        if len(dl) == 0:
            return
        C = self.cells
        idx = np.asarray(dl, np.int64) * C + np.asarray(cell, np.int64)
        N = (np.bincount(idx, minlength=nd * C).astype(np.int64) if n is None
             else group_sums(idx, nd * C, n))
        X = group_sums(idx, nd * C, x)
        self.add_totals(X.reshape(nd, C), N.reshape(nd, C))

    @staticmethod
    def add_many(targets: list[ClusterSums], dl: np.ndarray, nd: int, cell: np.ndarray,
                 xs: list[np.ndarray]) -> None:
        """Like ``add`` for several quantities over the same observations (one compiled pass):
        ``targets[i]`` gets ``xs[i]``; all have the same cells."""
        if len(dl) == 0:
            return
        C = targets[0].cells
        idx = (np.asarray(dl, np.int64) * C + np.asarray(cell, np.int64))
        N = np.bincount(idx, minlength=nd * C).astype(np.int64).reshape(nd, C)
        for cs, x in zip(targets, xs):
            cs.add_totals(group_sums(idx, nd * C, x).reshape(nd, C), N)

    def add_totals(self, X: np.ndarray, N: np.ndarray) -> None:
        """Add per-deal totals directly: ``X`` and ``N`` of shape (deals, cells)."""
        X, N = np.asarray(X, np.int64), np.asarray(N, np.int64)
        self.sx += X.sum(axis=0)
        self.sn += N.sum(axis=0)
        self.sxx += (X * X).sum(axis=0)
        self.sxn += (X * N).sum(axis=0)
        self.snn += (N * N).sum(axis=0)

    def mean_var(self, deals: int, scale: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
        """Per cell the ratio mean (divided by ``scale``) and its cluster-robust variance."""
        return ratio_mean_var(self.sx, self.sn, self.sxx, self.sxn, self.snn, deals, scale)

    def mean_ci(self, deals: int, scale: float = 1.0):
        """Per cell: mean, (lo, hi) t interval over deals."""
        m, v = self.mean_var(deals, scale)
        return m, t_interval(m, v, deals)

    def share_ci(self, deals: int, scale: float = 1.0):
        """Per cell: share and its Wilson interval at the effective sample size."""
        m, v = self.mean_var(deals, scale)
        return m, share_interval(m, v, deals, n=self.sn)


def group_sums(idx: np.ndarray, size: int, x: np.ndarray) -> np.ndarray:
    """Per group 0..size-1, the integer sum of ``x`` over the observations in it (``bincount``
    with weights, exact and without a float conversion)."""
    return _group_sums(np.asarray(idx, np.int64), int(size), np.asarray(x, np.int64))


def warm() -> None:
    """Load (or compile) the compiled group sum, so no clock counts it."""
    group_sums(np.zeros(1, np.int64), 1, np.zeros(1, np.int64))


@njit(cache=True)
def _group_sums(idx: np.ndarray, size: int, x: np.ndarray) -> np.ndarray:
    out = np.zeros(size, np.int64)
    for j in range(idx.shape[0]):
        out[idx[j]] += x[j]
    return out


def ratio_mean_var(sx, sn, sxx, sxn, snn, deals: int, scale: float = 1.0):
    """Ratio mean sum X / sum N (over ``scale``) and its CR1 cluster-robust variance."""
    sx, sn = np.asarray(sx, np.float64), np.asarray(sn, np.float64)
    sxx, sxn, snn = (np.asarray(a, np.float64) for a in (sxx, sxn, snn))
    with np.errstate(invalid="ignore", divide="ignore"):
        m = sx / sn
        resid = np.maximum(sxx - 2 * m * sxn + m * m * snn, 0.0)
        D = float(deals)
        v = resid / (sn * sn) * (D / (D - 1)) if deals > 1 else np.full_like(m, np.nan)
    return m / scale, v / (scale * scale)


def t_quantile95(df: float) -> float:
    """The 0.975 quantile of Student's t with ``df`` degrees of freedom."""
    return t_quantile(0.975, df)


def t_interval(m, v, deals: int):
    """(lo, hi) arrays: m -+ t(deals-1) sqrt(v); NaN where fewer than two deals."""
    m, v = np.asarray(m, np.float64), np.asarray(v, np.float64)
    if deals < 2:
        nan = np.full_like(m, np.nan)
        return nan, nan.copy()
    h = t_quantile95(deals - 1) * np.sqrt(v)
    return m - h, m + h


def share_interval(p, v, deals: int, n=None, event_deals=None):
    """(lo, hi) arrays: the rate interval of ``sim.stats.intervals.rate_interval`` (Wilson at
    n_eff = p(1-p)/v with the t(deals-1) quantile where the design effect can be estimated,
    never narrower than the exact interval on the count of ``n`` observations; the exact
    interval for few events); always inside [0, 1] and containing p."""
    return rate_interval(p, n, v, deals, event_deals)


def paired_diff(xa: np.ndarray, xb: np.ndarray) -> tuple[float, float, float, int]:
    """Mean of per-deal differences xa - xb (arrays of per-deal means over common deals), its
    95% t interval and the number of deals."""
    d = np.asarray(xa, np.float64) - np.asarray(xb, np.float64)
    D = len(d)
    if D == 0:
        return float("nan"), float("nan"), float("nan"), 0
    m = float(d.mean())
    if D < 2:
        return m, float("nan"), float("nan"), D
    h = t_quantile95(D - 1) * float(d.std(ddof=1)) / math.sqrt(D)
    return m, m - h, m + h, D
