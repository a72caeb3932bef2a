"""Ruby coins (buying group), at step E before buying: 2 extra coins for every ruby held; the
rubies are kept. After an explosion and taking the VP, these coins alone may be spent.

Question: b = the rubies; answer 1 calls her. Default: for at least ``P_W_RUBY_COINS`` coins (any,
when she visits).
"""

from __future__ import annotations

from sim.kernel.decisions.slots import SLOT_WITCH
from sim.kernel.decisions.witch import ASK_DEFAULT, witch_answer
from sim.kernel.jit import kernel
from sim.kernel.layout import F_RUBIES, G_VISIT
from sim.kernel.witches.common import call_witch
from sim.rules.declare import witch

WITCH = witch(8, "ruby-coins", "buying", name="Ruby coins",
    doc='2 extra coins for every ruby held; the rubies are kept. After an explosion and taking '
        'the VP, these coins alone may be spent.',
    phase='buying (step E)',
    event=lambda b, c: {"rubies": b, "coins": c},
    first_round=2, params=(('P_W_RUBY_COINS', 16, 6),))
RUBY_COINS = WITCH.number
P_W_RUBY_COINS = WITCH.param("P_W_RUBY_COINS")


@kernel
def default(P, s, arg, G, R, SP):
    """The built-in answer: enough coins, or any when she visits."""
    return 1 if 2 * arg >= SP[s, SLOT_WITCH, P_W_RUBY_COINS] or G[G_VISIT] == RUBY_COINS else 0



@kernel
def before_buying(P, s, coins, G, R, supply, SK, SP, SC, rng, E, UF):
    """Step E, before buying: the coins to spend, with 2 per ruby if the seat calls her."""
    rubies = P[s, F_RUBIES]
    if rubies <= 0:
        return coins
    how, a = witch_answer(P, s, RUBY_COINS, rubies, G, R, SK, SP, SC, rng, UF)
    if (default(P, s, rubies, G, R, SP) if how == ASK_DEFAULT else a) != 0:
        call_witch(P, s, G, E, RUBY_COINS, rubies, 2 * rubies)
        coins += 2 * rubies
    return coins
