"""VP by the number of different non-white colours in the pot (locoweed counts): 1-4 give 3, 5 give
4, 6 give 7, 7 give 10, 8 give 14.

Colours (points group) acts at step D, for a seat taking the VP.

Question: b = the VP she gives; answer 1 calls her. Default: for at least ``P_W_COLOURS`` VP; in
the last round for more than the penny.
"""

from __future__ import annotations

from sim.kernel.decisions.witch import ask_witch, points_default
from sim.kernel.jit import kernel
from sim.kernel.layout import F_NPOT, F_SCORE, POT_T
from sim.kernel.witches.common import call_witch
from sim.rules.chips import N_COLOURS, TYPE_COLOUR, WHITE
from sim.rules.declare import event, witch

WITCH = witch(9, "colours", "points", name="Colours", doc=__doc__,
    phase='VP step (D), taking the VP', events=(event("witch", b="vp"),),
    params=(('P_W_COLOURS', 18, 4),))
COLOURS = WITCH.number
P_W_COLOURS = WITCH.param("P_W_COLOURS")
COLOUR_VP = (0, 3, 3, 3, 3, 4, 7, 10, 14)  # VP by the different non-white colours in the pot


@kernel(inline=True)
def _colour_points(P, s):
    """VP of the colours witch: by the different non-white colours in the pot (locoweed too)."""
    seen = 0
    for i in range(P[s, F_NPOT]):
        c = TYPE_COLOUR[P[s, POT_T + i]]
        if c != WHITE:
            seen |= 1 << c
    n = 0
    for c in range(N_COLOURS):
        n += (seen >> c) & 1
    return COLOUR_VP[n]


@kernel(inline=True)
def default(P, s, arg, G, R, SP):
    """The built-in answer: enough VP, or in the last round more than the penny."""
    return points_default(s, arg, G, R, SP, COLOURS, P_W_COLOURS)



@kernel(llvm_inline=True)
def at_points(P, s, take_vp, G, R, SK, SP, SC, rng, E, UF):
    """Step D: a seat taking the VP scores her VP if it calls her."""
    if take_vp:
        vp = _colour_points(P, s)
        if vp <= 0:
            return
        if ask_witch(P, s, COLOURS, vp, default, G, R, SK, SP, SC, rng, UF) != 0:
            P[s, F_SCORE] += vp
            call_witch(P, s, G, E, COLOURS, vp, 0)
