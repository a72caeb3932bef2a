"""Beginner's Bonus (purple): the player or players with the fewest VP take a green 1-chip."""

from __future__ import annotations

from sim.kernel.cards.common import fewest, grant_chip
from sim.kernel.jit import kernel
from sim.kernel.layout import F_SCORE
from sim.rules.card_numbers import card_number
from sim.rules.chips import G1

BEGINNERS_BONUS = card_number("beginners-bonus")


@kernel
def first(P, n):
    """Before any seat: the fewest VP (the seats that have it take the chip)."""
    return fewest(P, n, F_SCORE)


@kernel
def seat(P, s, least, G, R, supply, E):
    """Seat s takes a green 1-chip into the bag if it had the fewest VP before the card."""
    if P[s, F_SCORE] == least:
        grant_chip(P, s, G1, G, R, supply, E)
