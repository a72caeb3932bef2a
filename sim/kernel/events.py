"""The event recorder every kernel module writes to (a replay runs the same code that scored)."""

from __future__ import annotations

from sim.kernel.jit import kernel
from sim.kernel.layout import G_NEV, G_ROUND


@kernel(inline=True)
def record(E, G, s, code, a, b, c):
    """Append one event row if recording (E has rows)."""
    if E.shape[0] == 0:
        return
    n = G[G_NEV]
    if n < E.shape[0]:
        E[n, 0] = G[G_ROUND]
        E[n, 1] = s
        E[n, 2] = code
        E[n, 3] = a
        E[n, 4] = b
        E[n, 5] = c
        G[G_NEV] = n + 1
