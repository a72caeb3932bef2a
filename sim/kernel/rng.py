"""Counter-based random numbers for the kernels (SplitMix64).

Every stream is derived from ``(run seed, item index, stream id)`` by hashing, so item ``i`` of a
run draws the same numbers whatever the thread count, chunking or machine. A stream's whole state is
one ``uint64`` kept in a one-element array so kernels can advance it in place.

All arithmetic stays in ``uint64``: mixing it with signed integers makes Numba produce floats.
"""

from __future__ import annotations

import numpy as np
from numba import uint64

from sim.kernel.jit import kernel

_GOLDEN = uint64(0x9E3779B97F4A7C15)
_M1 = uint64(0xBF58476D1CE4E5B9)
_M2 = uint64(0x94D049BB133111EB)


@kernel(inline=True, nrt=True)
def mix64(z):
    """The SplitMix64 finaliser: a bijective avalanche of a 64-bit word."""
    z = uint64(z)
    z = (z ^ (z >> uint64(30))) * _M1
    z = (z ^ (z >> uint64(27))) * _M2
    return z ^ (z >> uint64(31))


@kernel(inline=True, nrt=True)
def seed_hash(seed):
    """The first step of every stream's start: the run seed's hash (the same for a whole run)."""
    return mix64(uint64(seed) + _GOLDEN)


@kernel(inline=True, nrt=True)
def item_hash(h, item):
    """The second step: item ``item``'s hash from the run's ``seed_hash``."""
    return mix64(h ^ (uint64(item) * _GOLDEN + uint64(0x632BE59BD9B4E019)))


@kernel(inline=True, nrt=True)
def stream_start(h, stream):
    """The last step: stream ``stream``'s initial state from its item's ``item_hash``."""
    return mix64(h ^ (uint64(stream) * _M2 + uint64(0xD1B54A32D192ED03)))


@kernel(nrt=True)
def stream_seed(seed, item, stream):
    """Initial state of stream ``stream`` of item ``item`` in a run seeded with ``seed``."""
    return stream_start(item_hash(seed_hash(seed), item), stream)


@kernel(inline=True, nrt=True)
def next_u64(state, k):
    """Advance stream ``k`` of the state array and return its next 64-bit output."""
    s = state[k] + _GOLDEN
    state[k] = s
    return mix64(s)


@kernel(inline=True, nrt=True)
def below(x, n):
    """A uniform integer in [0, n) from the 64-bit output x, for 1 <= n < 2**32 (Lemire's
    multiply-shift of its high half, bias < n/2**32)."""
    return np.int64(((x >> uint64(32)) * uint64(n)) >> uint64(32))


@kernel(inline=True, nrt=True)
def randint(state, k, n):
    """A uniform integer in [0, n) of stream k, for 1 <= n < 2**32 (``below``)."""
    return below(next_u64(state, k), n)


@kernel(inline=True, nrt=True)
def peek_u64(state, k):
    """Stream k's next output computed ahead, without advancing the stream: ``(k, its state,
    the output)``, for ``randint_ahead``."""
    s = state[k]
    return k, s, mix64(s + _GOLDEN)


@kernel(inline=True, nrt=True)
def randint_ahead(state, k, n, ahead):
    """``randint(state, k, n)``, taking its output from ``ahead`` (``peek_u64``) when that is
    still stream k's next one (nothing drew from it since), else computing it: the same number
    either way. A draw whose output was peeked while the previous chip was being placed does not
    wait for the hashing (the chain random number, bag slot, chip is a third shorter)."""
    ka, sa, x = ahead
    if ka == k and state[k] == sa:
        state[k] = sa + _GOLDEN
    else:
        x = next_u64(state, k)
    return below(x, n)


@kernel(inline=True, nrt=True)
def uniform(state, k):
    """A uniform float in [0, 1) with 53 random bits."""
    return np.float64(next_u64(state, k) >> uint64(11)) * (1.0 / 9007199254740992.0)


# The streams of one game, one per source of its randomness (``quacks luck`` splits the outcome's
# variance by source). Stream ``i`` of a game starts at ``stream_seed(seed, deal[i], i)``: a normal
# game gives every stream its own game index; a pick-freeze pair gives two games the same index
# for the streams of the source they share. Seats own a block of SEAT_STREAMS streams each kind.
SEAT_STREAMS = 8  # room for every seat (the rules allow at most 5 players)
BAG_STREAM = 0  # + seat: the chips drawn from the seat's bag
DIE_STREAM = BAG_STREAM + SEAT_STREAMS  # + seat: the seat's bonus-die rolls
CHOICE_STREAM = DIE_STREAM + SEAT_STREAMS  # + seat: its strategy's own random choices
DECK_STREAM = CHOICE_STREAM + SEAT_STREAMS  # the fortune-teller deck's shuffle and forced round
WITCH_STREAM = DECK_STREAM + 1  # the herb witches' deal and the visiting witch
N_STREAMS = WITCH_STREAM + 1


@kernel(nrt=True)
def game_streams(seed, deal, rng):
    """Set every stream of ``rng`` (N_STREAMS states) to its start: stream i from game
    ``deal[i]`` of the run seeded with ``seed`` (``stream_seed``; the seed's hash once, and an
    item's hash once for a run of streams from the same game)."""
    h0 = seed_hash(seed)
    h = item_hash(h0, deal[0])
    for i in range(N_STREAMS):
        if i > 0 and deal[i] != deal[i - 1]:
            h = item_hash(h0, deal[i])
        rng[i] = stream_start(h, i)
