"""The Pot is Filling Up (purple): every player moves their droplet 1 space."""

from __future__ import annotations

from sim.kernel.cards.common import GAIN_DROPLET, gain
from sim.kernel.jit import kernel
from sim.rules.card_numbers import card_number

POT_FILLING_UP = card_number("the-pot-is-filling-up")


@kernel
def seat(P, s, G, E):
    """Seat s's droplet moves 1 space."""
    gain(P, s, G, E, GAIN_DROPLET, 1)
