"""The VP printed on the spaces holding purple chips add up to coins, spent at once on up to 2 chips
of different colours (never added to the shop's coins); in the last round they buy VP, 5 coins each.

Purple Set 5 (ghost's breath, B): the VP printed on the spaces that hold purple chips are coins
to buy up to 2 chips of different colours with at once (from the books out this round); in the
last round they buy VP instead. The buying is ``sim.kernel.evaluation.buy_at_b``; round-file key
``purple_buy`` (``bought_at_b``)."""

from __future__ import annotations

from sim.kernel.decisions.slots import script_slot
from sim.kernel.jit import kernel
from sim.kernel.layout import F_NPOT, POT_P, POT_T, R_VP
from sim.rules.chips import PURPLE, TYPE_COLOUR
from sim.rules.declare import SCRIPT_BAG, book, script_key

BOOK = book("purple", 5, "B", prices=5, choices=('which chips to buy',), doc=__doc__,
            script=(script_key("purple_buy", SCRIPT_BAG, 2, doc="the chips bought at B"),))
PURPLE_BUY = script_slot(BOOK, "purple_buy")  # its answer in SC: the count, then the chips


@kernel
def coins_at_b(P, s, R):
    """The VP printed on the spaces that hold purple chips, added up."""
    n = 0
    for i in range(P[s, F_NPOT]):
        if TYPE_COLOUR[P[s, POT_T + i]] == PURPLE:
            n += R[R_VP + P[s, POT_P + i]]
    return n


@kernel
def bought_at_b(P, s, out, SC):
    """A scripted seat: the chips its round file's ``purple_buy`` lists, into ``out``; how many."""
    n = SC[s, PURPLE_BUY]
    for i in range(n):
        out[i] = SC[s, PURPLE_BUY + 1 + i]
    return n
