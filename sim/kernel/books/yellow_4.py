"""Yellow Set 4 (mandrake, draw): the 1st / 2nd / 3rd yellow chip of the potion may move +1 / +2
/ +3 (an extra distance the red slot may decline)."""

from __future__ import annotations

from sim.kernel.books.common import offer_extra
from sim.kernel.jit import kernel
from sim.kernel.layout import F_YELLOW_PTR


@kernel(inline=True)
def move(P, s, t, G, R, SK, SP, SC, rng, E, UF):
    """The extra spaces yellow chip t takes."""
    if P[s, F_YELLOW_PTR] < 3:
        return offer_extra(P, s, P[s, F_YELLOW_PTR] + 1, t, G, R, SK, SP, SC, rng, E, UF)
    return 0
