"""You Only Get to Choose One (purple): a black 1-chip, any 2-chip whose book is out, or 3 rubies.

Choice: answer k1 or a 2-chip type, or TAKE_RUBIES for 3 rubies (a chip that cannot be had: the
rubies). Default: the dearest of the grantable 2-chips and k1, else the rubies.
"""

from __future__ import annotations

from sim.kernel.bag import show_supply
from sim.kernel.cards.common import GAIN_RUBY, TAKE_RUBIES, answer, gain
from sim.kernel.cards.grant import grant_chip
from sim.kernel.decisions.choices import dearest, grantable
from sim.kernel.jit import kernel
from sim.kernel.layout import R_PRICE
from sim.rules.chips import K1, N_TYPES, TYPE_VALUE
from sim.rules.declare import PURPLE, TAKE_OTHER, card

CARD = card(7, "you-only-get-to-choose-one", PURPLE, name="You Only Get to Choose One",
            words=(("rubies", TAKE_OTHER),), doc=(
    "Each player takes one of: a black 1-chip, any 2-chip whose book is out, or 3 rubies. A "
    "chip goes into the bag at once."))
CHOOSE_ONE_RUBIES = 3  # the rubies of the other option (instead of a chip)


@kernel
def default(P, s, arg, G, R):
    """The built-in answer."""
    best = dearest(G, R, 0, N_TYPES, 2)
    if best < 0 or (grantable(G, R, K1) and R[R_PRICE + K1] > R[R_PRICE + best]):
        best = K1 if grantable(G, R, K1) else best
    return best if best >= 0 else TAKE_RUBIES



@kernel
def purple_seat(P, s, G, R, supply, SK, SP, SC, rng, E, UF):
    """Seat s takes the chip it names, or 3 rubies."""
    show_supply(G, supply)
    a = answer(P, s, 0, default(P, s, 0, G, R), G, R, SK, SP, SC, rng, UF)
    if a == TAKE_RUBIES or not (a == K1 or (0 <= a < supply.shape[0] and TYPE_VALUE[a] == 2)) \
            or not grant_chip(P, s, a, G, R, supply, E):
        gain(P, s, G, E, GAIN_RUBY, CHOOSE_ONE_RUBIES)
