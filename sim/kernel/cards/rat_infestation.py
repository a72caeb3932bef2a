"""Rat Infestation (purple): rat tails count double this round."""

from __future__ import annotations

from sim.kernel.cards.common import GAIN_RATS_DOUBLED
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import EV_CARD_GAIN
from sim.rules.card_numbers import card_number

RAT_INFESTATION = card_number("rat-infestation")


@kernel
def last(G, E):
    """After every seat: the event that this round's rat tails count double."""
    record(E, G, -1, EV_CARD_GAIN, GAIN_RATS_DOUBLED, 2, RAT_INFESTATION)


@kernel(inline=True)
def rats(tails_n):
    """The rat tails a seat gets: twice the printed ones."""
    return tails_n * 2
