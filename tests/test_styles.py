"""``quacks styles`` (issue 47 item 3): on a tiny budget the map fills more than one cell, every
elite is re-tested on random streams the search never played, the viable count sits between
its sure and plausible counts, the same seed gives the same map; the descriptors measure what
the strategy does (reckless explodes, cautious hardly); every user error one line, exit 2."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from cli_helpers import assert_user_error, invokers

from sim.cli.main import app
from sim.study.compare.config import RulesetSpec
from sim.study.styles.run import (
    STYLE_COLUMNS,
    SUMMARY_COLUMNS,
    StylesSettings,
    plan_styles,
    run_styles,
)
from sim.study.tune.run import RETEST_SEED_OFFSET

invoke, ok = invokers(app)
TINY = dict(games=100, batch=6, batches=3, retest_games=200, seed=2)
TINY_ARGS = ["--games", 100, "--batch", 6, "--batches", 3, "--retest-games", 200, "--seed", 2]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    out = tmp_path_factory.mktemp("styles") / "report"
    r = ok("styles", *TINY_ARGS, "--out", out, "--json")
    return json.loads(r.stdout), out


def test_the_map_fills_more_than_one_cell_and_counts_the_viable(tiny):
    res, out = tiny
    (row,) = res["variants"]
    assert row["candidates"] == 18 and row["search_games"] == 18 * 100
    assert row["cells_filled"] > 1
    assert 1 <= row["viable_surely"] <= row["viable"] <= row["viable_plausibly"]
    styles = pd.read_parquet(out / "styles.parquet")
    assert list(styles.columns[:len(STYLE_COLUMNS)]) == list(STYLE_COLUMNS)
    assert len(styles) == row["cells_filled"] == styles["cell"].nunique()
    assert styles["win_share"].max() == pytest.approx(row["best_share"])
    assert (styles["viable"] == (styles["diff"] >= -row["margin"])).all()
    assert list(pd.read_csv(out / "summary.csv").columns) == list(SUMMARY_COLUMNS)
    for f in ("history.parquet", "history.csv", "styles.csv", "map.png", "report.md",
              "report.html", "run.json"):
        assert (out / f).is_file(), f
    assert json.loads((out / "run.json").read_text())["kind"] == "styles"


def test_elites_are_retested_on_streams_the_search_never_played(tiny):
    from sim.kernel.rng import stream_seed
    from sim.rules.ruleset import load_ruleset
    from sim.study.tournament.local import lineup_deal_shares

    res, out = tiny
    (row,) = res["variants"]
    assert row["retest_seed"] == row["seed"] + RETEST_SEED_OFFSET
    searched = {int(stream_seed(row["seed"], d, s)) for d in range(25) for s in range(4)}
    retested = {int(stream_seed(row["retest_seed"], d, s)) for d in range(50) for s in range(4)}
    assert searched.isdisjoint(retested)
    styles = pd.read_parquet(out / "styles.parquet")
    best = styles.loc[styles["win_share"].idxmax()]
    share = lineup_deal_shares(load_ruleset("base", []), [best["spec"], *["expert"] * 3],
                               row["retest_seed"], np.arange(50))
    assert share.mean() == pytest.approx(best["win_share"])


def test_the_same_seed_gives_the_same_map(tiny):
    res, out = tiny
    again = run_styles(plan_styles(StylesSettings((RulesetSpec("base"),), **TINY)))
    pd.testing.assert_frame_equal(again.tables["styles"], pd.read_parquet(out / "styles.parquet"))


def test_the_descriptors_measure_what_the_strategy_does():
    from sim.rules.ruleset import load_ruleset
    from sim.study.styles.measures import MEASURES
    from sim.study.styles.run import deal_measures

    rs = load_ruleset("base", [])
    m = {c: np.nanmean(deal_measures(rs, [c, "balanced", "balanced", "balanced"], 1,
                                     np.arange(20)), axis=0) for c in ("reckless", "cautious")}
    k = MEASURES.index("explosion_rate")
    assert m["reckless"][k] > 0.9 and m["cautious"][k] < 0.1
    assert m["reckless"][MEASURES.index("win_share")] < 0.1


@pytest.mark.parametrize("args, fragment", [
    (["--descriptors", "droplet"], "--descriptors droplet: give two of"),
    (["--descriptors", "droplet,nosuch"], "nosuch"),
    (["--descriptors", "droplet,droplet"], "give two"),
    (["--cells", 1], "--cells 1"),
    (["--cells", 99], "--cells 99"),
    (["--margin", 0], "--margin 0"),
    (["--margin", 1.5], "--margin 1.5"),
    (["--batch", 0], "--batch 0"),
    (["--games", 0], "--games 0"),
    (["--retest-games", 3], "--retest-games 3"),
    (["--strategies", "nosuch"], "nosuch"),
    (["--param", "zz=1:2"], "zz"),
    (["--rules", "nosuch"], "nosuch"),
])
def test_bad_input_is_one_line(args, fragment):
    assert_user_error(invoke("styles", *args), fragment)


def test_the_recorded_command_reproduces_the_map(tiny, tmp_path):
    import shlex

    _, out = tiny
    args = shlex.split(json.loads((out / "run.json").read_text())["provenance"]["command"])
    assert args[:2] == ["quacks", "styles"]
    ok(*args[1:], "--out", tmp_path / "again", "--quiet")
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "again" / "styles.parquet"),
                                  pd.read_parquet(out / "styles.parquet"))


def test_win_shares_are_never_narrower_than_the_exact_interval_on_the_retest_games(tiny):
    """An elite's win share interval comes from the games behind it (never narrower than the
    exact interval on the count); only a share the same on every deal (the field's own
    strategy: 1/players of every deal) takes the rule of three on the deals instead."""
    from sim.stats.intervals import exact_interval

    res, out = tiny
    styles = pd.read_parquet(out / "styles.parquet")
    games = res["variants"][0]["retest_games"] // len(styles)
    varied = styles[~np.isclose(styles["win_share"], 0.25)]
    assert len(varied) > 0
    for _, r in varied.iterrows():
        lo, hi = exact_interval(r["win_share"] * games, games)
        assert r["win_lo"] <= float(lo[0]) + 1e-9 and r["win_hi"] >= float(hi[0]) - 1e-9
