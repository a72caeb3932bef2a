"""Ruby space (points group), at step C on a reward space showing a ruby: as many rubies as the
space's VP instead of the usual ruby (instead of It's Shining Extra Bright's 2 as well); the VP
are scored as usual.

Question: b = the rubies she gives; answer 1 calls her. Default: for at least ``P_W_RUBIES``
rubies (more than 1, when she visits).
"""

from __future__ import annotations

from sim.kernel.decisions.slots import SLOT_WITCH
from sim.kernel.decisions.witch import ASK_DEFAULT, witch_answer
from sim.kernel.jit import kernel
from sim.kernel.layout import G_VISIT
from sim.kernel.witches.common import call_witch
from sim.rules.declare import witch

WITCH = witch(11, "ruby-space", "points", name="Ruby space",
    doc='The reward space shows a ruby: take as many rubies as its VP instead of the usual '
        "ruby (instead of It's Shining Extra Bright's 2 as well); the VP are scored as usual.",
    phase='rubies step (C), on a ruby space',
    event=lambda b, c: {"rubies": b},
    params=(('P_W_RUBIES', 20, 4),))
RUBY_SPACE = WITCH.number
P_W_RUBIES = WITCH.param("P_W_RUBIES")


@kernel
def default(P, s, arg, G, R, SP):
    """The built-in answer: enough rubies (more than one, when she visits)."""
    return 1 if arg >= SP[s, SLOT_WITCH, P_W_RUBIES] \
        or (G[G_VISIT] == RUBY_SPACE and arg > 1) else 0



@kernel
def at_rubies(P, s, vp, rubies, G, R, SK, SP, SC, rng, E, UF):
    """Step C on a ruby space worth ``vp`` VP: the rubies the seat takes (``rubies`` unless it
    calls her)."""
    if vp <= 0:
        return rubies
    how, a = witch_answer(P, s, RUBY_SPACE, vp, G, R, SK, SP, SC, rng, UF)
    if (default(P, s, vp, G, R, SP) if how == ASK_DEFAULT else a) == 0:
        return rubies
    call_witch(P, s, G, E, RUBY_SPACE, vp, 0)
    return vp
