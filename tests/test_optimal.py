"""The optimal stopper against the exact reference, and regret against it.

* The in-kernel optimal stopper (``sim.kernel.decisions.optimal``, reached through the slot-function
  table ``UF[0]``), sampled with ``sim.api.potion.sample``, has the expected value that
  ``sim.api.exact.optimal_value`` computes, within ``Z_TOL`` standard errors (n = 30,000 potions per
  bag), and its outcome distribution matches the exact distribution of the optimal policy.
* ``optimal_value`` is the expected value of the optimal policy's exact distribution.
* No other stop rule (white:T, risk:P, never, ev) beats ``optimal_value`` on random small bags.
* The one-step EV stopper: exact reference vs sampled kernel.
* ``regret()``: the optimal row has regret 0, every other row regret >= 0 (exact mode).

The value of a reward space: VP + coins x coin value + ruby x ruby value; an exploded pot takes
the better of VP and coins (and still the ruby).
"""

from __future__ import annotations

import json
import math
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs
from typer.testing import CliRunner

from sim.api import potion as pot
from sim.api.exact import (
    Setup,
    exact_distribution,
    expected_value,
    optimal_value,
    sub_bag_count,
)
from sim.cli.main import app
from sim.kernel.decisions import slots as S
from sim.rules import chips
from sim.rules.ruleset import load_ruleset
from strategies import plugin
from strategies.builtin import parse_strategy

BASE = load_ruleset("base")
Z_TOL = 4.5  # standard errors allowed between a sampled mean and its exact value
N_OPT = 30_000
runner = CliRunner()


def query(bag: str, stop: str, *, flask=None, start=0):
    return pot.make_query(bag, stop, flask, start, BASE)


def value_table(setup: Setup) -> np.ndarray:
    """values[space, outcome] of a setup (outcome 2, a protected explosion, is worth what an
    intact potion is; it never happens with the Set 1 books these tests use)."""
    return np.array([[setup.value(sp, ex) for ex in (0, 1, 0)] for sp in range(54)])


def hist_of(dist: dict) -> np.ndarray:
    h = np.zeros((54, 3))
    for (sp, ex), p in dist.items():
        h[sp, ex] += float(p)
    return h


def sampled_mean_se(hist: np.ndarray, values: np.ndarray) -> tuple[float, float, int]:
    w = hist.ravel().astype(np.float64)
    v = values.ravel()
    n = int(w.sum())
    m = float((w * v).sum() / n)
    var = float((w * (v - m) ** 2).sum() / (n - 1))
    return m, math.sqrt(var / n), n


def assert_cells_match(hist: np.ndarray, probs: np.ndarray, z: float = Z_TOL) -> None:
    """Every (space, exploded) cell count within z binomial standard errors (+1) of n p; no
    mass where the exact distribution has none."""
    n = hist.sum()
    for sp in range(54):
        for ex in (0, 1):
            p = probs[sp, ex]
            c = hist[sp, ex]
            if p == 0:
                assert c == 0, (f"sampled {c} potions at ({sp}, {ex}) where the exact probability "
                                "is 0")
            else:
                sd = math.sqrt(n * p * (1 - p))
                assert abs(c - n * p) <= z * sd + 1, (sp, ex, c, n * p, sd)


# Small bags with reds (and pumpkins before them), blue, yellow, the flask and start offsets.
KERNEL_CASES = [
    # bag, flask, start, coin, ruby
    ("w1x3,w2,w3,o1,r1,b1", None, 0, 0.3, 0.5),
    ("w1x4,w2x2,w3,o1,g1,y1", None, 3, 0.4, 1.0),
    ("w1x2,w2,w3,r2,o1x2,b2", 1, 5, 0.2, 0.5),
    ("start,r1,b1", 2, 2, 0.5, 0.0),
    ("w1x3,w2x2,w3,o1,r2,b2,y1", 2, 10, 0.3, 1.5),
]


@pytest.mark.parametrize("bag,flask,start,coin,ruby", KERNEL_CASES)
def test_kernel_optimal_matches_exact_optimal_value(optimal_kernel, bag, flask, start, coin, ruby):
    q = query(bag, f"optimal:coin={coin},ruby={ruby}", flask=flask, start=start)
    setup = pot.exact_setup(q)
    assert setup.stop_kind == S.STOP_OPTIMAL
    assert setup.coin_value == coin and setup.ruby_value == ruby
    exact_v = optimal_value(chips.counts_of(q.bag), setup)
    hist = pot.sample(q, N_OPT, seed=11, chunks=8)
    assert hist.sum() == N_OPT
    m, se, n = sampled_mean_se(hist, value_table(setup))
    assert abs(m - exact_v) <= Z_TOL * se, (
        f"{bag}: sampled optimal {m:.4f} +- {se:.4f} (n={n}) vs exact {exact_v:.4f}")
    # the whole outcome distribution is the optimal policy's
    assert_cells_match(hist, hist_of(exact_distribution(chips.counts_of(q.bag), setup)))


@pytest.mark.parametrize("sets", [("game.flask_space=reuse",),
                                  ("game.flask_space=reuse", "game.explosion_limit=9")])
def test_kernel_optimal_matches_exact_under_rule_variants(optimal_kernel, sets):
    rs = load_ruleset("base", list(sets))
    q = pot.make_query("w1x3,w2x2,w3,o1,r1,b1,y1", "optimal:coin=0.4,ruby=0.5", 2, 4, rs)
    setup = pot.exact_setup(q)
    assert setup.flask_reuse is True
    exact_v = optimal_value(chips.counts_of(q.bag), setup)
    hist = pot.sample(q, N_OPT, seed=13, chunks=8)
    m, se, n = sampled_mean_se(hist, value_table(setup))
    assert abs(m - exact_v) <= Z_TOL * se, (sets, m, se, exact_v)
    assert_cells_match(hist, hist_of(exact_distribution(chips.counts_of(q.bag), setup)))


def test_kernel_optimal_is_chunking_independent(optimal_kernel):
    q = query("w1x3,w2,w3,o1,r1,b1,y1", "optimal", flask=2, start=1)
    a = pot.sample(q, 4000, seed=5, chunks=1)
    b = pot.sample(q, 4000, seed=5, chunks=7)
    assert np.array_equal(a, b)


def test_kernel_optimal_beats_fixed_rules_when_sampled(optimal_kernel):
    """Same seed, same potions: the optimal stopper's sampled value is not below white:6's by
    more than noise (a sanity check that UF[0] is really the DP and not a no-op)."""
    q_opt = query("start,r1,b1", "optimal:coin=0.3,ruby=0.5", start=2)
    setup = pot.exact_setup(q_opt)
    vals = value_table(setup)
    m_opt, se_opt, _ = sampled_mean_se(pot.sample(q_opt, 20_000, seed=3, chunks=4), vals)
    m_w, se_w, _ = sampled_mean_se(pot.sample(query("start,r1,b1", "white:6", start=2), 20_000,
                                              seed=3), vals)
    assert m_opt > m_w - Z_TOL * math.hypot(se_opt, se_w)
    # and it is far from the "stop after the first chip" policy
    first_only = exact_distribution(chips.counts_of(q_opt.bag),
                                    replace(setup, stop_kind=S.STOP_WHITE,
                                                                         stop_param=0.5))
    assert m_opt > expected_value(first_only, setup) + 1.0


def test_kernel_optimal_max_subbags(optimal_kernel):
    """``max_subbags``: above it the stopper decides by the one-step expected value (so with 1 it
    is ``ev`` exactly, same seed, same potions); 0 means always exact, which on a bag smaller than
    the default limit is the default stopper exactly."""
    bag, kw = "w1x3,w2x2,w3,o1x2,r2,b2,y1", {"flask": 2, "start": 3}
    assert parse_strategy("optimal").values["max_subbags"] > sub_bag_count(
        chips.counts_of(chips.parse_chips(bag)))
    ev = pot.sample(query(bag, "ev:coin=0.4,ruby=1", **kw), 20_000, seed=4, chunks=4)
    opt1 = pot.sample(query(bag, "optimal:coin=0.4,ruby=1,max_subbags=1", **kw), 20_000, seed=4,
                      chunks=4)
    assert np.array_equal(ev, opt1)
    opt = pot.sample(query(bag, "optimal:coin=0.4,ruby=1", **kw), 20_000, seed=4, chunks=4)
    opt0 = pot.sample(query(bag, "optimal:coin=0.4,ruby=1,max_subbags=0", **kw), 20_000, seed=4,
                      chunks=4)
    assert np.array_equal(opt, opt0)
    assert not np.array_equal(opt, ev)  # the exact stopper does decide differently here


def test_first_slot_table_includes_the_optimal_stopper(monkeypatch):
    """In a fresh process that asked for ``optimal``, the very first ``slot_table()`` must put
    the optimal stopper at UF[0]. Simulated without compiling it: a fresh table, no stopper yet,
    and ``require_optimal`` replaced by a stand-in that 'compiles' a trivial slot function."""
    from strategies import builtin, registry

    stand_in = plugin.compile_slot(lambda P, s, G, R, SP, a, b, M: 1)

    def fake_require_optimal():
        if plugin._OPTIMAL is None:
            plugin._OPTIMAL = stand_in
            return True
        return False

    monkeypatch.setattr(plugin, "_OPTIMAL", None)
    monkeypatch.setattr(plugin, "require_optimal", fake_require_optimal)
    monkeypatch.setattr(registry, "require_optimal", fake_require_optimal)
    monkeypatch.setattr(registry, "_TABLE", None)
    monkeypatch.setattr(builtin, "OPTIMAL_REQUESTED", False)
    parse_strategy("optimal")  # a fresh process parses its specs, then runs the kernel
    assert builtin.OPTIMAL_REQUESTED
    table = registry.slot_table()
    memory = table[1]
    assert plugin.table_functions(table)[0] is stand_in, (
        "entry 0 is the no-op: the optimal stopper would stop at once")
    assert memory.shape[1] > 2  # room for the stopper's memo


def test_only_a_lineup_calling_a_builtin_slot_function_gets_the_wide_memory(monkeypatch):
    """Once the optimal stopper is loaded, the table's memory template holds its memo (21 MB),
    and the parallel kernels zero a copy of it for every chunk of every call: ``slot_table(SK)``
    hands it to a lineup only when a seat calls a built-in slot function (the stopper or
    master's), otherwise the two words every slot function has, of the same type (the same
    compiled kernels run it). Simulated with a stand-in stopper, as the test above."""
    from sim.api.game import lineup_arrays
    from strategies import builtin, registry

    stand_in = plugin.compile_slot(lambda P, s, G, R, SP, a, b, M: 1)
    monkeypatch.setattr(plugin, "_OPTIMAL", stand_in)
    monkeypatch.setattr(registry, "_TABLE", None)
    monkeypatch.setattr(builtin, "OPTIMAL_REQUESTED", False)
    table = registry.slot_table()
    assert table[1].shape == (plugin.SEAT_ROWS, plugin.BASE_MEMORY + 2 * plugin.MEMORY_SLOTS)
    plain, _ = lineup_arrays([parse_strategy("threshold"), parse_strategy("expert")])
    with_optimal, _ = lineup_arrays([parse_strategy("threshold"), parse_strategy("optimal")])
    narrow = registry.slot_table(plain)
    assert narrow[0] is table[0]
    assert narrow[1].shape == (plugin.SEAT_ROWS, plugin.BASE_MEMORY)
    assert narrow[1].dtype == table[1].dtype and narrow[1].flags.c_contiguous
    assert registry.slot_table(with_optimal)[1].shape == table[1].shape
    for uf, builtin_fn in ((S.UF_OPTIMAL, True), (S.UF_MASTER_BUY, True),
                           (S.N_BUILTIN_UF - 1, True), (S.N_BUILTIN_UF, False)):
        kinds = plain.copy()
        kinds[1, 0] = S.USER_BASE + uf
        assert plugin.asks_builtin_slot_functions(kinds) is builtin_fn, uf
    assert not plugin.asks_builtin_slot_functions(plain)


# --- the exact reference ------------------------------------------------------------------------

EXACT_CASES = KERNEL_CASES + [
    ("w1x2,w2x2,w3,b4,y2,o1", 3, 0, 0.3, 0.5),
    ("w1x4,w2x2,w3,o1,g1", None, 20, 1.0, 0.0),
    ("w1,w3,r4,o1x3", 1, 45, 0.3, 0.5),  # near the end of the track
]


@pytest.mark.parametrize("bag,flask,start,coin,ruby", EXACT_CASES)
def test_optimal_value_is_the_optimal_policys_expected_value(bag, flask, start, coin, ruby):
    q = query(bag, f"optimal:coin={coin},ruby={ruby}", flask=flask, start=start)
    setup = pot.exact_setup(q)
    counts = chips.counts_of(q.bag)
    dist = exact_distribution(counts, setup)
    assert sum(float(p) for p in dist.values()) == pytest.approx(1.0, abs=1e-12)
    assert optimal_value(counts, setup) == pytest.approx(expected_value(dist, setup), abs=1e-9)


def test_optimal_value_hand_computed():
    """w1,w2 from start 0 (limit 7, never explodes). The track pays coins = space for spaces 2-4
    and no VP or ruby there. Stopping after w1 ends on reward space 2, after w2 on 3; drawing
    both always ends on 4 (last chip on space 3). So drawing on is optimal: value 4 x coin."""
    q = query("w1,w2", "optimal:coin=0.5,ruby=0")
    setup = pot.exact_setup(q)
    assert [int(BASE.coins[s]) for s in (2, 3, 4)] == [2, 3, 4]
    assert [int(BASE.vp[s]) for s in (2, 3, 4)] == [0, 0, 0]
    assert optimal_value(chips.counts_of(q.bag), setup) == pytest.approx(2.0, abs=1e-12)
    assert exact_distribution(chips.counts_of(q.bag), setup) == {(4, 0): 1.0}


RISK_GRID = (0.0, 0.05, 0.1, 0.2, 0.3, 0.45, 0.6, 1.0)
NONWHITE = ["o1", "g1", "g2", "b1", "b2", "b4", "r1", "r2", "r4", "y1", "y2", "p1", "k1"]


@hs.composite
def small_bags(draw, most_w1: int, nonwhite, fewest: int, most: int):
    """Chip counts of a small bag (never empty): up to ``most_w1`` white 1s, 2 white 2s and a
    white 3, and ``fewest`` to ``most`` chips of ``nonwhite`` (tests/test_optimal_dp.py too)."""
    counts = np.zeros(chips.N_TYPES, dtype=np.int64)
    counts[chips.W1] = draw(hs.integers(0, most_w1))
    counts[chips.W2] = draw(hs.integers(0, 2))
    counts[chips.W3] = draw(hs.integers(0, 1))
    for name in draw(hs.lists(hs.sampled_from(nonwhite), min_size=fewest, max_size=most)):
        counts[chips.parse_chips(name)[0]] += 1
    if counts.sum() == 0:
        counts[chips.W1] = 1
    return counts


@hs.composite
def small_potions(draw):
    counts = draw(small_bags(4, NONWHITE, 0, 3))
    start = draw(hs.sampled_from([0, 0, 2, 5, 11, 30, 49]))
    flask = draw(hs.sampled_from([None, 1, 2, 3]))
    coin = draw(hs.sampled_from([0.0, 0.2, 0.3, 0.5, 1.0]))
    ruby = draw(hs.sampled_from([0.0, 0.5, 1.5]))
    return counts, start, flask, coin, ruby


@settings(max_examples=30, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(small_potions())
def test_no_stop_rule_beats_optimal(case):
    counts, start, flask, coin, ruby = case
    bag = chips.format_counts(counts)
    q = query(bag, "never", flask=flask, start=start)
    base = pot.exact_setup(q, coin_value=coin, ruby_value=ruby)
    assert sub_bag_count(counts) <= 5 * 3 * 2 * 2 ** 3  # keeps the reference fast
    best = optimal_value(counts, replace(base, stop_kind=S.STOP_OPTIMAL))
    rules = ([(S.STOP_WHITE, float(t), f"white:{t}") for t in range(1, 10)]
             + [(S.STOP_RISK, p, f"risk:{p}") for p in RISK_GRID]
             + [(S.STOP_NEVER, 0.0, "never"), (S.STOP_EV, 0.0, "ev")])
    for kind, param, label in rules:
        st = replace(base, stop_kind=kind, stop_param=param)
        v = expected_value(exact_distribution(counts, st), st)
        assert v <= best + 1e-9, (f"{label} {v} beats optimal {best} on {bag} start {start} flask "
                                  f"{flask}")
    # and the optimal policy's own distribution attains it
    st = replace(base, stop_kind=S.STOP_OPTIMAL)
    assert expected_value(exact_distribution(counts, st), st) == pytest.approx(best, abs=1e-9)


# --- the one-step EV stopper: exact vs the kernel -----------------------------------------------


@pytest.mark.parametrize("bag,flask,start,coin,ruby", [
    ("start,r1,b1", None, 2, 0.3, 0.5),
    ("w1x3,w2x2,w3,o1x2,r2,b2,y1", 2, 6, 0.5, 1.0),
])
def test_ev_exact_matches_kernel(bag, flask, start, coin, ruby):
    q = query(bag, f"ev:coin={coin},ruby={ruby}", flask=flask, start=start)
    setup = pot.exact_setup(q)
    assert setup.stop_kind == S.STOP_EV and setup.coin_value == coin
    counts = chips.counts_of(q.bag)
    dist = exact_distribution(counts, setup)
    ev_exact = expected_value(dist, setup)
    hist = pot.sample(q, 200_000, seed=7)
    m, se, _ = sampled_mean_se(hist, value_table(setup))
    assert abs(m - ev_exact) <= Z_TOL * se, (m, se, ev_exact)
    assert_cells_match(hist, hist_of(dist))
    # the public exact() agrees with the distribution
    assert np.allclose(pot.exact(q), hist_of(dist), atol=1e-12)
    # and ev never beats optimal
    assert ev_exact <= optimal_value(counts, replace(setup, stop_kind=S.STOP_OPTIMAL)) + 1e-9


# --- regret ---------------------------------------------------------------------------------


@pytest.mark.parametrize("bag,flask,start,coin,ruby", [
    ("start,r1,b1", None, 2, 0.3, 0.5),
    ("w1x3,w2,w3,o1,r2,b2,y1", 2, 4, 0.5, 1.0),
    ("w1x4,w2x2,w3,o1,g1", 1, 0, 0.0, 0.0),
])
def test_regret_rows_exact(bag, flask, start, coin, ruby):
    q = query(bag, "white:6", flask=flask, start=start)
    rules = list(pot.DEFAULT_COMPARE) + ["never", "white:1", "risk:1", "balanced", "cautious"]
    res = pot.regret(q, rules, coin_value=coin, ruby_value=ruby, n=1000, seed=1)
    assert res["exact"] is True
    assert res["value"] == {"coin": coin, "ruby": ruby, "vp": 1.0}
    rows = {r["rule"]: r for r in res["rules"]}
    assert set(rows) == set(rules)
    opt = rows["optimal"]
    assert opt["regret"] == 0.0
    counts = chips.counts_of(q.bag)
    base = pot.exact_setup(q, "optimal", coin_value=coin, ruby_value=ruby)
    assert opt["expected_value"] == pytest.approx(optimal_value(counts, base), abs=1e-9)
    for r in res["rules"]:
        assert r["exact"] is True and r["expected_value_ci"] is None
        assert r["regret"] >= -1e-9, r
        assert r["regret"] == pytest.approx(opt["expected_value"] - r["expected_value"], abs=1e-12)
        assert 0.0 <= r["p_explode"] <= 1.0


def test_regret_adds_the_optimal_row():
    q = query("w1x3,w2,w3,o1,r1", "white:6")
    res = pot.regret(q, ["white:5", "ev"], coin_value=0.3, ruby_value=0.5, n=1000, seed=1)
    assert [r["rule"] for r in res["rules"]] == ["white:5", "ev", "optimal"]
    assert res["rules"][-1]["regret"] == 0.0


def test_regret_values_rules_as_the_exact_reference_does():
    """Each exact row is the exact expected value of that rule's distribution."""
    q = query("w1x3,w2x2,w3,o1,r2,b1", "white:6", start=3)
    res = pot.regret(q, ["white:5", "risk:0.2", "never"], coin_value=0.4, ruby_value=1.0, n=1000,
                     seed=1)
    counts = chips.counts_of(q.bag)
    base = pot.exact_setup(q, "never", coin_value=0.4, ruby_value=1.0)
    for r, (kind, param) in zip(res["rules"], [(S.STOP_WHITE, 5.0), (S.STOP_RISK, 0.2),
                                               (S.STOP_NEVER, 0.0)]):
        st = replace(base, stop_kind=kind, stop_param=param)
        assert r["expected_value"] == pytest.approx(
            expected_value(exact_distribution(counts, st), st), abs=1e-12)


def test_regret_exact_respects_a_tuned_ev_rule():
    q = query("start,r1,b1", "white:6", start=2)
    res = pot.regret(q, ["ev:coin=0", "ev"], coin_value=0.3, ruby_value=0.5, n=1000, seed=1)
    assert res["exact"] is True
    counts = chips.counts_of(q.bag)
    judge = pot.exact_setup(q, "never", coin_value=0.3, ruby_value=0.5)
    decide = replace(judge, stop_kind=S.STOP_EV, coin_value=0.0)  # the rule's own valuation
    want = expected_value(exact_distribution(counts, decide), judge)
    got = res["rules"][0]["expected_value"]
    assert got == pytest.approx(want, abs=1e-9), (got, want, res["rules"][1]["expected_value"])


def test_cli_regret_json():
    r = runner.invoke(app, ["potion", "--regret", "--bag", "start,r1,b1", "--start", "2",
                            "--compare", "white:6;risk:0.25;ev;balanced;never", "--coin-value",
                            "0.4",
                            "--ruby-value", "1", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["exact"] is True and d["value"]["coin"] == 0.4 and d["value"]["ruby"] == 1.0
    rows = {x["rule"]: x for x in d["rules"]}
    assert set(rows) == {"white:6", "risk:0.25", "ev", "balanced", "never", "optimal"}
    assert rows["optimal"]["regret"] == 0.0
    assert all(x["regret"] >= -1e-9 for x in d["rules"])


def test_cli_regret_table():
    r = runner.invoke(app, ["potion", "--regret", "--bag", "w1x3,w2,w3,o1,r1", "--compare",
                            "white:5;ev"])
    assert r.exit_code == 0, r.output
    assert "regret vs optimal" in r.stdout and "optimal" in r.stdout and "white:5" in r.stdout


@pytest.mark.parametrize("compare,fragment", [
    ("white:6;nope", "nope"),
    ("white:0", "white:T"),
    ("threshold:t=99", "out of range"),
])
def test_cli_regret_rejects_bad_rules(compare, fragment):
    r = runner.invoke(app, ["potion", "--regret", "--bag", "w1x3,w2", "--compare", compare])
    assert r.exit_code == 2, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and fragment in lines[0], r.stderr


def test_cli_regret_rejects_bad_values():
    r = runner.invoke(app, ["potion", "--regret", "--bag", "w1x3,w2", "--coin-value", "-1"])
    assert r.exit_code == 2
    assert "--coin-value" in r.stderr
