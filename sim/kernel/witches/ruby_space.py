"""The reward space shows a ruby: take as many rubies as its VP instead of the usual ruby (instead
of It's Shining Extra Bright's 2 as well); the VP are scored as usual.

Ruby space (points group) acts at step C, on a reward space showing a ruby.

Question: b = the rubies she gives; answer 1 calls her. Default: for at least ``P_W_RUBIES``
rubies (more than 1, when she visits).
"""

from __future__ import annotations

from sim.kernel.decisions.witch import ask_witch, visit_default
from sim.kernel.jit import kernel
from sim.kernel.witches.common import call_witch
from sim.rules.declare import event, witch

WITCH = witch(11, "ruby-space", "points", name="Ruby space", doc=__doc__,
    phase='rubies step (C), on a ruby space', events=(event("witch", b="rubies"),),
    params=(('P_W_RUBIES', 20, 4),))
RUBY_SPACE = WITCH.number
P_W_RUBIES = WITCH.param("P_W_RUBIES")


@kernel(inline=True)
def default(P, s, arg, G, R, SP):
    """The built-in answer: enough rubies (more than one, when she visits)."""
    return visit_default(s, arg, G, SP, RUBY_SPACE, P_W_RUBIES, 2)



@kernel(llvm_inline=True)
def at_rubies(P, s, vp, rubies, G, R, SK, SP, SC, rng, E, UF):
    """Step C on a ruby space worth ``vp`` VP: the rubies the seat takes (``rubies`` unless it
    calls her)."""
    if vp <= 0:
        return rubies
    if ask_witch(P, s, RUBY_SPACE, vp, default, G, R, SK, SP, SC, rng, UF) == 0:
        return rubies
    call_witch(P, s, G, E, RUBY_SPACE, vp, 0)
    return vp
