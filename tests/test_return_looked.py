"""``sim.kernel.bag.return_looked``: a blue chip's look (up to 4 chips) and a card's (up to 5:
``cards.common.put_back``, Strong Ingredient) put their chips back in one pass, leaving the bag (its
order and counts) exactly as ``return_chip`` of each chip in turn did."""

from __future__ import annotations

import numpy as np

from sim.kernel.bag import out_of_bag, reset_potion, return_chip, return_looked
from sim.kernel.layout import BAGCNT, CHIPS, F_NBAG, F_NCHIPS, P_WIDTH
from sim.rules.chips import N_TYPES


def looked_at(rng, chips, pot, m):
    """A row with ``chips``, ``pot`` of them out of the bag (in the pot), then m drawn at random
    slots; the row and the m chip types in draw order."""
    P = np.zeros((1, P_WIDTH), np.int64)
    P[0, F_NCHIPS] = len(chips)
    P[0, CHIPS:CHIPS + len(chips)] = chips
    reset_potion(P, 0, 0, 7)
    for _ in range(pot):
        out_of_bag(P, 0, int(rng.integers(P[0, F_NBAG])))
    looked = np.array([out_of_bag(P, 0, int(rng.integers(P[0, F_NBAG]))) for _ in range(m)]
                      + [0] * (5 - m), np.int64)
    return P, looked


def test_same_bag_as_returning_each_chip_in_turn():
    rng = np.random.default_rng(45)
    cases = 0
    for _ in range(3000):
        # few types, so that looked chips often share a type (and the pot holds that type too)
        n = int(rng.integers(5, 20))
        chips = rng.integers(0, 4, n) * (N_TYPES // 4)
        pot = int(rng.integers(0, n - 4))  # at least 5 left to look at
        m = int(rng.integers(1, 6))
        P, looked = looked_at(rng, chips, pot, m)
        for pick in range(-1, m):
            want, got = P.copy(), P.copy()
            for i in range(m):
                if i != pick:
                    return_chip(want, 0, looked[i])
            return_looked(got, 0, looked, m, pick)
            assert np.array_equal(got, want), (chips, pot, looked[:m], pick)
            cases += 1
    assert cases > 8000


def test_counts_follow_the_returned_chips():
    P, looked = looked_at(np.random.default_rng(1), np.array([0, 0, 3, 3, 3, 5, 9]), 1, 4)
    return_looked(P, 0, looked, 4, 2)
    nb = P[0, F_NBAG]
    assert nb == 7 - 1 - 1  # one in the pot, the picked one out
    bag = P[0, CHIPS:CHIPS + nb]
    assert np.bincount(bag, minlength=N_TYPES).tolist() == P[0, BAGCNT:BAGCNT + N_TYPES].tolist()
    assert P[0, CHIPS + nb] == looked[2]
