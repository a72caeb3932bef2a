"""The value net in compiled code (``net_layout``): what a seat's bag is worth after each legal
purchase, and the purchase worth most.

The hidden layer is linear in the inputs before its rectifier, and a purchase changes only the
count and value of its chips' colours, so the pre-activations of the position without a
purchase are computed once and each chip type's change once; a set of two chips is then the sum
of three vectors, rectified and weighted (``PARAM_WIDTH`` operations a set, a few hundred sets a
decision).
"""

from __future__ import annotations

import numpy as np

from sim.kernel.decisions.buy_marginal import white_black_counts
from sim.kernel.decisions.net_layout import (
    N_B2,
    N_HIDDEN,
    N_OUT_MEAN,
    N_OUT_SCALE,
    NET_B1,
    NET_BASE,
    NET_W1,
    NET_W2,
    X_BLACK_NEAR,
    X_ROUND,
)
from sim.kernel.decisions.value_layout import N_FEATURES, X_COUNT, X_VALUE
from sim.kernel.decisions.value_model import position_features
from sim.kernel.jit import kernel
from sim.kernel.layout import G_NP, G_ROUND
from sim.rules.chips import N_TYPES, TYPE_COLOUR, TYPE_VALUE


@kernel(inline=True)
def has_net(SP, s):
    """True if seat s's parameters carry a value net (rows after the value model's)."""
    return SP.shape[1] > NET_BASE and SP[s, NET_BASE, N_HIDDEN] > 0


@kernel
def black_neighbours(P, s, G):
    """The mean count of black chips of seat s's neighbours (one in two players, none alone)."""
    np_ = G[G_NP]
    if np_ < 2:
        return 0.0
    left = (s + np_ - 1) % np_
    right = (s + 1) % np_
    total = float(white_black_counts(P, left)[3])
    if right == left:
        return total
    return (total + white_black_counts(P, right)[3]) / 2.0


@kernel(inline=True)
def net_output(SP, s, nh, h0, d1, d2):
    """The net's raw output for the pre-activations ``h0 + d1 + d2`` (before its output scale,
    which is positive, so the order of two outputs is the order of the VP they predict)."""
    v = SP[s, NET_BASE, N_B2]
    for j in range(nh):
        z = h0[j] + d1[j] + d2[j]
        if z > 0.0:
            v += SP[s, NET_W2, j] * z
    return v


@kernel(nrt=True)
def net_preactivations(P, s, G, SP):
    """The hidden layer's pre-activations for seat s's position now, and each chip type's change
    to them when one chip of it is added to the bag: (h0, d[type])."""
    nh = np.int64(SP[s, NET_BASE, N_HIDDEN])
    x = np.empty(N_FEATURES, dtype=np.float64)
    position_features(P, s, G, x)
    near = black_neighbours(P, s, G)
    h0 = np.empty(nh, dtype=np.float64)
    for j in range(nh):
        z = (SP[s, NET_B1, j] + SP[s, NET_W1 + X_ROUND, j] * G[G_ROUND]
             + SP[s, NET_W1 + X_BLACK_NEAR, j] * near)
        for i in range(N_FEATURES):
            z += SP[s, NET_W1 + i, j] * x[i]
        h0[j] = z
    d = np.zeros((N_TYPES, nh), dtype=np.float64)
    for t in range(N_TYPES):
        c = TYPE_COLOUR[t]
        v = TYPE_VALUE[t]
        for j in range(nh):
            d[t, j] = SP[s, NET_W1 + X_COUNT + c, j] + SP[s, NET_W1 + X_VALUE + c, j] * v
    return h0, d


@kernel(nrt=True)
def net_vp_to_come(P, s, G, SP):
    """The VP seat s's position now is worth still to come, by its value net."""
    nh = np.int64(SP[s, NET_BASE, N_HIDDEN])
    h0, _ = net_preactivations(P, s, G, SP)
    zero = np.zeros(nh, dtype=np.float64)
    raw = net_output(SP, s, nh, h0, zero, zero)
    return SP[s, NET_BASE, N_OUT_MEAN] + SP[s, NET_BASE, N_OUT_SCALE] * raw


@kernel(nrt=True)
def net_best_set(P, s, G, SP, cost, coins, max_buys, base, mix):
    """The legal set of at most ``max_buys`` (1 or 2; more is taken as 2) chips of different
    colours within ``coins`` (types with ``cost >= 0``) of the greatest worth, buying nothing if
    no set is worth more than nothing: a set's worth is ``mix`` times the VP the net says it
    adds to seat s's bag plus ``1 - mix`` times its chips' ``base`` worths (the marginal
    buyer's; ``mix`` 1: the net alone). (first type, second type), -1 for none."""
    nh = np.int64(SP[s, NET_BASE, N_HIDDEN])
    h0, d = net_preactivations(P, s, G, SP)
    zero = np.zeros(nh, dtype=np.float64)
    k = mix * SP[s, NET_BASE, N_OUT_SCALE]
    rest = 1.0 - mix
    none = net_output(SP, s, nh, h0, zero, zero)
    best = 0.0
    t1, t2 = -1, -1
    if max_buys <= 0:
        return t1, t2
    for t in range(N_TYPES):
        if cost[t] < 0 or cost[t] > coins:
            continue
        v = k * (net_output(SP, s, nh, h0, d[t], zero) - none) + rest * base[t]
        if v > best:
            best, t1, t2 = v, t, -1
        if max_buys < 2:
            continue
        for u in range(t + 1, N_TYPES):
            if cost[u] < 0 or TYPE_COLOUR[u] == TYPE_COLOUR[t] or cost[t] + cost[u] > coins:
                continue
            v = (k * (net_output(SP, s, nh, h0, d[t], d[u]) - none)
                 + rest * (base[t] + base[u]))
            if v > best:
                best, t1, t2 = v, t, u
    return t1, t2
