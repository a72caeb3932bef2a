"""Rat Infestation (purple): rat tails count double this round."""

from __future__ import annotations

from sim.kernel.cards.common import GAIN_RATS_DOUBLED
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import EV_CARD_GAIN
from sim.rules.declare import PURPLE, card

CARD = card(4, "rat-infestation", PURPLE, name="Rat Infestation", doc=(
    "Rat tails count double this round."))
RAT_INFESTATION = CARD.number


@kernel
def purple_last(G, E):
    """After every seat: the event that this round's rat tails count double."""
    record(E, G, -1, EV_CARD_GAIN, GAIN_RATS_DOUBLED, 2, RAT_INFESTATION)


@kernel(inline=True)
def rat_tails(tails_n):
    """The rat tails a seat gets: twice the printed ones."""
    return tails_n * 2
