"""Roll the Die (purple): every player rolls the bonus die once and takes what it shows."""

from __future__ import annotations

from sim.kernel.die import roll_die
from sim.kernel.jit import kernel
from sim.rules.declare import PURPLE, card

CARD = card(1, "roll-the-die", PURPLE, name="Roll the Die", doc=(
    "Every player rolls the bonus die once and takes what it shows; a pumpkin goes into the bag "
    "at once."))


@kernel
def purple_seat(P, s, G, die, DS, supply, rng, E):
    """Seat s rolls the bonus die (a pumpkin goes into the bag at once)."""
    roll_die(P, s, G, die, DS, supply, rng, E)
