"""Herb Witches (any player count): the furthest black chip of all pots moves its owner's droplet 1,
the second furthest gives its owner 1 ruby; ties all receive; one player may get both.

Black Set 6 (hawkmoth, Herb Witches, B): the furthest black chip of all pots (by space) moves
its owner's droplet +1, the second furthest gives its owner 1 ruby; ties all receive; one player
may get both."""

from __future__ import annotations

from sim.kernel.books.common import black_reward
from sim.kernel.jit import kernel
from sim.kernel.layout import F_NPOT, G_NP, POT_P, POT_T
from sim.rules.chips import BLACK, TYPE_COLOUR
from sim.rules.declare import book

BOOK = book("black", 6, "B", prices=6, doc=__doc__)


@kernel
def _furthest_black(P, n, before):
    """The furthest space holding a black chip in any pot, below ``before`` (-1 if none)."""
    far = -1
    for s in range(n):
        for i in range(P[s, F_NPOT]):
            if TYPE_COLOUR[P[s, POT_T + i]] == BLACK and far < P[s, POT_P + i] < before:
                far = P[s, POT_P + i]
    return far


@kernel
def _has_black_on(P, s, pos):
    """Whether seat s has a black chip on space ``pos``."""
    for i in range(P[s, F_NPOT]):
        if TYPE_COLOUR[P[s, POT_T + i]] == BLACK and P[s, POT_P + i] == pos:
            return True
    return False


@kernel(inline=True)
def black_at_b(P, s, G, E):
    """Step B for seat s."""
    n = G[G_NP]
    drop = 0
    rub = 0
    far = _furthest_black(P, n, 1000)
    if far >= 0 and _has_black_on(P, s, far):
        drop = 1
    second = _furthest_black(P, n, far) if far >= 0 else -1
    if second >= 0 and _has_black_on(P, s, second):
        rub = 1
    black_reward(P, s, drop, rub, G, E)
