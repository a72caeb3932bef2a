"""Many independent potions in parallel, compiled with Numba.

Potion i of a run with seed s draws from stream (s, i, 0) only, so its result is the same on any
thread count or chunking. Results are histograms per chunk (reward space x exploded), merged by
integer sums, so memory stays flat for any number of potions.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from sim.kernel.bag import add_chip, empty_pot, reset_potion
from sim.kernel.bowl import bowl_vp
from sim.kernel.brew import after_potion
from sim.kernel.brewing import brew_until_stop
from sim.kernel.cards.hooks import potion_setup
from sim.kernel.decisions.slots import SC_WIDTH
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    BAGCNT,
    CHIPS,
    F_BOWL_N,
    F_EXPLODED,
    F_FLASK,
    F_FORCED_N,
    F_FORCED_PTR,
    F_NCHIPS,
    F_PROTECTED,
    F_REWARD,
    F_SCORE,
    G_CARD,
    G_WIDTH,
    P_WIDTH,
    PLAYER,
    R_POTION_CARD,
    R_VP,
)
from sim.kernel.rng import CHOICE_STREAM, N_STREAMS, stream_seed
from sim.rules.track import TRACK_LEN

BOWL_ROWS = 32  # histogram rows for the overflow bowl's VP (the last one: that many or more)
# histogram rows for the VP a potion scores: its reward space's, its bowl's and what its chips
# scored while brewing (a book or card's effect: blue Set 4, a user's green Sprouts); then the
# chips' alone (the last row of each: that many or more, which no bag of the game reaches); then,
# a row per reward space, the chips' VP summed over the potions ending there (for the covariance
# of a potion's value and its chips' VP: ``quacks thresholds``' value interval)
VP_ROWS = 128
BREW_ROWS = 64
VP_AT = TRACK_LEN + BOWL_ROWS
BREW_AT = VP_AT + VP_ROWS
BREW_SUM_AT = BREW_AT + BREW_ROWS
HIST_ROWS = BREW_SUM_AT + TRACK_LEN
# the player fields a rule keeps across rounds (red Set 2's chips beside the pot), as the layout
# declares them (``reset="single"``): a single potion starts them at 0
SINGLE_ZEROED = np.array(PLAYER.reset_entries("single"), dtype=np.int64)


@kernel(inline=True)
def potion_card(P, G, R, E):
    """The card a single potion is brewed under (``quacks potion --card``): its draw-time rule."""
    G[G_CARD] = R[R_POTION_CARD]
    potion_setup(P, 0, G, E)


@kernel(inline=True)
def brew_one(P, G, R, SK, SP, SC, FD, rng, E, bag, bag_counts, start, limit, flask, UF):
    """Brew one potion from a fresh bag (chip type list, in this order) on row 0 of P.

    Only the fields a potion reads are reset, and the chips are laid out in the given order, so
    the potion depends on its own random stream only, never on the potion before it.
    """
    n = bag.shape[0]
    for i in range(n):
        P[0, CHIPS + i] = bag[i]
    for t in range(bag_counts.shape[0]):
        P[0, BAGCNT + t] = bag_counts[t]
    P[0, F_NCHIPS] = n
    P[0, F_FLASK] = flask
    P[0, F_FORCED_N] = 0
    P[0, F_FORCED_PTR] = 0
    for f in SINGLE_ZEROED:
        P[0, f] = 0
    P[0, F_SCORE] = 0  # what the chips score while brewing (each potion from 0)
    empty_pot(P, 0, start, limit)
    potion_card(P, G, R, E)
    brew_until_stop(P, 0, G, R, SK, SP, SC, FD, rng, E, UF)
    after_potion(P, 0, G, R, SK, SP, SC, rng, E, UF)


@kernel(parallel=True, nrt=True)
def potion_histograms(seed, first, n, bag, start, limit, flask, R, SK, SP, n_chunks, UF_funcs,
                      UF_memory):
    """Brew potions first..first+n-1; return counts[reward space 0..53, outcome], outcome 0
    intact, 1 exploded, 2 exploded inside a blue Set 2 protection window (VP and coins); rows
    54 + b (b < BOWL_ROWS) count the potions whose overflow bowl holds chips and scores b VP (they
    are counted at space 53 as well); rows ``VP_AT`` + v count the potions scoring v VP in all
    (reward space, bowl and chips), rows ``BREW_AT`` + v those whose chips scored v VP while
    brewing, row ``BREW_SUM_AT`` + s the VP the chips of the potions ending on space s scored."""
    hist = np.zeros((n_chunks, HIST_ROWS, 3), dtype=np.int64)
    for c in prange(n_chunks):
        lo = first + c * n // n_chunks
        hi = first + (c + 1) * n // n_chunks
        P = np.zeros((1, P_WIDTH), dtype=np.int64)
        G = np.zeros(G_WIDTH, dtype=np.int64)
        SC = np.zeros((1, SC_WIDTH), dtype=np.int64)
        FD = np.zeros((1, 1), dtype=np.int64)
        E = np.zeros((0, 6), dtype=np.int64)
        rng = np.zeros(N_STREAMS, dtype=np.uint64)
        counts = np.zeros(20, dtype=np.int64)
        UFc = (UF_funcs, np.zeros_like(UF_memory))  # each chunk its own strategy memory
        for t in bag:
            counts[t] += 1
        run_chunk(seed, lo, hi, P, G, R, SK, SP, SC, FD, rng, E, bag, counts, start, limit, flask,
                  UFc, hist[c])
    return hist.sum(axis=0)


@kernel
def run_chunk(seed, lo, hi, P, G, R, SK, SP, SC, FD, rng, E, bag, counts, start, limit, flask, UF,
              hist):
    """Potions lo..hi-1 into ``hist`` (one chunk, one thread): the whole potion loop is one
    function without reference counting, with the brewing inlined."""
    for i in range(lo, hi):
        rng[0] = stream_seed(seed, i, 0)
        rng[CHOICE_STREAM] = stream_seed(seed, i, CHOICE_STREAM)  # a random strategy's choices
        brew_one(P, G, R, SK, SP, SC, FD, rng, E, bag, counts, start, limit, flask, UF)
        outcome = P[0, F_EXPLODED] + P[0, F_PROTECTED]
        hist[P[0, F_REWARD], outcome] += 1
        vp = R[R_VP + P[0, F_REWARD]] + P[0, F_SCORE]
        if P[0, F_BOWL_N] > 0:
            hist[TRACK_LEN + min(bowl_vp(P, 0), BOWL_ROWS - 1), outcome] += 1
            vp += bowl_vp(P, 0)
        hist[VP_AT + min(max(vp, 0), VP_ROWS - 1), outcome] += 1
        brewed = min(max(P[0, F_SCORE], 0), BREW_ROWS - 1)
        hist[BREW_AT + brewed, outcome] += 1
        hist[BREW_SUM_AT + P[0, F_REWARD], outcome] += brewed


@kernel(nrt=True)
def potion_forced(bag, draws, start, limit, flask, R, SK, SP, E, UF):
    """Brew one potion drawing exactly ``draws`` in order; return (P row, G) for inspection."""
    P = np.zeros((1, P_WIDTH), dtype=np.int64)
    G = np.zeros(G_WIDTH, dtype=np.int64)
    SC = np.zeros((1, SC_WIDTH), dtype=np.int64)
    FD = np.zeros((1, max(1, draws.shape[0])), dtype=np.int64)
    FD[0, : draws.shape[0]] = draws
    rng = np.zeros(N_STREAMS, dtype=np.uint64)
    P[0, :] = 0
    for t in bag:
        add_chip(P, 0, t)
    P[0, F_FLASK] = flask
    reset_potion(P, 0, start, limit)
    potion_card(P, G, R, E)
    P[0, F_FORCED_N] = draws.shape[0]
    brew_until_stop(P, 0, G, R, SK, SP, SC, FD, rng, E, UF)
    after_potion(P, 0, G, R, SK, SP, SC, rng, E, UF)
    return P, G
