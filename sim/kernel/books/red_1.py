"""Red Set 1 (toadstool, draw): a red chip moves +1 with one or two pumpkins in the pot, +2 with
three or more (optional: the red question, ``hooks.chip_move``)."""

from __future__ import annotations

from sim.kernel.jit import kernel
from sim.kernel.layout import F_NORANGE


@kernel(inline=True)
def extra(P, s, t):
    """The extra spaces red chip t is offered."""
    n_orange = P[s, F_NORANGE]
    return 2 if n_orange >= 3 else (1 if n_orange >= 1 else 0)
