"""A Good Start (purple, resolved at the rats): give up 1 to 3 of this round's rat tails for as
many rubies.

Choice: b = rat tails this round; answer: tails given up for rubies (0-3). Default: none.
"""

from __future__ import annotations

from sim.kernel.bag import show_supply
from sim.kernel.cards.common import GAIN_RUBY, answer, gain
from sim.kernel.jit import kernel
from sim.rules.declare import PURPLE, card

CARD = card(9, "a-good-start", PURPLE, name="A Good Start", doc=(
    "Each player chooses: use this round's rat tails as usual, or give up 1 to 3 of them for as "
    "many rubies."))
GOOD_START_MAX = 3  # at most this many rat tails, for as many rubies


@kernel
def default(P, s, arg, G, R):
    """The built-in answer."""
    return 0



@kernel
def rat_tails(P, s, tails_n, G, R, supply, SK, SP, SC, rng, E, UF):
    """Once seat s's rat tails are known: the tails given up become rubies; return the rest."""
    show_supply(G, supply)
    a = answer(P, s, tails_n, default(P, s, tails_n, G, R), G, R, SK, SP, SC, rng, UF)
    k = max(0, min(a, GOOD_START_MAX, tails_n))
    if k > 0:
        gain(P, s, G, E, GAIN_RUBY, k)
    return tails_n - k
