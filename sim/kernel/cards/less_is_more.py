"""Less is More (purple): every player draws 5 chips; the lowest total (all tied) takes a blue
2-chip, everyone else 1 ruby; the drawn chips go back."""

from __future__ import annotations

from sim.kernel.bag import reset_potion
from sim.kernel.books.gain_hooks import bag_refilled
from sim.kernel.cards.common import GAIN_RUBY, gain, look, put_back
from sim.kernel.cards.grant import grant_chip
from sim.kernel.jit import kernel
from sim.kernel.layout import CARD_LOOK, F_CARD_ARG, F_START, G_NP, G_START_PLAYER, R_LIMIT
from sim.rules.chips import B2, TYPE_VALUE
from sim.rules.declare import PURPLE, card

CARD = card(13, "less-is-more", PURPLE, name="Less is More", doc=(
    "Every player draws 5 chips: the lowest total (all tied players) takes a blue 2-chip, "
    "everyone else 1 ruby. The drawn chips go back."))


@kernel
def purple_seat(P, s, G, R, FD, rng, E):
    """Seat s draws 5 chips and puts them back; their total is kept in F_CARD_ARG."""
    reset_potion(P, s, P[s, F_START], R[R_LIMIT])
    bag_refilled(P, s, R)
    m = look(P, s, 5, FD, rng, E, G)
    total = 0
    for i in range(m):
        total += TYPE_VALUE[P[s, CARD_LOOK + i]]
    put_back(P, s, m)
    P[s, F_CARD_ARG] = total


@kernel
def purple_last(P, G, R, supply, E):
    """Once every seat has drawn, in start-player order: the lowest totals take a blue 2-chip,
    the others a ruby."""
    n = G[G_NP]
    sp = G[G_START_PLAYER]
    low = P[0, F_CARD_ARG]
    for s in range(1, n):
        low = min(low, P[s, F_CARD_ARG])
    for k in range(n):
        s = (sp + k) % n
        if P[s, F_CARD_ARG] == low:
            grant_chip(P, s, B2, G, R, supply, E)
        else:
            gain(P, s, G, E, GAIN_RUBY, 1)
        P[s, F_CARD_ARG] = 0
