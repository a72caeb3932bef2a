"""The head-to-head matrix of round-robin reports: a strong strategy beats a weak one, two-player
cells add up to one, the numbers equal a direct per-deal pandas computation from games.parquet,
copies of a strategy at one table count once as an opponent, and the files (CSV, PNG, markdown,
console, JSON) are there, are the same however the run was chunked, and are absent when every
strategy sits at one table."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
import typer
from cli_helpers import invokers
from scipy import stats

from sim.cli.reports import register
from sim.stats.intervals import t_quantile, wilson
from sim.study.reports.load import load_summary
from sim.study.tournament.plan import TournamentConfig
from sim.study.tournament.run import run_tournament
from sim.study.tournament.saved_games import summarize_games

app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
register(app)


@app.callback()
def _root() -> None:
    """Test app with the report commands."""


invoke, ok = invokers(app)

STRONG_WEAK = ("balanced", "random", "reckless")  # balanced >> reckless >> random, 2 players
FOUR = ("balanced", "greedy", "cautious", "random")  # 3 players: 4 tables
H2H_COLUMNS = ["a", "b", "games", "deals", "seat_games_a", "win_share_a", "win_share_a_ci_lo",
               "win_share_a_ci_hi"]


def _round_robin(factory, strategies, players: int, seed: int, plots: bool):
    """A 1,200-game round-robin with its report: (result, report directory)."""
    out = factory.mktemp("h2h") / "rep"
    cfg = TournamentConfig(strategies=strategies, players=players, games=1200, seed=seed)
    return run_tournament(cfg, out=out, plots=plots), out


@pytest.fixture(scope="module")
def two_player(tmp_path_factory):
    return _round_robin(tmp_path_factory, STRONG_WEAK, 2, 3, plots=True)


@pytest.fixture(scope="module")
def three_player(tmp_path_factory):
    return _round_robin(tmp_path_factory, FOUR, 3, 11, plots=False)


def _cell(h2h: pd.DataFrame, a: str, b: str) -> pd.Series:
    row = h2h[(h2h["a"] == a) & (h2h["b"] == b)]
    assert len(row) == 1, (a, b)
    return row.iloc[0]


def test_strong_beats_weak(two_player):
    res, _ = two_player
    h = res.summary.head_to_head
    assert res.plan.config.format == "round-robin" and len(h) == 6  # 3 x 2 ordered pairs
    assert _cell(h, "balanced", "random")["win_share_a"] > 0.9
    assert _cell(h, "reckless", "random")["win_share_a"] > 0.9
    assert _cell(h, "balanced", "reckless")["win_share_a"] > 0.8
    assert _cell(h, "balanced", "reckless")["win_share_a_ci_lo"] > 0.5  # the interval excludes even
    assert _cell(h, "random", "balanced")["win_share_a"] < 0.1
    # every interval contains its estimate and stays inside [0, 1], even at a share of 0 or 1
    assert (h["win_share_a_ci_lo"] <= h["win_share_a"]).all()
    assert (h["win_share_a"] <= h["win_share_a_ci_hi"]).all()
    assert (h["win_share_a_ci_lo"] >= 0).all() and (h["win_share_a_ci_hi"] <= 1).all()
    assert (h["win_share_a_ci_hi"] > h["win_share_a_ci_lo"]).all()  # never a zero-width interval


def test_two_player_cells_add_up_to_one(two_player):
    res, _ = two_player
    h = res.summary.head_to_head.set_index(["a", "b"])
    for (a, b), r in h.iterrows():
        back = h.loc[(b, a)]
        assert r["win_share_a"] + back["win_share_a"] == pytest.approx(1.0, abs=1e-12), (a, b)
        # mirrored intervals too: the Wilson interval of 1 - p is 1 minus that of p
        assert r["win_share_a_ci_lo"] == pytest.approx(1 - back["win_share_a_ci_hi"], abs=1e-9)
        assert r["games"] == back["games"] and r["deals"] == back["deals"]
    # each pair meets at one table of 2 seatings in every deal
    assert (h["games"] == 2 * res.deals).all() and (h["deals"] == res.deals).all()


def _direct(games: pd.DataFrame, deals_in_run: int) -> pd.DataFrame:
    """The head-to-head table from the game rows, with pandas: per deal and ordered pair, A's win
    share sum and seat-games over the games where B is at the table; the ratio of the sums, the
    CR1 variance over all the run's deals and the Wilson interval at n_eff = p(1-p)/var with the
    t quantile, never narrower than the exact interval on the count (alone below 10 events or
    non-events, or with a variance of 0)."""
    g = games.assign(strategy=games["strategy"].astype(str))
    at = g[["game", "strategy"]].drop_duplicates().rename(columns={"strategy": "b"})
    x = g.merge(at, on="game")
    x = x[x["strategy"] != x["b"]].rename(columns={"strategy": "a"})
    per = x.groupby(["a", "b", "deal"]).agg(X=("win_share", "sum"), N=("win_share", "size"),
                                            games=("game", "nunique")).reset_index()
    D = deals_in_run
    tq = t_quantile(0.975, D - 1)
    rows = []
    for (a, b), d in per.groupby(["a", "b"]):
        p = d["X"].sum() / d["N"].sum()
        var = D / (D - 1) * ((d["X"] - p * d["N"]) ** 2).sum() / d["N"].sum() ** 2
        neff = p * (1 - p) / var if var > 0 else 0.0
        n = d["N"].sum()  # the exact interval on the count, the floor of every rate interval
        x = p * n
        lo = stats.beta.ppf(0.025, x, n - x + 1) if x > 0 else 0.0
        hi = stats.beta.ppf(0.975, x + 1, n - x) if x < n else 1.0
        if neff > 0 and min(x, n - x) >= 10:  # enough events: the cluster Wilson too
            c, e = wilson(p * neff, neff, tq)
            lo, hi = min(lo, c), max(hi, e)
        rows.append({"a": a, "b": b, "games": d["games"].sum(), "deals": len(d),
                     "seat_games_a": d["N"].sum(), "win_share_a": p,
                     "win_share_a_ci_lo": min(lo, p), "win_share_a_ci_hi": max(hi, p)})
    return pd.DataFrame(rows)


@pytest.mark.parametrize("which", ["two_player", "three_player"])
def test_equals_a_direct_pandas_computation(which, request):
    res, out = request.getfixturevalue(which)
    games = pd.read_parquet(out / "games.parquet")
    want = _direct(games, games["deal"].nunique()).set_index(["a", "b"]).sort_index()
    got = res.summary.head_to_head.astype({"a": str, "b": str}).set_index(["a", "b"]).sort_index()
    assert list(got.index) == list(want.index)
    for col in ("games", "deals", "seat_games_a"):
        assert got[col].tolist() == want[col].tolist(), col
    for col in ("win_share_a", "win_share_a_ci_lo", "win_share_a_ci_hi"):
        np.testing.assert_allclose(got[col], want[col], rtol=0, atol=1e-9, err_msg=col)
    # the notebook path (summarize_games on the saved rows) gives the same table
    again = summarize_games(games).head_to_head
    pd.testing.assert_frame_equal(again, res.summary.head_to_head, check_exact=False, rtol=1e-12)


def test_three_player_cells(three_player):
    res, _ = three_player
    h = res.summary.head_to_head
    assert len(h) == 12  # 4 x 3 ordered pairs
    # A meets B at the 2 tables of 3 from 4 that hold both, 3 rotations each, every deal
    assert (h["games"] == 2 * 3 * res.deals).all() and (h["seat_games_a"] == h["games"]).all()
    # A's overall win share is the mean of its cells over the opponents (each of A's games has
    # two opponents, and every opponent meets A equally often)
    st = res.summary.strategies.set_index("strategy")
    for a, g in h.groupby("a", observed=True):
        assert g["win_share_a"].mean() == pytest.approx(st.loc[a, "win_share"], abs=1e-12)


def test_copies_at_one_table_count_once():
    """Hand-made rows: deal d has game 2d at table (a, a, b), a's seat 0 winning, and game 2d+1 at
    table (b, c, c), c's seat 2 winning. a has 2 seat-games with b per deal and wins one of them,
    c the same with b; b never wins; a and c never meet."""
    rows = []
    for d in range(4):
        for k, (lineup, winner) in enumerate(((("a", "a", "b"), 0), (("b", "c", "c"), 2))):
            for seat, name in enumerate(lineup):
                rows.append({"game": 2 * d + k, "deal": d, "combo": k, "rotation": 0, "seat": seat,
                             "strategy": name, "vp": 40 + (seat == winner),
                             "rank": 1 if seat == winner else 2,
                             "win_share": float(seat == winner), "explosions": 0,
                             **{f"bought_{c}": 0
                                for c in ("white", "orange", "green", "blue", "red",
                                                           "yellow", "purple", "black",
                                          "locoweed")}})
    df = pd.DataFrame(rows)
    df["strategy"] = df["strategy"].astype(pd.CategoricalDtype(["a", "b", "c"]))
    h = summarize_games(df).head_to_head.astype({"a": str, "b": str}).set_index(["a", "b"])
    assert sorted(h.index) == [("a", "b"), ("b", "a"), ("b", "c"), ("c", "b")]
    assert h.loc[("a", "b"), ["games", "deals", "seat_games_a"]].tolist() == [4, 4, 8]
    assert h.loc[("b", "a"), ["games", "deals", "seat_games_a"]].tolist() == [4, 4, 4]
    assert h.loc[("a", "b"), "win_share_a"] == 0.5 and h.loc[("c", "b"), "win_share_a"] == 0.5
    assert h.loc[("b", "a"), "win_share_a"] == 0 and h.loc[("b", "c"), "win_share_a"] == 0


def test_files_and_chunking(two_player, tmp_path):
    res, out = two_player
    csv = pd.read_csv(out / "head_to_head.csv")
    assert list(csv.columns) == H2H_COLUMNS and len(csv) == 6 and not csv.isna().any().any()
    png = (out / "head_to_head.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 5_000
    md = (out / "summary.md").read_text()
    assert "## Head to head" in md and "| A \\ B | balanced | random | reckless |" in md
    assert "| balanced | - | " in md
    assert not [p.name for p in out.iterdir() if p.name.startswith(".")]  # no temporary names left
    # the saved CSV reads back into the same table
    back = load_summary(out).head_to_head
    pd.testing.assert_frame_equal(back, res.summary.head_to_head, check_exact=False, rtol=1e-12)
    # other chunk sizes: the same CSV, byte for byte
    cfg = TournamentConfig(strategies=STRONG_WEAK, players=2, games=1200, seed=3,
                           first_chunk_games=60, max_chunk_games=180)
    other = run_tournament(cfg, out=tmp_path / "small", plots=False)
    assert len(other.plan.chunk_bounds) - 1 > len(res.plan.chunk_bounds) - 1
    assert ((tmp_path / "small" / "head_to_head.csv").read_bytes()
            == (out / "head_to_head.csv").read_bytes())


def test_cli_prints_it_for_round_robin_only(tmp_path):
    out = tmp_path / "rr"
    r = ok("tournament", "--strategies", ",".join(STRONG_WEAK), "--players", 2, "--games", 300,
           "--seed", 3, "--out", out, "--no-plots")
    assert "head to head: A's win share vs B (95% CI; 100 games, 50 deals per pair)" in r.stdout
    assert "head_to_head.csv" in r.stdout
    lines = r.stdout.split("head to head:")[1].splitlines()
    line = next(x for x in lines if x.startswith("│ balanced "))
    assert line.split("│")[2].strip() == "-"  # the diagonal
    # --resume on the finished run reads the report back and prints the same table
    again = ok("tournament", "--out", out, "--resume")
    assert line in again.stdout
    # JSON: one record per ordered pair, intervals as [lo, hi]
    j = json.loads(ok("tournament", "--strategies", ",".join(STRONG_WEAK), "--players", 2,
                      "--games", 300, "--seed", 3, "--out", tmp_path / "j", "--no-plots",
                      "--json").stdout)
    assert len(j["head_to_head"]) == 6
    lo, hi = j["head_to_head"][0]["win_share_a_ci"]
    assert 0 <= lo <= j["head_to_head"][0]["win_share_a"] <= hi <= 1
    # one table (rotate): no head-to-head anywhere
    rot = tmp_path / "rot"
    r = ok("tournament", "--strategies", ",".join(STRONG_WEAK), "--games", 300, "--out", rot,
           "--no-plots")
    assert "head to head" not in r.stdout and not (rot / "head_to_head.csv").exists()
    assert "## Head to head" not in (rot / "summary.md").read_text()
    assert load_summary(rot).head_to_head is None
