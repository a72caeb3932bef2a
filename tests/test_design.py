"""``quacks design`` (issue 26): on a toy target with a known answer the search finds it within a
small budget, and the same seed gives the same result; the loss and the Pareto front on
hand-made numbers; the re-tune; the shipped example's part; Dask gives the local answer; every
user error one line with exit status 2.

The toy: one-round games without the fortune-teller deck, every seat ``threshold:t=5,flask=0``
(stop once the white total is at least 5, never the flask, no purchase before the potion), so
every potion is the starting bag drawn until the white total reaches 5, and its explosion
chance is the one ``quacks potion --exact --stop white:5`` computes for the explosion limit:
1 at limit 4, 0.390 at 5, 0.105 at 6, 0 from 7 on. The band [0.08, 0.13] holds only limit 6.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from cli_helpers import assert_user_error, invokers

from sim.cli.main import app
from sim.study.design.design import DesignSettings, plan_design, run_design
from sim.study.design.loss import MISSING, distance, pareto_mask, score

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

invoke, ok = invokers(app)
ROOT = Path(__file__).resolve().parent.parent
TOY = dict(knobs=("game.explosion_limit=3:9",), bands=(("explosion_rate", 0.08, 0.13),),
           budget=4000, players=2, field=("threshold:t=5,flask=0",),
           overrides=("game.rounds=1", "cards.deck=false"), retest_games=4000, seed=5)
TOY_ARGS = ["--knob", "game.explosion_limit=3:9", "--budget", 4000, "--players", 2, "--field",
            "threshold:t=5,flask=0", "--set", "game.rounds=1", "--set", "cards.deck=false",
            "--retest-games", 4000, "--seed", 5]


def exact_rate(limit: int) -> float:
    r = ok("potion", "--exact", "--stop", "white:5", "--set", f"game.explosion_limit={limit}",
           "--json")
    return json.loads(r.stdout)["p_explode"]


@pytest.fixture(scope="module")
def toy():
    return run_design(DesignSettings(**TOY))


def test_the_known_answer_is_the_only_limit_in_the_band():
    rates = {L: exact_rate(L) for L in (4, 5, 6, 7)}
    assert [L for L, p in rates.items() if 0.08 <= p <= 0.13] == [6]
    assert rates[4] == 1 and rates[7] == 0


def test_design_finds_the_known_answer(toy):
    assert toy.best["values"] == {"game.explosion_limit": 6}
    assert toy.best["overrides"] == ["game.explosion_limit=6"]
    assert toy.games["search"] <= TOY["budget"]
    t = toy.tables["targets"].set_index("arm")
    assert t.loc["best", "verdict"] == "pass" and t.loc["start", "verdict"] == "fail"
    lo, hi = t.loc["best", ["ci_lo", "ci_hi"]]
    assert lo <= exact_rate(6) <= hi or abs(t.loc["best", "value"] - exact_rate(6)) < 0.02
    d = toy.tables["differences"].iloc[0]
    assert d["arm"] == "best" and d["ci_lo"] > 0  # the start (limit 7) never explodes
    assert "not re-tuned" in toy.to_json()["strategies_note"]
    assert toy.to_json()["retuned"] is False


def test_side_effects_are_decided_over_the_arms_figures(toy):
    """Issue 50: every difference to the start has its p-value, and each figure that is not a
    target its p-value adjusted over those figures of the arm (Holm); a side effect is such a
    figure whose adjusted p-value is below 0.05; a figure 0 on every deal of the two different
    rulesets is not [0, 0] but noted (a mean the same on every deal of both, e.g. the lead
    changes of the one-round toy, has no span to bound it by and stays [0, 0])."""
    from statsmodels.stats.multitest import multipletests

    from sim.study.design.retest import side_effects

    d = toy.tables["differences"]
    best = d[d["arm"] == "best"]
    ok_ = ~best["target"]
    np.testing.assert_allclose(best.loc[ok_, "p_adj"],
                               multipletests(best.loc[ok_, "p"], method="holm")[1])
    assert best.loc[best["target"], "p_adj"].isna().all()  # a target is judged by its band
    assert (best["moved"] == (best["p_adj"] < 0.05)).all()
    side = side_effects(d, "best")
    assert set(side["metric"]) == set(best.loc[best["moved"] & ~best["target"], "metric"])
    same = best[best["note"].str.startswith("identical on all")]
    assert len(same) and (same["diff"] == 0).all() and (same["ci_lo"] == -same["ci_hi"]).all()
    assert not same["moved"].any()
    # a share: +-3/n (it moves at most 1 on a deal); lock_round_1 is one in this one-round game
    share = same.set_index("metric").loc["lock_round_1"]
    assert share["ci_hi"] == pytest.approx(3 / toy.plan.retest_deals)
    j = toy.to_json()
    assert j["adjust"] == "holm" and "not a target" in j["side_effects_family"]["family"]


def test_same_rules_as_given_are_the_same_game():
    """An arm that is the same game as the start (the same ruleset and field) differs by
    exactly [0, 0]; the same games labelled as another ruleset get the rule of three."""
    from sim.study.design.retest import retest_tables

    plan = plan_design(DesignSettings(**TOY))
    from sim.study.design.measure import measure

    m = measure(plan.base, plan.seated, 9, 0, 20)
    key = (plan.base.hash, tuple(plan.seated))
    t = retest_tables(plan, {"start": m, "best": m}, {"start": key, "best": key})
    d = t["differences"]
    assert (d[["diff", "ci_lo", "ci_hi"]].to_numpy() == 0).all()
    assert (d["note"] == "the same ruleset").all() and not d["moved"].any()
    other = retest_tables(plan, {"start": m, "best": m},
                           {"start": key, "best": ("another", key[1])})["differences"]
    assert (other["note"] == "identical on all 20 deals").all() and (other["ci_hi"] > 0).any()
    rate = other.set_index("metric").loc["explosion_rate"]
    assert (rate["ci_lo"], rate["ci_hi"]) == pytest.approx((-3 / 20, 3 / 20))


def test_same_seed_same_result(toy):
    again = run_design(DesignSettings(**TOY))
    assert again.best == toy.best
    for name in ("history", "targets", "differences", "pareto"):
        pd.testing.assert_frame_equal(again.tables[name], toy.tables[name], check_exact=True)


def test_every_candidate_plays_the_same_deals(toy):
    h = toy.search.history
    played = h[h["state"].isin(("complete", "pruned", "budget"))]
    assert set(played["deals"]) <= set(toy.search.rungs)
    assert played["game.explosion_limit"].is_unique  # a repeated proposal is not played again
    assert (h.loc[h["state"] == "repeat", "games"] == 0).all()


def test_loss_and_pareto_front():
    assert distance(0.25, 0.24, 0.26) == 0
    assert distance(0.23, 0.24, 0.26) == pytest.approx(0.5)
    assert distance(float("nan"), 0, 1) == MISSING
    s = score({"a": 0.23, "b": 5.0}, {"a": (0.24, 0.26), "b": (4.0, 6.0)})
    assert s["loss"] == pytest.approx(0.5) and s["objective"] > s["loss"]
    D = np.array([[0, 1], [1, 0], [1, 1], [0.5, 0.5], [0, 1]])
    assert pareto_mask(D).tolist() == [True, True, False, True, True]


def test_the_pareto_front_of_conflicting_bands():
    res = run_design(DesignSettings(**{**TOY, "bands": (("explosion_rate", 0.3, 0.5),
                                                        ("explosion_rate_round_1", 0.0, 0.05)),
                                       "retest_games": 400}))
    front = res.tables["pareto"]
    assert res.best["loss"] > 0 and len(front) >= 2  # one band wants limit 5, the other >= 6
    assert {"d:explosion_rate", "d:explosion_rate_round_1"} <= set(front.columns)


def test_retune_adapts_the_preset_before_the_retest():
    res = run_design(DesignSettings(**{**TOY, "field": ("threshold:t=5,flask=0", "threshold"),
                                       "retune": "threshold", "retune_params": ("t=4:8",),
                                       "retune_budget": 800, "retest_games": 400}))
    r = res.retune
    assert r["preset"] == "threshold" and r["spec"].startswith("threshold:")
    assert set(res.tables["targets"]["arm"]) == {"start", "best", "retuned"}
    assert "re-tuned to the best rules by quacks tune" in res.to_json()["strategies_note"]
    assert res.games["retune"] > 0


# --- the shipped example -----------------------------------------------------------------------

def _shipped_part() -> tuple[dict, dict]:
    from sim.study.design.experiment_part import DESIGN_PART_KEYS

    data = tomllib.loads((ROOT / "experiments" / "design-start-player.toml").read_text())
    raw = data["part"][0]
    common = {"title": "", "note": "", "games": None, "set": [], "players": None}
    part = {**common, **{k: d for k, (_, _, d) in DESIGN_PART_KEYS.items()}, **raw}
    return data["experiment"], part


def test_the_shipped_example_is_a_design_part_that_runs(tmp_path):
    from sim.study.design.experiment_part import check_design_part, run_design_part
    from sim.study.experiments.parts import Context

    head, part = _shipped_part()
    assert part["kind"] == "design" and part["targets"] == {"seat0_win_share": [0.24, 0.26]}
    ctx = Context(head["seed"], head["games"], "base", [], head["players"])
    check_design_part(part, ctx)  # the knobs and the targets of the file as it ships
    quick = Context(head["seed"], head["games"], "base", [], head["players"], games_override=240)
    rep = run_design_part(part, quick, tmp_path)
    assert rep.kind == "design" and rep.tables["targets"]["metric"].tolist() == \
        ["seat0_win_share", "seat0_win_share"]
    assert (tmp_path / "progress.png").stat().st_size > 1000
    assert "Verdict" in rep.markdown


# --- the command ------------------------------------------------------------------------------

def test_cli_json_and_report_folder(tmp_path):
    from sim.study.reports.page import read_page

    targets = tmp_path / "t.toml"
    targets.write_text("explosion_rate = [0.08, 0.13]\n")
    out = tmp_path / "design"
    d = json.loads(ok("design", "--targets", targets, *TOY_ARGS, "--out", out, "--json").stdout)
    assert d["kind"] == "design" and d["best"]["values"] == {"game.explosion_limit": 6}
    assert d["retest"]["arms"]["best"]["targets"][0]["verdict"] == "pass"
    m = json.loads((out / "run.json").read_text())
    assert {"command", "argv", "versions", "created", "files", "seed"} <= set(m)
    assert m["kind"] == "design" and m["command"].startswith("quacks design --targets")
    assert {"history.parquet", "targets.parquet", "progress.png", "targets.png",
            "report.html", "report.md"} <= set(m["files"])
    assert "explosion_rate" in (out / "report.md").read_text()
    read_page(out)
    r = ok("design", "--target", "explosion_rate=0.08:0.13", *TOY_ARGS)
    assert "best: game.explosion_limit=6" in r.stdout and "not re-tuned" in r.stdout
    again = json.loads(ok("design", "--target", "explosion_rate=0.08:0.13", *TOY_ARGS,
                          "--json").stdout)
    assert again["best"] == d["best"] and again["retest"] == d["retest"]  # file or option


@pytest.mark.parametrize(("extra", "fragment"), [
    (["--knob", "game.explosion_limit=3:9"], "--targets: give a targets file"),
    (["--target", "seat0_win_share=0.26", "--knob", "game.explosion_limit=3:9"],
     "expected METRIC=LO:HI"),
    (["--target", "seat0_win_share=0.26:0.24", "--knob", "game.explosion_limit=3:9"],
     "low < high"),
    (["--target", "seat0_win_share=0.24:0.26", "--targets", "{good}", "--knob",
      "game.explosion_limit=3:9"], "not both"),
    (["--targets", "nowhere.toml", "--knob", "game.explosion_limit=3:9"], "no such file"),
    (["--targets", "{bad}", "--knob", "game.explosion_limit=3:9"],
     "unknown metric 'seat0_winshare'"),
    (["--targets", "{skill}", "--knob", "game.explosion_limit=3:9"], "skill figure"),
    (["--targets", "{good}"], "--knob: give at least one"),
    (["--targets", "{good}", "--knob", "game.explosion_limit=3"], "a single value"),
    (["--targets", "{good}", "--knob", "game.explosion_limit=3:9", "--budget", 10],
     "--budget 10: too small"),
    (["--targets", "{good}", "--knob", "game.explosion_limit=3:9", "--first-rung", 1],
     "--first-rung 1: expected 2"),
    (["--targets", "{good}", "--knob", "game.explosion_limit=3:9", "--retune", "cautious"],
     "not in the field"),
    (["--targets", "{good}", "--knob", "game.explosion_limit=3:9", "--retune-param", "t=4:8"],
     "only with --retune"),
    (["--targets", "{good}", "--knob", "game.explosion_limit=3:9", "--retune", "expert",
      "--retune-param", "t=4:8"], "expert has no such parameter"),
    (["--targets", "{good}", "--knob", "game.explosion_limit=3:9", "--adjust", "foo"],
     "--adjust foo: expected one of holm, bh, none"),
])
def test_cli_errors_are_one_line(extra, fragment, tmp_path):
    files = {"bad": "seat0_winshare = [0.24, 0.26]\n", "skill": "skill_gap = [0, 0.1]\n",
             "good": "seat0_win_share = [0.24, 0.26]\n"}
    for k, text in files.items():
        (tmp_path / f"{k}.toml").write_text(text)
    args = [str(tmp_path / f"{a[1:-1]}.toml") if str(a)[1:-1] in files else a for a in extra]
    assert_user_error(invoke("design", *args), fragment)


def test_plan_checks_before_playing():
    with pytest.raises(ValueError, match="not both"):
        plan_design(DesignSettings(**{**TOY, "targets": "x.toml"}))


# --- Dask -------------------------------------------------------------------------------------

@pytest.mark.slow
def test_dask_gives_the_local_answer():
    """Both commands on a local cluster of two worker processes: the same tables as here."""
    pytest.importorskip("distributed")
    from sim.study.design.sensitivity import SensitivitySettings, run_sensitivity
    from sim.study.tournament.backend import make_backend

    settings = SensitivitySettings(knobs=("game.explosion_limit=6:7",), steps=2, players=2,
                                   field=("threshold:t=6,flask=0", "balanced"), games=4000,
                                   seed=2)
    local_s, local_d = run_sensitivity(settings), run_design(DesignSettings(**TOY))
    with make_backend("dask", workers=2) as be:
        dask_s = run_sensitivity(settings, backend=be)
        dask_d = run_design(DesignSettings(**TOY), backend=be)
    for name in ("levels", "differences", "effects", "ranking"):
        pd.testing.assert_frame_equal(local_s.tables[name], dask_s.tables[name], check_exact=True)
    assert dask_d.best == local_d.best
    for name in ("history", "targets", "differences"):
        pd.testing.assert_frame_equal(local_d.tables[name], dask_d.tables[name], check_exact=True)
