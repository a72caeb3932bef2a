"""The Pot is Full (blue): anyone who rolls the bonus die this round rolls it twice and takes
both results (step A, and green Set 6's rolls)."""

from __future__ import annotations

from sim.kernel.jit import kernel
from sim.rules.declare import BLUE, card

CARD = card(14, "the-pot-is-full", BLUE, name="The Pot is Full", doc=(
    "Anyone who rolls the bonus die this round rolls it twice and takes both results."))


@kernel(inline=True)
def die_rolls():
    """Rolls instead of one."""
    return 2
