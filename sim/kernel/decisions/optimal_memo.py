"""The optimal stopper's memo: a hash table of solved states in a float64 array, and the keys.

``M[0]`` counts the entries; key and value pairs follow from index 2, with linear probing over a
power-of-two table. A key hashes the state (the bag, the white total, the pot's positions, the
flask) on top of ``setup_hash``, the hash of everything else a value depends on, so one memo
serves every potion, round and game a seat's memory sees.
"""

from __future__ import annotations

import numpy as np
from numba import uint64

from sim.kernel.jit import kernel
from sim.rules.chips import N_TYPES

_FNV_OFFSET = uint64(0xCBF29CE484222325)
_FNV_PRIME = uint64(0x100000001B3)
_KEY_MASK = (1 << 52) - 1  # keys are stored as float64: 52 bits are exact


@kernel(nrt=True)
def memo_capacity(M):
    """Entries the hash table in M holds (M[0] counts them; pairs key, value from index 2)."""
    return (M.shape[0] - 2) // 2


@kernel(nrt=True)
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


@kernel(nrt=True)
def memo_put(M, key, value):
    """Store value under key. A table 85% full is emptied first: it only caches values, so a
    solve can go on without it, and one that stopped storing would take exponential time."""
    cap = memo_capacity(M)
    if cap < 16:
        return
    if M[0] > 0.85 * cap:
        M[:] = 0.0
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


@kernel(nrt=True)
def state_key(h0, bag, white, anchor, norange, flask, lt, lp, pt, pp):
    """The memo key of a decision state (52 bits, never 0)."""
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


@kernel(nrt=True)
def setup_hash(ctx, V):
    """Hash of everything besides the state that a value depends on (so the memo can be shared
    by every potion, round and game that a seat's memory sees)."""
    h = _FNV_OFFSET
    for j in range(ctx.shape[0]):
        h = (h ^ uint64(ctx[j] + 1000)) * _FNV_PRIME
    for sp in range(V.shape[0]):  # the leaves' values (a table of the same values, the same hash)
        for e in range(V.shape[1]):
            h = (h ^ uint64(np.int64(V[sp, e] * 1e9 + 0.5) + 1000)) * _FNV_PRIME
    return np.int64(h >> uint64(1))
