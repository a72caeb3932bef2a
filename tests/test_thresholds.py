"""``quacks thresholds``: every row against ``quacks potion --exact`` (and ``--regret``), the
optimal stopper as the ceiling, regret 0 and the policy map on bags worked out by hand, the
sampled mode against the exact one, and the command's files and one-line errors."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from cli_helpers import assert_user_error, invokers

from sim.api import potion as pot
from sim.api.exact import exact_distribution, optimal_value
from sim.cli.main import app
from sim.rules import chips
from sim.rules.ruleset import load_ruleset
from sim.study.thresholds.compute import compute_thresholds

invoke, ok = invokers(app)
BASE = load_ruleset("base")
FIGURES = ("p_explode", "expected_reward_space", "expected_coins", "expected_vp")


def thresholds_json(*args):
    return json.loads(ok("thresholds", *args, "--json").stdout)


def rows_by_rule(d):
    return {r["rule"]: r for r in d["rows"]}


# ---------------------------------------------------------------------------------------------
# against quacks potion --exact


@pytest.mark.parametrize("bag,extra", [
    ("start", []),
    ("w1x2,w2,w3,o1,r1,b1,y1", ["--start", "3", "--flask", "2"]),
])
def test_every_row_equals_potion_exact(bag, extra):
    d = thresholds_json("--bag", bag, *extra, "--white", "1:8", "--risk", "0.1,0.2,0.25,0.3,0.45")
    assert d["exact"] is True and d["optimal"]["exact"] is True
    rules = [r for r in d["rows"] if r["kind"] != "optimal"]
    assert [r["rule"] for r in rules] == [f"white:{t}" for t in range(1, 9)] + [
        "risk:0.1", "risk:0.2", "risk:0.25", "risk:0.3", "risk:0.45"]
    for r in rules:
        p = json.loads(ok("potion", "--bag", bag, *extra, "--stop", r["rule"], "--exact",
                          "--json").stdout)
        for key in FIGURES:
            assert r[key] == pytest.approx(p[key], rel=1e-12, abs=1e-12), (r["rule"], key)
        assert r["exact"] is True and r["n"] is None and r["p_explode_lo"] is None
    # the values and regrets are those of quacks potion --regret (exact on these bags)
    compare = ";".join(r["rule"] for r in rules)
    reg = json.loads(ok("potion", "--bag", bag, *extra, "--regret", "--compare", compare,
                        "--json").stdout)
    assert reg["exact"] is True
    by = rows_by_rule(d)
    for rr in reg["rules"]:
        name = "optimal" if rr["rule"] == "optimal" else rr["rule"]
        assert by[name]["expected_value"] == pytest.approx(rr["expected_value"], rel=1e-12), name
        assert by[name]["regret"] == pytest.approx(rr["regret"], abs=1e-9), name


@pytest.mark.parametrize("bag,start,flask", [
    ("start", 0, None), ("start", 5, 1), ("w1x2,w2,w3,o1,b1,y1,r1,g2", 2, 2),
])
def test_optimal_is_the_ceiling(bag, start, flask):
    res = compute_thresholds(bag, ruleset=BASE, start=start, flask=flask)
    t = res.table
    opt = t.iloc[-1]
    assert opt["rule"] == "optimal" and bool(opt["exact"])
    assert (t["expected_value"] <= opt["expected_value"] + 1e-12).all()
    assert (t["regret"] >= 0).all()
    # the forward pass agrees with the exact reference's own optimal value and distribution
    q = pot.make_query(bag, "optimal:coin=0.3,ruby=0.5", flask, start, BASE)
    setup = pot.exact_setup(q, coin_value=0.3, ruby_value=0.5)
    counts = chips.counts_of(q.bag)
    assert opt["expected_value"] == pytest.approx(optimal_value(counts, setup), rel=1e-12)
    ref = pot.dist_to_hist(exact_distribution(counts, setup))
    assert opt["p_explode"] == pytest.approx(ref[:, 1:].sum(), abs=1e-12)
    assert res.summary["optimal"]["expected_value"] == opt["expected_value"]


@pytest.mark.parametrize("bag,start,flask", [
    ("w1x2,w2,w3,o1,b2,b1,y1,r1", 3, 2), ("w1x3,w2,b2,y1,g1,r2", 0, None),
])
def test_forward_pass_equals_the_recursion_rule_by_rule(bag, start, flask):
    """The layered forward pass (every rule's chances moved together as arrays) against the
    memoized recursion (``exact_distribution``), one rule at a time, blue and yellow chips and
    the flask included; and a second run gives the same arrays to the last bit."""
    from dataclasses import replace

    from sim.study.thresholds.compute import forward

    q = pot.make_query(bag, "never", flask, start, BASE)
    rules = ["white:3", "white:6", "white:8", "risk:0", "risk:0.2", "risk:0.5", "never",
             "optimal:coin=0.3,ruby=0.5"]
    setups = [pot.exact_setup(replace(q, stop=r), coin_value=0.3, ruby_value=0.5) for r in rules]
    counts = chips.counts_of(q.bag)
    hist, policy = forward(counts, setups)
    for rule, setup, h in zip(rules, setups, hist):
        ref = pot.dist_to_hist(exact_distribution(counts, setup))
        assert np.allclose(h, ref, rtol=0, atol=1e-13), rule
        assert h.sum() == pytest.approx(1.0, abs=1e-12), rule
    again, policy2 = forward(counts, setups)
    assert np.array_equal(hist, again)
    pd.testing.assert_frame_equal(policy, policy2, check_exact=True)
    assert policy["p_reach"].groupby(policy["chips_drawn"]).sum().iloc[0] == pytest.approx(1.0)


# ---------------------------------------------------------------------------------------------
# bags worked out by hand (base track: coins = space up to 15; VP 0 below space 6, 1 on 6-9,
# 2 on 10-13; rubies on 5, 9, 13; value = VP + 0.3 coins + 0.5 ruby, explosion: max(VP, 0.3 coins))


def test_regret_zero_where_a_threshold_is_optimal():
    """Bag w3 x3, limit 7. The first chip is a w3 on space 3. Stopping there: reward space 4,
    0.3 x 4 = 1.2. The second w3 is safe (white 6), space 6: stopping gives reward space 7,
    1 VP + 2.1 = 3.1; drawing the last w3 explodes on space 9, reward space 10,
    max(2, 3.0) = 3.0 < 3.1, so the optimal stopper draws once more and stops: 3.1. white:4..6
    and every risk rule below 1 do the same (regret 0), white:7 explodes (3.0, regret 0.1) and
    white:1..3 stop after the first chip (1.2, regret 1.9)."""
    d = thresholds_json("--bag", "w3x3")
    by = rows_by_rule(d)
    assert by["optimal"]["expected_value"] == pytest.approx(3.1, abs=1e-12)
    for t in (4, 5, 6):
        assert by[f"white:{t}"]["regret"] == 0.0
    for p in ("0.05", "0.25", "0.5"):
        assert by[f"risk:{p}"]["regret"] == 0.0
    assert by["white:7"]["regret"] == pytest.approx(0.1, abs=1e-12)
    assert by["white:7"]["p_explode"] == 1.0
    for t in (1, 2, 3):
        assert by[f"white:{t}"]["regret"] == pytest.approx(1.9, abs=1e-12)
    assert d["best_white"]["regret"] == 0.0 and d["best_risk"]["regret"] == 0.0
    assert sum(r["best"] for r in d["rows"]) == 1
    cells = {(c["chips_drawn"], c["white_total"]): c for c in d["policy"]}
    assert set(cells) == {(1, 3), (2, 6)}
    assert cells[(1, 3)]["share_draw"] == 1.0 and cells[(2, 6)]["share_draw"] == 0.0


def test_policy_map_by_hand():
    """Bag o1 x2, w3 x3 (positions follow from the chips drawn: o moves 1, w3 moves 3).
    - 4 chips drawn, white 6 (o,o,w,w; space 8; bag w3): stop = reward space 9, 1 + 2.7 + 0.5
      ruby = 4.2; draw = explode on 11, reward 12, max(2, 3.6) = 3.6: STOP.
    - 3 drawn, white 6 (o,w,w; space 7; bag o,w3): stop = reward 8, 1 + 2.4 = 3.4; draw = 1/2 o
      (then the 4.2 above) + 1/2 explode on 10, reward 11, max(2, 3.3) = 3.3: 3.75: DRAW.
    - 2 drawn, white 6 (w,w; space 6; bag o,o,w3): stop = reward 7, 3.1; draw = 2/3 x 3.75 +
      1/3 x (explode on 9, reward 10: 3.0) = 3.5: DRAW.
    - white 0 or 3: no white draw can explode: DRAW.
    Reach: (2,6) = P(w,w first) = 3/10; (3,6) = P(one o among the first 3 with two w) = 6/10;
    (4,6) = P(last chip a w) = 3/5. Value: 3/5 x 4.2 + 2/5 x (3/4 x 3.3 + 1/4 x 3.0) = 3.81,
    and risk:0.5 (draw while the next-draw explosion chance is at most 1/2) is that policy."""
    res = compute_thresholds("o1x2,w3x3", ruleset=BASE, white=[6, 7], risk=[0.3, 0.5])
    p = res.policy.set_index(["chips_drawn", "white_total"])
    assert p.loc[(4, 6), "share_draw"] == 0.0 and p.loc[(4, 6), "p_reach"] == pytest.approx(0.6)
    assert p.loc[(3, 6), "share_draw"] == 1.0 and p.loc[(3, 6), "p_reach"] == pytest.approx(0.6)
    assert p.loc[(2, 6), "share_draw"] == 1.0 and p.loc[(2, 6), "p_reach"] == pytest.approx(0.3)
    assert p.loc[(1, 0), "share_draw"] == 1.0 and p.loc[(1, 0), "p_reach"] == pytest.approx(0.4)
    assert (p.loc[[c for c in p.index if c[1] < 6], "share_draw"] == 1.0).all()
    t = res.table.set_index("rule")
    assert t.loc["optimal", "expected_value"] == pytest.approx(3.81, abs=1e-12)
    assert t.loc["optimal", "p_explode"] == pytest.approx(0.4, abs=1e-12)
    assert t.loc["risk:0.5", "regret"] == 0.0 and bool(t.loc["risk:0.5", "best"])
    assert t.loc["white:6", "regret"] == pytest.approx(3.81 - 3.55, abs=1e-12)  # stops at (2,6)


# ---------------------------------------------------------------------------------------------
# sampled


def test_sampled_same_seed_same_table_and_covers_the_exact_values():
    kw = dict(ruleset=BASE, white=[5, 6, 7], risk=[0.2, 0.3, 0.4], n=100_000)
    a = compute_thresholds("start", exact="sample", seed=7, **kw)
    b = compute_thresholds("start", exact="sample", seed=7, **kw)
    pd.testing.assert_frame_equal(a.table, b.table)
    c = compute_thresholds("start", exact="sample", seed=8, **kw)
    assert not np.allclose(a.table["expected_value"], c.table["expected_value"])
    ex = compute_thresholds("start", exact="exact", **kw).table.set_index("rule")
    s = a.table.set_index("rule").drop(index="optimal")  # the optimal stays exact here
    assert not s["exact"].any() and (s["n"] == 100_000).all()
    inside = []
    for rule, row in s.iterrows():
        for m in ("p_explode", "expected_reward_space", "expected_coins", "expected_vp",
                  "expected_rubies", "expected_value"):
            lo, hi, mid = row[m + "_lo"], row[m + "_hi"], row[m]
            assert lo <= mid <= hi
            half = 1.7 * max(mid - lo, hi - mid)  # the 99.9% interval, about
            assert abs(ex.loc[rule, m] - mid) <= half + 1e-12, (rule, m)
            inside.append(lo - 1e-12 <= ex.loc[rule, m] <= hi + 1e-12)
    assert np.mean(inside) >= 0.85


def test_sampled_optimal_stopper_when_exact_cannot():
    """Under living-in-luxury (explosion limit 9: a card, so sampled) the sampled optimal value
    covers the exact one of the same potion with the limit set to 9."""
    res = compute_thresholds("start", ruleset=BASE, card="living-in-luxury", white=[8, 9],
                             risk=[], n=50_000, n_optimal=20_000, seed=3)
    opt = res.table.iloc[-1]
    assert not opt["exact"] and opt["n"] == 20_000 and len(res.policy) == 0
    assert "no policy map" in res.summary["policy_note"]
    assert res.summary["optimal"]["method"].startswith("sampled")
    nine = compute_thresholds("start", ruleset=load_ruleset("base", ["game.explosion_limit=9"]),
                              white=[8, 9], risk=[])
    assert (opt["expected_value_lo"] <= nine.table.iloc[-1]["expected_value"]
            <= opt["expected_value_hi"])
    rules = res.table.iloc[:-1]
    assert ((rules["regret_lo"] < rules["regret"]).all()
            and (rules["regret"] < rules["regret_hi"]).all())


# ---------------------------------------------------------------------------------------------
# the command


def test_cli_json_files_and_round(tmp_path):
    csv, png, out = tmp_path / "t.csv", tmp_path / "curve.png", tmp_path / "report"
    r = ok("thresholds", "--bag", "start", "--round", "9", "--csv", csv, "--png", png, "--out", out)
    assert "ceiling" in r.stdout and "best rule" in r.stdout and "white:7" in r.stdout
    assert "value = VP + 0.2 x coins + 0.5 x ruby" in r.stdout  # round 9: 5 coins a VP
    table = pd.read_csv(csv)
    assert list(table["rule"])[-1] == "optimal" and len(table) == 7 + 10 + 1
    for f in ("thresholds.csv", "thresholds.parquet", "policy.parquet", "thresholds.json",
              "stop_curve.png", "policy.png"):
        assert (out / f).exists(), f
    assert pd.read_parquet(
        out / "thresholds.parquet").equals(pd.read_parquet(out / "thresholds.parquet"))
    assert len(pd.read_parquet(out / "policy.parquet")) > 10
    for f in (png, out / "stop_curve.png", out / "policy.png"):
        assert f.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not list(tmp_path.rglob("*.partial"))
    d = thresholds_json("--bag", "start", "--round", "3")
    for key in ("bag", "start", "flask", "round", "value", "exact", "n", "seed", "optimal",
                "best_white", "best_risk", "best_rule", "rows", "policy", "seconds"):
        assert key in d
    assert d["value"] == {"vp": 1.0, "coin": 0.4, "ruby": 0.5}
    assert thresholds_json("--round", "3", "--coin-value", "0.1", "--white", "6",
                           "--risk", "none")["value"]["coin"] == 0.1
    row = d["rows"][0]
    for key in ("rule", "kind", "threshold", "p_explode", "expected_reward_space",
                "expected_coins", "expected_vp", "expected_rubies", "expected_value", "regret",
                "n", "exact", "best"):
        assert key in row


@pytest.mark.parametrize("args,fragment", [
    (["--white", "0:3"], "--white 0:3"),
    (["--risk", "1.5"], "--risk 1.5"),
    (["--white", "none", "--risk", "none"], "nothing to compare"),
    (["--round", "10"], "--round 10"),
    (["--coin-value", "-1"], "--coin-value"),
    (["--exact", "--card", "living-in-luxury"], "--exact"),
    (["--bag", "q9"], "q9"),
    (["--n", "0"], "--n 0"),
    (["--n-optimal", "0"], "--n-optimal 0"),
    (["--set", "books.blue=9"], "books.blue"),
    (["--csv", "/nonexistent-dir/t.csv"], "does not exist"),
])
def test_cli_bad_input_one_line(args, fragment, tmp_path):
    out = tmp_path / "report"
    r = invoke("thresholds", *args, "--out", out)
    assert_user_error(r, fragment)
    assert not out.exists()  # nothing written


def test_cli_out_is_a_file(tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    assert_user_error(invoke("thresholds", "--out", f), "not a directory")
    assert f.read_text() == "x"
