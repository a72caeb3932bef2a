"""What a droplet move and a flask refill cost a seat in rubies at step F: the ruleset's prices,
or what a witch the seat called makes them (``sim.kernel.witches.called_hooks.ruby_price``: 1
each after the cheap-rubies witch, this step)."""

from __future__ import annotations

from sim.kernel.jit import kernel
from sim.kernel.layout import R_RUBY_DROPLET, R_RUBY_FLASK, SPEND_DROPLET, SPEND_FLASK
from sim.kernel.witches.called_hooks import ruby_price


@kernel(inline=True)
def droplet_cost(P, s, R):
    """Rubies for one droplet move."""
    return ruby_price(P, s, SPEND_DROPLET, R[R_RUBY_DROPLET], R)


@kernel(inline=True)
def flask_cost(P, s, R):
    """Rubies for refilling the flask."""
    return ruby_price(P, s, SPEND_FLASK, R[R_RUBY_FLASK], R)
