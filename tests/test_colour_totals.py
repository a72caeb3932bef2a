"""``sim.kernel.bag.colour_totals``: the per-colour chip counts and value totals that a value
model's features and a round's record both read (one helper for both)."""

from __future__ import annotations

import numpy as np

from sim.kernel.bag import colour_totals
from sim.kernel.layout import CHIPS, F_NCHIPS, P_WIDTH
from sim.rules.chips import N_COLOURS, TYPE_COLOUR, TYPE_VALUE, W1


def test_counts_and_values_per_colour_into_any_offsets_and_dtype():
    chips = [W1, W1, 5, 7, 7, 11]
    P = np.zeros((2, P_WIDTH), np.int64)
    P[1, F_NCHIPS] = len(chips)
    P[1, CHIPS:CHIPS + len(chips)] = chips
    want_n = np.zeros(N_COLOURS)
    want_v = np.zeros(N_COLOURS)
    for t in chips:
        want_n[TYPE_COLOUR[t]] += 1
        want_v[TYPE_COLOUR[t]] += TYPE_VALUE[t]
    for dtype in (np.float64, np.int64):
        out = np.full(3 + 2 * N_COLOURS + 1, 99, dtype)  # stale values are overwritten
        colour_totals(P, 1, out, 3, 3 + N_COLOURS)
        assert out[:3].tolist() == [99, 99, 99] and out[-1] == 99
        assert out[3:3 + N_COLOURS].tolist() == want_n.tolist()
        assert out[3 + N_COLOURS:-1].tolist() == want_v.tolist()
    colour_totals(P, 0, out, 3, 3 + N_COLOURS)  # a seat without chips: all zero
    assert not out[3:-1].any()
