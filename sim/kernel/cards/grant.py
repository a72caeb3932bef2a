"""A chip a fortune-teller card grants (``grant_chip``), apart from the rest of what the cards
share (``sim.kernel.cards.common``): it is the one helper that calls a books' hook point
(``chip_bought`` of the generated ``sim.kernel.books.gain_hooks``, which changes with every
user's book loaded). Only the cards that grant a chip import it, so the others, and
``common``, are cached once for every set of rules files (``sim.numba_cache.RULES_TABLES``).
"""

from __future__ import annotations

from sim.kernel.bag import add_chip
from sim.kernel.books.gain_hooks import chip_bought
from sim.kernel.cards.common import GAIN_CHIP, card_event
from sim.kernel.decisions.choices import grantable
from sim.kernel.jit import kernel
from sim.kernel.layout import G_SUPPLY


@kernel
def grant_chip(P, s, t, G, R, supply, E):
    """A card gives chip t into the bag, if its book is out and the supply has one (a black chip
    with black Set 5: into the left neighbour's bag, and the droplet moves)."""
    G[G_SUPPLY + t] = supply[t]
    if 0 <= t < supply.shape[0] and grantable(G, R, t) and (chip_bought(P, s, t, G, R, E)
                                                           or add_chip(P, s, t)):
        supply[t] -= 1
        card_event(E, G, s, GAIN_CHIP, t)
        return True
    return False
