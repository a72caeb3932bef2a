"""2 VP for every chip still in the bag that is a non-white 2-, 4- or 6-chip, a purple chip or a
locoweed (white and black chips and other 1-chips score nothing).

Bag points (points group) acts at step D, for any seat.

Question: b = the VP she gives; answer 1 calls her. Default: for at least ``P_W_BAG`` VP; in the
last round for more than the penny.
"""

from __future__ import annotations

from sim.kernel.decisions.witch import ask_witch, points_default
from sim.kernel.jit import kernel
from sim.kernel.layout import BAGCNT, F_SCORE
from sim.kernel.witches.common import call_witch
from sim.rules.chips import BLACK, LOCOWEED, PURPLE, TYPE_COLOUR, TYPE_VALUE, WHITE
from sim.rules.declare import event, witch

WITCH = witch(10, "bag-points", "points", name="Bag points", doc=__doc__,
    phase='VP step (D), any player', events=(event("witch", b="vp"),), params=(('P_W_BAG', 19, 8),))
BAG_POINTS = WITCH.number
P_W_BAG = WITCH.param("P_W_BAG")


@kernel(inline=True)
def _bag_points(P, s):
    """VP of the bag-points witch: 2 for every chip left in the bag that is a non-white 2-, 4- or
    6-chip, a purple chip or a locoweed (never white or black)."""
    vp = 0
    for t in range(TYPE_COLOUR.shape[0]):
        c = TYPE_COLOUR[t]
        if c == WHITE or c == BLACK:
            continue
        if TYPE_VALUE[t] >= 2 or c == PURPLE or c == LOCOWEED:
            vp += 2 * P[s, BAGCNT + t]
    return vp


@kernel(inline=True)
def default(P, s, arg, G, R, SP):
    """The built-in answer: enough VP, or in the last round more than the penny."""
    return points_default(s, arg, G, R, SP, BAG_POINTS, P_W_BAG)



@kernel(llvm_inline=True)
def at_points(P, s, take_vp, G, R, SK, SP, SC, rng, E, UF):
    """Step D, any seat: her VP if it calls her."""
    vp = _bag_points(P, s)
    if vp > 0:
        if ask_witch(P, s, BAG_POINTS, vp, default, G, R, SK, SP, SC, rng, UF) != 0:
            P[s, F_SCORE] += vp
            call_witch(P, s, G, E, BAG_POINTS, vp, 0)
