"""The last 2 white chips in the pot (or just the last one) go back to the bag, wherever they lie;
their spaces stay empty and the white total drops.

Whites back (potion group) acts between draws of an intact pot.

Question: b = 1 if the player is about to stop; answer: whites sent back (0, 1 or 2, the last
ones). Default: 2 when about to stop with a white total of at least ``P_W_WHITES``. A round file
scripts ``after * 4 + n`` (``scripted_when``); the random strategy sends back 1 or 2.
"""

from __future__ import annotations

from sim.kernel.bag import remove_pot_entry, return_chip
from sim.kernel.decisions.slots import SLOT_WITCH
from sim.kernel.decisions.witch import ASK_RANDOM, ask_witch_when
from sim.kernel.jit import kernel
from sim.kernel.layout import F_ANCHOR, F_NPOT, F_START, F_WHITE, POT_P, POT_T, R_FLASK_REUSE
from sim.kernel.rng import CHOICE_STREAM, randint
from sim.kernel.witches.common import call_witch
from sim.rules.chips import TYPE_COLOUR, TYPE_VALUE, WHITE, chip_name
from sim.rules.declare import SCRIPT_WHITES, event, witch

WITCH = witch(3, "whites-back", "potion", name="Whites back", doc=__doc__,
    phase='potion phase, pot intact',
    events=(event("witch", decode=lambda a, b, c: {
        "whites": b, "chips": [chip_name(x % 32 - 1) for x in (c // 32, c) if x % 32]},
        doc="b: the whites sent back; c: those chips, 5 bits each (type + 1)"),),
    first_round=4, params=(('P_W_WHITES', 13, 6),), script=SCRIPT_WHITES)
WHITES_BACK = WITCH.number
P_W_WHITES = WITCH.param("P_W_WHITES")


@kernel(inline=True)
def default(P, s, arg, G, R, SP):
    """The built-in answer: both whites when about to stop with enough of them."""
    return 2 if arg == 1 and P[s, F_WHITE] >= SP[s, SLOT_WITCH, P_W_WHITES] else 0


@kernel(inline=True)
def _ask(P, s, arg, G, R, SK, SP, SC, rng, UF):
    """The seat's answer: scripted (when), its strategy's, random (1 or 2), else ``default``."""
    how, a = ask_witch_when(P, s, WHITES_BACK, arg, default, G, R, SK, SP, SC, rng, UF)
    return 1 + randint(rng, CHOICE_STREAM + s, 2) if how == ASK_RANDOM else a


@kernel
def _send_back(P, s, n, G, R, E):
    """The last n (1 or 2) white chips in the pot go back to the bag; their spaces stay empty
    (with ``flask_space = reuse`` the next chip counts from the last chip left). Returns the
    whites sent back."""
    done = 0
    sent = 0
    for k in range(P[s, F_NPOT] - 1, -1, -1):
        if done == n:
            break
        t = P[s, POT_T + k]
        if TYPE_COLOUR[t] == WHITE:
            remove_pot_entry(P, s, k)
            P[s, F_WHITE] -= TYPE_VALUE[t]
            return_chip(P, s, t)
            sent = sent * 32 + t + 1
            done += 1
    if done > 0:
        if R[R_FLASK_REUSE] != 0:
            k = P[s, F_NPOT]
            P[s, F_ANCHOR] = P[s, POT_P + k - 1] if k > 0 else P[s, F_START]
        call_witch(P, s, G, E, WHITES_BACK, done, sent)
    return done


@kernel(inline=True)
def between_draws(P, s, stopping, G, R, SK, SP, SC, FD, rng, E, UF):
    """Between draws of an intact pot (``stopping``: the seat would stop now): True if called."""
    if P[s, F_WHITE] > 0:
        n = _ask(P, s, stopping, G, R, SK, SP, SC, rng, UF)
        if n > 0 and _send_back(P, s, min(n, 2), G, R, E) > 0:
            return True
    return False
