"""The overflow bowl (Herb Witches): once a chip lies on the last space of the pot, every chip
placed after it goes into the bowl, whatever places it (a draw, a card, a chip from beside the
pot). A chip in the bowl has no action; a white one still counts towards the explosion. The bowl
scores half its chips' total value, rounded down, as VP, on top of the spoon, for a player who
takes the VP (``sim.kernel.evaluation.phase_d_points``).
"""

from __future__ import annotations

from sim.kernel.bag import count_chip, place_plain, return_chip
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    EV_BOWL,
    F_BOWL_N,
    F_BOWL_SUM,
    F_NPOT,
    F_WHITE,
    POT_P,
    R_BOWL,
    R_LAST,
)
from sim.rules.chips import TYPE_COLOUR, TYPE_VALUE, WHITE


@kernel(inline=True)
def in_bowl(P, s, R):
    """True when the next chip drawn goes into the bowl: the ruleset has one and a chip lies on
    the last space."""
    k = P[s, F_NPOT]
    return R[R_BOWL] != 0 and k > 0 and P[s, POT_P + k - 1] >= R[R_LAST]


@kernel(inline=True)
def add_to_bowl(P, s, t, G, E):
    """Put chip t (out of the bag) into the bowl, without counting it."""
    P[s, F_BOWL_N] += 1
    P[s, F_BOWL_SUM] += TYPE_VALUE[t]
    record(E, G, s, EV_BOWL, t, P[s, F_BOWL_SUM], 0)


@kernel(inline=True)
def into_bowl(P, s, t, drawn, free, G, E):
    """Put chip t into the bowl; a white one counts towards the explosion (``count_chip``: drawn
    or not, inside a card's risk-free draws or not)."""
    add_to_bowl(P, s, t, G, E)
    count_chip(P, s, t, drawn, free, G, E)


@kernel
def place_after(P, s, t, G, R, E):
    """A chip placed once the potion has ended, without a draw and without its action (Strong
    Ingredient's chip, a red Set 2 chip from beside the pot): after the last chip, moving its
    printed value, or into the bowl past the last space. A white counts towards the white total
    but never explodes the pot. Returns the space, or the last space + 1 for the bowl."""
    if in_bowl(P, s, R):
        add_to_bowl(P, s, t, G, E)
        pos = R[R_LAST] + 1
    else:
        pos = place_plain(P, s, t, R[R_LAST])
    if TYPE_COLOUR[t] == WHITE:
        P[s, F_WHITE] += TYPE_VALUE[t]
    return pos


@kernel(inline=True)
def bowl_white_back(P, s, t):
    """The last chip into the bowl, white chip t, goes back to the bag (the flask or a witch)."""
    v = TYPE_VALUE[t]
    P[s, F_BOWL_N] -= 1
    P[s, F_BOWL_SUM] -= v
    P[s, F_WHITE] -= v
    return_chip(P, s, t)


@kernel(inline=True)
def bowl_vp(P, s):
    """VP the bowl scores: half its total value, rounded down."""
    return P[s, F_BOWL_SUM] // 2
