"""Tournament statistics: the t quantile, the Plackett-Luce fit, the streaming accumulator against
a direct pandas computation, Wilson coverage on a known coin, and the paired difference of a
strategy with itself."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from sim.stats.intervals import t_ci, t_quantile, wilson
from sim.study.tournament.plan import TournamentConfig, resolve_plan
from sim.study.tournament.run import run_tournament
from sim.study.tournament.saved_games import summarize_games
from sim.study.tournament.statistics import (
    SHARE_UNIT,
    Accumulator,
    plackett_luce,
)


@pytest.mark.parametrize("df, expected", [(1, 12.7062), (2, 4.3027), (3, 3.1824), (4, 2.7764),
                                          (5, 2.5706), (10, 2.2281), (30, 2.0423), (1000, 1.9623),
                                          (5000, 1.9604)])
def test_t_quantile(df, expected):
    assert t_quantile(0.975, df) == pytest.approx(expected, abs=1e-4)
    assert t_quantile(0.975, math.inf) == pytest.approx(1.959964, abs=1e-6)


def test_bradley_terry_closed_form():
    # two players: the MLE strength ratio is wins_a / wins_b
    orders = {((1, 0), (2, 1)): 30, ((1, 1), (2, 0)): 10}
    r = plackett_luce(orders, 2)
    assert r.converged and not r.regularized
    assert r.theta[0] - r.theta[1] == pytest.approx(math.log(3), abs=1e-8)
    assert r.theta.sum() == pytest.approx(0, abs=1e-12)
    # the variance of log(w_a / w_b) is 1/30 + 1/10 (delta method)
    var = r.cov[0, 0] + r.cov[1, 1] - 2 * r.cov[0, 1]
    assert var == pytest.approx(1 / 30 + 1 / 10, rel=1e-6)


def test_ties_are_split():
    # a tie counts half a win each way: 10 wins for A, 10 ties -> like 15 : 5
    orders = {((1, 0), (2, 1)): 10, ((1, 0), (1, 1)): 10}
    r = plackett_luce(orders, 2)
    assert r.theta[0] - r.theta[1] == pytest.approx(math.log(3), abs=1e-8)


def test_plackett_luce_recovers_strengths():
    rng = np.random.default_rng(5)
    gamma = np.array([4.0, 2.0, 1.0, 0.5])
    orders: dict = {}
    for _ in range(4000):
        left = list(range(4))
        order = []
        while left:
            p = gamma[left] / gamma[left].sum()
            k = left[rng.choice(len(left), p=p)]
            order.append(k)
            left.remove(k)
        key = tuple((pos + 1, s) for pos, s in enumerate(order))
        orders[key] = orders.get(key, 0) + 1
    r = plackett_luce(orders, 4)
    true = np.log(gamma) - np.log(gamma).mean()
    se = np.sqrt(np.diag(r.cov))
    assert np.all(np.abs(r.theta - true) < 4 * se)
    assert np.all(np.diff(r.theta) < 0)


def test_regularised_when_no_mle():
    orders = {((1, 0), (2, 1)): 5}  # B never beats A: no finite MLE
    r = plackett_luce(orders, 2)
    assert r.regularized and "virtual" in r.note
    assert np.isfinite(r.theta).all() and r.theta[0] > r.theta[1]


def _toy_games(deals=300, seed=3):
    """Duplicate-format rows for 3 strategies: every deal in 3 rotations, random results."""
    rng = np.random.default_rng(seed)
    rows = []
    g = 0
    for d in range(deals):
        for r in range(3):
            vp = rng.integers(20, 60, 3)
            vp[rng.integers(0, 3)] = vp.max()  # ties happen
            best = vp == vp.max()
            ranks = [1 + int((vp > v).sum()) for v in vp]
            for s in range(3):
                rows.append({"game": g, "deal": d, "seed": 1, "combo": 0, "rotation": r, "seat": s,
                             "strategy": (s + r) % 3, "vp": int(vp[s]), "rank": ranks[s],
                             "win_share": float(best[s]) / best.sum(),
                             "explosions": int(rng.integers(0, 4)),
                             **{f"bought_{c}": int(rng.integers(0, 3)) for c in
                                ("white", "orange", "green", "blue", "red", "yellow", "purple",
                                 "black", "locoweed")}})
            g += 1
    df = pd.DataFrame(rows)
    df["strategy"] = pd.Categorical.from_codes(df["strategy"], ["a", "b", "c"])
    return df


def test_accumulator_matches_pandas():
    df = _toy_games()
    s = summarize_games(df)
    st = s.strategies.set_index("strategy")
    for name, g in df.groupby("strategy", observed=True):
        row = st.loc[name]
        assert row["games"] == len(g)
        assert row["win_share"] == pytest.approx(g["win_share"].mean(), abs=1e-12)
        # deals are the unit: per-deal means, t over deals (every deal seats each strategy
        # equally often, so the ratio estimator is the mean of deal means)
        D = g["deal"].nunique()
        tq = t_quantile(0.975, D - 1)
        dm = g.groupby("deal")["win_share"].mean()
        p_, v_ = dm.mean(), dm.var() / D
        neff = p_ * (1 - p_) / v_
        lo, hi = wilson(p_ * neff, neff, tq)
        x, n = p_ * len(g), len(g)  # never narrower than the exact interval on the count
        lo = min(lo, stats.beta.ppf(0.025, x, n - x + 1))
        hi = max(hi, stats.beta.ppf(0.975, x + 1, n - x))
        assert (row["win_share_ci_lo"], row["win_share_ci_hi"]) == pytest.approx((lo, hi))
        assert row["mean_vp"] == pytest.approx(g["vp"].mean())
        h = tq * g.groupby("deal")["vp"].mean().std() / math.sqrt(D)
        assert row["mean_vp_ci_hi"] - row["mean_vp"] == pytest.approx(h)
        assert row["mean_rank"] == pytest.approx(g["rank"].mean())
        assert row["explosion_rate"] == pytest.approx(g["explosions"].mean() / 9)
    # paired differences against a direct per-deal computation
    per = df.groupby(["deal", "strategy"], observed=True)[["vp", "win_share"]].mean().unstack()
    p = s.pairs.set_index(["strategy_a", "strategy_b"])
    for a, b in (("a", "b"), ("a", "c"), ("b", "c")):
        for col, key in (("vp", "vp_diff"), ("win_share", "win_share_diff")):
            d = per[col][a] - per[col][b]
            m, (lo, hi) = t_ci(d.sum(), (d * d).sum(), len(d))
            assert p.loc[(a, b), key] == pytest.approx(d.mean(), abs=1e-10)
            assert p.loc[(a, b), key + "_ci_lo"] == pytest.approx(lo, abs=1e-9)
            assert p.loc[(a, b), key + "_ci_hi"] == pytest.approx(hi, abs=1e-9)
    # seat table: pooled win shares by seat sum to one game's worth
    seats = s.seats[s.seats["strategy"] == "all"]
    assert seats["win_share"].sum() == pytest.approx(1.0)
    assert not s.strategies.isna().any().any()


def test_accumulator_order_independent():
    df = _toy_games(deals=120)
    cols = {c: df[c].to_numpy() for c in df.columns if c != "strategy"}
    cols["strategy"] = df["strategy"].cat.codes.to_numpy()
    a, b = Accumulator(["a", "b", "c"], 3, 9), Accumulator(["a", "b", "c"], 3, 9)
    a.add_games(cols)
    cut = 9 * 50  # whole deals: 3 games x 3 seats per deal
    later = {k: v[cut:] for k, v in cols.items()}
    earlier = {k: v[:cut] for k, v in cols.items()}
    b.add_games(later)
    b.add_games(earlier)
    assert a.state() == b.state()
    assert a.c_share.sx.sum() == 120 * 3 * SHARE_UNIT  # one win per game


def test_wilson_covers_a_known_coin():
    """Two identical strategies (different spec text), 2 players, each deal played once with the
    seats alternating: each one's true win share is exactly 1/2. Over 200 tournaments of 120
    games the 95% Wilson interval must cover 1/2 in 91-99% of them: the nominal 95% give or take
    about 2.6 binomial standard errors (1.5 points each); alternating seats makes Wilson slightly
    conservative, so the upper bound is looser. (In duplicate format the two would split every
    deal exactly, which would make the check empty.)"""
    reps, covered, half = 200, 0, []
    base = resolve_plan(TournamentConfig(strategies=("threshold", "threshold:t=6"), players=2,
                                         games=120, duplicate=False, seed=0))
    for seed in range(reps):
        from dataclasses import replace

        plan = replace(base, config=replace(base.config, seed=1000 + seed))
        row = run_tournament(plan).summary.strategies.iloc[0]
        covered += row["win_share_ci_lo"] <= 0.5 <= row["win_share_ci_hi"]
        half.append(row["win_share"] - 0.5)
    rate = covered / reps
    assert 0.91 <= rate <= 0.99, rate
    assert abs(np.mean(half)) < 0.01


def test_paired_difference_with_itself():
    from dataclasses import replace

    # duplicate format, 2 players: the same strategy under two names meets exactly the same luck
    res = run_tournament(TournamentConfig(strategies=("threshold", "threshold:t=6"), games=1000,
                                          seed=4))
    p = res.summary.pairs.iloc[0]
    assert p["vp_diff"] == 0 and p["win_share_diff"] == 0
    assert p["vp_diff_ci_lo"] == p["vp_diff_ci_hi"] == 0
    assert res.summary.strategies["win_share"].tolist() == [0.5, 0.5]
    # with a third seat the two copies sit in different company: noise centred on zero
    base = resolve_plan(TournamentConfig(strategies=("threshold", "threshold:t=6", "random"),
                                         games=240, seed=0))
    covered, means, widths = 0, [], []
    for seed in range(40):
        plan = replace(base, config=replace(base.config, seed=700 + seed))
        q = run_tournament(plan).summary.pairs.iloc[0]
        assert (q["strategy_a"], q["strategy_b"]) == ("threshold", "threshold:t=6")
        covered += q["vp_diff_ci_lo"] <= 0 <= q["vp_diff_ci_hi"]
        means.append(q["vp_diff"])
        widths.append(q["vp_diff_ci_hi"] - q["vp_diff_ci_lo"])
    assert covered >= 34  # 95% of 40 is 38; allow the binomial spread
    assert abs(np.mean(means)) < 4 * np.std(means) / math.sqrt(len(means))
    # one game per deal (no duplicate), 2 players: also centred on zero
    base = resolve_plan(TournamentConfig(strategies=("threshold", "threshold:t=6"), players=2,
                                         games=200, duplicate=False, seed=0))
    covered, means = 0, []
    for seed in range(40):
        plan = replace(base, config=replace(base.config, seed=500 + seed))
        q = run_tournament(plan).summary.pairs.iloc[0]
        covered += q["vp_diff_ci_lo"] <= 0 <= q["vp_diff_ci_hi"]
        means.append(q["vp_diff"])
    assert covered >= 34
    assert abs(np.mean(means)) < 4 * np.std(means) / math.sqrt(len(means))


def test_api_round_columns_are_the_report_round_metrics():
    """sim.api.columns names the per-round record's columns; the report keeps them in order."""
    from sim.api.columns import CARD_COLUMN, ROUND_COLUMNS
    from sim.study.tournament.statistics import ROUND_METRIC_NAMES

    assert tuple(name for name in ROUND_COLUMNS if name != CARD_COLUMN) == ROUND_METRIC_NAMES
