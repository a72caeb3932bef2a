"""Blue Set 4 (crow skull, draw): a blue chip landing on a ruby space scores its value in VP at
once."""

from __future__ import annotations

from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import EV_BLUE_VP, F_SCORE, R_RUBY
from sim.rules.chips import TYPE_VALUE


@kernel(inline=True)
def placed(P, s, t, pos, G, R, E):
    """Blue chip t just placed on space ``pos``."""
    if R[R_RUBY + pos] != 0:
        P[s, F_SCORE] += TYPE_VALUE[t]
        record(E, G, s, EV_BLUE_VP, TYPE_VALUE[t], 0, 0)
