"""An exploded player takes both the VP and the coins; if no intact potion reached further, the
player also rolls the bonus die.

Both rewards (potion group) acts at evaluation step A: the hook ``at_die`` returns how far the
furthest caller got and marks the seat (``F_BOTH``), which ``die_caller`` reads back (and clears)
for ``sim.kernel.evaluation.phase_a_die``, which rolls the die.

Question: b = the reward space; answer 1 calls her. Default: when the part an explosion loses is
worth at least ``P_W_BOTH`` VP (a coin worth ``P_W_COIN_VP``; in the last round a coin is worth
1 / ``final_coins`` and any loss above the penny will do).
"""

from __future__ import annotations

from sim.kernel.decisions.slots import SLOT_WITCH
from sim.kernel.decisions.witch import ask_witch, last_call, penny_worth
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    F_BOTH,
    F_EXPLODED,
    F_PROTECTED,
    F_REWARD,
    R_COINS,
    R_FINAL_COINS,
    R_VP,
)
from sim.kernel.witches.common import call_witch
from sim.rules.declare import event, witch

WITCH = witch(4, "both-rewards", "potion", name="Both rewards", doc=__doc__,
    phase='evaluation step A, pot exploded', events=(event("witch", b="reward_space"),),
    params=(('P_W_BOTH', 14, 2.0), ('P_W_COIN_VP', 22, 0.25)))
BOTH_REWARDS = WITCH.number
P_W_BOTH = WITCH.param("P_W_BOTH")
P_W_COIN_VP = WITCH.param("P_W_COIN_VP")


@kernel(inline=True)
def default(P, s, arg, G, R, SP):
    """The built-in answer: call her when the explosion's loss is big enough."""
    last = last_call(G, R, BOTH_REWARDS)
    vp = R[R_VP + P[s, F_REWARD]]
    coins = R[R_COINS + P[s, F_REWARD]]
    coin_vp = 1.0 / R[R_FINAL_COINS] if last else SP[s, SLOT_WITCH, P_W_COIN_VP]
    lost = min(vp, coins * coin_vp)
    return 1 if lost >= SP[s, SLOT_WITCH, P_W_BOTH] \
        or (last and lost > penny_worth(G, R, BOTH_REWARDS)) else 0



@kernel(llvm_inline=True)
def at_die(P, s, G, R, SK, SP, SC, rng, E, UF):
    """Step A: an exploded seat (not already protected) takes VP and coins, and may roll the die
    (``F_BOTH``, read by ``die_caller``: ``phase_a_die`` lets it roll if no intact potion is
    further). True if called."""
    if P[s, F_EXPLODED] == 0 or P[s, F_PROTECTED] != 0:
        return False
    if ask_witch(P, s, BOTH_REWARDS, P[s, F_REWARD], default, G, R, SK, SP, SC, rng, UF) == 0:
        return False
    P[s, F_PROTECTED] = 1  # VP and coins both, as a protected explosion
    P[s, F_BOTH] = 1
    call_witch(P, s, G, E, BOTH_REWARDS, P[s, F_REWARD], 0)
    return True


@kernel(inline=True)
def die_caller(P, s):
    """Step A, after ``at_die``: True if the seat called her this round (her mark cleared)."""
    if P[s, F_BOTH] == 0:
        return False
    P[s, F_BOTH] = 0
    return True
