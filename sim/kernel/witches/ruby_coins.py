"""2 extra coins for every ruby held; the rubies are kept. After an explosion and taking the VP,
these coins alone may be spent.

Ruby coins (buying group) acts at step E, before buying.

Question: b = the rubies; answer 1 calls her. Default: for at least ``P_W_RUBY_COINS`` coins (any,
when she visits).
"""

from __future__ import annotations

from sim.kernel.decisions.witch import ask_witch, visit_default
from sim.kernel.jit import kernel
from sim.kernel.layout import F_RUBIES
from sim.kernel.witches.common import call_witch
from sim.rules.declare import event, witch

WITCH = witch(8, "ruby-coins", "buying", name="Ruby coins", doc=__doc__, phase='buying (step E)',
    events=(event("witch", b="rubies", c="coins"),), first_round=2,
    params=(('P_W_RUBY_COINS', 16, 6),))
RUBY_COINS = WITCH.number
P_W_RUBY_COINS = WITCH.param("P_W_RUBY_COINS")


@kernel(inline=True)
def default(P, s, arg, G, R, SP):
    """The built-in answer: enough coins, or any when she visits."""
    return visit_default(s, 2 * arg, G, SP, RUBY_COINS, P_W_RUBY_COINS, 0)



@kernel(llvm_inline=True)
def before_buying(P, s, coins, G, R, supply, SK, SP, SC, rng, E, UF):
    """Step E, before buying: the coins to spend, with 2 per ruby if the seat calls her."""
    rubies = P[s, F_RUBIES]
    if rubies <= 0:
        return coins
    if ask_witch(P, s, RUBY_COINS, rubies, default, G, R, SK, SP, SC, rng, UF) != 0:
        call_witch(P, s, G, E, RUBY_COINS, rubies, 2 * rubies)
        coins += 2 * rubies
    return coins
