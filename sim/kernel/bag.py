"""A player's bag and pot: chips in and out, forced and random draws, and ending a potion.

All functions act on one player's row ``P[s]`` (see ``sim.kernel.layout``).
"""

from __future__ import annotations

import numpy as np

from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    BAGCNT,
    CHIPS,
    EV_EXPLODE,
    EV_STOP,
    F_ANCHOR,
    F_BASE_LIMIT,
    F_DONE,
    F_DRAWS,
    F_EXPLODED,
    F_FORCED_N,
    F_FORCED_PTR,
    F_LIMIT,
    F_NBAG,
    F_NCHIPS,
    F_NPOT,
    F_REWARD,
    F_SCRIPT_ERR,
    F_START,
    F_STOPREASON,
    F_WHITE,
    G_SUPPLY,
    PLAYER,
    POT_P,
    POT_T,
    R_FLASK_REUSE,
)
from sim.kernel.rng import peek_u64, randint_ahead
from sim.rules.chips import N_COLOURS, N_TYPES, TYPE_COLOUR, TYPE_VALUE, WHITE
from sim.rules.track import SPOON

# Script errors (F_SCRIPT_ERR)
ERR_DRAW_NOT_IN_BAG = 1
ERR_DRAWS_SHORT = 2  # a blue chip needs more listed chips than remain
ERR_BLUE_SCRIPT = 3  # no blue decision for a blue chip
ERR_BLUE_NOT_SEEN = 4  # the blue decision names a chip not looked at


@kernel(llvm_inline=True)
def reset_potion(P, s, start, limit):
    """Put every chip back into the bag and empty the pot, ready to brew from ``start``.
    Inlined by LLVM: called for every seat every round, where a call passed P word by word."""
    for t in range(N_TYPES):
        P[s, BAGCNT + t] = 0
    for i in range(P[s, F_NCHIPS]):
        P[s, BAGCNT + P[s, CHIPS + i]] += 1
    empty_pot(P, s, start, limit)


# the player fields every potion starts at 0 (empty_pot): the pot, its flags, every read pointer
# into a scripted decision list and the books' per-potion state, as the layout declares them
# (``reset="potion"``: the core names no book's field). An array, which Numba freezes into the
# code (the loop becomes one store per field); a tuple was built and walked at run time on every
# potion
POTION_ZEROED = np.array(PLAYER.reset_entries("potion"), dtype=np.int64)


@kernel(inline=True)
def empty_pot(P, s, start, limit):
    """Reset the potion fields (the bag counts must already be right)."""
    for f in POTION_ZEROED:
        P[s, f] = 0
    P[s, F_NBAG] = P[s, F_NCHIPS]
    P[s, F_START] = start
    P[s, F_ANCHOR] = start
    P[s, F_LIMIT] = limit
    P[s, F_BASE_LIMIT] = limit
    P[s, F_REWARD] = min(start + 1, SPOON)


@kernel(inline=True)
def count_chip(P, s, t, drawn, free, G, E):
    """Count chip t just put into the pot (or the overflow bowl): a white adds to the white total.
    The pot explodes when the total is over the limit, checked on every ordinary draw whatever the
    chip (a card's risk-free draws may have left it over) and, for a chip placed without a draw (a
    held red Set 6 chip), when it is white; never on a card's risk-free draw (``free``)."""
    white = TYPE_COLOUR[t] == WHITE
    if white:
        P[s, F_WHITE] += TYPE_VALUE[t]
    if P[s, F_WHITE] > P[s, F_LIMIT] and P[s, F_EXPLODED] == 0 and not free and (drawn or white):
        P[s, F_EXPLODED] = 1
        record(E, G, s, EV_EXPLODE, P[s, F_WHITE], 0, 0)


@kernel
def add_chip(P, s, t):
    """Give the player a new chip of type t (it joins the bag at the next reset)."""
    n = P[s, F_NCHIPS]
    if n >= 64:
        return False
    P[s, CHIPS + n] = t
    P[s, F_NCHIPS] = n + 1
    return True


@kernel(inline=True)
def out_of_bag(P, s, j):
    """Move the chip at bag slot j out of the bag (to the slot after the bag); return its type."""
    n = P[s, F_NBAG]
    t = P[s, CHIPS + j]
    P[s, CHIPS + j] = P[s, CHIPS + n - 1]
    P[s, CHIPS + n - 1] = t
    P[s, F_NBAG] = n - 1
    P[s, BAGCNT + t] -= 1
    return t


@kernel(inline=True)
def _take(P, s, j):
    """Draw the chip at bag slot j (out of the bag, one draw more); return its type."""
    t = out_of_bag(P, s, j)
    P[s, F_DRAWS] += 1
    return t


@kernel(inline=True)
def draw_chip(P, s, FD, rng):
    """Draw one chip: the next forced one if a forced list is set, else uniformly from the bag.

    Returns the chip type, or -1 with F_SCRIPT_ERR set if a forced chip is not in the bag.
    """
    return draw_chip_ahead(P, s, FD, rng, peek_u64(rng, s))


@kernel(inline=True)
def draw_chip_ahead(P, s, FD, rng, ahead):
    """``draw_chip`` with the random number peeked ahead (``ahead``: ``peek_u64`` of the bag
    stream, used only if nothing drew from it since; see ``randint_ahead``)."""
    n = P[s, F_NBAG]
    if P[s, F_FORCED_N] > 0:
        p = P[s, F_FORCED_PTR]
        if p >= P[s, F_FORCED_N]:
            P[s, F_SCRIPT_ERR] = ERR_DRAWS_SHORT
            return -1
        want = FD[s, p]
        P[s, F_FORCED_PTR] = p + 1
        for j in range(n):
            if P[s, CHIPS + j] == want:
                return _take(P, s, j)
        P[s, F_SCRIPT_ERR] = ERR_DRAW_NOT_IN_BAG
        return -1
    return _take(P, s, randint_ahead(rng, s, n, ahead))


@kernel
def take_type(P, s, t):
    """Take one chip of type t out of the bag without drawing it (a chip placed first); False if
    the bag has none."""
    for j in range(P[s, F_NBAG]):
        if P[s, CHIPS + j] == t:
            out_of_bag(P, s, j)
            return True
    return False


@kernel(inline=True)
def return_chip(P, s, t):
    """Put one chip of type t that is out of the bag (pot or looked at) back into the bag."""
    nb = P[s, F_NBAG]
    for i in range(nb, P[s, F_NCHIPS]):
        if P[s, CHIPS + i] == t:
            P[s, CHIPS + i] = P[s, CHIPS + nb]
            P[s, CHIPS + nb] = t
            P[s, F_NBAG] = nb + 1
            P[s, BAGCNT + t] += 1
            return


@kernel(inline=True)
def return_looked(P, s, looked, m, pick):
    """Put back the chips ``looked[:m]`` just drawn to look at (the last m draws, nothing out of
    the bag since), all but ``looked[pick]`` (``pick`` -1: all), leaving the bag exactly as
    ``return_chip`` of each in turn leaves it.

    The draws left the m chips in the m slots after the bag; ``return_chip`` of ``looked[i]``
    finds a chip of that type among the slots not yet returned and moves it to the bag's end, so
    the slots end up as the returned chips in order, the picked one after them (chips of one
    type are alike): written here in one pass instead of a search per chip."""
    j = P[s, F_NBAG]
    for i in range(m):
        if i != pick:
            t = looked[i]
            P[s, CHIPS + j] = t
            P[s, BAGCNT + t] += 1
            j += 1
    if pick >= 0:
        P[s, CHIPS + j] = looked[pick]
    P[s, F_NBAG] = j


@kernel(inline=True)
def remove_pot_entry(P, s, k):
    """Take pot entry k out of the pot list (its space stays empty); return its type."""
    t = P[s, POT_T + k]
    n = P[s, F_NPOT]
    for i in range(k, n - 1):
        P[s, POT_T + i] = P[s, POT_T + i + 1]
        P[s, POT_P + i] = P[s, POT_P + i + 1]
    P[s, F_NPOT] = n - 1
    return t


@kernel(inline=True)
def white_back(P, s, t, R):
    """The last chip in the pot, white chip t, goes back to the bag (the flask, a witch); its space
    stays empty, and with ``flask_space = reuse`` the next chip counts on from the chip before."""
    k = P[s, F_NPOT]
    remove_pot_entry(P, s, k - 1)
    P[s, F_WHITE] -= TYPE_VALUE[t]
    return_chip(P, s, t)
    if R[R_FLASK_REUSE] != 0:
        P[s, F_ANCHOR] = P[s, POT_P + k - 2] if k >= 2 else P[s, F_START]


@kernel(inline=True)
def finish_potion(P, s, reason, E, G):
    """Mark brewing over and set the reward space (the space after the last chip in the pot)."""
    P[s, F_DONE] = 1
    P[s, F_STOPREASON] = reason
    n = P[s, F_NPOT]
    if n == 0:
        P[s, F_REWARD] = min(P[s, F_START] + 1, SPOON)
    else:
        P[s, F_REWARD] = min(P[s, POT_P + n - 1] + 1, SPOON)
    record(E, G, s, EV_STOP, reason, P[s, F_REWARD], P[s, F_WHITE])


@kernel
def remove_chip_from(P, s, t, first):
    """Remove one chip of type t among the player's chips ``CHIPS[first:F_NCHIPS]`` for good
    (the last chip takes its place); False if there is none."""
    n = P[s, F_NCHIPS]
    for i in range(first, n):
        if P[s, CHIPS + i] == t:
            P[s, CHIPS + i] = P[s, CHIPS + n - 1]
            P[s, F_NCHIPS] = n - 1
            return True
    return False


@kernel
def discard_chip(P, s, t):
    """Remove one chip of type t that is out of the bag from the player's chips for good."""
    return remove_chip_from(P, s, t, P[s, F_NBAG])


@kernel
def remove_any_chip(P, s, t):
    """Remove one chip of type t from the player's chips for good, wherever it is (between rounds,
    before the bag is refilled)."""
    return remove_chip_from(P, s, t, 0)


@kernel
def place_plain(P, s, t, last):
    """Put chip t (already out of the bag) in the pot after the last chip, moving its printed
    value and nothing more (no action, no explosion check); return the space."""
    pos = min(P[s, F_ANCHOR] + TYPE_VALUE[t], last)
    k = P[s, F_NPOT]
    P[s, POT_T + k] = t
    P[s, POT_P + k] = pos
    P[s, F_NPOT] = k + 1
    P[s, F_ANCHOR] = pos
    return pos


@kernel(inline=True)
def show_supply(G, supply):
    """Copy the supply into the game row, where a strategy reads it (``G_SUPPLY``)."""
    for t in range(supply.shape[0]):
        G[G_SUPPLY + t] = supply[t]


@kernel(inline=True)
def colour_totals(P, s, out, at_count, at_value):
    """Per colour c, how many chips seat s owns (in the bag or not) into ``out[at_count + c]`` and
    their values added up into ``out[at_value + c]`` (a value model's features, a round's
    record)."""
    for c in range(N_COLOURS):
        out[at_count + c] = 0
        out[at_value + c] = 0
    for i in range(P[s, F_NCHIPS]):
        t = P[s, CHIPS + i]
        out[at_count + TYPE_COLOUR[t]] += 1
        out[at_value + TYPE_COLOUR[t]] += TYPE_VALUE[t]
