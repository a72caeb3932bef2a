"""Interval estimates shown with every rate and mean (95% by default)."""

from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054


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
