"""Purple Set 5 (ghost's breath, B): the VP printed on the spaces that hold purple chips are coins
to buy up to 2 chips of different colours with at once (from the books out this round); in the
last round they buy VP instead. The buying is ``sim.kernel.evaluation.buy_at_b``; round-file key
``purple_buy``."""

from __future__ import annotations

from sim.kernel.jit import kernel
from sim.kernel.layout import F_NPOT, POT_P, POT_T, R_VP
from sim.rules.chips import PURPLE, TYPE_COLOUR
from sim.rules.declare import book

BOOK = book("purple", 5, "B", name="Purple Set 5", prices=5,
            choices=('which chips to buy',),
            doc=('The VP printed on the spaces holding purple chips add up to coins, spent at once'
                 " on up to 2 chips of different colours (never added to the shop's coins); in the"
                 ' last round they buy VP, 5 coins each.'))


@kernel
def coins_at_b(P, s, R):
    """The VP printed on the spaces that hold purple chips, added up."""
    n = 0
    for i in range(P[s, F_NPOT]):
        if TYPE_COLOUR[P[s, POT_T + i]] == PURPLE:
            n += R[R_VP + P[s, POT_P + i]]
    return n
