"""An Opportunistic Moment (purple): draw 4 chips, swap one (never orange) for the next-higher chip
of its colour, or take a green 1-chip if no swap is possible; the drawn chips go back.

Choice: b = chips drawn (in P[s, CARD_LOOK:]); answer: the chip type exchanged. Default: the swap
that gains the most in price (a white never), none if none gains.
"""

from __future__ import annotations

from sim.kernel.bag import add_chip, remove_any_chip, reset_potion, show_supply
from sim.kernel.books.gain_hooks import bag_refilled
from sim.kernel.cards.common import (
    GAIN_CHIP,
    answer,
    card_event,
    look,
    looked_at,
    put_back,
)
from sim.kernel.cards.grant import grant_chip
from sim.kernel.decisions.choices import next_value_type
from sim.kernel.jit import kernel
from sim.kernel.layout import CARD_LOOK, F_START, G_SUPPLY, R_LIMIT, R_PRICE
from sim.rules.chips import G1, TYPE_COLOUR, WHITE
from sim.rules.declare import PURPLE, card

CARD = card(12, "an-opportunistic-moment", PURPLE, name="An Opportunistic Moment", doc=(
    "Each player draws 4 chips and may swap one (never orange) for the next-higher chip of its "
    "colour, or takes a green 1-chip if no swap is possible. The drawn chips go back."))


@kernel
def default(P, s, arg, G, R):
    """The built-in answer."""
    best = -1
    gain = 0
    for i in range(arg):
        t = P[s, CARD_LOOK + i]
        u = next_value_type(t)
        if TYPE_COLOUR[t] != WHITE and u >= 0 and G[G_SUPPLY + u] > 0 \
                and R[R_PRICE + u] - R[R_PRICE + t] > gain:
            gain = R[R_PRICE + u] - R[R_PRICE + t]
            best = t
    return best



@kernel
def purple_seat(P, s, G, R, supply, FD, SK, SP, SC, rng, E, UF):
    """Seat s draws 4; exchanges one for the next-higher value of its colour (to the bag), or
    takes a green 1 if none can be exchanged; the drawn chips go back."""
    reset_potion(P, s, P[s, F_START], R[R_LIMIT])
    bag_refilled(P, s, R)
    m = look(P, s, 4, FD, rng, E, G)
    show_supply(G, supply)
    possible = False
    for i in range(m):
        u = next_value_type(P[s, CARD_LOOK + i])
        if u >= 0 and supply[u] > 0:
            possible = True
    if not possible:
        put_back(P, s, m)
        grant_chip(P, s, G1, G, R, supply, E)
        return
    want = answer(P, s, m, default(P, s, m, G, R), G, R, SK, SP, SC, rng, UF)
    pick = looked_at(P, s, m, want)
    put_back(P, s, m)
    if pick < 0:
        return
    u = next_value_type(want)
    if u >= 0 and supply[u] > 0 and remove_any_chip(P, s, want):
        supply[want] += 1
        supply[u] -= 1
        add_chip(P, s, u)
        card_event(E, G, s, GAIN_CHIP, u)
