"""Sobol indices from a pick-freeze (Saltelli) design, with 95% intervals by the delta method;
and the length of a best-of-N match.

The design has N rows. Row k plays the game ``A_k`` (every input drawn once), ``B_k`` (every
input drawn again) and, for each input group j, ``AB_k^j``: A_k's inputs with group j taken
from B_k. Outcomes ``yA[k]``, ``yB[k]``, ``yAB[j, k]``. With the rows independent (the unit of
the intervals), the estimators are ratios of means over rows:

- variance ``V``: the mean of ``((yA - f0)^2 + (yB - f0)^2) / 2``, f0 the mean of yA and yB;
- first-order index of group j (Saltelli et al. 2010): ``mean(yB' (yAB_j' - yA')) / V`` with
  every outcome centred on f0 (which changes no expectation and lowers the variance);
- total index (Jansen 1999): ``mean((yA - yAB_j)^2) / (2 V)``.

A ratio ``mean(u) / mean(v)`` gets its interval from the delta method: its standard error is
the standard deviation of ``u - R v`` over rows over ``sqrt(N) mean(v)``. Shares are reported
clipped to [0, 1] (the raw estimate kept beside), their intervals clipped likewise; the
first-order index is expected not above the total one, and :func:`sobol_indices` says, group
by group, whether the estimates agree with that (``first <= total``, or the two intervals
overlap).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from sim.stats.intervals import Z95


@dataclass(frozen=True)
class Ratio:
    """A ratio of row means with its delta-method 95% interval (clipped to [0, 1] as
    ``value``, ``lo``, ``hi``; ``raw`` unclipped)."""

    raw: float
    se: float

    @property
    def value(self) -> float:
        return float(min(max(self.raw, 0.0), 1.0))

    @property
    def lo(self) -> float:
        return float(min(max(self.raw - Z95 * self.se, 0.0), 1.0))

    @property
    def hi(self) -> float:
        return float(min(max(self.raw + Z95 * self.se, 0.0), 1.0))


def ratio(u: np.ndarray, v: np.ndarray) -> Ratio:
    """``mean(u) / mean(v)`` over rows, with the delta method's standard error."""
    u = np.asarray(u, dtype=np.float64)
    v = np.asarray(v, dtype=np.float64)
    n = len(u)
    mv = float(v.mean()) if n else 0.0
    if n < 2 or mv <= 0.0:
        return Ratio(float("nan"), float("nan"))
    r = float(u.mean()) / mv
    se = float(np.std(u - r * v, ddof=1)) / (math.sqrt(n) * mv)
    return Ratio(r, se)


@dataclass(frozen=True)
class SobolIndices:
    """First-order and total indices of every input group, the outcome's variance and mean, the
    sum of the first-order indices (1 minus it: the share of interactions), and the rows."""

    first: list[Ratio]
    total: list[Ratio]
    first_sum: Ratio
    variance: float
    mean: float
    rows: int

    def consistent(self, j: int) -> bool:
        """Whether group j's first-order estimate is at most its total one, or their intervals
        overlap (so the data do not contradict first <= total)."""
        f, t = self.first[j], self.total[j]
        if not (math.isfinite(f.raw) and math.isfinite(t.raw)):
            return True
        return f.value <= t.value or f.lo <= t.hi


def sobol_indices(yA, yB, yAB) -> SobolIndices:
    """The indices of each group (rows of ``yAB``) from one pick-freeze design (see the module).
    ``yA``, ``yB``: shape (N,); ``yAB``: shape (groups, N)."""
    yA = np.asarray(yA, dtype=np.float64)
    yB = np.asarray(yB, dtype=np.float64)
    yAB = np.atleast_2d(np.asarray(yAB, dtype=np.float64))
    f0 = float(np.concatenate([yA, yB]).mean()) if len(yA) else float("nan")
    a, b, ab = yA - f0, yB - f0, yAB - f0
    v = (a * a + b * b) / 2.0
    first = [ratio(b * (ab[j] - a), v) for j in range(len(ab))]
    total = [ratio((a - ab[j]) ** 2 / 2.0, v) for j in range(len(ab))]
    first_sum = ratio((b[None, :] * (ab - a[None, :])).sum(axis=0), v)
    return SobolIndices(first, total, first_sum, float(v.mean()) if len(v) else float("nan"),
                        f0, len(yA))


def win_chance(p: float, n: int) -> float:
    """The chance that a player who wins each game with chance ``p`` (independently) wins a
    best-of-``n`` match (``n`` odd: more than half of the games)."""
    from scipy.stats import binom

    return float(binom.sf(n // 2, n, p))


MAX_MATCH = 100_001  # best-of-N lengths searched up to this; longer: "more than"


def games_to_win(p: float, target: float = 0.95, limit: int = MAX_MATCH) -> int | None:
    """The smallest odd N for which a player who wins each game with chance ``p`` wins a
    best-of-N match with chance at least ``target``; None when p <= 1/2 or N would pass
    ``limit``."""
    if not (p > 0.5) or not math.isfinite(p):
        return None
    if win_chance(p, 1) >= target:
        return 1
    if win_chance(p, limit) < target:
        return None
    lo, hi = 0, (limit - 1) // 2  # N = 2 m + 1; win_chance grows with m for p > 1/2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if win_chance(p, 2 * mid + 1) >= target:
            hi = mid
        else:
            lo = mid
    return 2 * hi + 1
