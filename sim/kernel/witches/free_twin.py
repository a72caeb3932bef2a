"""One chip just bought comes a second time, free (if the supply has one).

Free twin (buying group) acts after the purchases of step E (the chips bought are listed at
``G_OUT``).

Question: b = chips bought; answer: the chip type twinned, -1 none. Default: the dearest chip
just bought that costs at least ``P_W_TWIN`` (any, when she visits). A round file names the chip.
"""

from __future__ import annotations

from sim.kernel.bag import add_chip
from sim.kernel.decisions.slots import SLOT_WITCH
from sim.kernel.decisions.witch import ASK_DECLINE, ASK_DEFAULT, ASK_RANDOM, witch_answer
from sim.kernel.jit import kernel
from sim.kernel.layout import G_OUT, G_SUPPLY, G_VISIT, R_PRICE
from sim.kernel.witches.common import call_witch
from sim.rules.declare import SCRIPT_BOUGHT, event, witch

WITCH = witch(7, "free-twin", "buying", name="Free twin", doc=__doc__,
    phase='buying (step E), after the purchases', events=(event("witch", b="chip:chip"),),
    first_round=2, params=(('P_W_TWIN', 17, 12),), script=SCRIPT_BOUGHT)
FREE_TWIN = WITCH.number
P_W_TWIN = WITCH.param("P_W_TWIN")


@kernel(inline=True)
def _twin_default(P, s, nbought, G, R, min_price):
    """The dearest chip just bought that costs at least ``min_price`` and is still in the supply."""
    best = -1
    for i in range(nbought):
        t = G[G_OUT + i]
        if G[G_SUPPLY + t] > 0 and R[R_PRICE + t] >= min_price and (
                best < 0 or R[R_PRICE + t] > R[R_PRICE + best]):
            best = t
    return best


@kernel(inline=True)
def default(P, s, arg, G, R, SP):
    """The built-in answer: the dearest chip bought worth twinning."""
    return _twin_default(P, s, arg, G, R,
                        0 if G[G_VISIT] == FREE_TWIN else SP[s, SLOT_WITCH, P_W_TWIN])


@kernel(inline=True)
def _ask(P, s, arg, G, R, SK, SP, SC, rng, UF):
    """The seat's answer: scripted, its strategy's, random (the first chip bought), else
    ``default``; declining is -1."""
    how, a = witch_answer(P, s, FREE_TWIN, arg, G, R, SK, SP, SC, rng, UF)
    if how == ASK_DEFAULT:
        return default(P, s, arg, G, R, SP)
    if how == ASK_DECLINE:
        return -1
    if how == ASK_RANDOM:
        return G[G_OUT] if arg > 0 else -1
    return a


@kernel(llvm_inline=True)
def after_buying(P, s, nbought, G, R, supply, SK, SP, SC, rng, E, UF):
    """Step E, after buying: the chip the seat names comes again."""
    if nbought == 0:
        return
    t = _ask(P, s, nbought, G, R, SK, SP, SC, rng, UF)
    ok = False
    for i in range(nbought):
        if G[G_OUT + i] == t:
            ok = True
    if ok and supply[t] > 0 and add_chip(P, s, t):
        supply[t] -= 1
        call_witch(P, s, G, E, FREE_TWIN, t, 0)
