"""``quacks thresholds`` (and ``quacks potion --regret``) value a potion with the VP its chips
score while brewing, as ``quacks potion``'s VP does (tests/test_potion_brewing_vp.py).

Worked by hand (component-data.md: the base board's ruby spaces are 5, 9, 13, ...; blue Set 4: a
blue chip placed on a ruby space scores its value in VP at once). A bag of one b2 from start 3:
every stop rule draws it (no white chip, no risk), it lands on space 5, a ruby space, and scores
2 VP; the reward space is 6 (1 VP, 6 coins, no ruby). Every potion is the same, so under blue Set
4 each row's VP and value are exactly 2 more than under blue Set 1, with intervals of no width.
Before, the thresholds table valued a potion by its space alone (no difference at all).
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from cli_helpers import invokers

from sim.api import potion as pot
from sim.cli.main import app
from sim.kernel.potions import potion_histograms
from sim.rules.ruleset import load_ruleset
from sim.stats.intervals import t_ci
from sim.study.thresholds.compute import compute_thresholds, round_values
from strategies.registry import slot_table

invoke, ok = invokers(app)
KW = dict(start=3, white=[1, 2], risk=[0.1], n=200, n_optimal=20, seed=1, exact="sample")


def _table(blue: int):
    rs = load_ruleset("base", [f"books.blue={blue}"])
    return compute_thresholds("b2", ruleset=rs, **KW).table.set_index("rule")


def test_each_rows_vp_and_value_rise_by_the_chips_vp_while_brewing():
    rs = load_ruleset("base", [])
    cv, rv = round_values(rs, 0, None, None)
    plain, blue4 = _table(1), _table(4)
    assert list(blue4.index) == ["white:1", "white:2", "risk:0.1", "optimal"]
    space_value = rs.vp[6] + rs.coins[6] * cv + rs.ruby[6] * rv
    for t, brewed in ((plain, 0), (blue4, 2)):
        assert (t["expected_reward_space"] == 6).all()
        assert (t["expected_vp"] == rs.vp[6] + brewed).all()
        assert t["expected_value"].to_numpy() == pytest.approx([space_value + brewed] * 4)
        sampled = t[~t["exact"]]  # under Set 1 books the optimal stopper is exact: no interval
        assert len(sampled) == (3 if brewed == 0 else 4)
        assert list(sampled["n"]) == [200] * 3 + [20] * (len(sampled) - 3)
        for col in ("expected_vp_lo", "expected_vp_hi"):
            assert (sampled[col] == rs.vp[6] + brewed).all()
        for col in ("expected_value_lo", "expected_value_hi"):
            assert sampled[col].to_numpy() == pytest.approx([space_value + brewed] * len(sampled))
    assert (blue4["expected_value"] - plain["expected_value"]).to_numpy() == pytest.approx([2] * 4)
    assert blue4["regret"].to_numpy() == pytest.approx([0] * 4)


def test_potion_regret_counts_the_chips_vp_too():
    got = {}
    for blue in (1, 4):
        q = pot.make_query("b2", "never", None, 3, load_ruleset("base", [f"books.blue={blue}"]))
        got[blue] = pot.regret(q, ["white:5"], coin_value=0.5, ruby_value=0.5, n=100, seed=1,
                               exact_if_possible=False, n_optimal=20)["rules"]
    for a, b in zip(got[1], got[4]):
        assert b["expected_value"] - a["expected_value"] == pytest.approx(2)
        assert b["expected_value_ci"] == pytest.approx([b["expected_value"]] * 2)
        assert b["p_explode"] == 0 and b["expected_reward_space"] == 6


def test_the_value_interval_is_that_of_each_potions_value_in_all():
    """A bag whose blue chips land on a ruby space in some potions only: the row's value and its
    interval are those of the potions' own values (the space's value + the chips' VP), potion by
    potion from the kernel, so the covariance of the two parts is in the interval."""
    rs = load_ruleset("base", ["books.blue=4"])
    n, seed = 300, 3
    row = compute_thresholds("b1,b2,w1,w2,o1", ruleset=rs, start=2, white=[3], risk=[], n=n,
                             n_optimal=20, seed=seed, exact="sample").table.iloc[0]
    q = pot.make_query("b1,b2,w1,w2,o1", "white:3", None, 2, rs)
    values = pot.outcome_values(q, *round_values(rs, 0, None, None))
    R, SK, SP = q.arrays()
    bag = np.array(q.bag, dtype=np.int64)
    per_potion, brewed, vp = [], [], []
    for i in range(n):  # potion i is brewed on stream (seed, i), as in the table
        h = potion_histograms(np.uint64(seed), i, 1, bag, 2, int(rs.game("explosion_limit")), 0,
                              R, SK, SP, 1, *slot_table(SK))
        (space, outcome), = np.argwhere(h[:54])
        (b,), = np.nonzero(h[pot.BREW_AT:pot.BREW_SUM_AT].sum(axis=1))
        per_potion.append(values[space, outcome] + b)
        brewed.append(b)
        vp.append(rs.vp[space] + b)
    assert 0 < sum(b > 0 for b in brewed) < n  # the chips' VP varies from potion to potion
    v = np.array(per_potion)
    mean, (lo, hi) = t_ci(v.sum(), (v * v).sum(), n)
    assert row["expected_value"] == pytest.approx(mean)
    assert [row["expected_value_lo"], row["expected_value_hi"]] == pytest.approx([lo, hi])
    assert row["expected_vp"] == pytest.approx(np.mean(vp))


@pytest.mark.parametrize("blue", [1, 4])
def test_the_command_says_when_the_chips_scored_while_brewing(blue):
    args = ("thresholds", "--bag", "b2", "--start", "3", "--set", f"books.blue={blue}", "--white",
            "1", "--risk", "none", "--n", "100", "--n-optimal", "20")
    note = "VP and value count what the chips score while brewing"
    assert (note in ok(*args).stdout) == (blue == 4)
    d = json.loads(ok(*args, "--json").stdout)
    assert d["brewing_vp"] == (blue == 4)
    assert d["rows"][0]["expected_vp"] == 1 + (2 if blue == 4 else 0)
