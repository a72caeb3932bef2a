"""The compiled optimal-stopping DP (``sim.kernel.decisions.optimal``) called directly.

* ``solve`` from the start of a potion equals the exact reference ``sim.api.exact.optimal_value``
  to rounding, on every bag of the optimal tests and on bags with several blue chips (whose
  look the DP takes in closed form while the reference enumerates every look).
* A memo too small for one solve (it is emptied in the middle) changes nothing.
* ``draw_lower_bound <= value of drawing <= draw_bound`` on random mid-potion states, so the
  stopper's shortcut (draw at once when the lower bound beats stopping) and the DP's pruning
  (stop at once when the upper bound does not) never change a decision.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs
from test_optimal import EXACT_CASES, small_bags

import sim.kernel.decisions.optimal as dp
from sim.api import potion as pot
from sim.api.exact import optimal_value
from sim.api.rules_array import rules_scalars
from sim.kernel.decisions.optimal_memo import memo_get, memo_put
from sim.kernel.decisions.solve_setup import leaf_table
from sim.rules import chips
from sim.rules.ruleset import load_ruleset

BASE = load_ruleset("base")
REUSE = load_ruleset("base", ["game.flask_space=reuse", "game.explosion_limit=9"])

# the bags of test_optimal.py, then bags with several blue chips
CASES = EXACT_CASES + [
    ("w1x2,w2,b4,b2,r1,g1,o1", 1, 0, 0.3, 0.5),
    ("w1x3,b4,b2,b1,r4,y2", 1, 0, 0.3, 0.5),
    ("w1x2,w2,w3,b4x2,b2,g4,r2", 2, 6, 0.5, 1.0),
]


def ctx_of(setup) -> np.ndarray:
    """The DP's fixed context, as ``optimal_stop`` builds it, for an exact-reference setup."""
    return np.array([setup.limit, setup.last, setup.start, setup.flask_min, 0,
                     1 if setup.flask_reuse else 0], dtype=np.int64)


def memo(slots: int) -> np.ndarray:
    return np.zeros(2 + 2 * slots, dtype=np.float64)


def solve_root(q, slots: int = 1 << 16):
    setup = pot.exact_setup(q)
    counts = chips.counts_of(q.bag).astype(np.int64)
    stop, draw = dp.solve(counts.copy(), 0, q.start, 0, 1 if q.flask else 0, -1, -1, -1, -1,
                          ctx_of(setup),
                          leaf_table(rules_scalars(q.ruleset), setup.coin_value,
                                        setup.ruby_value, 1.0), memo(slots))
    return setup, counts, stop, draw


@pytest.mark.parametrize("bag,flask,start,coin,ruby", CASES)
def test_solve_equals_the_exact_reference(bag, flask, start, coin, ruby):
    q = pot.make_query(bag, f"optimal:coin={coin},ruby={ruby}", flask, start, BASE)
    setup, counts, stop, draw = solve_root(q)
    assert stop == pytest.approx(setup.value(min(start + 1, 53), 0), abs=1e-12)
    assert max(stop, draw) == pytest.approx(optimal_value(counts, setup), abs=1e-9)


def test_solve_equals_the_exact_reference_with_flask_reuse_and_limit_9():
    q = pot.make_query("w1x3,w2x2,w3,o1,r1,b1,y1", "optimal:coin=0.4,ruby=0.5", 2, 4, REUSE)
    setup, counts, stop, draw = solve_root(q)
    assert setup.flask_reuse and setup.limit == 9
    assert max(stop, draw) == pytest.approx(optimal_value(counts, setup), abs=1e-9)


def test_a_memo_emptied_mid_solve_changes_nothing():
    """A 64-entry memo fills many times over in this solve; it is emptied each time (never left
    full and unused), and the values are those of a memo big enough for the whole solve."""
    q = pot.make_query("w1x3,w2x2,w3,o1,r2,b2,y1", "optimal:coin=0.3,ruby=1.5", 2, 10, BASE)
    _, _, stop, draw = solve_root(q)
    small = memo(64)
    setup = pot.exact_setup(q)
    counts = chips.counts_of(q.bag).astype(np.int64)
    s2, d2 = dp.solve(counts.copy(), 0, 10, 0, 1, -1, -1, -1, -1, ctx_of(setup),
                      leaf_table(rules_scalars(BASE), 0.3, 1.5, 1.0), small)
    assert (s2, d2) == pytest.approx((stop, draw), abs=1e-12)


def test_a_full_memo_is_emptied_and_stores_the_new_value():
    """Past 85% full (54 of 64 entries) the next store empties the table and is kept."""
    M = memo(64)
    for key in range(1, 56):  # 55 entries: more than 0.85 x 64
        memo_put(M, key * 1024 + 1, float(key))
    assert M[0] == 55 and memo_get(M, 1024 + 1) == 1.0
    memo_put(M, 999 * 1024 + 1, 7.5)
    assert M[0] == 1
    assert memo_get(M, 999 * 1024 + 1) == 7.5
    assert np.isnan(memo_get(M, 1024 + 1))


NONWHITE = ["o1", "g1", "b1", "b2", "b4", "r1", "r2", "r4", "y1", "y2", "k1"]


@hs.composite
def mid_potions(draw):
    counts = draw(small_bags(3, NONWHITE, 1, 4))
    white = draw(hs.integers(0, 7))
    anchor = draw(hs.sampled_from([0, 3, 8, 15, 26, 40, 50]))
    last = draw(hs.sampled_from(["w1", "w2", "g1", "o1", "r2"]))
    flask = draw(hs.sampled_from([0, 1]))
    flask_v = draw(hs.sampled_from([0, 1, 2, 3]))
    norange = draw(hs.integers(0, 3))
    coin = draw(hs.sampled_from([0.0, 0.3, 1.0]))
    ruby = draw(hs.sampled_from([0.0, 0.5, 2.0]))
    return counts, white, anchor, chips.parse_chips(last)[0], flask, flask_v, norange, coin, ruby


@settings(max_examples=60, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(mid_potions())
def test_draw_bounds_bracket_the_value_of_drawing(case):
    counts, white, anchor, lt, flask, flask_v, norange, coin, ruby = case
    R = rules_scalars(BASE)
    ctx = np.array([7, 52, 0, flask_v, 0, 0], dtype=np.int64)
    lp = anchor
    V = leaf_table(R, coin, ruby, 1.0)
    stop, draw = dp.solve(counts.copy(), white, anchor, norange, flask, lt, lp, -1, -1, ctx, V,
                          memo(1 << 12))
    lo = dp.draw_lower_bound(counts.copy(), white, anchor, norange, flask, lt, lp, ctx, V)
    pm = dp.prefix_max_values(V)
    hi = dp.draw_bound(counts.copy(), int(counts.sum()), white, anchor, flask, ctx, pm, V)
    assert lo <= draw + 1e-9
    assert draw <= hi + 1e-9
