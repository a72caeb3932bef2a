"""Pumpkin Patch Party (blue): every orange chip placed this round moves 1 extra space."""

from __future__ import annotations

from sim.kernel.jit import kernel
from sim.rules.chips import ORANGE
from sim.rules.declare import BLUE, card

CARD = card(15, "pumpkin-patch-party", BLUE, name="Pumpkin Patch Party", doc=(
    "Every orange chip placed this round moves 1 extra space."))


@kernel(inline=True)
def placed_move(c):
    """Extra spaces of a chip of colour c placed now (per chip: keep it one compare)."""
    return 1 if c == ORANGE else 0
