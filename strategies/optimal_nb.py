"""The optimal stopper: exact dynamic programming over the rest of the potion, in Numba.

At each decision it solves the rest of the potion from the current state by recursion over the
chips left in the bag (memoized on the whole state), with the same value of a reward space as the
one-step expected-value stopper (``potion_value_nb.space_value``: VP + coins x coin value + ruby x ruby
value; an exploded pot takes the better of VP and coins). Blue chips place the highest-value
non-white chip they look at, yellow chips return the white before them, and the flask follows the
seat's ``flask`` parameters (a white of value >= V), as in the built-in players.

It is compiled on its own (it needs memory for its memo) and reached through the slot-function
table ``UF[0]``, with the uniform slot signature of ``strategies.plugin``.
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

from sim.kernel.layout import (
    BAGCNT,
    F_ANCHOR,
    F_FLASK,
    F_LIMIT,
    F_NORANGE,
    F_NPOT,
    F_START,
    F_WHITE,
    POT_P,
    POT_T,
    R_FLASK_REUSE,
    R_LAST,
)
from sim.rules.chips import BLUE, N_TYPES, ORANGE, RED, TYPE_COLOUR, TYPE_VALUE, WHITE, YELLOW
from strategies.potion_value_nb import one_step_ev_draws, space_value
from strategies.slots import (
    P_OPT_MAX_SUBBAGS,
    P_RUBY_VALUE,
    P_VP_VALUE,
    ROUND_PARAMS,
    SLOT_FLASK,
    SLOT_STOP,
)

MODE_DECIDE, MODE_PLACE, MODE_BLUE = 0, 1, 2
# ctx (int64): limit, last space, start, flask V (0 none), flask min white, reuse flag
C_LIMIT, C_LAST, C_START, C_FLASK_V, C_FLASK_MINW, C_REUSE = range(6)
_FNV_OFFSET = uint64(0xCBF29CE484222325)
_FNV_PRIME = uint64(0x100000001B3)


@njit(cache=True, error_model="numpy")
def _comb(n, k):
    if k < 0 or k > n:
        return 0.0
    out = 1.0
    for i in range(k):
        out = out * (n - i) / (i + 1)
    return out


@njit(cache=True, error_model="numpy")
def _best_blue(taken):
    best = -1
    bestkey = 0
    for t in range(N_TYPES):
        if taken[t] > 0 and TYPE_COLOUR[t] != WHITE:
            key = TYPE_VALUE[t] * 16 + TYPE_COLOUR[t]
            if key > bestkey:
                best = t
                bestkey = key
    return best


_KEY_MASK = (1 << 52) - 1  # keys are stored as float64: 52 bits are exact


@njit(cache=True, error_model="numpy")
def memo_capacity(M):
    """Entries the hash table in M holds (M[0] counts them; pairs key, value from index 2)."""
    return (M.shape[0] - 2) // 2


@njit(cache=True, error_model="numpy")
def memo_get(M, key):
    """The stored value for key, or NaN (linear probing over a power-of-two table)."""
    cap = memo_capacity(M)
    if cap < 16:
        return np.nan
    fk = np.float64(key)
    i = (key >> 7) & (cap - 1)
    for _ in range(64):
        kk = M[2 + 2 * i]
        if kk == fk:
            return M[3 + 2 * i]
        if kk == 0.0:
            return np.nan
        i = (i + 1) & (cap - 1)
    return np.nan


@njit(cache=True, error_model="numpy")
def memo_put(M, key, value):
    """Store value under key (nothing is stored once the table is 85% full: ``solve`` clears it
    between decisions, never in the middle of one)."""
    cap = memo_capacity(M)
    if cap < 16 or M[0] > 0.85 * cap:
        return
    fk = np.float64(key)
    i = (key >> 7) & (cap - 1)
    for _ in range(64):
        kk = M[2 + 2 * i]
        if kk == 0.0 or kk == fk:
            if kk == 0.0:
                M[0] += 1
            M[2 + 2 * i] = fk
            M[3 + 2 * i] = value
            return
        i = (i + 1) & (cap - 1)


@njit(cache=True, error_model="numpy")
def _key(h0, bag, white, anchor, norange, flask, lt, lp, pt, pp):
    h = uint64(h0)
    for t in range(N_TYPES):
        h = (h ^ uint64(bag[t])) * _FNV_PRIME
    h = (h ^ uint64(white + 1000)) * _FNV_PRIME
    h = (h ^ uint64(anchor + 1000)) * _FNV_PRIME
    h = (h ^ uint64(norange + 1000)) * _FNV_PRIME
    h = (h ^ uint64(flask + 1000)) * _FNV_PRIME
    h = (h ^ uint64(lt + 1000)) * _FNV_PRIME
    h = (h ^ uint64(lp + 1000)) * _FNV_PRIME
    h = (h ^ uint64(pt + 1000)) * _FNV_PRIME
    h = (h ^ uint64(pp + 1000)) * _FNV_PRIME
    return np.int64(h & uint64(_KEY_MASK)) | 1


@njit(cache=True, error_model="numpy")
def setup_hash(ctx, cv, rv, vv):
    """Hash of everything besides the state that a value depends on (so the memo can be shared
    by every potion, round and game that a seat's memory sees)."""
    h = _FNV_OFFSET
    for j in range(ctx.shape[0]):
        h = (h ^ uint64(ctx[j] + 1000)) * _FNV_PRIME
    for x in (cv, rv, vv):
        h = (h ^ uint64(np.int64(x * 1e6 + 0.5) + 1000)) * _FNV_PRIME
    return np.int64(h >> uint64(1))


# Frame fields of the iterative DP (one row per pending call): ints in FI, floats in FF.
(X_MODE, X_T, X_WHITE, X_ANCHOR, X_NORANGE, X_FLASK, X_LT, X_LP, X_PT, X_PP, X_I, X_REM, X_PC,
 X_U, X_FLASKED, X_RETURNED, X_N, X_KEY, X_SLOT, X_K, X_PICK, X_BLUE) = range(22)
N_XI = 22
Y_WAYS, Y_ACC, Y_BEST, Y_P, Y_DENOM = range(5)
N_YF = 5
MAX_FRAMES = 8192
MAX_BLUE = 128


@njit(cache=True, error_model="numpy")
def frames():
    """Scratch for ``dp``: frame ints, frame floats, and the chips of each open blue look (every
    field is written before it is read, so nothing needs clearing)."""
    return (np.empty((MAX_FRAMES, N_XI), dtype=np.int64), np.empty((MAX_FRAMES, N_YF), dtype=np.float64),
            np.empty((MAX_BLUE, N_TYPES), dtype=np.int64))


@njit(cache=True, error_model="numpy")
def _push(FI, FF, d, mode, t, src, i, rem, ways, slot):
    """Frame d: a call in ``mode`` for chip ``t`` from the state of frame ``src``."""
    for j in (X_WHITE, X_ANCHOR, X_NORANGE, X_FLASK, X_LT, X_LP, X_PT, X_PP):
        FI[d, j] = FI[src, j]
    FI[d, X_MODE] = mode
    FI[d, X_T] = t
    FI[d, X_I] = i
    FI[d, X_REM] = rem
    FI[d, X_PC] = 0
    FI[d, X_SLOT] = slot
    FI[d, X_FLASKED] = -1
    FI[d, X_RETURNED] = -1
    FI[d, X_BLUE] = 0
    FF[d, Y_WAYS] = ways


@njit(cache=True, error_model="numpy")
def dp(mode, t, bag, white, anchor, norange, flask, lt, lp, pt, pp, ctx, cv, rv, vv, R, M, h0,
       FI, FF, TK):
    """Expected value of the rest of the potion under optimal stopping (see module docstring),
    from a call in ``mode``.

    MODE_DECIDE: a chip has resolved; apply the flask policy, then the better of stopping and
    drawing. MODE_PLACE: chip ``t`` has just left the bag; place it and resolve it. MODE_BLUE:
    enumerate the multisets a blue chip may look at (types ``i..``, ``rem`` chips still to pick).
    The recursion runs on an explicit stack of frames (so Numba can cache it); ``bag`` is changed
    in place and restored before returning. ``M`` is the memo (hash table); ``FI``, ``FF`` and
    ``TK`` are scratch (``frames``): the frames' ints and floats and each open blue look's chips.
    """
    nblue = 0
    FI[0, X_WHITE] = white
    FI[0, X_ANCHOR] = anchor
    FI[0, X_NORANGE] = norange
    FI[0, X_FLASK] = flask
    FI[0, X_LT] = lt
    FI[0, X_LP] = lp
    FI[0, X_PT] = pt
    FI[0, X_PP] = pp
    _push(FI, FF, 0, mode, t, 0, 0, 0, 1.0, -1)
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
                key = _key(h0, bag, FI[d, X_WHITE], FI[d, X_ANCHOR], FI[d, X_NORANGE],
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
                    reward = min(lp_ + 1, 53) if lt_ >= 0 else min(ctx[C_START] + 1, 53)
                    FF[d, Y_BEST] = space_value(R, reward, False, cv, rv, vv)
                    n = 0
                    for u in range(N_TYPES):
                        n += bag[u]
                    FI[d, X_N] = n
                    FF[d, Y_ACC] = 0.0
                    FI[d, X_U] = 0
                    FI[d, X_PC] = 1 if (n > 0 and not (lt_ >= 0 and lp_ >= last)) else 3
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
                    _push(FI, FF, d + 1, MODE_PLACE, u, d, 0, 0, 1.0, -1)
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
                    out = space_value(R, min(pos + 1, 53), True, cv, rv, vv)
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
                        k = min(v, n)
                        FF[d, Y_DENOM] = _comb(n, k)
                        FI[d, X_BLUE] = 1
                        for u in range(N_TYPES):
                            TK[nblue, u] = 0
                        _push(FI, FF, d + 1, MODE_BLUE, t_, d, 0, k, 1.0, nblue)
                        nblue += 1
                    else:
                        _push(FI, FF, d + 1, MODE_DECIDE, -1, d, 0, 0, 1.0, -1)
                    d += 1
                    continue
            else:
                out = ret
                if FI[d, X_BLUE] != 0:
                    out = ret / FF[d, Y_DENOM]
                    nblue -= 1
                if FI[d, X_RETURNED] >= 0:
                    bag[FI[d, X_RETURNED]] -= 1
                done = True
        else:  # MODE_BLUE
            slot = FI[d, X_SLOT]
            if pc == 0:
                if FI[d, X_REM] == 0:
                    pick = _best_blue(TK[slot])
                    FI[d, X_PICK] = pick
                    FI[d, X_PC] = 10
                    if pick < 0:
                        _push(FI, FF, d + 1, MODE_DECIDE, -1, d, 0, 0, 1.0, -1)
                    else:
                        bag[pick] -= 1
                        _push(FI, FF, d + 1, MODE_PLACE, pick, d, 0, 0, 1.0, -1)
                    d += 1
                    continue
                if FI[d, X_I] >= N_TYPES:
                    out = 0.0
                    done = True
                else:
                    FF[d, Y_ACC] = 0.0
                    FI[d, X_K] = 0
                    FI[d, X_PC] = 1
            elif pc == 2:
                FF[d, Y_ACC] += ret
                FI[d, X_K] += 1
                FI[d, X_PC] = 1
            elif pc == 10:
                if FI[d, X_PICK] >= 0:
                    bag[FI[d, X_PICK]] += 1
                out = FF[d, Y_WAYS] * ret
                done = True
            if not done and FI[d, X_PC] == 1:
                i = FI[d, X_I]
                k = FI[d, X_K]
                if k <= min(FI[d, X_REM], bag[i]):
                    TK[slot, i] = k
                    FI[d, X_PC] = 2
                    _push(FI, FF, d + 1, MODE_BLUE, FI[d, X_T], d, i + 1, FI[d, X_REM] - k,
                          FF[d, Y_WAYS] * _comb(bag[i], k), slot)
                    d += 1
                    continue
                TK[slot, i] = 0
                out = FF[d, Y_ACC]
                done = True
        if done:
            if d == 0:
                return out
            ret = out
            d -= 1


@njit(cache=True, error_model="numpy")
def solve(bag, white, anchor, norange, flask, lt, lp, pt, pp, ctx, cv, rv, vv, R, M):
    """(value of stopping now, value of drawing then playing optimally) from a decision state
    whose last chip has already been resolved (flask included). ``M`` is the memo."""
    h0 = setup_hash(ctx, cv, rv, vv)
    if M[0] > 0.5 * memo_capacity(M):
        M[:] = 0.0
    reward = min(lp + 1, 53) if lt >= 0 else min(ctx[C_START] + 1, 53)
    stop = space_value(R, reward, False, cv, rv, vv)
    n = 0
    for u in range(N_TYPES):
        n += bag[u]
    if n == 0:
        return stop, -1.0
    FI, FF, TK = frames()
    draw = 0.0
    for u in range(N_TYPES):
        cnt = bag[u]
        if cnt > 0:
            bag[u] -= 1
            draw += cnt / n * dp(MODE_PLACE, u, bag, white, anchor, norange, flask, lt, lp, pt, pp,
                                 ctx, cv, rv, vv, R, M, h0, FI, FF, TK)
            bag[u] += 1
    return stop, draw


def _optimal_stop(P, s, G, R, SP, a, b, M):
    """Slot function: 1 to draw again if drawing is worth more than stopping (exact DP)."""
    bag = np.empty(N_TYPES, dtype=np.int64)
    for t in range(N_TYPES):
        bag[t] = P[s, BAGCNT + t]
    k = P[s, F_NPOT]
    lt = P[s, POT_T + k - 1] if k >= 1 else -1
    lp = P[s, POT_P + k - 1] if k >= 1 else -1
    pt = P[s, POT_T + k - 2] if k >= 2 else -1
    pp = P[s, POT_P + k - 2] if k >= 2 else -1
    ctx = np.empty(6, dtype=np.int64)
    ctx[C_LIMIT] = P[s, F_LIMIT]
    ctx[C_LAST] = R[R_LAST]
    ctx[C_START] = P[s, F_START]
    ctx[C_FLASK_V] = np.int64(SP[s, SLOT_FLASK, 0])
    ctx[C_FLASK_MINW] = np.int64(SP[s, SLOT_FLASK, 1])
    ctx[C_REUSE] = R[R_FLASK_REUSE]
    subbags = 1.0
    for t in range(N_TYPES):
        subbags *= bag[t] + 1
    limit = SP[s, SLOT_STOP, P_OPT_MAX_SUBBAGS]
    if limit > 0 and subbags > limit:
        # Too many sub-bags to solve now: decide by the one-step expected value until the bag
        # left is small enough to solve exactly (it shrinks with every draw).
        return 1 if one_step_ev_draws(P, s, G, R, SP) else 0
    r = min(G[0], ROUND_PARAMS - 1)
    cv = SP[s, SLOT_STOP, r]
    rv = SP[s, SLOT_STOP, P_RUBY_VALUE]
    vv = SP[s, SLOT_STOP, P_VP_VALUE]
    stop, draw = solve(bag, P[s, F_WHITE], P[s, F_ANCHOR], min(P[s, F_NORANGE], 3), P[s, F_FLASK],
                       lt, lp, pt, pp, ctx, cv, rv, vv, R, M)
    return 1 if draw > stop + 1e-12 else 0
