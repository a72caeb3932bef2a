"""What ``master`` reckons a gain outside the potion is worth, in VP: the one scale on which it
weighs the choices of cards, books and the test tube.

It is the scale of master's leaves (``leaf_marginal``): a VP is worth 1; a ruby the stop slot's
ruby value (in the last round what the final exchange pays for it); a chip what the marginal
buyer says it adds to the bag (``buy_marginal.drawn_worth``) times ``P_LEAF_BUYS``, the weight
the leaves give the chips coins buy. A droplet space moves every later potion's start one
space, worth what a chip's move of one space is worth (``mg_space`` x ``P_LEAF_BUYS``) in every
potion it acts in. A white chip taken out of the bag for good lets every non-white chip be drawn
more often (the marginal buyer's draw chance with one white fewer), the ones it owns and the
ones it will buy.

A gain acts in the potions still to brew (``horizon``): this round's too while the round's
potion is not brewed yet, so a chip or droplet gained from a card at the start of the round
counts one potion more than one bought at its end.
"""

from __future__ import annotations

from sim.kernel.decisions.buy_marginal import (
    draw_chance,
    drawn_worth,
    marginal_context,
    white_black_counts,
    worth_context,
)
from sim.kernel.decisions.choices import grantable
from sim.kernel.decisions.slots import (
    P_LEAF_BUYS,
    P_MG_SPACE,
    P_MG_STOP,
    P_RUBY_VALUE,
    SLOT_BUY,
    SLOT_STOP,
)
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    CHIPS,
    F_NCHIPS,
    F_RUBIES,
    G_BREWED,
    G_ROUND,
    R_FINAL_RUBIES,
    R_MAX_BUYS,
    R_ROUNDS,
)
from sim.rules.chips import TYPE_COLOUR, W1, W2, W3, WHITE


@kernel(inline=True)
def horizon(G, R):
    """Potions a gain made now still acts in: the rounds after this one, and this one while its
    potion is not brewed yet."""
    return max(R[R_ROUNDS] - G[G_ROUND] + (1 if G[G_BREWED] == 0 else 0), 0)


@kernel
def gain_context(P, s, G, R, SP):
    """``marginal_context`` for seat s with the rounds counted over ``horizon``."""
    _, f, drawn, avg_move, red_bonus, black_share, _ = marginal_context(P, s, G, R, SP)
    return worth_context(SP, s, float(horizon(G, R)), f, drawn, avg_move, red_bonus, black_share)


@kernel(inline=True)
def chip_worth(SP, s, t, ctx):
    """VP a chip of type t given to seat s now is worth (``ctx``: ``gain_context``)."""
    return drawn_worth(SP, s, t, ctx) * SP[s, SLOT_STOP, P_LEAF_BUYS]


@kernel
def grant_worth(G, R, SP, s, t, ctx):
    """``chip_worth`` of t if it can be given now (its book out, the supply has one), else -1."""
    if t < 0 or not grantable(G, R, t):
        return -1.0
    return chip_worth(SP, s, t, ctx)


@kernel(inline=True)
def space_worth(SP, s, ctx, n):
    """VP of ``n`` droplet spaces for seat s: one space's move in every potion of the horizon."""
    return n * ctx[0] * SP[s, SLOT_BUY, P_MG_SPACE] * SP[s, SLOT_STOP, P_LEAF_BUYS]


@kernel(inline=True)
def potion_space_worth(SP, s, n):
    """VP of ``n`` spaces more in this potion only."""
    return n * SP[s, SLOT_BUY, P_MG_SPACE] * SP[s, SLOT_STOP, P_LEAF_BUYS]


@kernel
def ruby_worth(P, s, G, R, SP, n):
    """VP of ``n`` rubies more (negative: fewer) for seat s: the stop slot's ruby value, in the
    last round what the final exchange pays for them."""
    if G[G_ROUND] >= R[R_ROUNDS]:
        fr = max(R[R_FINAL_RUBIES], 1)
        have = P[s, F_RUBIES]
        return float((have + n) // fr - have // fr)
    return n * SP[s, SLOT_STOP, P_RUBY_VALUE]


@kernel
def white_removal_worth(P, s, G, R, SP, t):
    """VP seat s gains by taking one white chip of type t out of its bag for good: every
    non-white chip drawn with the draw chance of one white fewer, over the potions still to
    brew, for the chips it owns and the ones it will buy (``R_MAX_BUYS`` a round, each worth
    in a potion what its own non-white chips are on average). The white's own move is not lost:
    the whites drawn in a potion add up to about the stop total whichever whites the bag holds."""
    if TYPE_COLOUR[t] != WHITE:
        return 0.0
    ctx = gain_context(P, s, G, R, SP)
    h = ctx[0]
    n1, n2, n3, _ = white_black_counts(P, s)
    if h <= 0 or (t == W1 and n1 == 0) or (t == W2 and n2 == 0) or (t == W3 and n3 == 0):
        return 0.0
    d1 = 1 if t == W1 else 0
    d2 = 1 if t == W2 else 0
    d3 = 1 if t == W3 else 0
    f = ctx[1]
    g = draw_chance(n1 - d1, n2 - d2, n3 - d3, SP[s, SLOT_BUY, P_MG_STOP])
    owned = 0.0
    nonwhite = 0
    for i in range(P[s, F_NCHIPS]):
        u = P[s, CHIPS + i]
        if TYPE_COLOUR[u] != WHITE:
            owned += chip_worth(SP, s, u, ctx)
            nonwhite += 1
    if f <= 0 or nonwhite == 0:
        return 0.0
    # chip-potions to come: the chips owned in every potion, and R_MAX_BUYS bought after each
    # potion but the last, each in the potions after it: R_MAX_BUYS * h (h - 1) / 2
    chip_potions = nonwhite * h + R[R_MAX_BUYS] * h * (h - 1) / 2
    return (g / f - 1.0) * owned / (nonwhite * h) * chip_potions
