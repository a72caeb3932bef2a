"""Strong Ingredient (blue): in start-player order, each player who stopped without exploding
draws up to 5 chips and may place one (no action, never explodes); the rest go back.

Choice: b = chips drawn (in P[s, CARD_LOOK:]); answer: the chip type placed, -1 none. Default: the
highest value (then the highest colour number).
"""

from __future__ import annotations

from sim.kernel.bag import return_looked
from sim.kernel.bowl import place_after
from sim.kernel.cards.common import answer, look, looked_at
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    CARD_LOOK,
    EV_PLACE,
    F_CARD_ARG,
    F_EXPLODED,
    F_FORCED_N,
    F_REWARD,
    G_NP,
    G_START_PLAYER,
    R_LAST,
)
from sim.rules.chips import TYPE_COLOUR, TYPE_VALUE
from sim.rules.declare import BLUE, card

CARD = card(22, "strong-ingredient", BLUE, name="Strong Ingredient", draws_after=True, doc=(
    "In start-player order, each player who stopped without exploding draws up to 5 chips and "
    "may place one; the rest go back. These draws never explode the pot, and the placed chip "
    "has no action (past the last space it goes into the overflow bowl)."))


@kernel
def default(P, s, arg, G, R):
    """The built-in answer."""
    best = -1
    for i in range(arg):
        t = P[s, CARD_LOOK + i]
        if (best < 0
                or TYPE_VALUE[t] * 16 + TYPE_COLOUR[t] > TYPE_VALUE[best] * 16 + TYPE_COLOUR[best]):
            best = t
    return best



@kernel
def _strong_ingredient(P, s, G, R, FD, SK, SP, SC, rng, E, UF):
    """Seat s draws up to 5 chips, places one after the last chip (no action, never explodes;
    into the overflow bowl past the last space), the rest go back."""
    if P[s, F_FORCED_N] > 0:  # scripted: the card's draws follow the potion's in the list
        P[s, F_FORCED_N] += P[s, F_CARD_ARG]
    m = look(P, s, 5, FD, rng, E, G)
    want = answer(P, s, m, default(P, s, m, G, R), G, R, SK, SP, SC, rng, UF)
    pick = looked_at(P, s, m, want)
    return_looked(P, s, P[s, CARD_LOOK : CARD_LOOK + m], m, pick)  # all but the one placed
    if pick < 0:
        return
    pos = place_after(P, s, want, G, R, E)  # a white counts, but a card's draw never explodes
    if pos <= R[R_LAST]:
        P[s, F_REWARD] = pos + 1
        record(E, G, s, EV_PLACE, want, pos, 0)


@kernel
def after_brewing(P, G, R, FD, SK, SP, SC, rng, E, UF):
    """Once every potion has ended, in start-player order: every seat whose pot is intact."""
    n = G[G_NP]
    for k in range(n):
        s = (G[G_START_PLAYER] + k) % n
        if P[s, F_EXPLODED] == 0:
            _strong_ingredient(P, s, G, R, FD, SK, SP, SC, rng, E, UF)
