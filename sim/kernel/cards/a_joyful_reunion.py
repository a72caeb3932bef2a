"""A Joyful Reunion (blue, herb witches): at the end of the round each player takes back one witch
penny they spent; that group's witch may be called again.

Choice: b = pennies spent (bit per group); answer: the group taken back, -1 none. Default: the
potion group's first, then buying, then points.
"""

from __future__ import annotations

from sim.kernel.cards.common import GAIN_PENNY_BACK, answer, card_event
from sim.kernel.jit import kernel
from sim.kernel.layout import F_PENNY, G_NP, G_START_PLAYER
from sim.rules.declare import BLUE, HERB_WITCHES, card

CARD = card(27, "a-joyful-reunion", BLUE, name="A Joyful Reunion", needs=HERB_WITCHES, doc=(
    "At the end of the round each player takes back one witch penny they spent (their choice); "
    "that group's witch may be called again."))


@kernel
def default(P, s, arg, G, R):
    """The built-in answer."""
    for g in range(3):
        if (arg >> g) & 1:
            return g
    return -1



@kernel
def end_of_round(P, G, R, SK, SP, SC, rng, E, UF):
    """Each seat, in start-player order, takes back one witch penny it has spent (the group it
    chooses; the group's witch may be called again)."""
    n = G[G_NP]
    for k in range(n):
        s = (G[G_START_PLAYER] + k) % n
        spent = 7 & ~P[s, F_PENNY]
        if spent == 0:
            continue
        g = answer(P, s, spent, default(P, s, spent, G, R), G, R, SK, SP, SC, rng, UF)
        if 0 <= g < 3 and (spent >> g) & 1:
            P[s, F_PENNY] |= 1 << g
            card_event(E, G, s, GAIN_PENNY_BACK, g)
