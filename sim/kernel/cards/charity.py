"""Charity (purple): the player or players with the fewest rubies take 1 ruby each."""

from __future__ import annotations

from sim.kernel.cards.common import GAIN_RUBY, fewest, gain
from sim.kernel.jit import kernel
from sim.kernel.layout import F_RUBIES
from sim.rules.card_numbers import card_number

CHARITY = card_number("charity")


@kernel
def first(P, n):
    """Before any seat: the fewest rubies (the seats that have it take one)."""
    return fewest(P, n, F_RUBIES)


@kernel
def seat(P, s, least, G, E):
    """Seat s takes a ruby if it had the fewest before the card."""
    if P[s, F_RUBIES] == least:
        gain(P, s, G, E, GAIN_RUBY, 1)
