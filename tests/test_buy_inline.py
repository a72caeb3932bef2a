"""The buying and ruby decisions a game asks every seat every round are inlined into the round
(a call passed about a hundred words of arrays, ~9% of a base game's time), and the buyers that
weigh every chip answer through one call, ``buy_best``, exactly as ``decide_buy`` does."""

from __future__ import annotations

import numpy as np
import pytest

from sim.api.rules_array import rules_scalars
from sim.kernel import layout as L
from sim.kernel.decisions import slots as S
from sim.kernel.decisions.decide import buy_best, decide_buy, decide_spend
from sim.kernel.evaluation import take_purchases
from sim.kernel.rng import N_STREAMS
from sim.rules.ruleset import load_ruleset
from strategies.builtin import parse_strategy
from strategies.registry import slot_table

RS = load_ruleset("base", ["cards.deck=false"])


def test_the_per_round_decisions_are_inlined():
    for fn in (decide_buy, decide_spend, take_purchases):
        assert fn.targetoptions.get("inline") == "always", fn.py_func.__name__


@pytest.mark.parametrize("spec", ["ev:buyer=value,buy=b2>r4", "ev:buyer=percoin,buy=b2>r4",
                                  "ev:buyer=expensive", "ev:buyer=marginal", "threshold"])
@pytest.mark.parametrize("coins", [6, 13, 19, 26])
def test_buy_best_answers_as_decide_buy(spec, coins):
    st = parse_strategy(spec)
    P = np.zeros((1, L.P_WIDTH), dtype=np.int64)
    G = np.zeros(L.G_WIDTH, dtype=np.int64)
    G[L.G_ROUND] = 5
    G[L.G_NP] = 1
    avail = (RS.price >= 0).astype(np.int64)
    R = rules_scalars(RS)
    SK, SP = st.kinds[None].copy(), st.params[None].copy()
    out = np.full(8, -1, dtype=np.int64)
    n = decide_buy(P, 0, coins, 2, RS.supply.copy(), RS.price, avail, out, G, R, SK, SP,
                   np.zeros((1, S.SC_WIDTH), dtype=np.int64),
                   np.zeros(N_STREAMS, dtype=np.uint64), slot_table())
    best = np.full(8, -1, dtype=np.int64)
    k = SK[0, S.SLOT_BUY]
    m = buy_best(P, 0, k, coins, 2, RS.supply.copy(), RS.price, avail, best, G, R, SP)
    if k in (S.BUY_PRIORITY, S.BUY_RANDOM):  # answered inline, never by buy_best
        assert m == 0 and n > 0
    else:
        assert (m, list(best[:m])) == (n, list(out[:n]))
