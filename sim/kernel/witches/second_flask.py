"""The pot just exploded and the flask is full: the white chip that exploded it goes back to the
bag, the flask empties, and the player may draw on or stop.

Second flask (potion group) acts when the pot explodes on a white chip with the flask full.

Question: b = the white chip type; answer 1 calls her. Default: always.
"""

from __future__ import annotations

from sim.kernel.bag import white_back
from sim.kernel.bowl import bowl_white_back
from sim.kernel.decisions.witch import ask_witch
from sim.kernel.jit import kernel
from sim.kernel.layout import F_EXPLODED, F_FLASK
from sim.kernel.witches.common import call_witch
from sim.rules.chips import TYPE_COLOUR, WHITE
from sim.rules.declare import event, witch

WITCH = witch(1, "second-flask", "potion", name="Second flask", doc=__doc__,
    phase='potion phase, when the pot explodes', events=(event("witch", b="chip:chip"),))
SECOND_FLASK = WITCH.number


@kernel(inline=True)
def default(P, s, arg, G, R, SP):
    """The built-in answer: call her."""
    return 1



@kernel(llvm_inline=True)
def exploded(P, s, t, bowl, G, R, SK, SP, SC, rng, E, UF):
    """The pot just exploded on white chip t (in the bowl if ``bowl``) and the flask is full: t
    goes back to the bag, the flask empties, and brewing may go on. True if called."""
    if P[s, F_FLASK] == 0 or TYPE_COLOUR[t] != WHITE:
        return False
    if ask_witch(P, s, SECOND_FLASK, t, default, G, R, SK, SP, SC, rng, UF) == 0:
        return False
    if bowl:
        bowl_white_back(P, s, t)
    else:
        white_back(P, s, t, R)
    P[s, F_FLASK] = 0
    P[s, F_EXPLODED] = 0
    call_witch(P, s, G, E, SECOND_FLASK, t, 0)
    return True
