"""Issue 50 follow-ups: the win shares of ``quacks play`` and of tune's re-test go through
``sim.stats.intervals.rate_interval`` with their count, and a share the same on every deal
has its interval from the count of deals (numpy only, no games)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.api.game import win_interval
from sim.stats.intervals import exact_interval, rate_interval, wilson
from sim.study.tune.run import share_with_ci


def test_a_share_the_same_on_every_deal_is_from_the_count_of_deals():
    """The expert reference seat's share is 0.25 on every deal (symmetry): at most 3/n of
    the n deals may differ, by at most 0.25 down or 0.75 up (Wilson over the deals said
    [0.214, 0.290] at 500 deals)."""
    m, (lo, hi) = share_with_ci(np.full(500, 0.25))
    assert m == 0.25
    assert (lo, hi) == pytest.approx((0.25 - 3 / 500 * 0.25, 0.25 + 3 / 500 * 0.75))
    # with the count of games as well: still the deals' rule
    assert share_with_ci(np.full(500, 0.25), 2000)[1] == pytest.approx((lo, hi))
    lo2, hi2 = rate_interval(0.25, None, 0.0, 500)
    assert (lo2[0], hi2[0]) == pytest.approx((lo, hi))
    # a share of 0 or 1 on every deal keeps the interval of its count
    lo0, hi0 = rate_interval(0.0, 2000, 0.0, 500)
    assert lo0[0] == 0 and hi0[0] == pytest.approx(exact_interval(0, 2000)[1][0])


def test_tunes_share_is_never_narrower_than_the_exact_interval_on_its_games():
    """Per-deal shares of four games that vary little (a rotated field): the clustered
    interval alone is narrower than the exact one on the 4 x 400 games; with the count it is
    not."""
    rng = np.random.default_rng(5)
    per_deal = rng.choice([0.25, 0.25, 0.25, 0.5, 0.0], 400)
    p = per_deal.mean()
    xlo, xhi = exact_interval(p * 1600, 1600)
    _, (lo, hi) = share_with_ci(per_deal, 1600)
    assert lo <= xlo[0] + 1e-12 and hi >= xhi[0] - 1e-12
    _, (clo, chi) = share_with_ci(per_deal)
    assert chi - clo < xhi[0] - xlo[0]  # so the check can fail


def test_plays_win_share_covers_a_rare_win():
    """One win in 1,000 games: Wilson's lower end (0.00018) is above the exact one's; the
    win share's interval holds the exact interval."""
    lo, hi = win_interval(1 / 1000, 1000)
    xlo, xhi = exact_interval(1, 1000)
    assert lo <= xlo[0] + 1e-12 and hi >= xhi[0] - 1e-12
    assert wilson(1, 1000)[0] > xlo[0]  # the old interval did not
    lo, hi = win_interval(0.3, 1000)  # a common share: about Wilson's width
    assert hi - lo == pytest.approx(np.diff(wilson(300, 1000))[0], rel=0.05)
