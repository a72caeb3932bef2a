"""``quacks sensitivity`` (issue 26): a knob wired to nothing is reported as having no effect,
to the last digit; a knob that matters ranks first; each figure at a value is the one ``quacks
balance --set`` reports; the knob notation; results independent of threads and pieces; the
report folder and its page; every user error one line with exit status 2.

The knob wired to nothing: the ruleset schema rejects a key no rule reads (``_check_unknown``),
so the test uses real keys that provably cannot matter in the base game: the Set 2 price of the
red 1 (``prices.set2.r1``; every book is Set 1, and ``_build`` reads a price only from the set
of its colour's book) and ``game.penny_vp`` (the VP of a witch penny: no witches, no pennies).
Their every value plays the very same games, so every paired difference is exactly 0.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from cli_helpers import assert_user_error, invokers

from sim.cli.main import app
from sim.study.design import measure as measure_mod
from sim.study.design.knobs import CHOICE, RANGE, KnobError, parse_knob
from sim.study.design.sensitivity import SensitivitySettings, run_sensitivity

invoke, ok = invokers(app)

FIELD = ("threshold:t=6,flask=0", "balanced")
SMALL = dict(players=2, field=FIELD, games=240, seed=3)


@pytest.fixture(scope="module")
def result():
    """One run: a knob that matters, two wired to nothing, and a choice knob."""
    return run_sensitivity(SensitivitySettings(
        knobs=("game.explosion_limit=5:9", "prices.set2.r1=3:9", "game.penny_vp=0:4",
               "cards.exclude=[]|[charity]"), steps=3, **SMALL))


def test_a_knob_wired_to_nothing_has_no_effect(result):
    assert set(result.no_effect()) >= {"prices.set2.r1", "game.penny_vp"}
    d = result.tables["differences"]
    for knob in ("prices.set2.r1", "game.penny_vp"):
        mine = d[d["knob"] == knob]
        assert len(mine) == 3 * len(result.settings.metrics)  # 3 pairs of values per figure
        assert (mine["diff"] == 0).all()
        # different rulesets: 0 on every deal is not a certain 0 (issue 50): +-3/n x a share's
        # largest change on one deal (1), and the note says why
        n = result.settings.deals
        shares = mine[mine["metric"].isin(["seat0_win_share", "explosion_rate", "tie_rate"])]
        assert np.allclose(shares["ci_hi"], 3 / n) and np.allclose(shares["ci_lo"], -3 / n)
        assert (mine["ci_hi"] > 0).all()
        assert (mine["note"] == f"identical on all {n} deals").all()
        assert not mine["excludes_zero"].any() and (mine["p_adj"] == 1).all()
    lv = result.tables["levels"]
    for knob in ("prices.set2.r1", "game.penny_vp"):
        by = lv[lv["knob"] == knob].pivot(index="metric", columns="setting", values="value")
        assert (by.nunique(axis=1, dropna=False) == 1).all()  # every value: the same figures


def test_a_knob_that_matters_ranks_first(result):
    r = result.tables["ranking"]
    top = r.iloc[0]
    assert top["knob"] == "game.explosion_limit" and top["effect"] == "moves" and top["rank"] == 1
    assert top["strength"] > 1 and "explosion_rate" in top["metrics_moved"].split(",")
    e = result.tables["effects"].set_index(["knob", "metric"])
    ex = e.loc[("game.explosion_limit", "explosion_rate")]
    assert (ex["from"], ex["to"]) == ("5", "9") and ex["diff"] < 0 and ex["ci_hi"] < 0
    assert r.loc[r["effect"] == "no effect", "rank"].nunique() == 1  # the no-effect knobs tie


def test_rates_stay_in_0_1_and_every_value_plays_the_same_deals(result):
    lv = result.tables["levels"]
    rates = lv[lv["metric"].isin(["seat0_win_share", "explosion_rate", "tie_rate"])]
    assert ((rates["ci_lo"] >= 0) & (rates["ci_hi"] <= 1)).all()
    assert (lv["deals"].isin([0, result.settings.deals])).all()
    assert (result.tables["differences"]["deals"] == result.settings.deals).all()


def test_a_figure_is_the_one_quacks_balance_reports():
    from sim.study.balance.run import run_balance
    from sim.study.balance.settings import BalanceSettings

    res = run_sensitivity(SensitivitySettings(knobs=("game.explosion_limit=6:8",), steps=2,
                                              **SMALL))
    lv = res.tables["levels"]
    bal = run_balance(BalanceSettings(overrides=("game.explosion_limit=8",), players=2,
                                      field=FIELD, games=SMALL["games"], seed=SMALL["seed"],
                                      parts=("game",)))
    g = bal.tables["game"].set_index("metric")
    mine = lv[lv["setting"] == "8"].set_index("metric")
    assert set(g.index) == set(mine.index)  # the same names
    for m in g.index:
        assert mine.loc[m, ["value", "ci_lo", "ci_hi"]].tolist() == \
            g.loc[m, ["value", "ci_lo", "ci_hi"]].tolist(), m


def test_threads_and_pieces_change_nothing(monkeypatch):
    import numba

    settings = SensitivitySettings(knobs=("game.explosion_limit=6:7",), steps=2, **SMALL)
    a = run_sensitivity(settings)
    monkeypatch.setattr(measure_mod, "PIECE_GAMES", 14)  # pieces of 7 deals
    numba.set_num_threads(1)
    try:
        b = run_sensitivity(settings)
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    for name in ("levels", "differences", "effects", "ranking"):
        pd.testing.assert_frame_equal(a.tables[name], b.tables[name], check_exact=True)


def test_pair_grid():
    res = run_sensitivity(SensitivitySettings(
        knobs=("game.explosion_limit=6:7", "prices.set2.r1=3:9"), steps=2,
        pair=("game.explosion_limit", "prices.set2.r1"), metrics=("explosion_rate",), **SMALL))
    p = res.tables["pair"]
    assert len(p) == 2 * 2 and set(p["metric"]) == {"explosion_rate"}
    grid = p.pivot(index="a_setting", columns="b_setting", values="value")
    assert (grid.nunique(axis=1) == 1).all()  # the price wired to nothing: equal columns
    assert grid.loc["6"].iloc[0] > grid.loc["7"].iloc[0]  # a higher limit explodes less
    # the arms 6, 7 (the base), price 3, price 9 and the cells (6, 3), (6, 9): the cells with
    # limit 7 are the price arms, played once
    assert len(res.plan.rulesets) == 6


# --- the notation ------------------------------------------------------------------------------

def test_knob_notation():
    k = parse_knob("game.explosion_limit=5:9", steps=3)
    assert (k.kind, k.values, k.whole) == (RANGE, (5, 7, 9), True)
    assert k.override(7) == "game.explosion_limit=7"
    assert parse_knob("game.explosion_limit=5:8", steps=5).values == (5, 6, 7, 8)  # rounded
    assert parse_knob("prices.set1.r1=4:9:2").values == (4, 6, 8)
    c = parse_knob("cards.exclude=[]|[charity]|[charity,rat-infestation]")
    assert c.kind == CHOICE and c.labels == ["[]", "[charity]", "[charity,rat-infestation]"]
    assert c.override(c.values[1]) == 'cards.exclude=["charity"]'
    assert parse_knob("game.info_model=independent|synchronized").values == \
        ("independent", "synchronized")


@pytest.mark.parametrize(("text", "fragment"), [
    ("game.explosion_limit", "expected KEY=LO:HI"),
    ("explosion_limit=5:9", "not a ruleset key"),
    ("game.explosion_limit=7", "a single value is not a knob"),
    ("game.explosion_limit=9:5", "LO < HI"),
    ("game.explosion_limit=5.5:9", "whole numbers"),
    ("cards.exclude=1:3", "holds a list"),
    ("game.explosion_limit=five:9", "not a number"),
    ("cards.exclude=[]|[]", "given twice"),
    ("cards.exclude=[]|[nonsense]", "cards.exclude"),
    ("game.nonsense=1:3", "unknown key"),
])
def test_bad_knobs(text, fragment):
    with pytest.raises(ValueError, match=None) as e:
        parse_knob(text)
    assert fragment in str(e.value) and "\n" not in str(e.value)
    assert isinstance(e.value, (KnobError, ValueError))


# --- the command ------------------------------------------------------------------------------

ARGS = ["sensitivity", "--players", 2, "--field", ",".join(FIELD), "--games", 120, "--seed", 3,
        "--steps", 2]


def test_cli_json_and_report_folder(tmp_path):
    from sim.study.reports.page import read_page

    out = tmp_path / "sens"
    r = ok(*ARGS, "--knob", "game.explosion_limit=6:8", "--knob", "game.penny_vp=0:4",
           "--pair", "game.explosion_limit", "game.penny_vp", "--metrics",
           "explosion_rate,seat0_win_share", "--out", out, "--json")
    d = json.loads(r.stdout)
    assert d["kind"] == "sensitivity" and d["no_effect"] == ["game.penny_vp"]
    assert [x["knob"] for x in d["ranking"]] == ["game.explosion_limit", "game.penny_vp"]
    assert len(d["pair_grid"]) == 2 * 2 * 2
    m = json.loads((out / "run.json").read_text())
    assert m["kind"] == "sensitivity" and m["seed"] == 3
    assert {"command", "argv", "versions", "created", "files"} <= set(m)
    assert m["command"].startswith("quacks sensitivity --knob game.explosion_limit=6:8")
    for f in m["files"]:
        assert (out / f).is_file(), f
    assert {"levels.parquet", "ranking.parquet", "pair.parquet", "pair.png",
            "response_game.explosion_limit.png", "report.html"} <= set(m["files"])
    page = read_page(out)
    assert {t.name for t in page.tables} >= {"ranking.parquet", "effects.parquet"}
    assert not list(out.glob(".*"))  # no staging or temporary names left
    again = json.loads(ok(*ARGS[:-2], "--steps", 2, "--knob", "game.explosion_limit=6:8",
                          "--knob", "game.penny_vp=0:4", "--pair", "game.explosion_limit",
                          "game.penny_vp", "--metrics", "explosion_rate,seat0_win_share",
                          "--json").stdout)
    assert again["ranking"] == d["ranking"] and again["levels"] == d["levels"]  # same seed


def test_cli_tables():
    r = ok(*ARGS, "--knob", "game.explosion_limit=6:8", "--knob", "cards.exclude=[]|[charity]")
    assert "knobs ranked by effect" in r.stdout and "[charity]" in r.stdout


@pytest.mark.parametrize(("extra", "fragment"), [
    ([], "--knob: give at least one"),
    (["--knob", "game.explosion_limit=7"], "a single value is not a knob"),
    (["--knob", "game.nonsense=1:3"], "unknown key 'game.nonsense'"),
    (["--knob", "game.explosion_limit=6:8", "--knob", "game.explosion_limit=3:4"], "given twice"),
    (["--knob", "game.explosion_limit=6:8", "--pair", "game.explosion_limit", "game.rounds"],
     "game.rounds is not a --knob key"),
    (["--knob", "game.explosion_limit=6:8", "--metrics", "seat0_winshare"],
     "did you mean 'seat0_win_share'"),
    (["--knob", "game.explosion_limit=6:8", "--metrics", "skill_gap"], "skill figure"),
    (["--knob", "game.explosion_limit=6:8", "--games", 2], "--games 2"),
    (["--knob", "game.explosion_limit=6:8", "--steps", 1], "--steps 1"),
    (["--knob", "game.explosion_limit=6:8", "--field", "nonsense"], "nonsense"),
    (["--knob", "game.explosion_limit=6:8", "--adjust", "foo"],
     "--adjust foo: expected one of holm, bh, none"),
])
def test_cli_errors_are_one_line(extra, fragment):
    assert_user_error(invoke(*ARGS[:-2], *extra), fragment)


def test_cli_out_not_empty(tmp_path):
    (tmp_path / "x").write_text("x")
    assert_user_error(invoke(*ARGS, "--knob", "game.explosion_limit=6:8", "--out", tmp_path),
                      "not empty")
    assert np.array_equal(sorted(p.name for p in tmp_path.iterdir()), ["x"])


def test_cli_adjust_bh_and_the_adjusted_columns(tmp_path):
    """Issue 50: ``--adjust bh`` runs and says so; every flag has its p_adj beside it in the
    parquet files; the ranks carry intervals; the effects' interval is simultaneous (it holds
    the picked pair's own)."""
    out = tmp_path / "bh"
    d = json.loads(ok(*ARGS[:-2], "--steps", 3, "--knob", "game.explosion_limit=6:8",
                      "--knob", "game.penny_vp=0:4", "--metrics", "explosion_rate,tie_rate",
                      "--adjust", "bh", "--out", out, "--json").stdout)
    assert d["adjust"] == "bh" and "Benjamini-Hochberg" in d["families"]["method"]
    diffs = pd.read_parquet(out / "differences.parquet")
    effects = pd.read_parquet(out / "effects.parquet")
    ranking = pd.read_parquet(out / "ranking.parquet")
    assert {"p", "p_adj", "note"} <= set(diffs.columns)
    assert {"p_adj", "moves", "pairs_moving", "note"} <= set(effects.columns)
    assert {"rank_lo", "rank_hi", "p_adj", "metrics_moved"} <= set(ranking.columns)
    assert (ranking["rank_lo"] <= ranking["rank"]).all()
    assert (ranking["rank"] <= ranking["rank_hi"]).all()
    assert (effects["moves"] == (effects["p_adj"] < 0.05)).all()
    for e in effects.to_dict(orient="records"):
        own = diffs[(diffs["knob"] == e["knob"]) & (diffs["metric"] == e["metric"])
                    & (diffs["from"] == e["from"]) & (diffs["to"] == e["to"])].iloc[0]
        assert e["ci_lo"] <= own["ci_lo"] and own["ci_hi"] <= e["ci_hi"]
    md = (out / "report.md").read_text()
    assert "Benjamini-Hochberg" in md and "simultaneous" in md
    assert json.loads((out / "run.json").read_text())["command"].endswith("--adjust bh")


def test_the_families_say_the_rankings_interval_is_knob_wide():
    """Issue 50: the ranking's interval is simultaneous over every pair of every figure of the
    knob, and under Holm its flags are adjusted over that same family: run.json says so."""
    from sim.study.design.sensitivity import family_text

    holm = family_text("holm")
    assert "knob-wide" in holm["ranking's interval"]
    assert "every pair of every figure" in holm["ranking's figures moved, effect and p_adj"]
    assert "max-|t|" in holm["method"]
    assert "again over the knob's figures" in family_text("bh")[
        "ranking's figures moved, effect and p_adj"]
