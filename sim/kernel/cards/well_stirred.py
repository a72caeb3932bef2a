"""Well Stirred (blue): each player may put the first white chip they draw back into the bag,
without the flask.

Choice: b = the white chip type; answer 1 returns it to the bag. Default: return it.
"""

from __future__ import annotations

from sim.kernel.bag import remove_pot_entry, return_chip
from sim.kernel.cards.common import GAIN_REMOVE, answer, card_event
from sim.kernel.jit import kernel
from sim.kernel.layout import F_CARD_USED, F_NPOT, F_WHITE, POT_T
from sim.rules.chips import TYPE_COLOUR, TYPE_VALUE, WHITE
from sim.rules.declare import BLUE, card

CARD = card(21, "well-stirred", BLUE, name="Well Stirred", puts_back="white", doc=(
    "Each player may put the first white chip they draw back into the bag, without the flask."))


@kernel
def default(P, s, arg, G, R):
    """The built-in answer."""
    return 1



@kernel
def _stir(P, s, G, R, SK, SP, SC, rng, E, UF):
    """The first white chip drawn (just placed) may go back into the bag."""
    P[s, F_CARD_USED] = 1
    k = P[s, F_NPOT]
    t = P[s, POT_T + k - 1]
    if answer(P, s, t, default(P, s, t, G, R), G, R, SK, SP, SC, rng, UF) == 1:
        remove_pot_entry(P, s, k - 1)
        P[s, F_WHITE] -= TYPE_VALUE[t]
        return_chip(P, s, t)
        card_event(E, G, s, GAIN_REMOVE, t)


@kernel(inline=True)
def after_placed(P, s, t, G, R, SK, SP, SC, rng, E, UF):
    """Drawn chip t was just placed, the pot intact (per chip: a compare or two)."""
    if P[s, F_CARD_USED] == 0 and TYPE_COLOUR[t] == WHITE:
        _stir(P, s, G, R, SK, SP, SC, rng, E, UF)
