"""Per-deal paired differences as table columns: ``<metric>``, ``<metric>_lo``, ``<metric>_hi``,
the mean difference over deals and its 95% Student-t interval with the deal as the unit
(``sim.stats.clusters.paired_diff``)."""

from __future__ import annotations

import numpy as np

from sim.stats.clusters import paired_diff


def diff_columns(metric: str, per_deal: np.ndarray) -> dict[str, float]:
    """The columns of one metric from its per-deal differences (already paired: arm minus
    reference, deal by deal)."""
    d = np.asarray(per_deal, np.float64)
    m, lo, hi, _ = paired_diff(d, np.zeros_like(d))
    return {metric: m, f"{metric}_lo": lo, f"{metric}_hi": hi}


def interval_names(metrics) -> list[str]:
    """The column names of these metrics, each with its interval, in order."""
    return [c for m in metrics for c in (m, f"{m}_lo", f"{m}_hi")]
