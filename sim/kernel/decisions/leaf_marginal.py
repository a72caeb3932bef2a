"""Leaves valued by the marginal buyer: what ending the potion on each reward space is worth in
VP, with its coins worth what the marginal buyer (``buy_marginal``) would buy with them.

The optimal stopper's solve needs, for every reward space, the worth of ending there intact or
exploded (``V[space, exploded]``). ``master`` with ``leaf=marginal`` values an ending as its VP,
its ruby at the stop slot's ruby value, and the VP the best legal purchase its coins allow adds to
the bag for the rounds left (every chip for sale valued by ``marginal_worth``, the best set for
every budget from one pass over the pairs); an exploded pot takes the better of the VP and the
purchase, and keeps the ruby. In the last round the coins and rubies turn into VP at the
ruleset's rates instead. With a die value (``P_DIE_VALUE``) and another player's finished intact
potion in sight, an intact ending that reaches it also earns the die, as ``ev`` counts it.
Coins are so worth what they buy: nothing until the cheapest useful chip, then in steps at the
prices, which a linear coin value cannot say.

With a value model attached (a per-round logistic of the final margin, ``value_model``), each
ending's VP are added to the model's margin of the position now and turned into a chance of
winning, so the solve presses when behind and plays safe when ahead; without one it maximises
the expected VP. In the last round, where the other pots are in sight, the chance of winning can
come from them instead (``last_round``).
"""

from __future__ import annotations

import numpy as np

from sim.kernel.decisions.buy_marginal import marginal_context, marginal_worth
from sim.kernel.decisions.last_round import final_pot_vp, seen_win_table, sees_every_other
from sim.kernel.decisions.potion_value import best_seen_reward
from sim.kernel.decisions.slots import (
    P_DIE_VALUE,
    P_LAST_SEEN,
    P_LEAF_BUYS,
    P_RUBY_VALUE,
    SLOT_STOP,
)
from sim.kernel.decisions.value_layout import N_FEATURES
from sim.kernel.decisions.value_model import (
    MAX_BUDGET,
    for_sale_this_round,
    gains_by_budget,
    has_model,
    margin_of,
    model_row,
    position_features,
    vp_weight,
    win_chance,
)
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    F_RUBIES,
    G_ROUND,
    R_COINS,
    R_FINAL_COINS,
    R_FINAL_RUBIES,
    R_MAX_BUYS,
    R_PRICE,
    R_ROUNDS,
    R_RUBY,
    R_VP,
)
from sim.rules.chips import N_TYPES, TYPE_COLOUR, WHITE
from sim.rules.track import TRACK_LEN


@kernel(nrt=True)
def marginal_purchase_gains(P, s, G, R, SP, top):
    """``g[c]``, c = 0..top: the VP the best legal set within c coins adds to seat s's bag for
    the rounds left, by the marginal buyer's worth of every chip for sale this round (by the
    books out; the supply is published only when strategies buy, and rarely binds)."""
    ctx = marginal_context(P, s, G, R, SP)
    gain = np.zeros(N_TYPES, dtype=np.float64)
    cost = np.full(N_TYPES, -1, dtype=np.int64)
    for t in range(N_TYPES):
        if TYPE_COLOUR[t] == WHITE or not for_sale_this_round(G, R, t):
            continue
        gain[t] = marginal_worth(SP, s, t, ctx)
        cost[t] = R[R_PRICE + t]
    return gains_by_budget(gain, cost, R[R_MAX_BUYS], top)


@kernel(nrt=True)
def marginal_leaf_table(P, s, G, R, SP):
    """``V[space, exploded]``: what seat s's potion ending on each reward space now is worth,
    intact (0) or exploded (1): VP (module docstring), or the chance of winning after them when
    the seat carries a value model."""
    return shifted_leaf_table(P, s, G, R, SP, 0.0)


@kernel(nrt=True)
def shifted_leaf_table(P, s, G, R, SP, shift):
    """``marginal_leaf_table`` with every ending worth ``shift`` VP more (before a value model
    turns it into a chance of winning): the worth of something the ending spends or keeps
    outside the potion, such as a full flask."""
    r = G[G_ROUND]
    rv = SP[s, SLOT_STOP, P_RUBY_VALUE]
    rubies = P[s, F_RUBIES]
    V = np.empty((TRACK_LEN, 2), dtype=np.float64)
    if r >= R[R_ROUNDS]:
        fr = max(R[R_FINAL_RUBIES], 1)
        for sp in range(TRACK_LEN):
            ruby_vp = (rubies + R[R_RUBY + sp]) // fr - rubies // fr
            V[sp, 0] = final_pot_vp(R, sp, False) + ruby_vp
            V[sp, 1] = final_pot_vp(R, sp, True) + ruby_vp
    else:
        g = marginal_purchase_gains(P, s, G, R, SP, MAX_BUDGET) * SP[s, SLOT_STOP, P_LEAF_BUYS]
        for sp in range(TRACK_LEN):
            coins = g[min(R[R_COINS + sp], MAX_BUDGET)]
            V[sp, 0] = R[R_VP + sp] + coins + rv * R[R_RUBY + sp]
            V[sp, 1] = max(R[R_VP + sp], coins) + rv * R[R_RUBY + sp]
    V += shift
    dv = SP[s, SLOT_STOP, P_DIE_VALUE]
    best = best_seen_reward(P, s, G) if dv > 0 else -1
    if best >= 0:  # an intact potion that reaches the best one seen earns the bonus die
        for sp in range(best, TRACK_LEN):
            V[sp, 0] += dv
    if has_model(SP, s):
        if r >= R[R_ROUNDS] and SP[s, SLOT_STOP, P_LAST_SEEN] > 0 and sees_every_other(s, G):
            seen_win_table(P, s, G, R, SP, V)
            return V
        row = model_row(SP, s, r)
        x = np.empty(N_FEATURES, dtype=np.float64)
        position_features(P, s, G, x)
        base = margin_of(SP, s, row, x)
        dvp = vp_weight(SP, s, row, G)
        for sp in range(TRACK_LEN):
            for e in range(2):
                V[sp, e] = win_chance(SP, s, row, base + dvp * V[sp, e])
    return V


@kernel(nrt=True)
def marginal_explosion_takes_coins(P, s, G, R, SP, vp, coins):
    """True if an exploded pot's ``coins`` buy more (by the marginal buyer; in the last round,
    turned into VP) than its ``vp``."""
    if G[G_ROUND] >= R[R_ROUNDS]:
        return coins // max(R[R_FINAL_COINS], 1) > vp
    c = max(coins, 0)
    return marginal_purchase_gains(P, s, G, R, SP, c)[c] * SP[s, SLOT_STOP, P_LEAF_BUYS] > vp
