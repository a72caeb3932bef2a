"""Fitting the value model: per round, the final margin (the VP gap to the best other, or by ridge
least squares on the position's features), then the chance of winning by a logistic in that
margin (Newton's method).

Every feature and margin is a whole number, so the normal equations are exact sums whatever the
order they are added in, and a fit depends only on its data: the same games give the same model.
The logistic's sums and exponentials are not exact: their last bits depend on the order numpy adds
in and on its build (SIMD and BLAS), so the fitted numbers are kept to ``SIGNIFICANT`` digits, far
below their sampling error and far above that rounding: the same games write the same file, byte
for byte, on any machine (``python -m sim.study.train.shipped`` retrains the shipped models).
"""

from __future__ import annotations

import numpy as np

from sim.study.train.features import X_GAP_BEST, Positions
from strategies.value_model_file import N_FEATURES, ValueModel

RIDGE = 1.0  # penalty on every weight but the intercept (in squared VP per unit of feature)


def fit_margin(x: np.ndarray, y: np.ndarray, ridge: float = RIDGE) -> tuple[float, np.ndarray]:
    """Ridge least squares ``y ~ w0 + x @ w``: (w0, w). A feature constant in the data gets
    weight 0 (it cannot be told from the intercept)."""
    n = x.shape[0]
    A = np.hstack([np.ones((n, 1)), x])
    G = A.T @ A
    c = A.T @ y
    pen = np.full(A.shape[1], ridge)
    pen[0] = 0.0
    free = np.ones(A.shape[1], dtype=bool)
    free[1:] = x.max(axis=0) > x.min(axis=0) if n else False
    sol = np.zeros(A.shape[1])
    idx = np.flatnonzero(free)
    sol[idx] = np.linalg.solve(G[np.ix_(idx, idx)] + np.diag(pen[idx]), c[idx])
    return float(sol[0]), sol[1:]


def fit_logistic(m: np.ndarray, win: np.ndarray, steps: int = 50) -> tuple[float, float]:
    """``win ~ 1 / (1 + exp(-(a + b m)))`` by Newton's method on the log-likelihood (win may be a
    share in [0, 1]); a tiny ridge keeps a separable round finite."""
    a, b = 0.0, 0.0
    for _ in range(steps):
        z = np.clip(a + b * m, -30, 30)
        p = 1.0 / (1.0 + np.exp(-z))
        wgt = p * (1.0 - p) + 1e-9
        g = np.array([np.sum(win - p), np.sum((win - p) * m)]) - 1e-6 * np.array([0.0, b])
        h = np.array([[np.sum(wgt), np.sum(wgt * m)],
                      [np.sum(wgt * m), np.sum(wgt * m * m) + 1e-6]])
        step = np.linalg.solve(h, g)
        a, b = a + step[0], b + step[1]
        if np.max(np.abs(step)) < 1e-10:
            break
    return float(a), float(b)


VALUE_KINDS = ("gap", "linear", "net")
# the least slope of a round's logistic (per VP of margin): one VP more never lowers the chance of
# winning. Where the data say less (an early round, where the VP taken instead of an explosion's
# coins says little about the end), the round's leaves are ranked by VP alone, as an expected-VP
# player would rank them, instead of by a chance that falls with the VP.
MIN_SLOPE = 0.005
SIGNIFICANT = 8  # significant digits a fitted number keeps (the model file's and the seat's)


def kept(v: np.ndarray) -> np.ndarray:
    """``v`` rounded to ``SIGNIFICANT`` significant digits (decimal, as the model file shows it)."""
    v = np.asarray(v, dtype=np.float64)
    return np.array([float(f"{x:.{SIGNIFICANT}g}") for x in v.ravel()]).reshape(v.shape)


def fit_intercept(m: np.ndarray, win: np.ndarray, b: float, steps: int = 50) -> float:
    """The intercept ``a`` of ``win ~ 1 / (1 + exp(-(a + b m)))`` with the slope ``b`` fixed
    (Newton's method)."""
    a = 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(a + b * m, -30, 30)))
        step = np.sum(win - p) / (np.sum(p * (1.0 - p)) + 1e-9)
        a += step
        if abs(step) < 1e-10:
            break
    return float(a)


def fit_model(data: Positions, rules: str, players: int, training: dict | None = None,
              kind: str = "gap") -> ValueModel:
    """A value model fitted round by round to ``data``.

    ``gap``: the margin is the VP gap to the best other player (weight 1, nothing fitted) and
    only the logistic is fitted, so a VP is worth exactly one VP of margin and the chance of
    winning rises with it in every round (a slope of at least ``MIN_SLOPE``); the bag's worth
    is left to the marginal buyer (``master:leaf=marginal``). ``linear``: the margin by ridge
    least squares on every feature, then the logistic on the predicted margin
    (``master:leaf=model``)."""
    if kind not in VALUE_KINDS:
        raise ValueError(f"value kind {kind!r}: expected one of {', '.join(VALUE_KINDS)}")
    rounds = int(data.round.max())
    a = np.zeros(rounds)
    b = np.zeros(rounds)
    w0 = np.zeros(rounds)
    w = np.zeros((rounds, N_FEATURES))
    for r in range(1, rounds + 1):
        sel = data.round == r
        if kind != "linear":  # gap, and net's logistic (its net: sim.study.train.cycles)
            w[r - 1, X_GAP_BEST] = 1.0
        else:
            w0[r - 1], w[r - 1] = fit_margin(data.x[sel], data.margin[sel])
        pred = w0[r - 1] + data.x[sel] @ w[r - 1]
        a[r - 1], b[r - 1] = fit_logistic(pred, data.win[sel])
        if b[r - 1] < MIN_SLOPE:
            b[r - 1] = MIN_SLOPE
            a[r - 1] = fit_intercept(pred, data.win[sel], MIN_SLOPE)
    return ValueModel(rules, players, kept(a), kept(b), kept(w0), kept(w),
                      {**(training or {}), "value": kind})
