"""``master``'s leaves in the last round, from the pots it sees: the chance of winning of each
ending, with every other player's final score estimated from their pot so far.

In the last round the players brew in lock-step and see each other's pots (the information model),
so the chance of winning after an ending need not come from the per-round logistic of the VP gap,
which knows only the scores before the round. Each other player's final score is taken as normal
around their score, their rubies' final exchange, their witch pennies still held (Herb Witches;
counted for seat s too) and what their pot is worth now (VP and coins of its reward space by the
ruleset's final rates; an exploded pot the better of the two), with spread ``P_LAST_SD0`` (the
evaluation's bonus die and chip actions). One still brewing is expected to add ``P_LAST_MORE`` VP
per white point it has left below its explosion limit, with a variance ``P_LAST_SD`` squared per
white point left. The others are taken as independent; a score equal to the best other counts half
(the normal's continuity). Where a pot is not in sight (the last round brewed one after another,
``final_info_model``), the leaves stay with the logistic.
"""

from __future__ import annotations

import math

import numpy as np

from sim.kernel.decisions.slots import P_LAST_MORE, P_LAST_SD, P_LAST_SD0, SLOT_STOP
from sim.kernel.decisions.witch import pennies_held
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    F_DONE,
    F_EXPLODED,
    F_LIMIT,
    F_REWARD,
    F_RUBIES,
    F_SCORE,
    F_WHITE,
    G_NP,
    G_SEEN,
    R_COINS,
    R_FINAL_COINS,
    R_FINAL_RUBIES,
    R_PENNY_VP,
    R_RUBY,
    R_VP,
    R_WITCHES,
)


@kernel(inline=True)
def sees_every_other(s, G):
    """True if seat s sees every other player's pot of this round (the last round in lock-step;
    with ``final_info_model = "sequential"`` only the last to brew does)."""
    others = ((1 << G[G_NP]) - 1) & ~(1 << s)
    return G[G_NP] > 1 and (G[G_SEEN] & others) == others


@kernel(inline=True)
def end_pennies(P, s, R):
    """VP seat s's witch pennies still held would score at the end (Herb Witches; a witch called
    in the last round instead is worth at least as much to the one calling her)."""
    return pennies_held(P, s) * R[R_PENNY_VP] if R[R_WITCHES] != 0 else 0


@kernel(inline=True)
def final_pot_vp(R, sp, exploded):
    """VP a last-round pot ending on reward space sp scores with its coins turned into VP at the
    final rate: the VP and the coins intact, the better of the two exploded (its ruby apart)."""
    coins = R[R_COINS + sp] // max(R[R_FINAL_COINS], 1)
    return max(R[R_VP + sp], coins) if exploded else R[R_VP + sp] + coins


@kernel
def final_estimate(P, o, R, SP, s):
    """(mean, variance) of seat o's final score as seat s estimates it from o's pot now."""
    fr = max(R[R_FINAL_RUBIES], 1)
    sp = P[o, F_REWARD]
    mean = float(P[o, F_SCORE] + (P[o, F_RUBIES] + R[R_RUBY + sp]) // fr
                 + final_pot_vp(R, sp, P[o, F_EXPLODED] != 0) + end_pennies(P, o, R))
    sd0 = SP[s, SLOT_STOP, P_LAST_SD0]
    var = sd0 * sd0
    if P[o, F_DONE] == 0:
        left = float(max(P[o, F_LIMIT] - P[o, F_WHITE], 0))
        mean += SP[s, SLOT_STOP, P_LAST_MORE] * left
        var += SP[s, SLOT_STOP, P_LAST_SD] ** 2 * left
    return mean, max(var, 1e-6)


@kernel(nrt=True)
def seen_win_table(P, s, G, R, SP, V):
    """Turn ``V[space, exploded]`` (what each ending adds to seat s's final VP) into its chance of
    winning against the other players' pots it sees (module docstring), in place."""
    fr = max(R[R_FINAL_RUBIES], 1)
    own = float(P[s, F_SCORE] + P[s, F_RUBIES] // fr + end_pennies(P, s, R))
    n = G[G_NP]
    means = np.empty(n, dtype=np.float64)
    scales = np.empty(n, dtype=np.float64)
    k = 0
    for o in range(n):
        if o != s:
            m, v = final_estimate(P, o, R, SP, s)
            means[k] = m
            scales[k] = math.sqrt(2.0 * v)
            k += 1
    for sp in range(V.shape[0]):
        for e in range(2):
            score = own + V[sp, e]
            p = 1.0
            for i in range(k):
                p *= 0.5 * (1.0 + math.erf((score - means[i]) / scales[i]))
            V[sp, e] = p
