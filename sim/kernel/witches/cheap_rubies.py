"""Cheap rubies (points group), at the start of step F: droplet moves and flask refills cost 1
ruby each for the rest of the step (``sim.kernel.costs`` reads ``F_CHEAP``), as often as the
player likes (not in the last round's ruby conversion).

Question: b = the rubies held; answer 1 calls her. Default: with at least ``P_W_CHEAP`` rubies
(2, when she visits).
"""

from __future__ import annotations

from sim.kernel.decisions.slots import SLOT_WITCH
from sim.kernel.decisions.witch import ASK_DEFAULT, witch_answer
from sim.kernel.jit import kernel
from sim.kernel.layout import F_CHEAP, F_RUBIES, G_VISIT
from sim.kernel.witches.common import call_witch
from sim.rules.declare import witch

WITCH = witch(12, "cheap-rubies", "points", name="Cheap rubies",
    doc='This step, droplet moves and flask refills cost 1 ruby each instead of 2, as often as '
        "the player likes (not in the last round's ruby conversion).",
    phase='spending rubies (step F)',
    event=lambda b, c: {"rubies": b},
    params=(('P_W_CHEAP', 21, 4),))
CHEAP_RUBIES = WITCH.number
P_W_CHEAP = WITCH.param("P_W_CHEAP")


@kernel
def default(P, s, arg, G, R, SP):
    """The built-in answer: enough rubies (2, when she visits)."""
    return 1 if arg >= SP[s, SLOT_WITCH, P_W_CHEAP] \
        or (G[G_VISIT] == CHEAP_RUBIES and arg >= 2) else 0



@kernel
def at_spending(P, s, G, R, SK, SP, SC, rng, E, UF):
    """Step F, before spending: the step's cheap price if the seat calls her."""
    if P[s, F_RUBIES] <= 0:
        return
    how, a = witch_answer(P, s, CHEAP_RUBIES, P[s, F_RUBIES], G, R, SK, SP, SC, rng, UF)
    if (default(P, s, P[s, F_RUBIES], G, R, SP) if how == ASK_DEFAULT else a) != 0:
        P[s, F_CHEAP] = 1
        call_witch(P, s, G, E, CHEAP_RUBIES, P[s, F_RUBIES], 0)
