"""Which re-tested styles are viable, free of the winner's curse.

Every elite of a style map plays the same fresh deals. The best style is picked on the first
half of those deals (``pick_deals``) and every win share and every difference to the best is
measured on the other half: the maximum of many noisy estimates is biased up, so a best picked
and measured on the same deals would look better than it is and every other style worse. (In
five base runs of the search whose best was not expert's own values, the best's share on the
deals that picked it exceeded its share on the other half by 0.016 on average, -0.009 to
+0.030: half the default margin.) On the held-out half the best's share and each difference
are unbiased, whatever was picked.
"""

from __future__ import annotations

import numpy as np

from sim.stats.clusters import paired_diff
from sim.study.tune.run import share_with_ci


def pick_deals(deals: int) -> int:
    """How many of ``deals`` re-test deals pick the best style (the first half, rounded down);
    the rest measure."""
    return int(deals) // 2


def one_per_cell(cells: np.ndarray, shares: np.ndarray) -> list[int]:
    """The elites that stand for their cells, in cell order: ``cells`` each elite's cell of the
    map by its re-tested descriptors, ``shares`` (elites, deals) its re-tested win shares. Two
    elites the re-test puts in one cell are one style: the one with the higher mean share on
    the pick deals stands for it (the held-out deals stay unseen)."""
    pick = np.asarray(shares, dtype=np.float64)[:, :pick_deals(np.shape(shares)[1])].mean(axis=1)
    best: dict[int, int] = {}
    for i, c in enumerate(np.asarray(cells).tolist()):
        if c not in best or pick[i] > pick[best[c]]:
            best[c] = i
    return [best[c] for c in sorted(best)]


def judge_styles(shares: np.ndarray, seatings: int, margin: float) -> tuple[int, list[dict]]:
    """``shares`` (elites, deals): each elite's win share per re-test deal, a deal played in
    ``seatings`` seatings. Returns the index of the best elite (the highest mean share on the
    pick deals) and per elite its ``pick_share``, its ``win_share`` [``win_lo``, ``win_hi``]
    and its paired difference to the best ``diff`` [``diff_lo``, ``diff_hi``] on the measure
    deals, and whether it is ``viable`` (the difference at least ``-margin``), ``surely``
    (its 95% interval wholly above ``-margin``) and ``plausibly`` (reaching above it)."""
    shares = np.asarray(shares, dtype=np.float64)
    k = pick_deals(shares.shape[1])
    pick, measure = shares[:, :k], shares[:, k:]
    best = int(np.argmax(pick.mean(axis=1)))
    rows = []
    for i, sh in enumerate(measure):
        w, (wlo, whi) = share_with_ci(sh, len(sh) * seatings)  # a game per seating
        if i == best:
            d, dlo, dhi = 0.0, 0.0, 0.0
        else:
            d, dlo, dhi, _ = paired_diff(sh, measure[best])
        rows.append({"pick_share": float(pick[i].mean()), "win_share": w, "win_lo": wlo,
                     "win_hi": whi, "diff": d, "diff_lo": dlo, "diff_hi": dhi,
                     "viable": bool(d >= -margin), "surely": bool(dlo >= -margin),
                     "plausibly": bool(dhi >= -margin)})
    return best, rows
