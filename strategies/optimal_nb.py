"""The optimal stopper: exact dynamic programming over the rest of the potion, in Numba.

At each decision it solves the rest of the potion from the current state by recursion over the
chips left in the bag (memoized on the whole state), with the same value of a reward space as the
one-step expected-value stopper (``decide_nb.space_value``: VP + coins x coin value + ruby x ruby
value; an exploded pot takes the better of VP and coins). Blue chips place the highest-value
non-white chip they look at, yellow chips return the white before them, and the flask follows the
seat's ``flask`` parameters (a white of value >= V), as in the built-in players.

It is compiled on its own (it needs memory for its memo) and reached through the slot-function
table ``UF[0]``, with the uniform slot signature of ``strategies.plugin``.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types, uint64

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
from strategies.decide_nb import one_step_ev_draws, space_value
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


_I = types.int64
_A = types.int64[::1]
_F = types.float64
_M = types.float64[::1]
DP_SIGNATURE = _F(_I, _I, _A, _I, _I, _I, _I, _I, _I, _I, _I, _A, _I, _I, _F, _A, _F, _F, _F, _A,
                  _M, _I)
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


@njit(DP_SIGNATURE, error_model="numpy")  # recursive: Numba cannot cache it
def dp(mode, t, bag, white, anchor, norange, flask, lt, lp, pt, pp, taken, i, rem, ways,
       ctx, cv, rv, vv, R, M, h0):
    """Expected value of the rest of the potion under optimal stopping (see module docstring).

    MODE_DECIDE: a chip has resolved; apply the flask policy, then the better of stopping and
    drawing. MODE_PLACE: chip ``t`` has just left the bag; place it and resolve it. MODE_BLUE:
    enumerate the multisets a blue chip may look at (types ``i..``, ``rem`` chips still to pick).
    ``bag`` is changed in place and restored before returning. ``M`` is the memo (hash table).
    """
    if mode == MODE_BLUE:
        if rem == 0:
            pick = _best_blue(taken)
            if pick < 0:
                return ways * dp(MODE_DECIDE, -1, bag, white, anchor, norange, flask, lt, lp, pt, pp,
                                 taken, 0, 0, 1.0, ctx, cv, rv, vv, R, M, h0)
            bag[pick] -= 1
            v = ways * dp(MODE_PLACE, pick, bag, white, anchor, norange, flask, lt, lp, pt, pp,
                          taken, 0, 0, 1.0, ctx, cv, rv, vv, R, M, h0)
            bag[pick] += 1
            return v
        if i >= N_TYPES:
            return 0.0
        acc = 0.0
        for k in range(min(rem, bag[i]) + 1):
            taken[i] = k
            acc += dp(MODE_BLUE, t, bag, white, anchor, norange, flask, lt, lp, pt, pp, taken,
                      i + 1, rem - k, ways * _comb(bag[i], k), ctx, cv, rv, vv, R, M, h0)
        taken[i] = 0
        return acc
    if mode == MODE_PLACE:
        c = TYPE_COLOUR[t]
        v = TYPE_VALUE[t]
        move = v
        if c == RED:
            move += 2 if norange >= 3 else (1 if norange >= 1 else 0)
        pos = min(anchor + move, ctx[C_LAST])
        pt = lt
        pp = lp
        lt = t
        lp = pos
        anchor = pos
        if c == ORANGE:
            norange = min(norange + 1, 3)
        if c == WHITE:
            white += v
            if white > ctx[C_LIMIT]:
                return space_value(R, min(pos + 1, 53), True, cv, rv, vv)
        returned = -1
        if c == YELLOW and pt >= 0 and TYPE_COLOUR[pt] == WHITE:
            returned = pt
            bag[pt] += 1
            white -= TYPE_VALUE[pt]
            pt = -1
            pp = -1
        n = 0
        for u in range(N_TYPES):
            n += bag[u]
        if c == BLUE and anchor < ctx[C_LAST] and n > 0:
            m = min(v, n)
            fresh = np.zeros(N_TYPES, dtype=np.int64)
            val = dp(MODE_BLUE, t, bag, white, anchor, norange, flask, lt, lp, pt, pp, fresh,
                     0, m, 1.0, ctx, cv, rv, vv, R, M, h0) / _comb(n, m)
        else:
            val = dp(MODE_DECIDE, -1, bag, white, anchor, norange, flask, lt, lp, pt, pp, taken,
                     0, 0, 1.0, ctx, cv, rv, vv, R, M, h0)
        if returned >= 0:
            bag[returned] -= 1
        return val
    # MODE_DECIDE
    # The key keeps only what the future depends on: whether the last chip is white (and which
    # white: the flask and a following yellow care), and the chip before it only while the flask
    # could still take the last chip away.
    klt = lt if lt < 0 or TYPE_COLOUR[lt] == WHITE else 100
    if flask != 0 and klt >= 0 and klt != 100:
        kpt = pt if pt < 0 or TYPE_COLOUR[pt] == WHITE else 100
        kpp = pp
    else:
        kpt = -3
        kpp = -3
    key = _key(h0, bag, white, anchor, norange, flask, klt, lp, kpt, kpp)
    got = memo_get(M, key)
    if not np.isnan(got):
        return got
    flasked = -1
    if (flask != 0 and lt >= 0 and TYPE_COLOUR[lt] == WHITE and ctx[C_FLASK_V] > 0
            and TYPE_VALUE[lt] >= ctx[C_FLASK_V] and white >= ctx[C_FLASK_MINW]):
        flasked = lt
        bag[lt] += 1
        white -= TYPE_VALUE[lt]
        if ctx[C_REUSE] != 0:
            anchor = pp if pt >= 0 else ctx[C_START]
        lt = pt
        lp = pp
        pt = -1
        pp = -1
        flask = 0
    reward = min(lp + 1, 53) if lt >= 0 else min(ctx[C_START] + 1, 53)
    best = space_value(R, reward, False, cv, rv, vv)
    n = 0
    for u in range(N_TYPES):
        n += bag[u]
    if n > 0 and not (lt >= 0 and lp >= ctx[C_LAST]):
        draw = 0.0
        for u in range(N_TYPES):
            cnt = bag[u]
            if cnt > 0:
                bag[u] -= 1
                draw += cnt / n * dp(MODE_PLACE, u, bag, white, anchor, norange, flask, lt, lp, pt,
                                     pp, taken, 0, 0, 1.0, ctx, cv, rv, vv, R, M, h0)
                bag[u] += 1
        best = max(best, draw)
    if flasked >= 0:
        bag[flasked] -= 1
    memo_put(M, key, best)
    return best


@njit(error_model="numpy")  # calls the recursive dp: not cached either
def solve(bag, white, anchor, norange, flask, lt, lp, pt, pp, ctx, cv, rv, vv, R, M):
    """(value of stopping now, value of drawing then playing optimally) from a decision state
    whose last chip has already been resolved (flask included). ``M`` is the memo."""
    h0 = setup_hash(ctx, cv, rv, vv)
    if M[0] > 0.5 * memo_capacity(M):
        M[:] = 0.0
    taken = np.zeros(N_TYPES, dtype=np.int64)
    reward = min(lp + 1, 53) if lt >= 0 else min(ctx[C_START] + 1, 53)
    stop = space_value(R, reward, False, cv, rv, vv)
    n = 0
    for u in range(N_TYPES):
        n += bag[u]
    if n == 0:
        return stop, -1.0
    draw = 0.0
    for u in range(N_TYPES):
        cnt = bag[u]
        if cnt > 0:
            bag[u] -= 1
            draw += cnt / n * dp(MODE_PLACE, u, bag, white, anchor, norange, flask, lt, lp, pt, pp,
                                 taken, 0, 0, 1.0, ctx, cv, rv, vv, R, M, h0)
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
