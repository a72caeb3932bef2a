"""Lucky Devil (blue): a player whose scoring space shows a ruby gets 2 extra VP, even if the pot
exploded."""

from __future__ import annotations

from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import EV_VP, F_SCORE
from sim.rules.declare import BLUE, card

CARD = card(16, "lucky-devil", BLUE, name="Lucky Devil", doc=(
    "A player whose scoring space shows a ruby gets 2 extra VP, even if the pot exploded (and "
    "they took the coins)."))


@kernel(inline=True)
def after_ruby_space(P, s, G, E):
    """Step C, once seat s has taken the rubies of a ruby space: 2 VP."""
    P[s, F_SCORE] += 2
    record(E, G, s, EV_VP, 2, P[s, F_SCORE], 0)
