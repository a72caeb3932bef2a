"""The coins to buy with are doubled (still at most 2 chips of different colours); in the last
round, the coins turned into VP (5 to 1) are doubled.

Double coins (buying group) acts at step E, before buying, and in the last round at the coin
conversion.

Question: b = the coins; answer 1 calls her. Default: with at least ``P_W_COINS`` coins; in the
last round when the VP she adds beat the penny.
"""

from __future__ import annotations

from sim.kernel.decisions.slots import SLOT_WITCH
from sim.kernel.decisions.witch import ask_witch, last_call, penny_worth
from sim.kernel.jit import kernel
from sim.kernel.layout import R_FINAL_COINS
from sim.kernel.witches.common import call_witch
from sim.rules.declare import event, witch

WITCH = witch(6, "double-coins", "buying", name="Double coins", doc=__doc__,
    phase='buying (step E); last round: the coin conversion',
    events=(event("witch", b="coins", c="now"),), params=(('P_W_COINS', 15, 20),))
DOUBLE_COINS = WITCH.number
P_W_COINS = WITCH.param("P_W_COINS")


@kernel(inline=True)
def default(P, s, arg, G, R, SP):
    """The built-in answer: enough coins, or in the last round more VP than the penny."""
    last = last_call(G, R, DOUBLE_COINS)
    return 1 if arg >= SP[s, SLOT_WITCH, P_W_COINS] or (
        last and arg // R[R_FINAL_COINS] > penny_worth(G, R, DOUBLE_COINS)) else 0



@kernel(inline=True)
def _double(P, s, coins, G, R, SK, SP, SC, rng, E, UF):
    """The coins, doubled if the seat calls her."""
    if coins <= 0:
        return coins
    if ask_witch(P, s, DOUBLE_COINS, coins, default, G, R, SK, SP, SC, rng, UF) == 0:
        return coins
    call_witch(P, s, G, E, DOUBLE_COINS, coins, 2 * coins)
    return 2 * coins


@kernel(llvm_inline=True)
def before_buying(P, s, coins, G, R, supply, SK, SP, SC, rng, E, UF):
    """Step E, before buying: the coins to spend."""
    return _double(P, s, coins, G, R, SK, SP, SC, rng, E, UF)


@kernel(llvm_inline=True)
def final_coins(P, s, coins, G, R, SK, SP, SC, rng, E, UF):
    """The last round's conversion: the coins turned into VP."""
    return _double(P, s, coins, G, R, SK, SP, SC, rng, E, UF)
