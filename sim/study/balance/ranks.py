"""Ranks with 95% intervals for the ranked tables of ``quacks balance`` (cards, witches, books).

A row's rank comes from a score computed from noisy per-deal values, so the rank is uncertain
too. Its interval is a bootstrap over deals, the deal being the independent unit: deals are
resampled with replacement ``RANK_DRAWS`` times; in each draw every row's score is recomputed
from the per-deal values of the resampled deals (the same ``score`` function as the table's)
and the rows are ranked (1: the largest score; tied scores share the best rank); a row's
interval runs from the 2.5% to the 97.5% quantile of its ranks over the draws (the lower and
the higher order statistic, so both ends are ranks), widened to hold the rank of the full run.
The draws come from a generator seeded by the run seed and the part (``RANK_STREAMS``), so a
report is reproduced to the last digit by the same command.

"Row X ranks first" is only read where X's interval is [1, 1]: then X ranks first in at least
97.5% of the draws.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

RANK_DRAWS = 1000  # bootstrap draws of the deals per ranked table
LEVEL = 0.95
RANK_STREAMS = {"cards": 1, "witches": 2, "books": 3}  # one bootstrap stream per part
METHOD_RANK = (f"percentile bootstrap over deals ({RANK_DRAWS:,} draws, the deal the unit; "
               "seeded by the run seed)")
RANK_COLUMNS = ("rank", "rank_lo", "rank_hi")
_CELLS_PER_BATCH = 2_000_000  # resampled deals held at once (draws x deals)


def rank_of(scores: np.ndarray) -> np.ndarray:
    """Ranks along the last axis: 1 for the largest score, tied scores sharing the best rank
    (pandas' ``method="min"``); a NaN score ranks last."""
    s = np.where(np.isnan(scores), -np.inf, np.asarray(scores, np.float64))
    return 1 + (s[..., None, :] > s[..., :, None]).sum(axis=-1)


def rank_intervals(per_deal: np.ndarray, score: Callable[[np.ndarray], np.ndarray], seed: int,
                   part: str, draws: int = RANK_DRAWS) -> tuple[np.ndarray, ...]:
    """Each row's rank and its 95% bootstrap interval: ``per_deal`` (deals, columns) holds the
    per-deal values, ``score(means)`` maps column means over deals (draws, columns) to the
    rows' scores (draws, rows). Returns (rank, rank_lo, rank_hi), integer arrays over the
    rows; the rank is that of the full run."""
    Y = np.asarray(per_deal, np.float64)
    D = Y.shape[0]
    full = rank_of(score(Y.mean(axis=0)[None, :]))[0]
    if D < 2:
        return full, full.copy(), full.copy()
    rng = np.random.default_rng(np.random.SeedSequence([int(seed), RANK_STREAMS[part]]))
    batch = max(1, min(draws, _CELLS_PER_BATCH // D))
    out = []
    for start in range(0, draws, batch):
        b = min(batch, draws - start)
        pick = rng.integers(0, D, size=(b, D)) + (np.arange(b) * D)[:, None]
        counts = np.bincount(pick.ravel(), minlength=b * D).reshape(b, D).astype(np.float64)
        out.append(rank_of(score(counts @ Y / D)))  # float counts: a BLAS product
    R = np.concatenate(out)
    a = (1 - LEVEL) / 2
    lo = np.quantile(R, a, axis=0, method="lower").astype(np.int64)
    hi = np.quantile(R, 1 - a, axis=0, method="higher").astype(np.int64)
    return full, np.minimum(lo, full), np.maximum(hi, full)


def rank_columns(per_deal: np.ndarray, score: Callable[[np.ndarray], np.ndarray], seed: int,
                 part: str) -> dict[str, np.ndarray]:
    """``rank``, ``rank_lo`` and ``rank_hi`` as table columns (see :func:`rank_intervals`)."""
    return dict(zip(RANK_COLUMNS, rank_intervals(per_deal, score, seed, part)))


def first_for_sure(rank_lo, rank_hi) -> np.ndarray:
    """True for the rows whose rank interval is [1, 1]: the only rows a report may call first."""
    return (np.asarray(rank_lo) == 1) & (np.asarray(rank_hi) == 1)
