"""Pumpkin Patch Party (blue): every orange chip placed this round moves 1 extra space."""

from __future__ import annotations

from sim.kernel.jit import kernel
from sim.rules.card_numbers import card_number
from sim.rules.chips import ORANGE

PUMPKIN_PARTY = card_number("pumpkin-patch-party")


@kernel(inline=True)
def move(c):
    """Extra spaces of a chip of colour c placed now (per chip: keep it one compare)."""
    return 1 if c == ORANGE else 0
