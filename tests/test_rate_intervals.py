"""The interval of every rate shown to a user (``sim.stats.intervals.rate_interval``): exact
(Clopper-Pearson) where there are too few events to estimate the design effect, the cluster
Wilson interval elsewhere but never narrower than the exact one; checked against scipy, at 0
events, and for coverage over simulated counts of a rare event."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from sim.stats.clusters import ratio_mean_var, share_interval
from sim.stats.intervals import RARE_EVENTS, exact_interval, rate_interval, wilson


@pytest.mark.parametrize("x, n", [(0, 2000), (1, 2000), (2, 2000), (7, 50), (50, 50),
                                  (123, 1000), (0.25, 2000)])
def test_exact_interval_is_clopper_pearson(x, n):
    lo, hi = exact_interval(x, n)
    want_lo = 0.0 if x == 0 else stats.beta.ppf(0.025, x, n - x + 1)
    want_hi = 1.0 if x == n else stats.beta.ppf(0.975, x + 1, n - x)
    assert (lo[0], hi[0]) == pytest.approx((want_lo, want_hi), rel=1e-9, abs=1e-15)
    if float(x).is_integer():  # scipy's own exact interval on a whole count
        ci = stats.binomtest(int(x), n).proportion_ci(0.95, method="exact")
        assert (lo[0], hi[0]) == pytest.approx((ci.low, ci.high), rel=1e-9, abs=1e-15)


@pytest.mark.parametrize("x, n", [(0, 20), (3, 20), (123, 1000), (20, 20)])
def test_wilson_is_scipys_wilson(x, n):
    ci = stats.binomtest(x, n).proportion_ci(0.95, method="wilson")
    assert wilson(x, n) == pytest.approx((ci.low, ci.high), rel=1e-9, abs=1e-12)


def test_zero_events_give_zero_to_a_positive_bound():
    lo, hi = rate_interval(0.0, 2000, 0.0, 500)
    assert lo[0] == 0.0 and 0 < hi[0] < 0.01
    assert hi[0] == pytest.approx(1 - 0.025 ** (1 / 2000))  # the exact bound at 0 of n
    lo, hi = rate_interval(1.0, 2000, 0.0, 500)  # every trial an event: [lo < 1, 1]
    assert hi[0] == 1.0 and 0.99 < lo[0] < 1


def test_few_events_get_the_exact_interval_many_the_wider_of_both():
    n, D = 2000, 500
    p = 3 / n  # 3 events: no design effect is estimated, however large the variance says
    lo, hi = rate_interval(p, n, 1e-4, D)
    assert (lo[0], hi[0]) == pytest.approx(tuple(a[0] for a in exact_interval(3, n)))
    p = 400 / n  # many events and a design effect of 4: the clustered interval, wider
    v = 4 * p * (1 - p) / n
    lo, hi = rate_interval(p, n, v, D)
    clustered = share_interval(p, v, D)  # without a count: the clustered Wilson alone
    assert (lo[0], hi[0]) == pytest.approx((clustered[0][0], clustered[1][0]))
    xlo, xhi = exact_interval(400, n)
    assert lo[0] < xlo[0] and hi[0] > xhi[0]
    v = 0.25 * p * (1 - p) / n  # a design effect below 1: never narrower than exact
    lo, hi = rate_interval(p, n, v, D)
    assert (lo[0], hi[0]) == pytest.approx((xlo[0], xhi[0]))
    # events in a single deal: no design effect either, whatever their number
    lo, hi = rate_interval(p, n, 4 * p * (1 - p) / n, D, event_deals=1)
    assert (lo[0], hi[0]) == pytest.approx((xlo[0], xhi[0]))
    assert RARE_EVENTS == 10


def test_rates_stay_inside_0_1_and_hold_the_rate():
    rng = np.random.default_rng(3)
    p = np.concatenate([[0, 1, 1e-6, 1 - 1e-6], rng.random(200)])
    n = rng.integers(1, 5000, p.size)
    v = rng.random(p.size) * 1e-3
    lo, hi = rate_interval(p, n, v, 50)
    assert (lo >= 0).all() and (hi <= 1).all() and (lo <= p).all() and (p <= hi).all()


def _clustered_runs(p_game: float, worth: float, runs: int, deals: int = 500, games: int = 4,
                    seed: int = 11):
    """``runs`` runs of ``deals`` deals of ``games`` games: each game holds the event with
    probability p_game / worth and then adds ``worth`` to the total (a k-way shared win counts
    1/k), so the true rate per game is ``p_game``. Per run the rate, its cluster-robust
    variance over deals and the deals holding an event."""
    rng = np.random.default_rng(seed)
    X = rng.binomial(games, p_game / worth, (runs, deals)) * worth
    N = np.full(deals, games, np.float64)
    m, v = ratio_mean_var(X.sum(1), N.sum(), (X * X).sum(1), X @ N, (N * N).sum(), deals)
    return m, v, (X > 0).sum(1)


def test_a_rare_rate_covers_at_1e_4_in_2000_games():
    """Binomial counts at p = 1e-4, n = 2,000 (mostly 0, 1 or 2 events)."""
    m, v, hit = _clustered_runs(1e-4, 1.0, 20_000)
    lo, hi = rate_interval(m, 2000, v, 500, hit)
    assert ((lo <= 1e-4) & (1e-4 <= hi)).mean() >= 0.93


def test_a_rare_shared_rate_covers():
    """The case of issue 50: an event worth 1/4 of a game (a four-way shared win), at 1.5e-5 a
    game. The cluster Wilson interval alone took 0.25 events for one in 4n trials and covered
    0.88; the exact interval on the count covers."""
    m, v, hit = _clustered_runs(1.5e-5, 0.25, 20_000)
    lo, hi = rate_interval(m, 2000, v, 500, hit)
    assert ((lo <= 1.5e-5) & (1.5e-5 <= hi)).mean() >= 0.93


def test_a_common_rate_still_covers_and_the_count_floor_is_not_too_wide():
    m, v, hit = _clustered_runs(0.05, 1.0, 4000)
    lo, hi = rate_interval(m, 2000, v, 500, hit)
    cover = ((lo <= 0.05) & (0.05 <= hi)).mean()
    assert 0.93 <= cover <= 0.985
