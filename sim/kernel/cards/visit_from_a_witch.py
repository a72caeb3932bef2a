"""Visit from a Witch (blue, herb witches): a random herb witch not in play visits; this round
every player may call her once, free."""

from __future__ import annotations

from sim.kernel.jit import kernel
from sim.kernel.witches import visiting_witch
from sim.rules.card_numbers import card_number

VISIT_WITCH = card_number("visit-from-a-witch")


@kernel
def before_round(P, G, R, rng, E):
    """Once the card is turned up: the visitor (from the game's shared stream)."""
    visiting_witch(P, G, R, rng, E)
