"""Green Set 2 (garden spider, B): each green chip last or next-to-last earns a free chip into the
bag (green 1 an orange 1; green 2 a blue 1 or red 1; green 4 a yellow 1 or purple 1; only once
that book is out and the supply has one).

Question ``green-chip`` (b = the green chip's value; the chip type taken, -1 none); default the
dearer chip (declining: none). Round-file key ``green``."""

from __future__ import annotations

from sim.kernel.bag import add_chip
from sim.kernel.decisions.choices import decide_book, grantable
from sim.kernel.decisions.slots import Q_GREEN_CHIP
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import EV_GREEN_CHIP, F_GREEN_PTR, F_NPOT, POT_T
from sim.rules.chips import B1, GREEN, O1, P1, R1, TYPE_COLOUR, TYPE_VALUE, Y1


@kernel(inline=True)
def grant_ok(value, t):
    """Green 1 -> orange 1; green 2 -> blue 1 or red 1; green 4 -> yellow 1 or purple 1."""
    if value == 1:
        return t == O1
    if value == 2:
        return t == B1 or t == R1
    return t == Y1 or t == P1


@kernel(inline=True)
def at_b(P, s, G, R, supply, SK, SP, SC, rng, E, UF):
    """Step B for seat s."""
    npot = P[s, F_NPOT]
    for i in range(max(0, npot - 2), npot):
        gt = P[s, POT_T + i]
        if TYPE_COLOUR[gt] != GREEN:
            continue
        t = decide_book(P, s, Q_GREEN_CHIP, TYPE_VALUE[gt], G, R, SK, SP, SC, rng, UF)
        P[s, F_GREEN_PTR] += 1
        if 0 <= t < supply.shape[0] and grant_ok(TYPE_VALUE[gt], t) and grantable(G, R, t):
            if add_chip(P, s, t):
                supply[t] -= 1
                record(E, G, s, EV_GREEN_CHIP, t, 0, 0)
