"""``quacks tune``: the search finds a known best value, is reproducible, and rejects bad input
with one line and exit status 2."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from cli_helpers import assert_user_error
from typer.testing import CliRunner

from sim.cli.main import app
from sim.rules.ruleset import load_ruleset
from sim.study.tune.run import TuneError, parse_tune_param, rungs, tune

runner = CliRunner()
# No pot can explode (a white total above 40 is impossible): drawing on always pays. The field
# stops once its whites total 11 (all of them, before round 6); a threshold above 11 draws on and
# wins, one at or below 11 stops at the same time or earlier and wins at most half.
SAFE = load_ruleset("base", ["game.explosion_limit=40", "cards.deck=false"])
JSON_KEYS = {"best", "best_win_share", "best_win_share_ci", "start_win_share", "improvement",
             "improvement_ci", "evaluations"}


def _toy(seed=3, budget=6000):
    return tune("threshold:t=3", [parse_tune_param("threshold", "t=1:20")], ["threshold:t=11"],
                SAFE,
                players=2, budget=budget, seed=seed)


def test_finds_the_known_best_threshold():
    res = _toy()
    t = res.best_values["t"]
    # every bag's whites total 11 before round 6: only t above 11 draws a whole bag then
    assert t > 11, res.history.sort_values("win_share").tail()
    assert res.improvement_ci[0] > 0.2  # the start (t=3) loses to it on paired deals
    assert res.best_win_share_ci[0] > 0.5 > res.start_win_share_ci[1]
    assert res.improvement == pytest.approx(res.best_win_share - res.start_win_share)
    assert res.history["games"].sum() <= 6000


def test_same_seed_same_result():
    a, b = _toy(seed=11, budget=3000), _toy(seed=11, budget=3000)
    assert a.as_json() == b.as_json()
    pd.testing.assert_frame_equal(a.history, b.history)
    assert _toy(seed=12, budget=3000).history["spec"].tolist() != a.history["spec"].tolist()


def test_successive_halving_prunes_and_the_rungs_grow():
    assert rungs(20, 2000) == [20, 60, 180]
    h = _toy().history
    assert (h["state"] == "pruned").any() and h["deals"].max() > h["deals"].min()


@pytest.mark.parametrize("param, msg", [("t=5", "KEY=LO:HI"), ("x=1:3", "no such parameter"),
                                        ("t=5:2", "LO < HI"), ("flask=0.5:3", "whole numbers"),
                                        ("buyer=1:2", "cannot be tuned"), ("t=0:99", "takes")])
def test_bad_params(param, msg):
    with pytest.raises(TuneError, match=msg):
        parse_tune_param("threshold", param)


def test_cli_json_and_report(tmp_path):
    out = tmp_path / "tuned"
    r = runner.invoke(app, ["tune", "threshold:t=3", "--param", "t=1:20", "--vs", "threshold:t=3",
                            "--players", "2", "--budget", "3000", "--seed", "5",
                            "--set", "game.explosion_limit=40", "--out", str(out), "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert JSON_KEYS <= set(d)
    assert d["best"].startswith("threshold:t=") and 0 <= d["best_win_share"] <= 1
    lo, hi = d["improvement_ci"]
    assert lo <= d["improvement"] <= hi
    hist = pd.read_parquet(out / "history.parquet")
    assert len(hist) == d["evaluations"] and {"spec", "t", "win_share", "state"} <= set(hist)
    assert (out / "progress.png").stat().st_size > 1000
    assert json.loads((out / "tune.json").read_text())["best"] == d["best"]
    r = runner.invoke(app, ["tune", "threshold:t=3", "--param", "t=1:20", "--vs", "threshold:t=3",
                            "--players", "2", "--budget", "3000", "--seed", "5",
                            "--set", "game.explosion_limit=40"])
    assert r.exit_code == 0 and "improvement (paired by deal)" in r.stdout
    assert d["best"] in r.stdout


@pytest.mark.parametrize("args, msg", [
    (["threshold", "--param", "t=1:9"], "--vs"),
    (["threshold", "--param", "q=1:9", "--vs", "balanced"], "no such parameter"),
    (["nosuch", "--param", "t=1:9", "--vs", "balanced"], "unknown strategy"),
    (["threshold", "--param", "t=1:9", "--vs", "balanced,greedy", "--players", "4"], "--vs"),
    (["threshold", "--param", "t=1:9", "--vs", "balanced", "--budget", "10"], "--budget"),
])
def test_cli_errors_are_one_line(args, msg):
    assert_user_error(runner.invoke(app, ["tune", *args]), msg)
