"""Charity (purple): the player or players with the fewest rubies take 1 ruby each."""

from __future__ import annotations

from sim.kernel.cards.common import GAIN_RUBY, fewest, gain
from sim.kernel.jit import kernel
from sim.kernel.layout import F_RUBIES
from sim.rules.declare import PURPLE, card

CARD = card(3, "charity", PURPLE, name="Charity", doc=(
    "The player or players with the fewest rubies take 1 ruby each."))


@kernel
def purple_first(P, G):
    """Before any seat: the fewest rubies (the seats that have it take one)."""
    return fewest(P, G, F_RUBIES)


@kernel
def purple_seat(P, s, first, G, E):
    """Seat s takes a ruby if it had the fewest before the card."""
    if P[s, F_RUBIES] == first:
        gain(P, s, G, E, GAIN_RUBY, 1)
