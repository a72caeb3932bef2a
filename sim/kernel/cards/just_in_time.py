"""Just in Time (purple): each player chooses 4 VP, or one white 1-chip out of the bag for good.

Choice: b = white 1-chips held; answer W1 (0) removes one, anything else 4 VP. Default: remove one
in rounds 1-3 if the seat has one.
"""

from __future__ import annotations

from sim.kernel.bag import remove_any_chip
from sim.kernel.cards.common import GAIN_REMOVE, GAIN_VP, answer, card_event, gain
from sim.kernel.jit import kernel
from sim.kernel.layout import CHIPS, F_NCHIPS, G_ROUND
from sim.rules.chips import W1
from sim.rules.declare import PURPLE, card

CARD = card(6, "just-in-time", PURPLE, name="Just in Time", doc=(
    "Each player chooses: 4 VP, or take one white 1-chip out of their bag for the rest of the "
    "game."))
JUST_IN_TIME_VP = 4  # the VP of the first option (the other: a white 1-chip out of the bag)


@kernel
def default(P, s, arg, G, R):
    """The built-in answer."""
    return W1 if arg > 0 and G[G_ROUND] <= 3 else -1



@kernel
def purple_seat(P, s, G, R, supply, SK, SP, SC, rng, E, UF):
    """Seat s removes a white 1-chip (back to the supply) or takes 4 VP."""
    nw1 = 0
    for i in range(P[s, F_NCHIPS]):
        if P[s, CHIPS + i] == W1:
            nw1 += 1
    a = answer(P, s, nw1, default(P, s, nw1, G, R), G, R, SK, SP, SC, rng, UF)
    if a == W1 and remove_any_chip(P, s, W1):
        supply[W1] += 1
        card_event(E, G, s, GAIN_REMOVE, W1)
    else:
        gain(P, s, G, E, GAIN_VP, JUST_IN_TIME_VP)
