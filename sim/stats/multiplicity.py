"""Many intervals and flags read together: adjusted p-values over a family, a simultaneous
interval for the pair picked from a family, and an interval for a difference no deal showed.

- **Adjusted p-values** (:func:`adjust`): Holm (the family-wise error rate: the chance that any
  flag of the family is wrong stays at most 5%), Benjamini-Hochberg (the false discovery rate:
  the expected share of wrong flags among the flags raised) or none, computed by statsmodels'
  ``multipletests``. A flag of the family is raised where its adjusted p-value is below
  :data:`ALPHA`.
- **Simultaneous interval** (:func:`maxt_quantile`): the pairs of a family are estimated on the
  same deals, so their t statistics are correlated. The quantile ``q`` of the largest ``|t|``
  over the family under the null is taken from the multivariate t distribution with the pairs'
  correlation over deals (from the per-deal residuals) and deals - 1 degrees of freedom
  (seeded Monte Carlo, :data:`MAXT_DRAWS` draws; one scale shared by the pairs, which is
  accurate for the hundreds of deals of a run: at 40 deals a family of ten null pairs fires in
  about 7% of runs, at 300 in 5%); ``value +- q se`` then holds every pair's true
  difference at once with 95% probability, so also the one picked after seeing the data. ``q``
  lies between the single pair's t quantile and the Bonferroni one (``t`` at 1 - 0.025/K),
  which it falls back to when the correlation cannot be computed.
- **No deal differed** (:func:`zero_half_width`): a paired difference that is 0 on every one of
  n deals does not show a true difference of 0: by the rule of three at most 3/n of the deals
  differ (95%), each by at most the figure's largest change on one deal, so the true difference
  lies within +-3/n times that change.
- **Few deals differed** (:func:`few_deals_half_width`): when fewer than :data:`FEW_DEALS` of
  the n deals differ, the t interval rests on a handful of values and can be far too narrow;
  its half-width is at least the exact (Clopper-Pearson) upper bound on the share of deals that
  differ, from the k of n seen, times the figure's largest change on one deal.
"""

from __future__ import annotations

import gc
import math
from collections.abc import Sequence
from contextlib import contextmanager

import numpy as np

from sim.stats.intervals import RULE_OF_THREE, zero_half_width  # noqa: F401 (re-exported)

ALPHA = 0.05
ADJUST_METHODS = ("holm", "bh", "none")
DEFAULT_ADJUST = "holm"
_STATSMODELS = {"holm": "holm", "bh": "fdr_bh"}
ADJUST_TEXT = {
    "holm": "Holm (the chance that any flag of the family is wrong is at most 5%)",
    "bh": "Benjamini-Hochberg (the expected share of wrong flags among those raised is at "
          "most 5%)",
    "none": "none (each p-value on its own: with many tests some flags are wrong by chance)",
}
MAXT_DRAWS = 20_000
MAXT_SEED = 20_260_050  # fixed: the same data give the same quantile
FEW_DEALS = 10  # fewer deals than this differ: the count-based floor on a difference's interval
METHOD_SIMULTANEOUS = ("simultaneous over the knob's pairs for the figure: value +- q se, q "
                       "the 95% quantile of the largest |t| of the pairs (multivariate t, the "
                       "pairs' correlation over deals); Bonferroni when it cannot be computed; "
                       "a pair's count-based floor widened by q over its own t quantile")
METHOD_KNOB_WIDE = ("simultaneous over the whole knob (knob-wide): every pair of every figure "
                    "of the knob, value +- q se with q the 95% quantile of the largest |t| over "
                    "all of them, so the figure the ranking picks is held whichever it is")
METHOD_NO_DEAL = ("0 on every deal of two different rulesets: +-3/n times the figure's largest "
                  "change on one deal (rule of three: at most 3/n of the deals differ); [0, 0] "
                  "only for the same ruleset; fewer than 10 deals differing: never narrower than "
                  "the exact upper bound on the share of deals that differ times that change")


class AdjustError(ValueError):
    """An unknown adjustment method; the message is one line naming the option."""


def check_adjust(method: str, option: str = "--adjust") -> str:
    """The method as given when it is one of :data:`ADJUST_METHODS`; AdjustError otherwise."""
    m = str(getattr(method, "value", method))
    if m not in ADJUST_METHODS:
        raise AdjustError(f"{option} {m}: expected one of {', '.join(ADJUST_METHODS)}")
    return m


_FROZEN = [0]  # the depth of nested frozen_gc blocks


@contextmanager
def frozen_gc():
    """A block in which the garbage collector leaves every object existing at its start
    alone: statsmodels' Holm calls gc.collect() on every call, which walks the whole heap (a
    quarter of a second in a process holding the simulator); frozen objects are not walked.
    Nested blocks unfreeze once, at the outermost end."""
    if _FROZEN[0] == 0:
        gc.freeze()
    _FROZEN[0] += 1
    try:
        yield
    finally:
        _FROZEN[0] -= 1
        if _FROZEN[0] == 0:
            gc.unfreeze()


def adjust(p: Sequence[float], method: str = DEFAULT_ADJUST) -> np.ndarray:
    """The adjusted p-values of one family (statsmodels ``multipletests``; ``none``: the
    p-values as given). A NaN p-value (not tested) stays NaN and is left out of the family."""
    p = np.asarray(p, np.float64)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    if not ok.any():
        return out
    if check_adjust(method, "adjust") == "none":
        out[ok] = p[ok]
        return out
    from statsmodels.stats.multitest import multipletests

    with frozen_gc():
        out[ok] = multipletests(p[ok], alpha=ALPHA, method=_STATSMODELS[method])[1]
    return out


def adjust_many(families: Sequence[Sequence[float]], method: str = DEFAULT_ADJUST
                ) -> list[np.ndarray]:
    """:func:`adjust` of each family (one heap freeze for them all)."""
    with frozen_gc():
        return [adjust(f, method) for f in families]


def t_pvalue(value: float, se: float, df: float) -> float:
    """The two-sided p-value of ``value / se`` against Student's t with ``df`` degrees of
    freedom; a difference with no spread (``se`` 0) has p 1 when it is 0, else 0; NaN when
    unknown."""
    if not (math.isfinite(value) and math.isfinite(se)) or df < 1:
        return math.nan
    if se <= 0:
        return 1.0 if value == 0 else 0.0
    from scipy.stats import t

    return float(min(1.0, 2 * t.sf(abs(value) / se, df)))


def bonferroni_quantile(k: int, df: float, level: float = 0.95) -> float:
    """The t quantile that holds each of ``k`` intervals at 1 - (1 - level) / k."""
    from scipy.stats import t

    return float(t.ppf(1 - (1 - level) / (2 * max(1, k)), df))


def _maxt_null(resid: np.ndarray, draws: int) -> tuple[np.ndarray, np.ndarray, int] | None:
    """The null draws of |T| (draws x kept pairs) for the pairs whose per-deal residuals are the
    columns of ``resid``, the kept columns (a column of zeros, a pair with no spread, is left
    out) and the degrees of freedom; None when the correlation cannot be computed (or below two
    deals, or fewer than two pairs kept). Seeded: the same data give the same draws."""
    R = _as_columns(resid)
    keep = np.flatnonzero(np.any(R != 0, axis=0))
    R = R[:, keep]
    D, K = R.shape
    if D < 2 or K < 2:
        return None
    df = D - 1
    S = R.T @ R
    sd = np.sqrt(np.diag(S))
    C = S / np.outer(sd, sd)
    if not np.all(np.isfinite(C)):
        return None
    w, V = np.linalg.eigh(C)
    L = V * np.sqrt(np.clip(w, 0, None))
    rng = np.random.default_rng(MAXT_SEED + K)
    Z = rng.standard_normal((draws, K)) @ L.T
    scale = np.sqrt(rng.chisquare(df, draws) / df)
    return np.abs(Z) / scale[:, None], keep, df


def _as_columns(resid) -> np.ndarray:
    R = np.asarray(resid, np.float64)
    return R if R.ndim == 2 else R.reshape(-1, 1)


def _quantile(R: np.ndarray, null, level: float) -> float:
    from sim.stats.intervals import t_quantile

    D = R.shape[0]
    if D < 2:
        return math.nan
    K = int(np.any(R != 0, axis=0).sum())
    single = t_quantile(1 - (1 - level) / 2, D - 1)
    if K <= 1:
        return single
    bonf = bonferroni_quantile(K, D - 1, level)
    if null is None:
        return bonf
    q = float(np.quantile(null[0].max(axis=1), level))
    return min(max(q, single), bonf)


def maxt_quantile(resid: np.ndarray, level: float = 0.95, draws: int = MAXT_DRAWS) -> float:
    """The ``level`` quantile of max_k |T_k| for the pairs whose per-deal residuals are the
    columns of ``resid`` (deals x pairs; a column of zeros, a pair with no spread, is left
    out): T multivariate t with the columns' correlation and deals - 1 degrees of freedom.
    Never below one pair's t quantile nor above Bonferroni's; NaN below two deals."""
    R = _as_columns(resid)
    return _quantile(R, _maxt_null(R, draws), level)


def _adjusted(R: np.ndarray, t: np.ndarray, null, stepdown: bool) -> np.ndarray:
    from scipy.stats import t as student

    D = R.shape[0]
    out = np.full(t.shape, np.nan)
    ok = np.isfinite(t)
    if D < 2 or not ok.any():
        return out
    raw = np.minimum(1.0, 2 * student.sf(t, D - 1))
    spread = np.any(R != 0, axis=0)
    K = int(spread.sum())
    out[ok] = raw[ok]
    if K <= 1:
        return out
    if null is None:  # Bonferroni (and Holm's step-down) on the pairs with spread
        idx = np.flatnonzero(ok & spread)
        out[idx] = adjust(raw[idx]) if stepdown else np.minimum(1.0, len(idx) * raw[idx])
        return out
    T, keep, _ = null
    idx = keep[ok[keep]]
    col = np.searchsorted(keep, idx)
    bonf = np.minimum(1.0, K * raw[idx])
    if stepdown:
        order = np.argsort(-t[idx], kind="stable")
        tail = np.maximum.accumulate(T[:, col[order]][:, ::-1], axis=1)[:, ::-1]
        p = np.maximum.accumulate((tail >= t[idx][order][None, :]).mean(axis=0))
        ps = np.empty_like(p)
        ps[order] = p
    else:
        ps = (T.max(axis=1)[:, None] >= t[idx][None, :]).mean(axis=0)
    out[idx] = np.minimum(np.maximum(ps, raw[idx]), bonf)
    return out


def maxt_adjust(resid: np.ndarray, t: Sequence[float], draws: int = MAXT_DRAWS,
                stepdown: bool = True) -> np.ndarray:
    """p-values of the pairs whose per-deal residuals are the columns of ``resid`` and whose t
    statistics are ``t``, adjusted over them with the max-|t| distribution
    :func:`maxt_quantile` uses (the same seeded draws), so that a pair's adjusted p-value is
    below 1 - level when ``|t|`` exceeds that quantile: when its simultaneous interval
    ``value +- q se`` excludes 0. Single step: P(max_k |T_k| >= |t|), never below the pair's own
    p-value nor above Bonferroni's. ``stepdown`` (Holm's step-down with the max-|t| bound in
    place of Bonferroni's, after Westfall and Young): the pairs by |t| from the largest, each
    adjusted over itself and the pairs after it, then made non-decreasing; never above the
    single-step value, the same for the largest |t|. A NaN t stays NaN and is left out."""
    return maxt(resid, t, draws=draws, stepdown=stepdown)[1]


def maxt(resid: np.ndarray, t: Sequence[float], level: float = 0.95, draws: int = MAXT_DRAWS,
         stepdown: bool = True) -> tuple[float, np.ndarray]:
    """:func:`maxt_quantile` and :func:`maxt_adjust` of one family from one set of draws."""
    R = _as_columns(resid)
    null = _maxt_null(R, draws)
    return _quantile(R, null, level), _adjusted(R, np.abs(np.asarray(t, np.float64)), null,
                                                stepdown)


def maxt_holm(resid: np.ndarray, t: Sequence[float]) -> np.ndarray:
    """Holm's step-down over the pairs whose residuals are the columns of ``resid`` and whose t
    statistics are ``t``, with the max-|t| distribution of their simultaneous interval in place
    of Bonferroni's bound (:func:`maxt_adjust`): a pair whose simultaneous interval excludes 0
    has an adjusted p-value below 0.05. A pair the same and not 0 on every deal (infinite t)
    has 0."""
    return maxt_family(resid, t)[1]


def maxt_family(resid: np.ndarray, t: Sequence[float]) -> tuple[float, np.ndarray]:
    """:func:`maxt_quantile` and :func:`maxt_holm` of one family from one set of draws."""
    t = np.asarray(t, np.float64)
    q, out = maxt(resid, np.where(np.isinf(t), np.nan, t))
    out[np.isinf(t)] = 0.0
    return q, out


def few_deals_half_width(differing: int, deals: int, largest_change: float) -> float:
    """The least half-width of the interval of a difference that only ``differing`` of
    ``deals`` deals show (0 from :data:`FEW_DEALS` on): the exact 95% upper bound on the share
    of deals that differ times ``largest_change``."""
    if differing >= FEW_DEALS or deals < 1 or not math.isfinite(largest_change):
        return 0.0
    from sim.stats.intervals import exact_interval

    return float(exact_interval(differing, deals)[1][0]) * abs(largest_change)


def identical_note(deals: int) -> str:
    """The table's note for a difference 0 on every deal."""
    return f"identical on all {deals:,} deals"


SAME_RULESET_NOTE = "the same ruleset"
