"""The Pot is Filling Up (purple): every player moves their droplet 1 space."""

from __future__ import annotations

from sim.kernel.cards.common import GAIN_DROPLET, gain
from sim.kernel.jit import kernel
from sim.rules.declare import PURPLE, card

CARD = card(2, "the-pot-is-filling-up", PURPLE, name="The Pot is Filling Up", doc=(
    "Every player moves their droplet 1 space forward."))


@kernel
def purple_seat(P, s, G, E):
    """Seat s's droplet moves 1 space."""
    gain(P, s, G, E, GAIN_DROPLET, 1)
