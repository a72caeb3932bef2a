"""Rat Infestation (purple): rat tails count double this round."""

from __future__ import annotations

from sim.kernel.cards.common import GAIN_RATS_DOUBLED, card_event
from sim.kernel.jit import kernel
from sim.rules.declare import PURPLE, card

CARD = card(4, "rat-infestation", PURPLE, name="Rat Infestation", doc=(
    "Rat tails count double this round."))


@kernel
def purple_last(G, E):
    """After every seat: the event that this round's rat tails count double."""
    card_event(E, G, -1, GAIN_RATS_DOUBLED, 2)


@kernel(inline=True)
def rat_tails(tails_n):
    """The rat tails a seat gets: twice the printed ones."""
    return tails_n * 2
