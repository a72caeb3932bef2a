"""Visit from a Witch (blue, herb witches): a random herb witch not in play visits; this round
every player may call her once, free."""

from __future__ import annotations

from sim.kernel.jit import kernel
from sim.kernel.witches import visiting_witch
from sim.rules.declare import BLUE, HERB_WITCHES, card

CARD = card(26, "visit-from-a-witch", BLUE, name="Visit from a Witch", needs=HERB_WITCHES, doc=(
    "A random herb witch not in play visits: this round every player may call her once, free "
    "(no penny)."))


@kernel
def before_round(P, G, R, rng, E):
    """Once the card is turned up: the visitor (from the game's shared stream)."""
    visiting_witch(P, G, R, rng, E)
