"""Ranks with 95% intervals (``sim.study.balance.ranks``): a bootstrap over deals on synthetic
per-deal scores, the rank rule (ties share the best rank), reproducibility from the seed, and the
cards' score recomputed from resampled per-deal values."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sim.study.balance.cards import METRICS, rank_scores, score_columns, score_of_means
from sim.study.balance.ranks import first_for_sure, rank_intervals, rank_of
from sim.study.balance.report import rank_note


def _identity(means: np.ndarray) -> np.ndarray:
    return means


def test_rank_of_is_pandas_min_rank_with_ties():
    s = np.array([[0.3, 0.9, 0.3, -1.0, np.nan]])
    want = pd.Series(s[0]).rank(method="min", ascending=False, na_option="bottom")
    assert rank_of(s)[0].tolist() == want.astype(int).tolist() == [2, 1, 2, 4, 5]


def test_a_far_stronger_item_ranks_first_for_sure():
    rng = np.random.default_rng(0)
    D = 400
    per_deal = np.column_stack([rng.normal(5.0, 1.0, D), rng.normal(0.0, 1.0, D),
                                rng.normal(0.1, 1.0, D)])
    rank, lo, hi = rank_intervals(per_deal, _identity, seed=1, part="cards")
    assert rank[0] == 1 and (lo[0], hi[0]) == (1, 1)
    assert first_for_sure(lo, hi).tolist() == [True, False, False]
    assert set(rank[1:]) == {2, 3} and (lo[1:] >= 2).all()  # B and C are not told apart
    assert lo[1] == lo[2] == 2 and hi[1] == hi[2] == 3


def test_two_identical_items_overlap_and_hold_both_ranks():
    rng = np.random.default_rng(1)
    D = 300
    same = rng.normal(1.0, 1.0, D)
    per_deal = np.column_stack([same, same + rng.normal(0, 1e-3, D), rng.normal(-3, 1, D)])
    rank, lo, hi = rank_intervals(per_deal, _identity, seed=1, part="witches")
    for i in (0, 1):
        assert lo[i] <= 1 and hi[i] >= 2, (i, lo[i], hi[i])
    assert (lo[2], hi[2]) == (3, 3)
    assert not first_for_sure(lo, hi).any()


def test_exactly_equal_items_share_rank_1():
    D = 50
    x = np.random.default_rng(2).normal(0, 1, D)
    rank, lo, hi = rank_intervals(np.column_stack([x, x]), _identity, seed=1, part="books")
    assert rank.tolist() == lo.tolist() == hi.tolist() == [1, 1]


def test_the_seed_fixes_the_draws_and_intervals_hold_the_rank():
    rng = np.random.default_rng(4)
    per_deal = rng.normal(np.linspace(0, 0.3, 8), 1.0, (200, 8))
    a = rank_intervals(per_deal, _identity, seed=7, part="cards")
    b = rank_intervals(per_deal, _identity, seed=7, part="cards")
    c = rank_intervals(per_deal, _identity, seed=8, part="cards")
    assert all((x == y).all() for x, y in zip(a, b))
    assert any((x != y).any() for x, y in zip(a[1:], c[1:]))  # another seed, other draws
    rank, lo, hi = a
    assert ((lo <= rank) & (rank <= hi)).all() and (lo >= 1).all() and (hi <= 8).all()


def test_the_cards_score_from_column_means_is_rank_scores():
    rng = np.random.default_rng(5)
    D, K = 60, 4
    base = {m: rng.normal(0, s, D) for m, s in zip(METRICS, (5.0, 0.1, 0.3))}
    diffs = [{m: rng.normal(k * 0.1, 1.0, D) for m in METRICS} for k in range(K)]
    Y = score_columns(diffs, base)
    got = score_of_means(K, D)(Y.mean(axis=0)[None, :])[0]
    effects = np.array([[d[m].mean() for m in METRICS] for d in diffs])
    sd = np.array([np.std(base[m], ddof=1) for m in METRICS])
    assert got == pytest.approx(rank_scores(effects, sd), rel=1e-9)


def test_the_report_names_a_first_row_only_when_its_interval_is_1_1():
    sure = pd.DataFrame({"name": ["A", "B"], "rank": [1, 2], "rank_lo": [1, 2],
                         "rank_hi": [1, 2]})
    assert "Rank 1" in rank_note("cards", sure) and ": A (rank interval [1, 1]" in \
        rank_note("cards", sure)
    open_ = sure.assign(rank_lo=[1, 1], rank_hi=[2, 2])
    text = rank_note("cards", open_)
    assert "not settled" in text and "A, B" in text and "[1, 1]" not in text


@pytest.mark.parametrize("part", ["cards", "witches", "books"])
def test_the_effect_plot_draws_each_rank_interval_rank_1_on_top(part):
    from sim.study.balance.plots import EFFECT_PLOTS, RANK_AXIS, plot_effects

    _, label, _ = EFFECT_PLOTS[part]
    df = pd.DataFrame({label: ["a", "b", "c"], "win_share": [0.1, 0.3, 0.2],
                       "win_share_lo": [0.0, 0.2, 0.1], "win_share_hi": [0.2, 0.4, 0.3],
                       "rank": [3, 1, 2], "rank_lo": [2, 1, 1], "rank_hi": [3, 2, 3],
                       "games": [40] * 3, "deals": [10] * 3})
    fig = plot_effects(df, part)
    rank_ax = next(ax for ax in fig.axes if ax.get_xlabel().startswith(RANK_AXIS[part]))
    assert "bootstrap over deals" in rank_ax.get_xlabel()
    assert "rank's 95% interval" in fig.get_suptitle()
    names = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert names[-1] == "b" and names[0] == "a"  # rank 1 at the top (the highest y)
