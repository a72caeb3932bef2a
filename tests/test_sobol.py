"""The pick-freeze Sobol estimators and the best-of-N length (sim.stats.sobol): numpy only, fast.

The analytic model Y = X1 + 2 X2 + X1 X3 with X ~ U(-1, 1) has V = 16/9, first-order indices
(3/16, 3/4, 0) and total indices (1/4, 3/4, 1/16)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sim.stats.sobol import games_to_win, ratio, sobol_indices, win_chance

FIRST = (3 / 16, 3 / 4, 0.0)
TOTAL = (1 / 4, 3 / 4, 1 / 16)


def model(X):
    return X[:, 0] + 2 * X[:, 1] + X[:, 0] * X[:, 2]


def design(n, seed):
    rng = np.random.default_rng(seed)
    A = rng.uniform(-1, 1, (n, 3))
    B = rng.uniform(-1, 1, (n, 3))
    yAB = []
    for j in range(3):
        C = A.copy()
        C[:, j] = B[:, j]
        yAB.append(model(C))
    return model(A), model(B), np.array(yAB)


def test_the_indices_of_an_analytic_model_are_found_within_their_intervals():
    ix = sobol_indices(*design(50_000, 1))
    for j in range(3):
        assert ix.first[j].lo - 0.01 <= FIRST[j] <= ix.first[j].hi + 0.01
        assert ix.total[j].lo - 0.01 <= TOTAL[j] <= ix.total[j].hi + 0.01
        assert 0.0 <= ix.first[j].value <= 1.0 and 0.0 <= ix.total[j].value <= 1.0
        assert ix.consistent(j)
    assert ix.variance == pytest.approx(16 / 9, rel=0.03)
    assert 1 - ix.first_sum.raw == pytest.approx(1 / 16, abs=0.03)  # the X1 X3 interaction


def test_the_intervals_cover_the_true_indices_at_about_95_percent():
    """Over 200 small designs, each delta-method interval holds the true index at close to
    its nominal rate (the coverage the report's intervals claim)."""
    hits_first = hits_total = 0
    runs = 200
    for seed in range(runs):
        ix = sobol_indices(*design(2_000, 100 + seed))
        hits_first += ix.first[1].lo <= FIRST[1] <= ix.first[1].hi
        hits_total += ix.total[0].lo <= TOTAL[0] <= ix.total[0].hi
    assert hits_first / runs >= 0.9
    assert hits_total / runs >= 0.9


def test_an_input_the_outcome_ignores_gets_exactly_zero():
    yA, yB, yAB = design(1_000, 3)
    yAB = np.vstack([yAB, yA[None, :]])  # a fourth input that changes nothing
    ix = sobol_indices(yA, yB, yAB)
    assert ix.first[3].raw == 0.0 and ix.total[3].raw == 0.0
    assert ix.first[3].lo == 0.0 and ix.total[3].hi == 0.0


def test_shares_are_clipped_to_the_unit_interval():
    r = ratio(np.array([2.0, 2.2, 1.9]), np.array([1.0, 1.0, 1.0]))
    assert r.raw > 1 and r.value == 1.0 and r.hi == 1.0
    r = ratio(np.array([-0.2, -0.1, -0.3]), np.array([1.0, 1.0, 1.0]))
    assert r.raw < 0 and r.value == 0.0 and r.lo == 0.0


def test_games_to_win_a_best_of_n():
    n = games_to_win(0.6)
    assert n % 2 == 1
    assert win_chance(0.6, n) >= 0.95 > win_chance(0.6, n - 2)
    assert games_to_win(0.99) == 1
    assert games_to_win(0.5) is None and games_to_win(0.3) is None
    assert games_to_win(0.5000001) is None  # more than the longest match searched
    assert games_to_win(0.55) > games_to_win(0.6) > games_to_win(0.7)
    assert win_chance(0.7, 1) == pytest.approx(0.7)
    assert math.isclose(win_chance(0.5, 3), 0.5)
