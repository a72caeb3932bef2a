"""Wheel and Deal (purple): pay 1 ruby for a 1-chip of any colour but purple and black whose book
is out.

Choice: b = rubies; answer: a 1-chip type bought for 1 ruby, -1 none. Default: the dearest of
o1, g1, b1, r1, y1 that can be had, except in the last round.
"""

from __future__ import annotations

from sim.kernel.bag import show_supply
from sim.kernel.cards.common import GAIN_RUBY, answer, gain
from sim.kernel.cards.grant import grant_chip
from sim.kernel.decisions.choices import grantable
from sim.kernel.jit import kernel
from sim.kernel.layout import F_RUBIES, G_ROUND, R_PRICE, R_ROUNDS
from sim.rules.chips import B1, G1, K1, O1, P1, R1, TYPE_VALUE, W1, Y1
from sim.rules.declare import PURPLE, card

CARD = card(11, "wheel-and-deal", PURPLE, name="Wheel and Deal", doc=(
    "Each player may pay 1 ruby for one 1-chip of any colour but purple and black whose book is "
    "out; it goes into the bag at once."))


@kernel
def default(P, s, arg, G, R):
    """The built-in answer."""
    if arg < 1 or G[G_ROUND] >= R[R_ROUNDS]:
        return -1
    best = -1
    for t in (O1, G1, B1, R1, Y1):
        if grantable(G, R, t) and (best < 0 or R[R_PRICE + t] > R[R_PRICE + best]):
            best = t
    return best



@kernel
def purple_seat(P, s, G, R, supply, SK, SP, SC, rng, E, UF):
    """Seat s may buy the 1-chip it names for a ruby."""
    show_supply(G, supply)
    a = answer(P, s, P[s, F_RUBIES], default(P, s, P[s, F_RUBIES], G, R), G, R, SK, SP, SC, rng, UF)
    if P[s, F_RUBIES] >= 1 and 0 <= a < supply.shape[0] and TYPE_VALUE[a] == 1 \
            and a != P1 and a != K1 and a != W1:
        if grant_chip(P, s, a, G, R, supply, E):
            gain(P, s, G, E, GAIN_RUBY, -1)
