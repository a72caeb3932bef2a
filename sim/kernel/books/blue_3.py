"""Blue Set 3 (crow skull, draw): a blue chip landing on a ruby space earns 1 ruby at once."""

from __future__ import annotations

from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import EV_BLUE_RUBY, F_RUBIES, R_RUBY


@kernel(inline=True)
def placed(P, s, pos, G, R, E):
    """A blue chip just placed on space ``pos``."""
    if R[R_RUBY + pos] != 0:
        P[s, F_RUBIES] += 1
        record(E, G, s, EV_BLUE_RUBY, 1, 0, 0)
