"""``master``'s buyer and explosion choice: slot functions deciding by the seat's value model
(``value_model``). Its stop rule is the optimal stopper with the model's leaves
(``optimal.optimal_stop`` with ``P_LEAF_MODEL``). Compiled on their own, like the optimal stopper,
and reached through the slot-function table (``UF_MASTER_BUY``, ``UF_MASTER_EXPLODE``).

Without a model (a potion outside a game, or a seat whose rows were not attached) the buyer takes
the most expensive legal pair and the explosion takes the coins up to two rounds before the end.
"""

from __future__ import annotations

import numpy as np

from sim.kernel.decisions.buy_marginal import marginal_context, marginal_worth
from sim.kernel.decisions.leaf_marginal import marginal_explosion_takes_coins
from sim.kernel.decisions.slots import (
    LEAF_MARGINAL,
    P_BUY_NET,
    P_EXPLORE,
    P_LEAF_MODEL,
    SLOT_BUY,
    SLOT_STOP,
)
from sim.kernel.decisions.value_model import (
    best_set,
    chip_gain,
    gains_by_budget,
    has_model,
    hash_uniform,
    model_row,
    position_hash,
    shop_gains,
    vp_weight,
)
from sim.kernel.decisions.value_net import has_net, net_best_set
from sim.kernel.layout import (
    G_AVAIL,
    G_OUT,
    G_ROUND,
    G_SUPPLY,
    R_FINAL_COINS,
    R_MAX_BUYS,
    R_PRICE,
    R_ROUNDS,
)
from sim.rules.chips import N_TYPES, TYPE_COLOUR, WHITE


def master_buy(P, s, G, R, SP, a, b, M):
    """Slot function (buy): the legal set of at most b chips within a coins that adds most to the
    model's margin, or with ``P_BUY_NET`` (the net's share, ``net_mix``) and a value net the set
    the net values most, mixed with the marginal buyer's worths (``value_net``); in training
    games, with chance ``P_EXPLORE``, a random legal set instead."""
    gain = np.zeros(N_TYPES, dtype=np.float64)
    cost = np.full(N_TYPES, -1, dtype=np.int64)
    net = SP[s, SLOT_BUY, P_BUY_NET] > 0 and has_net(SP, s)
    model = has_model(SP, s) and not net
    row = model_row(SP, s, G[G_ROUND]) if model else 0
    explore = SP[s, SLOT_BUY, P_EXPLORE]
    h = position_hash(P, s, G, a)
    random_set = explore > 0.0 and hash_uniform(h, 0) < explore
    for t in range(N_TYPES):
        if TYPE_COLOUR[t] == WHITE or G[G_AVAIL + t] == 0 or G[G_SUPPLY + t] <= 0:
            continue
        if R[R_PRICE + t] < 0:
            continue
        cost[t] = R[R_PRICE + t]
        if random_set:
            gain[t] = 0.01 + hash_uniform(h, t + 1)
        elif model:
            gain[t] = chip_gain(SP, s, row, t)
        else:
            gain[t] = 1.0 + cost[t]
    if net and not random_set:
        mix = min(SP[s, SLOT_BUY, P_BUY_NET], 1.0)
        base = np.zeros(N_TYPES, dtype=np.float64)
        if mix < 1.0:
            mctx = marginal_context(P, s, G, R, SP)
            for t in range(N_TYPES):
                if cost[t] >= 0:
                    base[t] = marginal_worth(SP, s, t, mctx)
        t1, t2 = net_best_set(P, s, G, SP, cost, a, b, base, mix)
    else:
        _, t1, t2 = best_set(gain, cost, a, b)
    n = 0
    if t1 >= 0:
        G[G_OUT] = t1
        n = 1
        if t2 >= 0:
            G[G_OUT + 1] = t2
            n = 2
    return n


def master_explode(P, s, G, R, SP, a, b, M):
    """Slot function (explode): 1 takes the b coins, 0 the a VP, whichever the model's margin
    prefers (the coins buy the best set they allow; in the last round they turn into VP); with
    the marginal leaves, whichever is worth more VP by the marginal buyer."""
    r = G[G_ROUND]
    last = r >= R[R_ROUNDS]
    if SP[s, SLOT_STOP, P_LEAF_MODEL] >= LEAF_MARGINAL:
        return 1 if marginal_explosion_takes_coins(P, s, G, R, SP, a, b) else 0
    if not has_model(SP, s):
        if last:
            return 1 if b // max(R[R_FINAL_COINS], 1) > a else 0
        return 1 if r <= R[R_ROUNDS] - 3 else 0
    row = model_row(SP, s, r)
    dvp = vp_weight(SP, s, row, G)
    if last:
        return 1 if dvp * (b // max(R[R_FINAL_COINS], 1)) > dvp * a else 0
    gain, cost = shop_gains(SP, s, row, G, R)
    g = gains_by_budget(gain, cost, R[R_MAX_BUYS], max(b, 0))
    return 1 if g[max(b, 0)] > dvp * a else 0
