"""Anytime-valid confidence sequences and the sequential stop (sim.stats.sequences): numpy only.

The error rate is checked as the coverage benchmark checks intervals, over 200 simulated runs
that look after every batch: with no difference, a run that stops as soon as its sequence
excludes 0 errs in at most 5% of the runs (a fixed-size interval looked at the same way errs far
more often, which the last test shows, so the check can fail); with a difference, the sequence
at the stop holds the true mean in at least 95% of the runs and the runs save games."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sim.stats.sequences import Running, cs_radius, run_sequential, sequence

RUNS = 200
BUDGET = 4_000
BATCH = 100


def deals(rng, mean):
    """Per-deal paired differences in {-1, 0, 1} with the given mean (a win-share difference)."""
    p0 = 0.4
    pp = (1 - p0 + mean) / 2
    return lambda d0, d1: {"diff": rng.choice([-1.0, 0.0, 1.0], size=d1 - d0,
                                              p=[1 - p0 - pp, p0, pp])}


def test_with_no_difference_a_run_stopped_when_decided_errs_at_most_5_percent():
    errors = 0
    for seed in range(RUNS):
        r = run_sequential(deals(np.random.default_rng(seed), 0.0), budget=BUDGET, batch=BATCH)
        errors += any(h["diff"].decided for h in r.history)
    assert errors / RUNS <= 0.05


def test_with_a_difference_the_stop_saves_games_and_holds_the_mean():
    misses, played = 0, []
    for seed in range(RUNS):
        r = run_sequential(deals(np.random.default_rng(10_000 + seed), 0.1), budget=BUDGET,
                           batch=BATCH)
        s = r.sequences["diff"]
        misses += not (s.lo <= 0.1 <= s.hi)
        played.append(r.deals)
        assert r.deals + r.saved == BUDGET
    assert misses / RUNS <= 0.05
    assert np.mean(played) < BUDGET / 2  # most of the budget saved


def test_a_fixed_interval_looked_at_after_every_batch_errs_more_than_5_percent():
    """The reason for the sequences: the same runs, stopped when the ordinary 95% interval
    first excludes 0, err well above 5%."""
    errors = 0
    for seed in range(RUNS):
        rng = np.random.default_rng(seed)
        r = Running()
        for _ in range(BUDGET // BATCH):
            r.add(deals(rng, 0.0)(0, BATCH)["diff"])
            if abs(r.mean) > 1.96 * r.sd / math.sqrt(r.n):
                errors += 1
                break
    assert errors / RUNS > 0.1


def test_the_width_target_decides_a_question_with_no_difference():
    r = run_sequential(deals(np.random.default_rng(1), 0.0), budget=BUDGET * 10, batch=BATCH,
                       width=0.05)
    s = r.sequences["diff"]
    assert s.decided and s.why.startswith("half-width") and (s.hi - s.lo) / 2 <= 0.05
    assert r.deals < BUDGET * 10


def test_the_radius_shrinks_and_is_wider_than_a_fixed_interval():
    t = np.array([10, 100, 1000, 10000])
    w = cs_radius(t, 1.0)
    assert (np.diff(w) < 0).all()
    assert (w > 1.96 / np.sqrt(t)).all()
    assert cs_radius(1, 1.0) == np.inf


def test_sequence_of_too_few_deals_is_undecided():
    r = Running()
    r.add([1.0])
    s = sequence(r)
    assert not s.decided and s.lo == -np.inf


def test_bad_budget_raises():
    with pytest.raises(ValueError):
        run_sequential(lambda a, b: {}, budget=0, batch=10)
