"""What a droplet move and a flask refill cost a seat in rubies at step F: the ruleset's prices,
or 1 each after the cheap-rubies witch (Herb Witches) this step."""

from __future__ import annotations

from sim.kernel.jit import kernel
from sim.kernel.layout import F_CHEAP, R_RUBY_DROPLET, R_RUBY_FLASK


@kernel(inline=True)
def droplet_cost(P, s, R):
    """Rubies for one droplet move."""
    return 1 if P[s, F_CHEAP] != 0 else R[R_RUBY_DROPLET]


@kernel(inline=True)
def flask_cost(P, s, R):
    """Rubies for refilling the flask."""
    return 1 if P[s, F_CHEAP] != 0 else R[R_RUBY_FLASK]
