"""``--sequential`` of ``compare``, ``sweep`` and ``tournament --until-ci`` (issue 47 item 4):
stop when every question is decided by anytime-valid confidence sequences.

The error rate is measured on real games: ``base`` against ``base`` with the bonus die's faces
listed in reverse (the same game, other dice on every deal: the paired differences are noise
around a true 0). 200 independent sequential runs of compare's stopping rule, each on its own
100 deals of one long run (games of 5 rounds, to be quick), decide a question (an error) in at
most 5% of runs; the same runs looked at with the fixed-size interval err far more often, so the
check can fail."""

from __future__ import annotations

import dataclasses
import json
import math

import numpy as np
import pytest
from cli_helpers import invokers

from sim.cli.main import app
from sim.stats.sequences import Running, batch_bounds, cs_radius, ratio_radius
from sim.study.compare.config import CompareConfig, CompareError
from sim.study.compare.run import plan_compare, play_ruleset, run_compare
from sim.study.compare.sequential import deal_values, play_sequential, question_keys
from sim.study.compare.stats import DealTotals
from sim.study.tournament.plan import TournamentConfig, TournamentError, resolve_plan
from sim.study.tournament.run import run_tournament

invoke, ok = invokers(app)
FACES = 'die.faces=["pumpkin","droplet","ruby","vp2","vp1","vp1"]'
SHORT = "game.rounds=5"
NULL = (("base", "base", (SHORT,)), ("reversed", "base", (SHORT, FACES)))
LIMIT8 = (("base", "base", ()), ("limit8", "base", ("game.explosion_limit=8",)))
FIELD = ("balanced", "greedy")
RUNS, DEALS = 200, 100


class _Deals:
    """Per-deal totals as numpy columns (what compare's stopping rule reads), cheap to slice."""

    def __init__(self, t: DealTotals, a: int = 0, b: int | None = None):
        src = t if isinstance(t, _Deals) else None
        self.x = {k: (src.x[k] if src else t.x[k].to_numpy())[a:b] for k in t.x}
        self.n = {k: (src.n[k] if src else t.n[k].to_numpy())[a:b] for k in t.n}


@pytest.fixture(scope="module")
def null_deals():
    """Per-deal totals of RUNS x DEALS deals of the two same-game rulesets."""
    cfg = CompareConfig(rulesets=NULL, strategies=FIELD, players=2, games=RUNS * DEALS * 2,
                        seed=11, leader_round=3)
    plans = plan_compare(cfg)
    return plans, [_Deals(play_ruleset(p, 3)) for p in plans]


def test_no_difference_errs_in_at_most_5_percent_of_200_runs(null_deals):
    plans, totals = null_deals
    errors = peeks = 0
    keys = question_keys(2)
    bounds = batch_bounds(DEALS)
    for k in range(RUNS):
        sub = [dataclasses.replace(p, deals=DEALS) for p in plans]

        def play(p, d0, d1, k=k, sub=sub):
            return _Deals(totals[sub.index(p)], k * DEALS + d0, k * DEALS + d1)

        _, stop = play_sequential(list(zip(["base", "reversed"], sub)), play, [False, False], 2,
                                  None)
        errors += any(s.decided for s in stop.run.sequences.values())
        # the same deals, looked at after every batch with the fixed-size interval
        hit = False
        for key in keys:
            r = Running()
            a, b = (_Deals(t, k * DEALS, (k + 1) * DEALS) for t in totals)
            d = deal_values(b, key) - deal_values(a, key)
            for d0, d1 in zip(bounds[:-1], bounds[1:]):
                r.add(d[d0:d1])
                if r.n >= 30 and r.sd > 0 and abs(r.mean) > 2.5 * r.sd / math.sqrt(r.n):
                    hit = True  # 2.5: about the t quantile at 5% / 4 questions
        peeks += hit
    assert errors / RUNS <= 0.05
    assert peeks / RUNS > 0.08


def test_a_difference_stops_early_and_reports_every_question(tmp_path):
    import sim

    rep = sim.compare(variant="limit8=game.explosion_limit=8", strategies=FIELD, players=2,
                      games=2000, seed=1, sequential=True, width=0.08, out=tmp_path / "c")
    res = rep.result
    st = res.sequential
    assert st.run.decided and st.games < 2000
    assert st.games_saved == (2000 - st.games) * 2  # two rulesets
    assert res.games == st.games and res.deals == st.run.deals
    q = res.tables["sequential"]
    assert list(q["label"]) == ["mean VP (score level)", "explosions per potion",
                                "balanced: win share", "greedy: win share"]
    assert q["decided"].all() and (q["games_saved"] == st.games_saved).all()
    assert (q["ci_lo"] <= q["ci_hi"]).all()
    # the differences table carries the sequences for the questions
    d = res.tables["differences"].set_index(["metric", "strategy"])
    assert d.loc[("mean_vp", "all"), "ci_lo"] == q.iloc[0]["ci_lo"]
    assert "confidence sequence" in d.loc[("mean_vp", "all"), "note"]
    run = json.loads((tmp_path / "c" / "run.json").read_text())
    assert run["sequential"]["games_saved"] == st.games_saved
    assert len(run["sequential"]["questions"]) == 4
    assert run["settings"]["sequential"] is True and run["settings"]["width"] == 0.08
    assert "--sequential --width 0.08" in run["command"]
    assert "## Sequential stop" in (tmp_path / "c" / "report.md").read_text()
    assert (tmp_path / "c" / "sequential.parquet").exists()
    # the batches are fixed by the budget: another thread count stops at the same deal
    again = run_compare(dataclasses.replace(res.config, threads=1))
    assert again.sequential.run.deals == st.run.deals
    assert again.tables["sequential"]["diff"].tolist() == q["diff"].tolist()


def test_compare_without_sequential_is_as_before():
    cfg = CompareConfig(rulesets=LIMIT8, strategies=FIELD, players=2, games=200, seed=1)
    res = run_compare(cfg)
    assert res.sequential is None and "sequential" not in res.tables
    assert "sequential" not in res.to_json() and "sequential" not in cfg.settings()


def test_width_needs_sequential():
    with pytest.raises(CompareError, match="--width 0.01: only with --sequential"):
        plan_compare(CompareConfig(rulesets=LIMIT8, strategies=FIELD, players=2, games=200,
                                   width=0.01))
    r = invoke("compare", "--variant", "x=game.explosion_limit=8", "--width", "0.01",
               "--games", "200")
    assert r.exit_code == 2 and "only with --sequential" in r.stderr


def test_tournament_sequential_stops_on_confidence_sequences():
    kw = dict(strategies=("cautious", "balanced", "greedy"), games=20_000, until_ci=0.025, seed=3)
    seq = run_tournament(TournamentConfig(sequential=True, **kw))
    fixed = run_tournament(TournamentConfig(**kw))
    assert seq.stopped == "until-ci" and seq.max_halfwidth <= 0.025
    assert fixed.games <= seq.games < 20_000  # the sequence is wider: it stops no sooner
    same = run_tournament(TournamentConfig(strategies=kw["strategies"], games=seq.games, seed=3))
    a, b = seq.summary.strategies, same.summary.strategies
    assert np.allclose(a["win_share"], b["win_share"])  # the same games
    assert ((a["win_share_ci_hi"] - a["win_share_ci_lo"])
            > (b["win_share_ci_hi"] - b["win_share_ci_lo"])).all()  # the sequences, wider
    assert seq.to_json()["sequential"] is True and "sequential" not in fixed.to_json()
    assert "confidence sequence" in seq.notes[-1]
    assert seq.summary.info["interval_methods"]["win_share"].startswith("95% anytime-valid")


def test_tournament_sequential_needs_until_ci():
    with pytest.raises(TournamentError, match="--sequential: give --until-ci"):
        resolve_plan(TournamentConfig(strategies=("cautious", "greedy"), sequential=True))
    r = invoke("tournament", "--strategies", "cautious,greedy", "--sequential", "--games", "100")
    assert r.exit_code == 2 and "--until-ci" in r.stderr


def test_ratio_radius_is_the_sequence_of_the_deal_means():
    rng = np.random.default_rng(2)
    x = rng.integers(0, 5, size=300)
    n = np.full(300, 4)
    m, rad = ratio_radius(x.sum(), n.sum(), (x * x).sum(), (x * n).sum(), (n * n).sum(), 300,
                          t_opt=100)
    v = x / 4
    assert math.isclose(float(m), v.mean())
    assert math.isclose(float(rad), float(cs_radius(300, v.std(ddof=1), t_opt=100)))


def test_sweep_sequential_stops_values_once_decided(tmp_path):
    import sim

    rep = sim.sweep(strategy="threshold", param="t=4:6:2", vs="balanced", players=3, games=6000,
                    seed=2, sequential=True, out=tmp_path / "s", plots=False)
    t = rep.result.table.set_index("value")
    assert t.loc[6, "baseline"] and t.loc[6, "games"] == 6000 and t.loc[6, "games_saved"] == 0
    assert t.loc[4, "decided"] and t.loc[4, "games"] < 6000  # t=4 is far worse: decided soon
    assert t.loc[4, "games_saved"] == 6000 - t.loc[4, "games"]
    assert t.loc[4, "win_share_diff_ci_hi"] < 0
    run = json.loads((tmp_path / "s" / "run.json").read_text())
    assert run["sequential_stop"]["games_saved"] == int(t["games_saved"].sum())
    assert "--sequential" in run["provenance"]["command"]
    assert "## Sequential stop" in (tmp_path / "s" / "sweep.md").read_text()
    again = sim.sweep(strategy="threshold", param="t=4:6:2", vs="balanced", players=3,
                      games=6000, seed=2, sequential=True, plots=False)
    assert again.result.table["games"].tolist() == rep.result.table["games"].tolist()


def test_sweep_sequential_refuses_until_ci():
    r = invoke("sweep", "--strategy", "threshold", "--param", "t=5:7:1", "--vs", "balanced",
               "--sequential", "--until-ci", "0.01")
    assert r.exit_code == 2 and "give --width W instead of --until-ci" in r.stderr


def test_sweep_sequential_resumed_stops_where_an_uninterrupted_one_does(tmp_path, monkeypatch):
    """A sequential sweep interrupted in a value's second look and resumed plays the same games,
    stops each value at the same look and reports the same sequences as one never stopped."""
    import pandas as pd

    import sim
    import sim.study.sweep.run as S
    from sim.questions.ask_sweep import SweepInterrupted

    kw = dict(strategy="threshold", param="t=5:7:1", vs="balanced", players=3, games=6000, seed=2,
              sequential=True, plots=False)
    real = S.run_tournament
    calls = {"n": 0}

    def interrupted(*a, **k):
        calls["n"] += 1
        if calls["n"] == 3:  # baseline t=6, then t=5, then t=7: stop t=7 after one look
            k["stop_after_chunks"] = 1
        return real(*a, **k)

    monkeypatch.setattr(S, "run_tournament", interrupted)
    with pytest.raises(SweepInterrupted):
        sim.sweep(**kw, out=tmp_path / "s")
    monkeypatch.setattr(S, "run_tournament", real)
    resumed = sim.sweep(**kw, out=tmp_path / "s", resume=True).result.table
    straight = sim.sweep(**kw).result.table
    cols = ["value", "games", "games_saved", "decided", "why", "win_share_diff_ci_lo",
            "win_share_diff_ci_hi", "vp_diff_ci_lo", "vp_diff_ci_hi"]
    assert straight.set_index("value").loc[7, "games"] > 6000 // 3  # t=7 needed more looks
    pd.testing.assert_frame_equal(resumed[cols].reset_index(drop=True),
                                  straight[cols].reset_index(drop=True))
