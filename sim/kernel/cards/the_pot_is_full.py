"""The Pot is Full (blue): anyone who rolls the bonus die this round rolls it twice and takes
both results (step A, and green Set 6's rolls)."""

from __future__ import annotations

from sim.kernel.jit import kernel
from sim.rules.card_numbers import card_number

POT_IS_FULL = card_number("the-pot-is-full")


@kernel(inline=True)
def die_rolls():
    """Rolls instead of one."""
    return 2
