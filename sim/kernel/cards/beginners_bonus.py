"""Beginner's Bonus (purple): the player or players with the fewest VP take a green 1-chip."""

from __future__ import annotations

from sim.kernel.cards.common import fewest
from sim.kernel.cards.grant import grant_chip
from sim.kernel.jit import kernel
from sim.kernel.layout import F_SCORE
from sim.rules.chips import G1
from sim.rules.declare import PURPLE, card

CARD = card(5, "beginners-bonus", PURPLE, name="Beginner's Bonus", doc=(
    "The player or players with the fewest victory points take a green 1-chip, straight into "
    "the bag."))


@kernel
def purple_first(P, G):
    """Before any seat: the fewest VP (the seats that have it take the chip)."""
    return fewest(P, G, F_SCORE)


@kernel
def purple_seat(P, s, first, G, R, supply, E):
    """Seat s takes a green 1-chip into the bag if it had the fewest VP before the card."""
    if P[s, F_SCORE] == first:
        grant_chip(P, s, G1, G, R, supply, E)
