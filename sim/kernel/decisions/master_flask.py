"""``master``'s flask: whether to send the white chip just placed back, decided by the exact
solve of the rest of the potion from both states.

Keeping the white is worth the solve's value from the pot as it is (stop now, or draw on and
play the rest optimally), with the flask still full. Sending it back is worth the solve's value
from the pot without it (the white in the bag again, its space empty; the next chip counts on
from that space, or from the chip before with ``flask_space = reuse``) with the flask empty,
every ending then worth ``P_FLASK_KEEP`` VP less before the last round: what a full flask
kept for a later round is worth. Both use ``master``'s leaves (``leaf_marginal``; chances of
winning when a value model is attached). Where the bag is too big to solve
(``P_FLASK_SUBBAGS``), with other leaves, or for a white in the overflow bowl, it follows the
rule of ``FLASK_MIN`` (a white of value >= p0 when the white total is >= p1). Below that white
total it keeps the white without solving, as the rule does (most whites come out early in the
potion, and a solve for each cost a quarter of a ``master`` seat's speed).

Reached through the slot-function table (``UF_MASTER_FLASK``) with the uniform slot signature;
``a`` is the white chip's type.
"""

from __future__ import annotations

from sim.kernel.decisions.leaf_marginal import shifted_leaf_table
from sim.kernel.decisions.optimal import solve
from sim.kernel.decisions.slots import (
    LEAF_MARGINAL,
    P_FLASK_KEEP,
    P_FLASK_SUBBAGS,
    P_LEAF_MODEL,
    SLOT_FLASK,
    SLOT_STOP,
)
from sim.kernel.decisions.solve_setup import C_START, seat_bag, solve_context, subbag_count
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    F_ANCHOR,
    F_NORANGE,
    F_NPOT,
    F_WHITE,
    G_ROUND,
    POT_P,
    POT_T,
    R_BOWL,
    R_FLASK_REUSE,
    R_LAST,
    R_ROUNDS,
)
from sim.rules.chips import TYPE_VALUE


@kernel
def flask_rule(P, s, t, SP):
    """The fixed rule: a white of value >= p0 once the white total is >= p1."""
    return TYPE_VALUE[t] >= SP[s, SLOT_FLASK, 0] and P[s, F_WHITE] >= SP[s, SLOT_FLASK, 1]


@kernel(nrt=True)
def flask_gain(P, s, t, G, R, SP, M):
    """(worth of sending white chip t back, worth of keeping it) by the solve, in the units of
    the seat's leaves; seat s's last chip in the pot is that white."""
    keep_worth = SP[s, SLOT_FLASK, P_FLASK_KEEP] if G[G_ROUND] < R[R_ROUNDS] else 0.0
    ctx = solve_context(P, s, R, SP)
    k = P[s, F_NPOT]
    white = P[s, F_WHITE]
    anchor = P[s, F_ANCHOR]
    norange = min(P[s, F_NORANGE], 3)
    lp = P[s, POT_P + k - 1]
    pt = P[s, POT_T + k - 2] if k >= 2 else -1
    pp = P[s, POT_P + k - 2] if k >= 2 else -1
    bag = seat_bag(P, s)
    V = shifted_leaf_table(P, s, G, R, SP, 0.0)
    stop, draw = solve(bag, white, anchor, norange, 1, t, lp, pt, pp, ctx, V, M)
    keep = max(stop, draw) if bag.sum() > 0 else stop
    bag[t] += 1
    if R[R_FLASK_REUSE] != 0:
        anchor = pp if k >= 2 else ctx[C_START]
    Vb = shifted_leaf_table(P, s, G, R, SP, -keep_worth)
    stop, draw = solve(bag, white - TYPE_VALUE[t], anchor, norange, 0, pt, pp, -1, -1, ctx, Vb, M)
    return max(stop, draw), keep


def master_flask(P, s, G, R, SP, a, b, M):
    """Slot function (flask): 1 to send white chip ``a``, the last chip placed, back to the bag
    if the solve says the pot without it (flask empty) is worth more (module docstring)."""
    t = a
    if P[s, F_WHITE] < SP[s, SLOT_FLASK, 1]:
        return 0  # below the rule's white total too, where a returned white rarely pays
    k = P[s, F_NPOT]
    in_bowl = k == 0 or P[s, POT_T + k - 1] != t or (R[R_BOWL] != 0
                                                      and P[s, POT_P + k - 1] >= R[R_LAST])
    limit = SP[s, SLOT_FLASK, P_FLASK_SUBBAGS]
    bag = seat_bag(P, s)
    bag[t] += 1
    if (in_bowl or SP[s, SLOT_STOP, P_LEAF_MODEL] < LEAF_MARGINAL
            or (limit > 0 and subbag_count(bag) > limit)):
        return 1 if flask_rule(P, s, t, SP) else 0
    back, keep = flask_gain(P, s, t, G, R, SP, M)
    return 1 if back > keep + 1e-12 else 0
