"""Seasoned Perfectly (blue): a player whose white chips total exactly the explosion limit (before
any raise) when drawing ends moves their droplet 1 space."""

from __future__ import annotations

from sim.kernel.cards.common import GAIN_DROPLET, gain
from sim.kernel.jit import kernel
from sim.kernel.layout import F_EXPLODED, F_WHITE, G_NP, G_START_PLAYER, R_LIMIT
from sim.rules.declare import BLUE, card

CARD = card(19, "seasoned-perfectly", BLUE, name="Seasoned Perfectly", doc=(
    "A player whose white chips total exactly the explosion limit (7, before any raise) when "
    "drawing ends moves their droplet 1 space."))


@kernel
def after_brewing(P, G, R, E):
    """Once every potion has ended, in start-player order."""
    n = G[G_NP]
    for k in range(n):
        s = (G[G_START_PLAYER] + k) % n
        if P[s, F_EXPLODED] == 0 and P[s, F_WHITE] == R[R_LIMIT]:
            gain(P, s, G, E, GAIN_DROPLET, 1)
