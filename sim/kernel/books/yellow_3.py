"""The explosion limit rises by 1 after the round's first yellow and by 2 after its third; with
Living in Luxury the larger raise counts.

Yellow Set 3 (mandrake, draw): after the 1st yellow chip of the potion the explosion limit is
base + 1, after the 3rd base + 2 (raises never add up with Living in Luxury's)."""

from __future__ import annotations

from sim.kernel.books.common import raise_limit
from sim.kernel.jit import kernel
from sim.kernel.layout import F_YELLOW_PTR
from sim.rules.declare import book

BOOK = book("yellow", 3, "passive", prices=3, doc=__doc__)


@kernel(inline=True)
def placed(P, s, G, E):
    """The yellow chip just placed (``F_YELLOW_PTR`` counts the ones before it)."""
    nth = P[s, F_YELLOW_PTR] + 1
    raise_limit(P, s, 2 if nth >= 3 else 1, G, E)
