"""Intervals treat the deal, not the game, as the independent unit.

The key property: playing every game of a deal several times with identical results adds no
information, so every interval must stay exactly as it was. An interval computed as if games were
independent shrinks by the square root of the copies, and these tests fail. (A rate's interval
is also never narrower than the exact interval on its count, which does shrink with copies: a
rate's interval with copies lies inside the one without and holds the clustered one.)
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from sim.stats.clusters import ClusterSums, paired_diff, share_interval, t_interval
from sim.stats.intervals import t_quantile, wilson
from sim.study.tournament.statistics import BOUGHT_COLUMNS, Accumulator

PLAYERS = 4


def _games(deals: int, copies: int, seed: int = 0) -> dict[str, np.ndarray]:
    """Games rows for ``deals`` deals of 4 strategies in 4 seats, each deal's one game played
    ``copies`` times with identical results (a perfectly correlated deal)."""
    rng = np.random.default_rng(seed)
    rows: dict[str, list] = {k: [] for k in ("game", "deal", "seat", "strategy", "vp", "rank",
                                             "win_share", "explosions", *BOUGHT_COLUMNS)}
    g = 0
    for d in range(deals):
        vp = rng.integers(20, 70, PLAYERS)
        vp[rng.integers(PLAYERS)] += rng.integers(0, 8)  # stronger strategy 0 on average
        order = np.argsort(-vp, kind="stable")
        rank = np.empty(PLAYERS, np.int64)
        rank[order] = np.arange(1, PLAYERS + 1)
        win = (rank == 1).astype(float)
        expl = rng.integers(0, 5, PLAYERS)
        bought = rng.integers(0, 4, (PLAYERS, len(BOUGHT_COLUMNS)))
        for _ in range(copies):
            for s in range(PLAYERS):
                rows["game"].append(g)
                rows["deal"].append(d)
                rows["seat"].append(s)
                rows["strategy"].append(s)
                rows["vp"].append(vp[s])
                rows["rank"].append(rank[s])
                rows["win_share"].append(win[s])
                rows["explosions"].append(expl[s])
                for c, name in enumerate(BOUGHT_COLUMNS):
                    rows[name].append(bought[s, c])
            g += 1
    return {k: np.asarray(v) for k, v in rows.items()}


def _summary(deals: int, copies: int):
    acc = Accumulator([f"s{i}" for i in range(PLAYERS)], PLAYERS, 9)
    acc.add_games(_games(deals, copies))
    return acc.summary()


def test_copies_of_a_deal_leave_every_interval_unchanged():
    one, four = _summary(60, 1), _summary(60, 4)
    a, b = one.strategies, four.strategies
    assert (b["games"] == 4 * a["games"]).all()
    for col in ("mean_vp", "mean_rank", "rating"):
        for part in ("", "_ci_lo", "_ci_hi"):
            np.testing.assert_allclose(b[col + part], a[col + part], rtol=1e-9, atol=1e-9,
                                       err_msg=col + part)
    for col in ("win_share", "explosion_rate"):  # rates: the exact floor shrinks with copies
        np.testing.assert_allclose(b[col], a[col], rtol=1e-9, atol=1e-9, err_msg=col)
        assert (b[col + "_ci_lo"] >= a[col + "_ci_lo"] - 1e-12).all(), col
        assert (b[col + "_ci_hi"] <= a[col + "_ci_hi"] + 1e-12).all(), col
    for col in ("vp_diff_ci_lo", "vp_diff_ci_hi", "win_share_diff_ci_unpaired_lo",
                "vp_diff_ci_unpaired_hi"):
        np.testing.assert_allclose(four.pairs[col], one.pairs[col], rtol=1e-9, err_msg=col)
    np.testing.assert_allclose(four.seats["mean_vp_ci_hi"], one.seats["mean_vp_ci_hi"],
                               rtol=1e-9)
    lo4, lo1 = four.seats["win_share_ci_lo"], one.seats["win_share_ci_lo"]
    assert (lo4.isna() == lo1.isna()).all() and (lo4 >= lo1 - 1e-12)[lo1.notna()].all()
    np.testing.assert_allclose(four.bought["ci_hi"], one.bought["ci_hi"], rtol=1e-9)


def test_win_share_of_perfectly_correlated_deals_is_wilson_over_deals():
    # A strategy that wins all copies of a deal or none: the D deals are D Bernoulli draws, the
    # cluster variance is p(1-p)/(D-1), so the interval is Wilson at n = D - 1 with t(D-1).
    D = 50
    s = _summary(D, 4).strategies
    for i in range(PLAYERS):
        p = float(s["win_share"][i])
        lo, hi = wilson(p * (D - 1), D - 1, t_quantile(0.975, D - 1))
        assert s["win_share_ci_lo"][i] == pytest.approx(lo, abs=1e-12)
        assert s["win_share_ci_hi"][i] == pytest.approx(hi, abs=1e-12)
        naive = wilson(p * 4 * D, 4 * D)
        assert (hi - lo) > 1.8 * (naive[1] - naive[0])  # about twice the independent width


def test_mean_interval_is_t_over_deal_means():
    rng = np.random.default_rng(3)
    D, per = 40, 6
    x = rng.normal(10, 3, D)[:, None] + rng.normal(0, 1, (D, per))
    xi = np.rint(x * 100).astype(np.int64)
    cs = ClusterSums(1)
    cs.add(np.repeat(np.arange(D), per), D, np.zeros(D * per, np.int64), xi.ravel())
    m, (lo, hi) = cs.mean_ci(D, scale=100)
    dm = xi.mean(axis=1) / 100
    h = t_quantile(0.975, D - 1) * dm.std(ddof=1) / math.sqrt(D)
    assert m[0] == pytest.approx(dm.mean())
    assert lo[0] == pytest.approx(dm.mean() - h) and hi[0] == pytest.approx(dm.mean() + h)


def test_cluster_sums_do_not_depend_on_chunking():
    rng = np.random.default_rng(5)
    D = 30
    deal = np.repeat(np.arange(D), 5)
    cell = rng.integers(0, 3, len(deal))
    x = rng.integers(0, 50, len(deal))
    whole = ClusterSums(3)
    whole.add(deal, D, cell, x)
    parts = ClusterSums(3)
    for a, b in ((0, 7), (7, 20), (20, 30)):
        sel = (deal >= a) & (deal < b)
        parts.add(deal[sel] - a, b - a, cell[sel], x[sel])
    for k in ("sx", "sn", "sxx", "sxn", "snn"):
        np.testing.assert_array_equal(getattr(whole, k), getattr(parts, k))


def test_share_intervals_stay_inside_0_1():
    for p, v in ((0.0, 0.0), (1.0, 0.0), (1e-4, 1e-8), (0.9999, 1e-8), (0.5, 0.01)):
        lo, hi = share_interval(np.array([p]), np.array([v]), 20)
        assert 0.0 <= lo[0] <= p <= hi[0] <= 1.0


def test_explosion_rate_near_zero_is_not_negative():
    acc = Accumulator(["a", "b", "c", "d"], PLAYERS, 9)
    rows = _games(100, 4)
    rows["explosions"] = np.zeros_like(rows["explosions"])
    rows["explosions"][0] = 1  # one explosion in 3,600 potions of strategy 0
    acc.add_games(rows)
    s = acc.summary().strategies
    assert (s["explosion_rate_ci_lo"] >= 0).all()
    assert s["explosion_rate_ci_lo"][0] <= s["explosion_rate"][0] <= s["explosion_rate_ci_hi"][0]
    assert s["explosion_rate_ci_hi"][1] > 0  # a rate of 0 still has an upper bound above 0


def test_coverage_of_clustered_mean_on_synthetic_deals():
    # Random deal effects make games within a deal correlated; the cluster interval covers the
    # true mean about 95% of the time, the naive one far less often.
    rng = np.random.default_rng(11)
    reps, D, per, hit, naive_hit = 400, 25, 8, 0, 0
    for _ in range(reps):
        x = rng.normal(0, 2, D)[:, None] + rng.normal(0, 1, (D, per))
        xi = np.rint(x * 1000).astype(np.int64)
        cs = ClusterSums(1)
        cs.add(np.repeat(np.arange(D), per), D, np.zeros(D * per, np.int64), xi.ravel())
        m, v = cs.mean_var(D, scale=1000)
        lo, hi = t_interval(m, v, D)
        hit += lo[0] <= 0 <= hi[0]
        flat = xi.ravel() / 1000
        h = 1.96 * flat.std(ddof=1) / math.sqrt(len(flat))
        naive_hit += abs(flat.mean()) <= h
    assert 0.92 <= hit / reps <= 0.98
    assert naive_hit / reps < 0.75


def test_paired_diff_is_t_over_deals():
    a = np.array([1.0, 2.0, 3.0, 4.0])
    b = np.array([0.5, 2.5, 2.0, 3.0])
    m, lo, hi, D = paired_diff(a, b)
    d = a - b
    h = t_quantile(0.975, 3) * d.std(ddof=1) / 2
    assert (m, D) == (pytest.approx(d.mean()), 4)
    assert lo == pytest.approx(d.mean() - h) and hi == pytest.approx(d.mean() + h)



def _rounds(deals: int, copies: int, seed: int = 1) -> dict[str, np.ndarray]:
    from sim.study.tournament.statistics import ROUND_METRIC_NAMES

    rng = np.random.default_rng(seed)
    R = 9
    out: dict[str, list] = {k: [] for k in ("game", "deal", "round", "seat", "strategy",
                                            *ROUND_METRIC_NAMES)}
    g = 0
    for d in range(deals):
        vals = {m: rng.integers(0, 2 if m == "exploded" else 30, (R, PLAYERS))
                for m in ROUND_METRIC_NAMES}
        for _ in range(copies):
            for r in range(R):
                for s in range(PLAYERS):
                    out["game"].append(g)
                    out["deal"].append(d)
                    out["round"].append(r + 1)
                    out["seat"].append(s)
                    out["strategy"].append(s)
                    for m in ROUND_METRIC_NAMES:
                        out[m].append(vals[m][r, s])
            g += 1
    return {k: np.asarray(v) for k, v in out.items()}


def test_round_metrics_treat_the_deal_as_the_unit():
    tables = []
    for copies in (1, 3):
        acc = Accumulator([f"s{i}" for i in range(PLAYERS)], PLAYERS, 9)
        acc.add_games(_games(40, copies))
        acc.add_rounds(_rounds(40, copies))
        tables.append(acc.summary().rounds)
    one, three = tables
    assert (three["n"] == 3 * one["n"]).all()
    share = (one["metric"] == "exploded").to_numpy()  # a rate: the exact floor shrinks
    for col in ("mean", "ci_lo", "ci_hi"):
        sel = slice(None) if col == "mean" else ~share
        np.testing.assert_allclose(three[col][sel], one[col][sel], rtol=1e-9, atol=1e-12,
                                   err_msg=col)
    assert (three["ci_lo"][share] >= one["ci_lo"][share] - 1e-12).all()
    assert (three["ci_hi"][share] <= one["ci_hi"][share] + 1e-12).all()
    ex = one[one["metric"] == "exploded"]
    assert ((ex["ci_lo"] >= 0) & (ex["ci_hi"] <= 1)).all()


def _layout_games(deals: int, tables: list[tuple[int, ...]], seed: int = 2):
    """Games of a round-robin or vs-field layout in which a strategy's VP and explosions depend
    only on the deal and the strategy (identical at every table, seat and rotation): every game
    of a strategy within a deal is a copy, so the right interval is the t interval over deals."""
    rng = np.random.default_rng(seed)
    S = 1 + max(max(t) for t in tables)
    n = len(tables[0])
    f_vp = rng.integers(20, 70, (deals, S))
    f_ex = rng.integers(0, 6, (deals, S))
    rows: dict[str, list] = {k: [] for k in ("game", "deal", "seat", "strategy", "vp", "rank",
                                             "win_share", "explosions", *BOUGHT_COLUMNS)}
    g = 0
    for d in range(deals):
        for t in tables:
            for rot in range(n):
                seated = [t[(s + rot) % n] for s in range(n)]
                for s, i in enumerate(seated):
                    rows["game"].append(g)
                    rows["deal"].append(d)
                    rows["seat"].append(s)
                    rows["strategy"].append(i)
                    rows["vp"].append(f_vp[d, i])
                    rows["rank"].append(1 + s)
                    rows["win_share"].append(1.0 if s == 0 else 0.0)
                    rows["explosions"].append(f_ex[d, i])
                    for name in BOUGHT_COLUMNS:
                        rows[name].append(0)
                g += 1
    return {k: np.asarray(v) for k, v in rows.items()}, f_vp, f_ex, S, n


@pytest.mark.parametrize("layout", ["round-robin", "vs-field"])
def test_round_robin_and_vs_field_intervals_are_t_over_deals(layout):
    import itertools

    D = 30
    tables = (list(itertools.combinations(range(5), 3)) if layout == "round-robin"
              else [(0, 1, 2, 1)])  # the focus strategy 0 against a field of 1, 2, 1
    cols, f_vp, f_ex, S, n = _layout_games(D, tables)
    acc = Accumulator([f"s{i}" for i in range(S)], n, 9)
    acc.add_games(cols)
    st = acc.summary().strategies
    tq = t_quantile(0.975, D - 1)
    for i in range(S):
        x = f_vp[:, i].astype(float)
        h = tq * x.std(ddof=1) / math.sqrt(D)
        assert st["mean_vp"][i] == pytest.approx(x.mean())
        assert st["mean_vp_ci_lo"][i] == pytest.approx(x.mean() - h)
        assert st["mean_vp_ci_hi"][i] == pytest.approx(x.mean() + h)
        games = int(st["games"][i])
        naive = 1.96 * x.std(ddof=1) / math.sqrt(games)  # games as if independent
        assert games >= 3 * D and h > 1.6 * naive
        # explosions per potion: Wilson at n_eff = p(1-p)/var with the t quantile
        e = f_ex[:, i] / 9
        p, v = e.mean(), e.var(ddof=1) / D
        lo, hi = wilson(p * (p * (1 - p) / v), p * (1 - p) / v, tq)
        potions = 9 * games  # never narrower than the exact interval on the count
        lo = min(lo, stats.beta.ppf(0.025, p * potions, potions - p * potions + 1))
        hi = max(hi, stats.beta.ppf(0.975, p * potions + 1, potions - p * potions))
        assert (st["explosion_rate_ci_lo"][i],
                st["explosion_rate_ci_hi"][i]) == pytest.approx((lo, hi))


def test_rating_scores_are_the_log_likelihood_gradient():
    # The sandwich needs each finishing order's score: check the vectorized scores against the
    # per-order reference and against a numerical gradient of the Plackett-Luce log-likelihood.
    from sim.study.tournament.rating import key_scores, order_score

    rng = np.random.default_rng(4)
    S = 4
    theta = rng.normal(size=S)
    keys = [((1, 0), (2, 3), (3, 1), (4, 2)), ((1, 2), (1, 1), (3, 0), (4, 3)),
            ((1, 0), (1, 1), (1, 2), (1, 3)), ((1, 3), (2, 3), (3, 1), (4, 0))]
    fast = key_scores(keys, np.exp(theta), S)
    for k, key in enumerate(keys):
        np.testing.assert_allclose(fast[k], order_score(key, np.exp(theta), S), atol=1e-12)

    def loglik(t, order):  # a strict order (no ties)
        g, rem, ll = np.exp(t), list(order), 0.0
        while len(rem) > 1:
            ll += math.log(g[rem[0]] / sum(g[i] for i in rem))
            rem = rem[1:]
        return ll

    strict = [s for _, s in keys[0]]
    h = 1e-6
    num = [(loglik(theta + h * np.eye(S)[i], strict) - loglik(theta - h * np.eye(S)[i], strict))
           / (2 * h)
           for i in range(S)]
    np.testing.assert_allclose(fast[0], num, atol=1e-6)
