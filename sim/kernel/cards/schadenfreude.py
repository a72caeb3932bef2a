"""Schadenfreude (blue): when a player's pot explodes, the player to their left takes any 2-chip
whose book is out.

Choice (asked of the left neighbour): b = the seat whose pot exploded; answer: the 2-chip type
taken. Default: the dearest 2-chip that can be had.
"""

from __future__ import annotations

from sim.kernel.bag import show_supply
from sim.kernel.cards.common import answer
from sim.kernel.cards.grant import grant_chip
from sim.kernel.decisions.choices import dearest
from sim.kernel.jit import kernel
from sim.kernel.layout import F_EXPLODED, G_NP, G_START_PLAYER
from sim.rules.chips import N_TYPES, TYPE_VALUE
from sim.rules.declare import BLUE, card

CARD = card(23, "schadenfreude", BLUE, name="Schadenfreude", doc=(
    "When a player's pot explodes, the player to their left takes any 2-chip whose book is out, "
    "into their bag."))


@kernel
def default(P, s, arg, G, R):
    """The built-in answer."""
    return dearest(G, R, 0, N_TYPES, 2)



@kernel
def after_brewing(P, G, R, supply, SK, SP, SC, rng, E, UF):
    """Once every potion has ended, in start-player order: each exploded seat's left neighbour."""
    n = G[G_NP]
    for k in range(n):
        s = (G[G_START_PLAYER] + k) % n
        if P[s, F_EXPLODED] != 0:
            left = (s + 1) % n
            show_supply(G, supply)
            t = answer(P, left, s, default(P, left, s, G, R), G, R, SK, SP, SC, rng, UF)
            if 0 <= t < supply.shape[0] and TYPE_VALUE[t] == 2:
                grant_chip(P, left, t, G, R, supply, E)
