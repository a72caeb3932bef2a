"""Roll the Die (purple): every player rolls the bonus die once and takes what it shows."""

from __future__ import annotations

from sim.kernel.die import roll_die
from sim.kernel.jit import kernel
from sim.rules.card_numbers import card_number

ROLL_THE_DIE = card_number("roll-the-die")


@kernel
def seat(P, s, G, die, DS, supply, rng, E):
    """Seat s rolls the bonus die (a pumpkin goes into the bag at once)."""
    roll_die(P, s, G, die, DS, supply, rng, E)
