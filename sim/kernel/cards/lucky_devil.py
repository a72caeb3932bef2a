"""Lucky Devil (blue): a player whose scoring space shows a ruby gets 2 extra VP, even if the pot
exploded."""

from __future__ import annotations

from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import EV_VP, F_SCORE
from sim.rules.card_numbers import card_number

LUCKY_DEVIL = card_number("lucky-devil")


@kernel(inline=True)
def ruby_space(P, s, G, E):
    """Step C, once seat s has taken the rubies of a ruby space: 2 VP."""
    P[s, F_SCORE] += 2
    record(E, G, s, EV_VP, 2, P[s, F_SCORE], 0)
