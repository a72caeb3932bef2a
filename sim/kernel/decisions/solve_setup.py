"""What the optimal stopper's exact solve starts from for a seat: its context (explosion limit,
last space, start, flask policy) and its leaves (the worth of ending on each reward space).

Shared by the stop decision (``optimal.optimal_stop``) and ``master``'s flask decision
(``master_flask``), which solve the same potion from two states.
"""

from __future__ import annotations

import numpy as np

from sim.kernel.decisions.leaf_marginal import marginal_leaf_table
from sim.kernel.decisions.potion_value import space_value
from sim.kernel.decisions.slots import (
    LEAF_MARGINAL,
    P_LEAF_MODEL,
    P_RUBY_VALUE,
    P_VP_VALUE,
    ROUND_PARAMS,
    SLOT_FLASK,
    SLOT_STOP,
)
from sim.kernel.decisions.value_model import has_model, model_leaf_table
from sim.kernel.jit import kernel
from sim.kernel.layout import BAGCNT, F_LIMIT, F_START, R_FLASK_REUSE, R_LAST
from sim.rules.chips import N_TYPES
from sim.rules.track import TRACK_LEN

# ctx (int64): limit, last space, start, flask V (0 none), flask min white, reuse flag
C_LIMIT, C_LAST, C_START, C_FLASK_V, C_FLASK_MINW, C_REUSE = range(6)


@kernel(nrt=True)
def leaf_table(R, cv, rv, vv):
    """``V[space, exploded]``: what ending on each reward space is worth by the linear value of
    ``potion_value.space_value`` (VP + coins x coin value + ruby x ruby value)."""
    V = np.empty((TRACK_LEN, 2), dtype=np.float64)
    for sp in range(TRACK_LEN):
        V[sp, 0] = space_value(R, sp, False, cv, rv, vv)
        V[sp, 1] = space_value(R, sp, True, cv, rv, vv)
    return V


@kernel(nrt=True)
def solve_context(P, s, R, SP):
    """The solve's context for seat s (``C_*`` fields): its explosion limit, the track's last
    space, its start, the flask policy it assumes for whites to come (a white of value >= V when
    the white total is then >= the minimum) and the ruleset's flask-space rule."""
    ctx = np.empty(6, dtype=np.int64)
    ctx[C_LIMIT] = P[s, F_LIMIT]
    ctx[C_LAST] = R[R_LAST]
    ctx[C_START] = P[s, F_START]
    ctx[C_FLASK_V] = np.int64(SP[s, SLOT_FLASK, 0])
    ctx[C_FLASK_MINW] = np.int64(SP[s, SLOT_FLASK, 1])
    ctx[C_REUSE] = R[R_FLASK_REUSE]
    return ctx


@kernel(nrt=True)
def seat_leaves(P, s, G, R, SP):
    """The leaves seat s's stop slot asks for (``P_LEAF_MODEL``): by the marginal buyer
    (``LEAF_MARGINAL``), by its value model (``LEAF_MODEL``, when a model is attached),
    otherwise linearly by its coin value this round, ruby value and VP weight."""
    leaf = SP[s, SLOT_STOP, P_LEAF_MODEL]
    if leaf >= LEAF_MARGINAL:
        return marginal_leaf_table(P, s, G, R, SP)
    if leaf > 0 and has_model(SP, s):
        return model_leaf_table(P, s, G, R, SP)
    r = min(G[0], ROUND_PARAMS - 1)
    return leaf_table(R, SP[s, SLOT_STOP, r], SP[s, SLOT_STOP, P_RUBY_VALUE],
                      SP[s, SLOT_STOP, P_VP_VALUE])


@kernel(nrt=True)
def seat_bag(P, s):
    """Seat s's bag as chip counts by type (a fresh array the solve may change)."""
    bag = np.empty(N_TYPES, dtype=np.int64)
    for t in range(N_TYPES):
        bag[t] = P[s, BAGCNT + t]
    return bag


@kernel
def subbag_count(bag):
    """How many sub-bags the bag has (the product of every type's count + 1): the size of the
    solve's state space, which its callers cap."""
    n = 1.0
    for t in range(N_TYPES):
        n *= bag[t] + 1
    return n
