"""A draw's random number peeked ahead (``peek_u64``, ``randint_ahead``: the bag draw of
``brew_round``) is the number ``randint`` gives, and leaves the stream where ``randint`` leaves it,
whether the peek is still current, stale (the stream moved since) or of another stream."""

from __future__ import annotations

import numpy as np
import pytest

from sim.kernel.rng import N_STREAMS, peek_u64, randint, randint_ahead, stream_seed


def _streams(seed: int) -> np.ndarray:
    return np.array([stream_seed(seed, 7, i) for i in range(N_STREAMS)], dtype=np.uint64)


def _peek(state: np.ndarray, k: int) -> tuple:
    """``peek_u64`` with the kernel's types (Python hands its result back as plain ints)."""
    k, s, x = peek_u64(state, k)
    return np.int64(k), np.uint64(s), np.uint64(x)


@pytest.mark.parametrize("case", ["current", "stale", "other stream"])
def test_randint_ahead_is_randint(case):
    for seed in range(20):
        state = _streams(seed)
        want = state.copy()
        ahead = _peek(state, 3 if case == "other stream" else 2)
        if case == "stale":  # something drew from the stream after the peek
            randint(state, 2, 9)
            randint(want, 2, 9)
        for n in (1, 2, 7, 33, 64):
            got = randint_ahead(state, 2, n, ahead)
            assert got == randint(want, 2, n)
            assert np.array_equal(state, want)
            ahead = _peek(state, 2)
