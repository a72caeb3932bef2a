"""Extra distances a chip's book offers beyond a red chip's own (red Sets 1, 3, 5 ask in
``sim.kernel.effects.red.red_extra``): red Set 4's white 1 moving 2, yellow Set 2's doubling, yellow
Set 4's +1/+2/+3 and yellow Set 5's move on. Every one is an ingredient action the player may
decline; the red slot answers them all (scripts: the round file's ``extra`` list, in the order
offered)."""

from __future__ import annotations

from sim.kernel.decisions.decide import decide_extra
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import EV_RED, F_EXTRA_PTR


@kernel
def offer_extra(P, s, extra, t, G, R, SK, SP, SC, rng, E, UF):
    """Offer chip t ``extra`` more spaces; return the spaces taken (``extra`` or 0)."""
    if extra <= 0:
        return 0
    take = decide_extra(P, s, extra, t, P[s, F_EXTRA_PTR], G, R, SK, SP, SC, rng, UF)
    P[s, F_EXTRA_PTR] += 1
    record(E, G, s, EV_RED, t, extra, 1 if take else 0)
    return extra if take else 0
