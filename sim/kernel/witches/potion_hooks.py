"""The witches' hook points between draws of an intact pot, called by ``sim.kernel.brewing``: the
rest of the witch hook table (``sim.kernel.witches.hooks``), kept apart because a witch acting
here may place chips through ``sim.kernel.brew`` (six chips), and brew calls ``hooks`` on an
explosion: one module would close an import circle.

- ``between_draws_possible``: the quick test, per chip (inlined): a witch who acts between draws
  is in play and the seat holds the potion penny, or she visits.
- ``between_draws``: the seat may call her (``stopping``: it would stop now): six chips, whites
  back (their ``between_draws``); the first ready witch of the table acts.
"""

from __future__ import annotations

from sim.kernel.jit import kernel
from sim.kernel.layout import F_PENNY, F_VISITED, G_VISIT, G_WITCH, R_WITCHES
from sim.kernel.witches import six_chips, whites_back
from sim.kernel.witches.common import witch_ready

# bit w: witch w acts between draws (a potion-group witch: her penny is bit 0 of F_PENNY)
BETWEEN_DRAWS = (1 << six_chips.SIX_CHIPS) | (1 << whites_back.WHITES_BACK)


@kernel(inline=True)
def between_draws_possible(P, s, G, R):
    """Whether a witch who acts between draws is in play and seat s still holds the potion
    penny, or visits this round (a quick test: most decisions skip the witch calls)."""
    w = G[G_WITCH]
    v = G[G_VISIT]
    return R[R_WITCHES] != 0 and (
        (((BETWEEN_DRAWS >> w) & 1) != 0 and (P[s, F_PENNY] & 1) != 0)
        or (((BETWEEN_DRAWS >> v) & 1) != 0 and P[s, F_VISITED] == 0))


@kernel
def between_draws(P, s, stopping, G, R, SK, SP, SC, FD, rng, E, UF):
    """Between draws of an intact pot: the witch who acts now, if the seat calls her. True if one
    was called."""
    if witch_ready(P, s, G, R, six_chips.SIX_CHIPS):
        return six_chips.between_draws(P, s, stopping, G, R, SK, SP, SC, FD, rng, E, UF)
    if witch_ready(P, s, G, R, whites_back.WHITES_BACK):
        return whites_back.between_draws(P, s, stopping, G, R, SK, SP, SC, FD, rng, E, UF)
    return False
