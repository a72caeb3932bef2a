"""Living in Luxury (blue): the explosion limit is 9 this round instead of 7 (with yellow Set 3 the
larger raise counts)."""

from __future__ import annotations

from sim.kernel.books.common import raise_limit
from sim.kernel.jit import kernel
from sim.rules.declare import BLUE, card

CARD = card(20, "living-in-luxury", BLUE, name="Living in Luxury", doc=(
    "The explosion limit is 9 this round instead of 7. With yellow Set 3 the larger raise "
    "counts; the two never add up."))


@kernel(inline=True)
def potion_setup(P, s, G, E):
    """Seat s's potion, once its pot is empty: the limit goes up by 2."""
    raise_limit(P, s, 2, G, E)
