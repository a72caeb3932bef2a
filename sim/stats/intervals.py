"""Interval estimates shown with every rate and mean (95% by default)."""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

Z95 = 1.959963984540054
RULE_OF_THREE = 3.0  # 0 events in n: at most 3/n (one-sided 95%)


def zero_half_width(deals: int, largest_change: float) -> float:
    """The half-width of the interval of a difference that is 0 on every one of ``deals``
    deals: at most 3/deals of the deals differ (the rule of three, 95%), each by at most
    ``largest_change``."""
    if deals < 1 or not math.isfinite(largest_change):
        return math.nan
    return RULE_OF_THREE / deals * abs(largest_change)


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (successes may be fractional, e.g. shared wins)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(values: np.ndarray, weights: np.ndarray | None = None, z: float = Z95):
    """Mean and its normal-approximation interval; ``weights`` are counts (a histogram)."""
    v = np.asarray(values, dtype=np.float64)
    w = np.ones_like(v) if weights is None else np.asarray(weights, dtype=np.float64)
    n = w.sum()
    if n <= 0:
        return float("nan"), (float("nan"), float("nan"))
    m = float((v * w).sum() / n)
    if n < 2:
        return m, (m, m)
    var = float((w * (v - m) ** 2).sum() / (n - 1))
    half = z * math.sqrt(var / n)
    return m, (m - half, m + half)


def _t_two_sided(t: float, df: int) -> float:
    """P(|T| <= t) for Student's t with integer df (Abramowitz & Stegun 26.7.3-4)."""
    th = math.atan(t / math.sqrt(df))
    c2 = math.cos(th) ** 2
    if df % 2:  # odd
        if df == 1:
            return 2 * th / math.pi
        term, acc = 1.0, 1.0
        for k in range(3, df, 2):  # (2*4*..(k-1)) / (1*3*..k) cos^(k-1)
            term *= (k - 1) / k * c2
            acc += term
        return 2 / math.pi * (th + math.sin(th) * math.cos(th) * acc)
    term, acc = 1.0, 1.0
    for k in range(2, df, 2):  # (1*3*..(k-1)) / (2*4*..k) cos^k
        term *= (k - 1) / k * c2
        acc += term
    return math.sin(th) * acc


@lru_cache(maxsize=4096)
def t_quantile(p: float, df: float) -> float:
    """Quantile of Student's t distribution for p > 0.5: exact (bisection on the closed-form
    CDF) for whole df up to 1000, a Cornish-Fisher expansion beyond (error < 1e-6 there);
    infinite df gives the normal quantile."""
    if not math.isfinite(df):
        return _norm_ppf(p)
    if df <= 0:
        return float("nan")
    if df == int(df) and df <= 1000:
        target = 2 * p - 1
        lo, hi = 0.0, 1.0
        while _t_two_sided(hi, int(df)) < target:
            hi *= 2
        for _ in range(100):
            mid = (lo + hi) / 2
            if _t_two_sided(mid, int(df)) < target:
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2
    z = _norm_ppf(p)
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


def _norm_ppf(p: float) -> float:
    """Normal quantile (Acklam's rational approximation refined by one Halley step)."""
    if p == 0.975:
        return Z95
    a = (-3.969683028665376e01, 2.209460984245205e02, -2.759285104469687e02,
         1.383577518672690e02, -3.066479806614716e01, 2.506628277459239e00)
    b = (-5.447609879822406e01, 1.615858368580409e02, -1.556989798598866e02,
         6.680131188771972e01, -1.328068155288572e01)
    c = (-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e00,
         -2.549732539343734e00, 4.374664141464968e00, 2.938163982698783e00)
    d = (7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e00, 3.754408661907416e00)
    lo = 0.02425
    if p < lo:
        q = math.sqrt(-2 * math.log(p))
        x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / (
            (((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
    elif p > 1 - lo:
        return -_norm_ppf(1 - p)
    else:
        q = p - 0.5
        r = q * q
        x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q / (
            ((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
    e = 0.5 * math.erfc(-x / math.sqrt(2)) - p
    u = e * math.sqrt(2 * math.pi) * math.exp(x * x / 2)
    return x - u / (1 + x * u / 2)


def t_ci(s1: float, s2: float, n: float) -> tuple[float, tuple[float, float]]:
    """Mean and Student-t 95% interval from a count, a sum and a sum of squares."""
    if n <= 0:
        return float("nan"), (float("nan"), float("nan"))
    m = s1 / n
    if n < 2:
        return m, (float("nan"), float("nan"))
    var = max(0.0, (s2 - n * m * m) / (n - 1))
    h = t_quantile(0.975, n - 1) * math.sqrt(var / n)
    return m, (m - h, m + h)


# --- rates: every rate or share shown to a user ------------------------------------------------

RARE_EVENTS = 10  # fewer events (or non-events) than this: no design effect is estimated
METHOD_RATE = ("Wilson at the cluster effective sample size (deals as units), never narrower "
               f"than the exact Clopper-Pearson interval on the count; below {RARE_EVENTS} "
               "events (or non-events), or events in fewer than 2 deals, the exact interval; "
               "a share strictly between 0 and 1 that is the same on every one of n deals: at "
               "most 3/n of the deals differ (rule of three), each by at most the share's "
               "distance to 0 or 1")


def exact_interval(events, n, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Clopper-Pearson (exact binomial) interval of ``events`` in ``n`` trials, elementwise;
    ``events`` may be fractional (shared wins); 0 events give [0, hi], n events [lo, 1]. NaN
    where n <= 0."""
    from scipy.special import betaincinv

    x = np.atleast_1d(np.asarray(events, np.float64))
    n = np.broadcast_to(np.asarray(n, np.float64), x.shape)
    a = (1 - level) / 2
    lo, hi = np.full(x.shape, np.nan), np.full(x.shape, np.nan)
    ok = (n > 0) & np.isfinite(x)
    x = np.clip(np.where(ok, x, 0.0), 0.0, np.where(ok, n, 1.0))
    with np.errstate(invalid="ignore", divide="ignore"):
        pos, below = ok & (x > 0), ok & (x < n)
        lo[ok] = 0.0
        lo[pos] = betaincinv(x[pos], n[pos] - x[pos] + 1, a)
        hi[ok] = 1.0
        hi[below] = betaincinv(x[below] + 1, n[below] - x[below], 1 - a)
    return lo, hi


def rate_interval(p, n=None, var=None, deals: int | None = None,
                  event_deals=None) -> tuple[np.ndarray, np.ndarray]:
    """The 95% interval of every rate or share shown to a user, elementwise: ``p`` the rate,
    ``n`` the observations behind it (games, seat-games, potions), ``var`` its cluster-robust
    variance over ``deals`` deals, ``event_deals`` (optional) the deals holding an event (or,
    for a rate near 1, a non-event), the rarer side.

    The deal is clustered (Wilson at the effective sample size ``p (1 - p) / var`` with the
    t(deals - 1) quantile) only where the design effect can be estimated: at least
    ``RARE_EVENTS`` events and non-events, a positive variance over at least 2 deals, and (when
    known) events in at least 2 deals; and even then the interval is never narrower than the
    exact Clopper-Pearson interval on the count ``p n`` of ``n``. Otherwise the exact interval
    (it covers at 0, 1 and 2 events). A rate strictly between 0 and 1 whose variance over the
    deals is 0 (the same share on every deal) has its interval from the count of deals (issue
    50 item 4): at most 3/deals of the deals may differ, each by at most ``p`` down or
    ``1 - p`` up. Without ``n`` (a caller that does not know its count) the
    clustered interval, or Wilson over the deals where it cannot be had. Always inside [0, 1]
    and holding ``p``; NaN where ``p`` is."""
    p = np.atleast_1d(np.asarray(p, np.float64))
    v = (np.full(p.shape, np.nan) if var is None
         else np.broadcast_to(np.asarray(var, np.float64), p.shape))
    D = int(deals) if deals is not None else 0
    z = t_quantile(0.975, max(D - 1, 1)) if D >= 1 else Z95
    lo, hi = np.full(p.shape, np.nan), np.full(p.shape, np.nan)
    if n is not None:
        nn = np.broadcast_to(np.asarray(n, np.float64), p.shape)
        xlo, xhi = exact_interval(p * nn, nn)
    ed = (None if event_deals is None
          else np.broadcast_to(np.asarray(event_deals, np.float64), p.shape))
    for i, pi in enumerate(p):
        if not math.isfinite(pi):
            continue
        vi = float(v[i])
        neff = pi * (1 - pi) / vi if (math.isfinite(vi) and vi > 0) else 0.0
        clustered = D >= 2 and neff > 0 and (ed is None or ed[i] >= 2)
        if vi == 0 and D >= 1 and 0 < pi < 1:  # the same share on every deal
            a, b = pi - zero_half_width(D, pi), pi + zero_half_width(D, 1 - pi)
        elif n is not None:
            events = pi * float(nn[i])
            clustered = clustered and min(events, float(nn[i]) - events) >= RARE_EVENTS
            a, b = float(xlo[i]), float(xhi[i])
            if clustered:
                c, d = wilson(pi * neff, neff, z)
                a, b = min(a, c), max(b, d)
        elif clustered:
            a, b = wilson(pi * neff, neff, z)
        else:
            a, b = wilson(pi * D, D, z) if D >= 1 else (float("nan"), float("nan"))
        lo[i], hi[i] = max(0.0, min(a, pi)), min(1.0, max(b, pi))
    return lo, hi
