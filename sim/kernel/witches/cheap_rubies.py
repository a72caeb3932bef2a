"""This step, droplet moves and flask refills cost 1 ruby each instead of 2, as often as the player
likes (not in the last round's ruby conversion).

Cheap rubies (points group) acts at the start of step F: the step's cheap price is ``F_CHEAP``,
which her ``ruby_price`` reads (for ``sim.kernel.costs``) and ``after_spending`` clears.

Question: b = the rubies held; answer 1 calls her. Default: with at least ``P_W_CHEAP`` rubies
(2, when she visits).
"""

from __future__ import annotations

from sim.kernel.decisions.witch import ask_witch, visit_default
from sim.kernel.jit import kernel
from sim.kernel.layout import F_CHEAP, F_RUBIES
from sim.kernel.witches.common import call_witch
from sim.rules.declare import event, witch

WITCH = witch(12, "cheap-rubies", "points", name="Cheap rubies", doc=__doc__,
    phase='spending rubies (step F)', events=(event("witch", b="rubies"),),
    params=(('P_W_CHEAP', 21, 4),))
CHEAP_RUBIES = WITCH.number
P_W_CHEAP = WITCH.param("P_W_CHEAP")


@kernel(inline=True)
def default(P, s, arg, G, R, SP):
    """The built-in answer: enough rubies (2, when she visits)."""
    return visit_default(s, arg, G, SP, CHEAP_RUBIES, P_W_CHEAP, 2)



@kernel(llvm_inline=True)
def at_spending(P, s, G, R, SK, SP, SC, rng, E, UF):
    """Step F, before spending: the step's cheap price if the seat calls her."""
    if P[s, F_RUBIES] <= 0:
        return
    if ask_witch(P, s, CHEAP_RUBIES, P[s, F_RUBIES], default, G, R, SK, SP, SC, rng, UF) != 0:
        P[s, F_CHEAP] = 1
        call_witch(P, s, G, E, CHEAP_RUBIES, P[s, F_RUBIES], 0)


@kernel(inline=True)
def ruby_price(P, s, price):
    """Step F: 1 ruby this step if the seat called her, else ``price``."""
    return 1 if P[s, F_CHEAP] != 0 else price


@kernel(inline=True)
def after_spending(P, s):
    """Step F, after the seat spent: her cheap price ends."""
    P[s, F_CHEAP] = 0
