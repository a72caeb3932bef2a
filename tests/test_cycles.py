"""Ratings that see cycles (``sim.study.tournament.cycles``): Nash averaging gives every member of
rock-paper-scissors the same rating and weight, a dominated strategy weight 0 and a negative
rating, a transitive matrix all weight to the best, ignores clones, and picks the maximum-entropy
equilibrium; AlphaRank is uniform on rock-paper-scissors; the bootstrap resamples clusters of
deals; and a round-robin report writes the table (CSV, markdown, JSON), the same however it was
chunked or resumed, and only when there is a head-to-head matrix."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
import typer
from cli_helpers import invokers

from sim.cli.reports import register
from sim.study.reports.load import load_summary
from sim.study.tournament.cycles import (
    CYCLE_STAT_NAMES,
    alpharank,
    antisymmetric,
    cycle_columns,
    nash_averaging,
)
from sim.study.tournament.plan import TournamentConfig
from sim.study.tournament.run import RunInterrupted, run_tournament

app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
register(app)


@app.callback()
def _root() -> None:
    """Test app with the report commands."""


invoke, ok = invokers(app)

RPS = np.array([[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]])  # R, P, S
NASH_COLUMNS = ["strategy", "nash_weight", "nash_weight_ci_lo", "nash_weight_ci_hi",
                "nash_rating", "nash_rating_ci_lo", "nash_rating_ci_hi",
                "alpharank", "alpharank_ci_lo", "alpharank_ci_hi"]
STRONG_WEAK = ("balanced", "random", "reckless")  # balanced >> reckless >> random, 2 players


def _with_dominated(losses=(0.3, 0.1, 0.2)) -> np.ndarray:
    """Rock-paper-scissors (stakes 0.3) and a fourth strategy D that loses to R, P, S by
    ``losses``."""
    A = np.zeros((4, 4))
    A[:3, :3] = 0.3 * RPS
    A[3, :3] = -np.asarray(losses)
    A[:3, 3] = np.asarray(losses)
    return A


# --- Nash averaging -----------------------------------------------------------------------------

def test_rock_paper_scissors_equal_ratings_uniform_mixture():
    n = nash_averaging(RPS)
    np.testing.assert_allclose(n.mixture, np.full(3, 1 / 3), atol=1e-6)
    np.testing.assert_allclose(n.ratings, np.zeros(3), atol=1e-6)
    assert n.max_entropy
    # the same from a win-share matrix: R beats S 0.7 of the time, and so on round the cycle
    W = 0.5 + 0.2 * RPS
    np.testing.assert_allclose(nash_averaging(antisymmetric(W)).mixture, np.full(3, 1 / 3),
                               atol=1e-6)


def test_weighted_cycle_has_the_known_mixture():
    """P beats R by 1, R beats S by 2, S beats P by 3: the equilibrium is (3, 2, 1) / 6, every
    rating 0 (the average result ranks P clearly last)."""
    A = np.array([[0.0, -1.0, 2.0], [1.0, 0.0, -3.0], [-2.0, 3.0, 0.0]])
    n = nash_averaging(A)
    np.testing.assert_allclose(n.mixture, np.array([3, 2, 1]) / 6, atol=1e-6)
    np.testing.assert_allclose(n.ratings, 0.0, atol=1e-9)
    np.testing.assert_allclose(A.mean(axis=1), [1 / 3, -2 / 3, 1 / 3])  # P last on average


def test_dominated_strategy_gets_zero_weight_and_negative_rating():
    A = _with_dominated()
    n = nash_averaging(A)
    np.testing.assert_allclose(n.mixture, [1 / 3, 1 / 3, 1 / 3, 0.0], atol=1e-6)
    np.testing.assert_allclose(n.ratings[:3], 0.0, atol=1e-9)
    # its payoff against the uniform cycle: -(0.3 + 0.1 + 0.2) / 3
    assert n.ratings[3] == pytest.approx(-0.2, abs=1e-6)
    assert n.ratings[3] < 0


def test_transitive_puts_all_weight_on_the_best():
    # strength order 2 > 0 > 1: A[i, j] = (s_i - s_j) / 10
    s = np.array([1.0, 0.0, 3.0])
    A = (s[:, None] - s[None, :]) / 10
    n = nash_averaging(A)
    np.testing.assert_allclose(n.mixture, [0.0, 0.0, 1.0], atol=1e-9)
    np.testing.assert_allclose(n.ratings, [-0.2, -0.3, 0.0], atol=1e-9)  # what each loses to it


def test_transitive_without_a_shortcut_too():
    """A best strategy that only ties one other: no strategy beats all, so the linear programmes
    decide; the tie is split evenly (maximum entropy) and the third gets weight 0."""
    A = np.array([[0.0, 0.0, 0.2], [0.0, 0.0, 0.1], [-0.2, -0.1, 0.0]])
    n = nash_averaging(A)
    np.testing.assert_allclose(n.mixture, [0.5, 0.5, 0.0], atol=1e-6)
    np.testing.assert_allclose(n.ratings, [0.0, 0.0, -0.15], atol=1e-6)


def test_clone_leaves_ratings_unchanged():
    """R, R', P, S (and the dominated D): the clone splits R's weight, and the Nash ratings of P,
    S and D do not move; the plain average over opponents does (D loses most to R)."""
    A = _with_dominated()
    idx = [0, 0, 1, 2, 3]  # R, R', P, S, D
    C = A[np.ix_(idx, idx)]
    base, cloned = nash_averaging(A), nash_averaging(C)
    np.testing.assert_allclose(cloned.ratings[2:], base.ratings[1:], atol=1e-6)
    np.testing.assert_allclose(cloned.mixture[0] + cloned.mixture[1], base.mixture[0], atol=1e-6)
    np.testing.assert_allclose(cloned.mixture[:2], [1 / 6, 1 / 6], atol=1e-6)  # split evenly
    np.testing.assert_allclose(cloned.mixture[2:], base.mixture[1:], atol=1e-6)
    assert cloned.max_entropy
    # the average over the opponents (what an average-based rating sees) changes for D
    avg = lambda M: M.sum(axis=1)[-1] / (len(M) - 1)  # noqa: E731
    assert avg(C) < avg(A) - 0.01


def test_maximum_entropy_among_many_equilibria():
    """Three mutually even strategies; a fourth beats the first by 1 and loses to the others by
    0.1. The equilibria are the mixtures of the three with p1 <= (p2 + p3) / 10; the one with the
    largest entropy is (1, 5, 5) / 11 (a vertex or the average of vertices is not)."""
    A = np.zeros((4, 4))
    A[3, :3] = [1.0, -0.1, -0.1]
    A[:3, 3] = -A[3, :3]
    n = nash_averaging(A)
    np.testing.assert_allclose(n.mixture, np.array([1, 5, 5, 0]) / 11, atol=1e-6)
    assert n.max_entropy and (A @ n.mixture <= 1e-9).all()  # an equilibrium


def test_the_game_of_a_win_share_matrix_at_larger_tables():
    """At three-player tables W[i, j] + W[j, i] is not 1 (the third seat wins too): the game is
    half the difference of the two shares, and the diagonal (no cell) is ignored."""
    W = np.array([[np.nan, 0.40, 0.30], [0.20, np.nan, 0.50], [0.25, 0.30, np.nan]])
    A = antisymmetric(W)
    np.testing.assert_allclose(A, [[0.0, 0.1, 0.025], [-0.1, 0.0, 0.1], [-0.025, -0.1, 0.0]],
                               atol=1e-15)
    n = nash_averaging(A)  # 0 beats 1 and 2: all weight on 0, the others lose what they lose to it
    np.testing.assert_allclose(n.mixture, [1.0, 0.0, 0.0])
    np.testing.assert_allclose(n.ratings, [0.0, -0.1, -0.025], atol=1e-15)


def test_rejects_a_matrix_that_is_not_a_zero_sum_game():
    with pytest.raises(ValueError, match="antisymmetric"):
        nash_averaging(0.5 + 0.2 * RPS)  # a win-share matrix, not the game
    with pytest.raises(ValueError, match="NaN"):
        nash_averaging(np.array([[0.0, np.nan], [np.nan, 0.0]]))


# --- AlphaRank ----------------------------------------------------------------------------------

def test_alpharank_rock_paper_scissors_is_uniform():
    np.testing.assert_allclose(alpharank(RPS), np.full(3, 1 / 3), atol=1e-6)
    np.testing.assert_allclose(alpharank(0.1 * RPS, alpha=5.0), np.full(3, 1 / 3), atol=1e-6)


def test_alpharank_transitive_and_dominated():
    s = np.array([1.0, 0.0, 3.0])
    pi = alpharank((s[:, None] - s[None, :]) / 10)
    assert pi[2] > 0.99 and pi.sum() == pytest.approx(1.0)
    pi = alpharank(_with_dominated())
    np.testing.assert_allclose(pi[:3], 1 / 3, atol=1e-6)
    assert pi[3] < 1e-6
    # weak selection flattens it towards uniform, but the best still leads
    weak = alpharank((s[:, None] - s[None, :]) / 10, alpha=0.001)
    assert np.abs(weak - 1 / 3).max() < 0.01 and np.argmax(weak) == 2


def test_alpharank_win_shares_and_their_game_give_one_chain():
    W = np.array([[0.5, 0.6, 0.9], [0.4, 0.5, 0.3], [0.1, 0.7, 0.5]])
    np.testing.assert_allclose(alpharank(W, alpha=10.0), alpharank(antisymmetric(W), alpha=10.0),
                               atol=1e-12)


# --- the bootstrap over clusters of deals -------------------------------------------------------

def _clustered(rng, win, clusters: int, games: int) -> tuple[np.ndarray, np.ndarray]:
    """Share units (unit 1) and seat-games per cluster of a two-player duel matrix ``win``:
    ``games`` duels per pair and cluster, each cluster with its own luck (its win rates shifted
    by a common amount, so games of a cluster are correlated)."""
    S = len(win)
    X = np.zeros((clusters, S, S))
    N = np.zeros((clusters, S, S))
    for b in range(clusters):
        shift = rng.normal(0, 0.15)
        for i in range(S):
            for j in range(i + 1, S):
                w = rng.binomial(games, np.clip(win[i, j] + shift, 0, 1))
                X[b, i, j], X[b, j, i] = w, games - w
                N[b, i, j] = N[b, j, i] = games
    return X, N


def test_bootstrap_intervals_contain_the_estimate_and_reflect_cluster_luck():
    rng = np.random.default_rng(5)
    win = np.array([[0.5, 0.7, 0.8], [0.3, 0.5, 0.6], [0.2, 0.4, 0.5]])  # 0 beats all
    X, N = _clustered(rng, win, clusters=60, games=40)
    cols = cycle_columns(X, N, 1.0)
    assert sorted(cols) == sorted(c for c in NASH_COLUMNS if c != "strategy")
    for name in CYCLE_STAT_NAMES:
        assert (cols[name + "_ci_lo"] <= cols[name] + 1e-12).all(), name
        assert (cols[name] <= cols[name + "_ci_hi"] + 1e-12).all(), name
    assert cols["nash_weight"].tolist() == [1.0, 0.0, 0.0]
    # strategy 1's rating is W[1, 0] - 1/2; its interval from resampling whole clusters is about
    # as wide as the cluster-robust normal interval of that share, much wider than the binomial
    # interval that treats the 2,400 games as independent
    p = X[:, 1, 0].sum() / N[:, 1, 0].sum()
    per = X[:, 1, 0] / N[:, 1, 0]
    se_cluster = per.std(ddof=1) / np.sqrt(len(per))
    se_games = np.sqrt(p * (1 - p) / N[:, 1, 0].sum())
    width = cols["nash_rating_ci_hi"][1] - cols["nash_rating_ci_lo"][1]
    assert cols["nash_rating"][1] == pytest.approx(p - 0.5)
    assert 0.75 < width / (2 * 1.96 * se_cluster) < 1.25
    assert se_cluster > 1.5 * se_games
    # seeded: the same sums give the same intervals; another seed gives other ones
    again = cycle_columns(X, N, 1.0)
    assert all(np.array_equal(again[k], cols[k]) for k in cols)
    other = cycle_columns(X, N, 1.0, seed=1)
    assert not np.array_equal(other["nash_rating_ci_lo"], cols["nash_rating_ci_lo"])


def test_bootstrap_of_an_exact_cycle_has_no_width_and_a_missing_pair_no_table():
    # every cluster plays the same rock-paper-scissors: each resample is that game again
    X = np.tile((0.5 + 0.5 * RPS) * 10, (8, 1, 1))
    N = np.tile(np.full((3, 3), 10.0) - 10 * np.eye(3), (8, 1, 1))
    cols = cycle_columns(X, N, 1.0)
    for name in ("nash_weight", "alpharank"):
        np.testing.assert_allclose(cols[name], 1 / 3, atol=1e-6)
        np.testing.assert_allclose(cols[name + "_ci_lo"], 1 / 3, atol=1e-6)
        np.testing.assert_allclose(cols[name + "_ci_hi"], 1 / 3, atol=1e-6)
    N[:, 0, 2] = N[:, 2, 0] = 0  # R and S never met
    assert cycle_columns(X, N, 1.0) is None


# --- in a round-robin report --------------------------------------------------------------------

@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("cycles") / "rep"
    cfg = TournamentConfig(strategies=STRONG_WEAK, players=2, games=600, seed=3)
    return run_tournament(cfg, out=out, plots=False), out


def test_round_robin_writes_the_table(report):
    res, out = report
    csv = pd.read_csv(out / "nash.csv")
    assert list(csv.columns) == NASH_COLUMNS and len(csv) == 3
    assert csv["strategy"].tolist() == list(STRONG_WEAK) and not csv.isna().any().any()
    assert csv["nash_weight"].sum() == pytest.approx(1.0)
    t = csv.set_index("strategy")
    assert t.loc["balanced", "nash_weight"] == 1.0 and t.loc["balanced", "nash_rating"] == 0.0
    assert (t.loc[["random", "reckless"], "nash_rating"] < 0).all()
    # balanced beats both, so each other rating is half its duel result against balanced
    h = res.summary.head_to_head.astype({"a": str, "b": str}).set_index(["a", "b"])
    for s in ("random", "reckless"):
        want = (h.loc[(s, "balanced"), "win_share_a"] - h.loc[("balanced", s), "win_share_a"]) / 2
        assert t.loc[s, "nash_rating"] == pytest.approx(want, abs=1e-12)
        assert t.loc[s, "nash_rating_ci_lo"] <= t.loc[s, "nash_rating"] <= \
            t.loc[s, "nash_rating_ci_hi"]
    # the bootstrap interval of reckless's rating is about as wide as the head-to-head interval
    # of its duel with balanced (both over deals)
    r = h.loc[("reckless", "balanced")]
    ratio = ((t.loc["reckless", "nash_rating_ci_hi"] - t.loc["reckless", "nash_rating_ci_lo"])
             / (r["win_share_a_ci_hi"] - r["win_share_a_ci_lo"]))
    assert 0.6 < ratio < 1.5, ratio
    assert res.summary.info["interval_methods"]["nash"].startswith("percentile cluster bootstrap")
    md = (out / "summary.md").read_text()
    assert "## Ratings that see cycles: Nash averaging and AlphaRank" in md
    assert ("| strategy | Nash weight [95% CI] | Nash rating [95% CI] | AlphaRank mass [95% CI] "
            "| Plackett-Luce rating |") in md
    assert "| balanced | 1.0000 [1.0000, 1.0000] | 0.0000 [0.0000, 0.0000] |" in md
    # it reads back with the rest of the report
    back = load_summary(out).nash
    pd.testing.assert_frame_equal(back, res.summary.nash, check_exact=False, rtol=1e-12)
    j = res.to_json()
    assert [x["strategy"] for x in j["nash"]] == list(STRONG_WEAK)
    lo, hi = j["nash"][2]["nash_rating_ci"]
    assert lo <= j["nash"][2]["nash_rating"] <= hi


def test_same_table_however_chunked_or_resumed(report, tmp_path):
    _, out = report
    cfg = TournamentConfig(strategies=STRONG_WEAK, players=2, games=600, seed=3,
                           first_chunk_games=60, max_chunk_games=120)
    other = tmp_path / "small"
    with pytest.raises(RunInterrupted):
        run_tournament(cfg, out=other, plots=False, stop_after_chunks=2)
    res = run_tournament(cfg, out=other, plots=False, resume=True)
    assert len(res.plan.chunk_bounds) > 3
    assert (other / "nash.csv").read_bytes() == (out / "nash.csv").read_bytes()


def test_cli_json_has_it_for_round_robin_only(tmp_path):
    j = json.loads(ok("tournament", "--strategies", ",".join(STRONG_WEAK), "--players", 2,
                      "--games", 300, "--seed", 3, "--out", tmp_path / "j", "--no-plots",
                      "--json").stdout)
    assert [x["strategy"] for x in j["nash"]] == list(STRONG_WEAK)
    assert sorted(j["nash"][0]) == sorted(["strategy", *CYCLE_STAT_NAMES,
                                           *[f"{n}_ci" for n in CYCLE_STAT_NAMES]])
    assert "head_to_head" in j and "strategies" in j  # the other keys stay
    # one table (rotate): no head-to-head, so no cycle table anywhere
    rot = tmp_path / "rot"
    j = json.loads(ok("tournament", "--strategies", ",".join(STRONG_WEAK), "--games", 300,
                      "--out", rot, "--no-plots", "--json").stdout)
    assert j["nash"] is None and "nash" not in j["interval_methods"]
    assert not (rot / "nash.csv").exists()
    assert "Nash averaging" not in (rot / "summary.md").read_text()
    assert load_summary(rot).nash is None
