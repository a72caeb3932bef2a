"""A sequential probability ratio test (Wald) on the mean of per-deal scores in [0, 1], as
``quacks train --value net`` uses it to promote a candidate model only when it beats the current
one head to head.

H0: the mean is ``p0``; H1: it is ``p0 + delta``. Each deal's score is taken as normal with the
variance estimated from the deals so far (at least ``VAR_FLOOR``, so the first batches cannot
decide on a variance that happens to be small), so the log-likelihood ratio after n deals is
``delta / var * sum(x_i - p0 - delta / 2)``. H1 is accepted once it reaches ``log((1 - beta) /
alpha)``, H0 once it falls to ``log(beta / (1 - alpha))``, and a test that reaches its largest
number of deals undecided keeps H0 (no promotion): the chance of promoting a candidate no better
than the current one is at most about ``alpha`` (checked after every batch, which only makes the
test more careful), and of missing one better by ``delta`` about ``beta``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

VAR_FLOOR = 0.05


@dataclass(frozen=True)
class Sprt:
    p0: float = 0.5
    delta: float = 0.03
    alpha: float = 0.05
    beta: float = 0.10

    @property
    def upper(self) -> float:
        return math.log((1.0 - self.beta) / self.alpha)

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1.0 - self.alpha))

    def llr(self, x: np.ndarray) -> float:
        """The log-likelihood ratio of H1 against H0 after the deals ``x``."""
        x = np.asarray(x, dtype=np.float64)
        if len(x) < 2:
            return 0.0
        var = max(float(x.var(ddof=1)), VAR_FLOOR)
        return self.delta / var * float(np.sum(x - self.p0 - self.delta / 2.0))

    def decide(self, x: np.ndarray) -> str:
        """``"H1"`` (promote), ``"H0"`` (keep the current one) or ``""`` (play on)."""
        v = self.llr(x)
        if v >= self.upper:
            return "H1"
        if v <= self.lower:
            return "H0"
        return ""
