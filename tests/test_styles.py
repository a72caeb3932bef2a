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
from study_runs import run_fixture

from sim.cli.main import app
from sim.study.compare.config import RulesetSpec
from sim.study.exploit.defaults import STYLE_MARGIN
from sim.study.styles.descriptors import BY_NAME
from sim.study.styles.run import (
    STYLE_COLUMNS,
    SUMMARY_COLUMNS,
    StylesSettings,
    plan_styles,
    run_styles,
)
from sim.study.styles.viability import judge_styles, one_per_cell, pick_deals
from sim.study.tune.run import RETEST_SEED_OFFSET

invoke, ok = invokers(app)
TINY = dict(games=100, batch=6, batches=3, retest_games=200, seed=2)
TINY_ARGS = ["--games", 100, "--batch", 6, "--batches", 3, "--retest-games", 200, "--seed", 2]

tiny = run_fixture("tiny", ok, "styles", *TINY_ARGS)


def test_the_map_fills_more_than_one_cell_and_counts_the_viable(tiny):
    res, out = tiny
    (row,) = res["variants"]
    assert row["candidates"] == 18 and row["search_games"] == 18 * 100
    assert row["cells_filled"] > 1
    assert 1 <= row["viable_surely"] <= row["viable"] <= row["viable_plausibly"]
    styles = pd.read_parquet(out / "styles.parquet")
    assert list(styles.columns[:len(STYLE_COLUMNS)]) == list(STYLE_COLUMNS)
    assert len(styles) == row["cells_filled"] == styles["cell"].nunique()
    best = styles[styles["spec"] == row["best_spec"]]
    assert best["pick_share"].item() == styles["pick_share"].max()
    assert row["cells_filled"] <= row["elites"] and row["retest_games"] == row["elites"] * 200
    for name, axis in (("explosion_rate", "cell_x"), ("droplet", "cell_y")):  # re-test's cell
        d = BY_NAME[name]
        at = np.floor((styles[f"retest_{name}"] - d.lo) / (d.hi - d.lo) * 5).clip(0, 4)
        assert (styles[axis] == at).all(), name
    assert best["win_share"].item() == pytest.approx(row["best_share"])
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
    # the best is picked on the first half of the re-test's deals, measured on the other half
    share = lineup_deal_shares(load_ruleset("base", []), [row["best_spec"], *["expert"] * 3],
                               row["retest_seed"], np.arange(50))
    k = pick_deals(50)
    assert k == 25
    styles = pd.read_parquet(out / "styles.parquet")
    best = styles[styles["spec"] == row["best_spec"]]
    assert share[:k].mean() == pytest.approx(best["pick_share"].item())
    assert share[k:].mean() == pytest.approx(row["best_share"])


def test_two_elites_the_retest_puts_in_one_cell_are_one_style():
    shares = np.array([[0.3, 0.3, 0.0, 0.0], [0.2, 0.2, 1.0, 1.0], [0.1, 0.1, 0.5, 0.5]])
    assert one_per_cell(np.array([7, 7, 3]), shares) == [2, 0]  # cell order; 0 picks better


def test_equal_styles_do_not_look_worse_than_the_best_winners_curse():
    """Twenty equally good styles: the best picked on half the deals and measured on the other
    half leaves the others' mean difference to it at 0; picked and measured on the same deals
    (the old way), the maximum of twenty noisy shares is biased up and they all look worse."""
    rng = np.random.default_rng(5)
    held_out, same = [], []
    for _ in range(300):
        shares = rng.binomial(4, 0.25, (20, 200)) / 4  # 20 styles x 200 deals of 4 seatings
        best, rows = judge_styles(shares, 4, STYLE_MARGIN)
        held_out += [r["diff"] for i, r in enumerate(rows) if i != best]
        mean = shares.mean(axis=1)
        same.append(np.delete(mean, mean.argmax()).mean() - mean.max())
    assert abs(np.mean(held_out)) < 0.004
    assert np.mean(same) < -0.025  # what the test guards against: most of a 0.03 margin


def test_the_default_map_searches_30_steps_and_measures_each_share_on_3000_games():
    """The default budget (issue 47: the count of viable styles in base rested on differences
    whose interval was two thirds of the margin wide, from a short search): 30 steps of 12
    candidates of 400 games, each elite re-tested on 6,000 games of which 3,000 measure; with
    20 elites the run stays within 2.5 times the first default's 114,000 games."""
    s = StylesSettings((RulesetSpec("base"),))
    plan = plan_styles(s)
    assert plan.games == 30 * 12 * 400
    assert (s.deals(s.retest_games) - pick_deals(s.deals(s.retest_games))) * s.players == 3_000
    assert plan.games + 20 * s.retest_games <= 2.5 * 114_000


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
    (["--retest-games", 12], "four deals"),
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
