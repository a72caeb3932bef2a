"""The optimal stopper: exact dynamic programming over the rest of the potion, in Numba.

At each decision it solves the rest of the potion from the current state by recursion over the
chips left in the bag (memoized on the whole state), with the same value of a reward space as the
one-step expected-value stopper (``potion_value.space_value``: VP + coins x coin value + ruby x ruby
value; an exploded pot takes the better of VP and coins). Blue chips place the highest-value
non-white chip they look at, yellow chips return the white before them, and the flask follows the
seat's ``flask`` parameters (a white of value >= V), as in the built-in players.

Three exact shortcuts keep it fast: a decision where one chip then stopping already beats
stopping draws without solving (``draw_lower_bound``); inside a solve, a state where no draw can
beat stopping stops without expanding (``draw_bound``); and a blue chip's look is summed in
closed form over the chip it places rather than over every set of chips it may see.

It is compiled on its own (it needs memory for its memo) and reached through the slot-function
table as its entry 0, with the uniform slot signature (``slot_call.SLOT_SIGNATURE``).
"""

from __future__ import annotations

import numpy as np

from sim.kernel.decisions.buy_marginal import comb
from sim.kernel.decisions.optimal_memo import (
    memo_capacity,
    memo_get,
    memo_put,
    setup_hash,
    state_key,
)
from sim.kernel.decisions.potion_value import one_step_ev_draws
from sim.kernel.decisions.slots import P_OPT_MAX_SUBBAGS, SLOT_STOP
from sim.kernel.decisions.solve_setup import (
    C_FLASK_MINW,
    C_FLASK_V,
    C_LAST,
    C_LIMIT,
    C_REUSE,
    C_START,
    seat_bag,
    seat_leaves,
    solve_context,
    subbag_count,
)
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    F_ANCHOR,
    F_FLASK,
    F_NORANGE,
    F_NPOT,
    F_WHITE,
    POT_P,
    POT_T,
)
from sim.rules.chips import BLUE, N_TYPES, ORANGE, RED, TYPE_COLOUR, TYPE_VALUE, WHITE, YELLOW
from sim.rules.track import SPOON, TRACK_LEN

MODE_DECIDE, MODE_PLACE, MODE_BLUE = 0, 1, 2


def _blue_order():
    """The non-white chip types from the one a blue chip places last to the one it places first
    (it places the highest value it looks at, and of equal values the highest colour index)."""
    keys = [(int(TYPE_VALUE[t]) * 16 + int(TYPE_COLOUR[t]), t) for t in range(N_TYPES)
            if TYPE_COLOUR[t] != WHITE]
    return np.array([t for _, t in sorted(keys)], dtype=np.int64)


BLUE_ORDER = _blue_order()


@kernel(nrt=True)
def prefix_max_values(V):
    """PM[s]: the most any ending on reward space s or before is worth (intact or exploded)."""
    PM = np.empty(TRACK_LEN, dtype=np.float64)
    best = -np.inf
    for sp in range(TRACK_LEN):
        best = max(best, V[sp, 0],
                   V[sp, 1])
        PM[sp] = best
    return PM


@kernel(nrt=True)
def draw_bound(bag, n, white, anchor, flask, ctx, PM, V):
    """An upper bound on the value of drawing from a decision state: a white that explodes the
    pot now is worth its exploded space; any other chip at most the best space the bag could
    still reach (every chip's value, +2 for a red's pumpkin bonus, +3 for each yellow's and the
    flask's white going back into the bag)."""
    moves = 3 if flask != 0 else 0
    for u in range(N_TYPES):
        c = bag[u]
        if c > 0:
            col = TYPE_COLOUR[u]
            moves += c * TYPE_VALUE[u]
            if col == RED:
                moves += 2 * c
            elif col == YELLOW:
                moves += 3 * c
    last = ctx[C_LAST]
    safe = PM[min(min(anchor + moves, last) + 1, SPOON)]
    ub = 0.0
    boom = 0
    for u in range(N_TYPES):
        c = bag[u]
        if c > 0 and TYPE_COLOUR[u] == WHITE and white + TYPE_VALUE[u] > ctx[C_LIMIT]:
            boom += c
            ub += c * V[min(min(anchor + TYPE_VALUE[u], last) + 1, SPOON), 1]
    return (ub + (n - boom) * safe) / n


@kernel(nrt=True)
def draw_lower_bound(bag, white, anchor, norange, flask, lt, lp, ctx, V):
    """A lower bound on the value of drawing from a decision state: each chip is valued as if the
    potion stopped right after it (a white that explodes the pot at its exploded space, one the
    flask sends back at the space now), and a blue chip, whose look places one more chip, at the
    least any space from its own on is worth. Drawing then playing optimally is worth at least
    this, so a state where it beats stopping draws without solving anything."""
    n = 0
    for u in range(N_TYPES):
        n += bag[u]
    if n == 0:
        return -np.inf
    last = ctx[C_LAST]
    now = V[min(lp + 1, SPOON) if lt >= 0 else min(ctx[C_START] + 1, SPOON), 0]
    lb = 0.0
    for u in range(N_TYPES):
        c = bag[u]
        if c == 0:
            continue
        col = TYPE_COLOUR[u]
        v = TYPE_VALUE[u]
        move = v
        if col == RED:
            move += 2 if norange >= 3 else (1 if norange >= 1 else 0)
        pos = min(anchor + move, last)
        if col == WHITE and white + v > ctx[C_LIMIT]:
            worth = V[min(pos + 1, SPOON), 1]
        elif (col == WHITE and flask != 0 and ctx[C_FLASK_V] > 0 and v >= ctx[C_FLASK_V]
              and white + v >= ctx[C_FLASK_MINW]):
            worth = now
        elif col == BLUE and pos < last:
            worth = np.inf
            for sp in range(min(pos + 1, SPOON), TRACK_LEN):
                worth = min(worth, V[sp, 0])
        else:
            worth = V[min(pos + 1, SPOON), 0]
        lb += c * worth
    return lb / n


# Frame fields of the iterative DP (one row per pending call): ints in FI, floats in FF.
(X_MODE, X_T, X_WHITE, X_ANCHOR, X_NORANGE, X_FLASK, X_LT, X_LP, X_PT, X_PP, X_I, X_REM, X_PC,
 X_U, X_FLASKED, X_RETURNED, X_N, X_KEY, X_K, X_PICK) = range(20)
N_XI = 20
Y_ACC, Y_BEST, Y_P, Y_DENOM = range(4)
N_YF = 4
MAX_FRAMES = 8192


@kernel(nrt=True)
def frames():
    """Scratch for ``dp``: frame ints and frame floats (every field is written before it is
    read, so nothing needs clearing)."""
    return (np.empty((MAX_FRAMES, N_XI), dtype=np.int64),
            np.empty((MAX_FRAMES, N_YF), dtype=np.float64))


@kernel(nrt=True)
def _push(FI, FF, d, mode, t, src, rem):
    """Frame d: a call in ``mode`` for chip ``t`` from the state of frame ``src`` (``rem``: the
    number of chips a blue chip looks at)."""
    for j in (X_WHITE, X_ANCHOR, X_NORANGE, X_FLASK, X_LT, X_LP, X_PT, X_PP):
        FI[d, j] = FI[src, j]
    FI[d, X_MODE] = mode
    FI[d, X_T] = t
    FI[d, X_REM] = rem
    FI[d, X_PC] = 0
    FI[d, X_FLASKED] = -1
    FI[d, X_RETURNED] = -1


@kernel(nrt=True)
def dp(mode, t, bag, white, anchor, norange, flask, lt, lp, pt, pp, ctx, V, M, h0,
       FI, FF, PM):
    """Expected value of the rest of the potion under optimal stopping (see module docstring),
    from a call in ``mode``.

    MODE_DECIDE: a chip has resolved; apply the flask policy, then the better of stopping and
    drawing. MODE_PLACE: chip ``t`` has just left the bag; place it and resolve it. MODE_BLUE:
    a blue chip looks at ``rem`` chips and places the best non-white one; the chip it places is
    ``u`` with probability (C(m + bag[u], k) - C(m, k)) / C(n, k), m the chips it ranks below
    ``u`` (whites included), so the looks are never enumerated one by one.
    The recursion runs on an explicit stack of frames (so Numba can cache it); ``bag`` is changed
    in place and restored before returning. ``M`` is the memo (hash table); ``FI`` and ``FF``
    are scratch (``frames``): the frames' ints and floats; ``PM`` is ``prefix_max_values``.
    A decision whose ``draw_bound`` is no more than stopping stops without solving the draw.
    """
    FI[0, X_WHITE] = white
    FI[0, X_ANCHOR] = anchor
    FI[0, X_NORANGE] = norange
    FI[0, X_FLASK] = flask
    FI[0, X_LT] = lt
    FI[0, X_LP] = lp
    FI[0, X_PT] = pt
    FI[0, X_PP] = pp
    _push(FI, FF, 0, mode, t, 0, 0)
    d = 0  # the frame running
    ret = 0.0  # the value the last finished frame returned
    last = ctx[C_LAST]
    while True:
        m = FI[d, X_MODE]
        pc = FI[d, X_PC]
        done = False
        out = 0.0
        if m == MODE_DECIDE:
            if pc == 0:
                lt_ = FI[d, X_LT]
                klt = lt_ if lt_ < 0 or TYPE_COLOUR[lt_] == WHITE else 100
                if FI[d, X_FLASK] != 0 and klt >= 0 and klt != 100:
                    pt_ = FI[d, X_PT]
                    kpt = pt_ if pt_ < 0 or TYPE_COLOUR[pt_] == WHITE else 100
                    kpp = FI[d, X_PP]
                else:
                    kpt = -3
                    kpp = -3
                key = state_key(h0, bag, FI[d, X_WHITE], FI[d, X_ANCHOR], FI[d, X_NORANGE],
                           FI[d, X_FLASK], klt, FI[d, X_LP], kpt, kpp)
                got = memo_get(M, key)
                if not np.isnan(got):
                    out = got
                    done = True
                else:
                    FI[d, X_KEY] = key
                    if (FI[d, X_FLASK] != 0 and lt_ >= 0 and TYPE_COLOUR[lt_] == WHITE
                            and ctx[C_FLASK_V] > 0 and TYPE_VALUE[lt_] >= ctx[C_FLASK_V]
                            and FI[d, X_WHITE] >= ctx[C_FLASK_MINW]):
                        FI[d, X_FLASKED] = lt_
                        bag[lt_] += 1
                        FI[d, X_WHITE] -= TYPE_VALUE[lt_]
                        if ctx[C_REUSE] != 0:
                            FI[d, X_ANCHOR] = FI[d, X_PP] if FI[d, X_PT] >= 0 else ctx[C_START]
                        FI[d, X_LT] = FI[d, X_PT]
                        FI[d, X_LP] = FI[d, X_PP]
                        FI[d, X_PT] = -1
                        FI[d, X_PP] = -1
                        FI[d, X_FLASK] = 0
                    lt_ = FI[d, X_LT]
                    lp_ = FI[d, X_LP]
                    reward = min(lp_ + 1, SPOON) if lt_ >= 0 else min(ctx[C_START] + 1, SPOON)
                    FF[d, Y_BEST] = V[reward, 0]
                    n = 0
                    for u in range(N_TYPES):
                        n += bag[u]
                    FI[d, X_N] = n
                    FF[d, Y_ACC] = 0.0
                    FI[d, X_U] = 0
                    go = n > 0 and not (lt_ >= 0 and lp_ >= last)
                    if go and draw_bound(bag, n, FI[d, X_WHITE], FI[d, X_ANCHOR], FI[d, X_FLASK],
                                         ctx, PM, V) <= FF[d, Y_BEST]:
                        go = False  # drawing cannot beat stopping: its subtree is not needed
                    FI[d, X_PC] = 1 if go else 3
            elif pc == 2:  # a drawn chip's value came back
                FF[d, Y_ACC] += FF[d, Y_P] * ret
                bag[FI[d, X_U]] += 1
                FI[d, X_U] += 1
                FI[d, X_PC] = 1
            if not done and FI[d, X_PC] == 1:  # draw the next kind of chip in the bag
                u = FI[d, X_U]
                while u < N_TYPES and bag[u] == 0:
                    u += 1
                if u < N_TYPES:
                    FI[d, X_U] = u
                    FF[d, Y_P] = bag[u] / FI[d, X_N]
                    bag[u] -= 1
                    FI[d, X_PC] = 2
                    _push(FI, FF, d + 1, MODE_PLACE, u, d, 0)
                    d += 1
                    continue
                FF[d, Y_BEST] = max(FF[d, Y_BEST], FF[d, Y_ACC])
                FI[d, X_PC] = 3
            if not done and FI[d, X_PC] == 3:
                if FI[d, X_FLASKED] >= 0:
                    bag[FI[d, X_FLASKED]] -= 1
                memo_put(M, FI[d, X_KEY], FF[d, Y_BEST])
                out = FF[d, Y_BEST]
                done = True
        elif m == MODE_PLACE:
            if pc == 0:
                t_ = FI[d, X_T]
                c = TYPE_COLOUR[t_]
                v = TYPE_VALUE[t_]
                move = v
                if c == RED:
                    no = FI[d, X_NORANGE]
                    move += 2 if no >= 3 else (1 if no >= 1 else 0)
                pos = min(FI[d, X_ANCHOR] + move, last)
                FI[d, X_PT] = FI[d, X_LT]
                FI[d, X_PP] = FI[d, X_LP]
                FI[d, X_LT] = t_
                FI[d, X_LP] = pos
                FI[d, X_ANCHOR] = pos
                if c == ORANGE:
                    FI[d, X_NORANGE] = min(FI[d, X_NORANGE] + 1, 3)
                exploded = False
                if c == WHITE:
                    FI[d, X_WHITE] += v
                    exploded = FI[d, X_WHITE] > ctx[C_LIMIT]
                if exploded:
                    out = V[min(pos + 1, SPOON), 1]
                    done = True
                else:
                    pt_ = FI[d, X_PT]
                    if c == YELLOW and pt_ >= 0 and TYPE_COLOUR[pt_] == WHITE:
                        FI[d, X_RETURNED] = pt_
                        bag[pt_] += 1
                        FI[d, X_WHITE] -= TYPE_VALUE[pt_]
                        FI[d, X_PT] = -1
                        FI[d, X_PP] = -1
                    n = 0
                    for u in range(N_TYPES):
                        n += bag[u]
                    FI[d, X_PC] = 1
                    if c == BLUE and pos < last and n > 0:
                        _push(FI, FF, d + 1, MODE_BLUE, t_, d, min(v, n))
                    else:
                        _push(FI, FF, d + 1, MODE_DECIDE, -1, d, 0)
                    d += 1
                    continue
            else:
                out = ret
                if FI[d, X_RETURNED] >= 0:
                    bag[FI[d, X_RETURNED]] -= 1
                done = True
        else:  # MODE_BLUE: the chip placed is u = BLUE_ORDER[X_I - 1] ..., X_K chips ranked below
            if pc == 0:
                n = 0
                nw = 0
                for u in range(N_TYPES):
                    n += bag[u]
                    if TYPE_COLOUR[u] == WHITE:
                        nw += bag[u]
                k = FI[d, X_REM]
                FF[d, Y_DENOM] = comb(n, k)
                FF[d, Y_ACC] = 0.0
                FI[d, X_I] = 0
                FI[d, X_K] = nw
                FI[d, X_PICK] = -1
                FI[d, X_PC] = 1
                if nw >= k:  # only whites looked at: nothing is placed
                    FF[d, Y_P] = comb(nw, k) / FF[d, Y_DENOM]
                    FI[d, X_PC] = 2
                    _push(FI, FF, d + 1, MODE_DECIDE, -1, d, 0)
                    d += 1
                    continue
            else:  # a placed chip's value came back
                FF[d, Y_ACC] += FF[d, Y_P] * ret
                if FI[d, X_PICK] >= 0:
                    bag[FI[d, X_PICK]] += 1
                FI[d, X_PC] = 1
            k = FI[d, X_REM]
            j = FI[d, X_I]
            below = FI[d, X_K]
            pushed = False
            while j < BLUE_ORDER.shape[0] and not pushed:
                u = BLUE_ORDER[j]
                j += 1
                cnt = bag[u]
                if cnt > 0:
                    p = (comb(below + cnt, k) - comb(below, k)) / FF[d, Y_DENOM]
                    below += cnt
                    if p > 0.0:
                        FI[d, X_I] = j
                        FI[d, X_K] = below
                        FI[d, X_PICK] = u
                        FF[d, Y_P] = p
                        FI[d, X_PC] = 2
                        bag[u] -= 1
                        _push(FI, FF, d + 1, MODE_PLACE, u, d, 0)
                        pushed = True
            if pushed:
                d += 1
                continue
            out = FF[d, Y_ACC]
            done = True
        if done:
            if d == 0:
                return out
            ret = out
            d -= 1


@kernel(nrt=True)
def solve(bag, white, anchor, norange, flask, lt, lp, pt, pp, ctx, V, M):
    """(value of stopping now, value of drawing then playing optimally) from a decision state
    whose last chip has already been resolved (flask included). ``M`` is the memo."""
    h0 = setup_hash(ctx, V)
    if M[0] > 0.5 * memo_capacity(M):
        M[:] = 0.0
    reward = min(lp + 1, SPOON) if lt >= 0 else min(ctx[C_START] + 1, SPOON)
    stop = V[reward, 0]
    n = 0
    for u in range(N_TYPES):
        n += bag[u]
    if n == 0:
        return stop, -1.0
    FI, FF = frames()
    PM = prefix_max_values(V)
    draw = 0.0
    for u in range(N_TYPES):
        cnt = bag[u]
        if cnt > 0:
            bag[u] -= 1
            draw += cnt / n * dp(MODE_PLACE, u, bag, white, anchor, norange, flask, lt, lp, pt, pp,
                                 ctx, V, M, h0, FI, FF, PM)
            bag[u] += 1
    return stop, draw


def optimal_stop(P, s, G, R, SP, a, b, M):
    """Slot function: 1 to draw again if drawing is worth more than stopping (exact DP).

    The leaves are valued as its stop slot's ``P_LEAF_MODEL`` says (the ``master`` preset): by
    the marginal buyer (``LEAF_MARGINAL``, ``leaf_marginal``), by the seat's value model
    (``LEAF_MODEL``, when a model is attached), otherwise linearly (coin, ruby and VP values)."""
    bag = seat_bag(P, s)
    k = P[s, F_NPOT]
    lt = P[s, POT_T + k - 1] if k >= 1 else -1
    lp = P[s, POT_P + k - 1] if k >= 1 else -1
    pt = P[s, POT_T + k - 2] if k >= 2 else -1
    pp = P[s, POT_P + k - 2] if k >= 2 else -1
    ctx = solve_context(P, s, R, SP)
    V = seat_leaves(P, s, G, R, SP)
    white = P[s, F_WHITE]
    anchor = P[s, F_ANCHOR]
    norange = min(P[s, F_NORANGE], 3)
    stop = V[min(lp + 1, SPOON) if lt >= 0 else min(ctx[C_START] + 1, SPOON), 0]
    if draw_lower_bound(bag, white, anchor, norange, P[s, F_FLASK], lt, lp, ctx, V) > stop + 1e-12:
        return 1  # drawing once then stopping already beats stopping: so does the optimum
    limit = SP[s, SLOT_STOP, P_OPT_MAX_SUBBAGS]
    if limit > 0 and subbag_count(bag) > limit:
        # Too many sub-bags to solve now: decide by the one-step expected value of the linear
        # values until the bag left is small enough to solve exactly (it shrinks with every
        # draw). Not by the lower bound of the leaves above: a leaf table with steps (coins
        # worth what they buy) makes one step look worthless far more often than it is.
        return 1 if one_step_ev_draws(P, s, G, R, SP) else 0
    stop, draw = solve(bag, white, anchor, norange, P[s, F_FLASK], lt, lp, pt, pp, ctx, V, M)
    return 1 if draw > stop + 1e-12 else 0
