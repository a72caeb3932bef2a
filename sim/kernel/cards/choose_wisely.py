"""Choose Wisely (purple): move the droplet 2 spaces, or take a purple chip (once its book is out).

Choice: answer p1 (17) for the purple chip, anything else droplet +2. Default: the purple chip in
the last two rounds.
"""

from __future__ import annotations

from sim.kernel.bag import show_supply
from sim.kernel.cards.common import GAIN_DROPLET, answer, gain
from sim.kernel.cards.grant import grant_chip
from sim.kernel.jit import kernel
from sim.kernel.layout import G_ROUND, R_ROUNDS
from sim.rules.chips import P1
from sim.rules.declare import PURPLE, card

CARD = card(10, "choose-wisely", PURPLE, name="Choose Wisely",
            words=(("droplet", 0), ("purple", P1)), doc=(
    "Each player chooses: move the droplet 2 spaces, or take a purple chip into the bag (only "
    "once the purple book is out)."))
CHOOSE_WISELY_SPACES = 2  # the droplet's spaces (the other option: a purple chip)


@kernel
def default(P, s, arg, G, R):
    """The built-in answer."""
    return P1 if R[R_ROUNDS] - G[G_ROUND] < 2 else 0



@kernel
def purple_seat(P, s, G, R, supply, SK, SP, SC, rng, E, UF):
    """Seat s takes the purple chip or moves its droplet 2 spaces."""
    show_supply(G, supply)
    a = answer(P, s, 0, default(P, s, 0, G, R), G, R, SK, SP, SC, rng, UF)
    if a != P1 or not grant_chip(P, s, P1, G, R, supply, E):
        gain(P, s, G, E, GAIN_DROPLET, CHOOSE_WISELY_SPACES)
