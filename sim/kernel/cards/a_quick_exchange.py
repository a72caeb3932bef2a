"""A Quick Exchange (purple, herb witches): a witch penny for a chip whose book is out.

Choice: b = pennies held (bit per witch group); answer group * 32 + chip type, -1 none. Default:
early in the game (rounds 1-5), a penny for the dearest 4-chip: the buying penny first, then the
potion one, then the points one.
"""

from __future__ import annotations

from sim.kernel.bag import show_supply
from sim.kernel.cards.common import GAIN_PENNY_GIVEN, answer, card_event
from sim.kernel.cards.grant import grant_chip
from sim.kernel.decisions.choices import dearest
from sim.kernel.jit import kernel
from sim.kernel.layout import F_PENNY, G_ROUND
from sim.rules.chips import N_TYPES
from sim.rules.declare import HERB_WITCHES, PURPLE, card

CARD = card(25, "a-quick-exchange", PURPLE, name="A Quick Exchange", needs=HERB_WITCHES, doc=(
    "Each player may give up one of their witch pennies for a chip of their choice whose book "
    "is out, into the bag at once."))


@kernel
def default(P, s, arg, G, R):
    """The built-in answer."""
    best = dearest(G, R, 0, N_TYPES, 4)
    if G[G_ROUND] > 5 or best < 0:
        return -1
    for g in (1, 0, 2):  # the buying penny first, then potion, then points
        if (arg >> g) & 1:
            return g * 32 + best
    return -1



@kernel
def purple_seat(P, s, G, R, supply, SK, SP, SC, rng, E, UF):
    """Seat s (if it holds a penny) may give one up for the chip it names."""
    if P[s, F_PENNY] == 0:
        return
    show_supply(G, supply)
    a = answer(P, s, P[s, F_PENNY], default(P, s, P[s, F_PENNY], G, R), G, R, SK, SP, SC, rng, UF)
    g = a // 32
    if a >= 0 and g < 3 and (P[s, F_PENNY] >> g) & 1 and grant_chip(P, s, a % 32, G, R, supply, E):
        P[s, F_PENNY] &= ~(1 << g)
        card_event(E, G, s, GAIN_PENNY_GIVEN, g)
