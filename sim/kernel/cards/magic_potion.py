"""Magic Potion (blue): at the end of the round every player's flask is refilled for free."""

from __future__ import annotations

from sim.kernel.jit import kernel
from sim.kernel.layout import F_FLASK, G_NP
from sim.rules.cards import card_number

MAGIC_POTION = card_number("magic-potion")


@kernel
def end_of_round(P, G):
    """Every flask is full again."""
    for s in range(G[G_NP]):
        P[s, F_FLASK] = 1
