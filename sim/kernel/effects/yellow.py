"""Yellow (mandrake): what a yellow chip does once placed (Sets 1-3, 5), and its extra distance
(Sets 4, 6). Every extra distance may be declined (``sim.kernel.effects.extra``)."""

from __future__ import annotations

from sim.kernel.bag import draw_chip, finish_potion, remove_pot_entry, return_chip
from sim.kernel.decisions.choices import decide_book
from sim.kernel.decisions.decide import decide_yellow
from sim.kernel.decisions.slots import Q_YELLOW_RUBY
from sim.kernel.effects.extra import offer_extra
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    EV_DOUBLE,
    EV_LIMIT,
    EV_YELLOW,
    EV_YELLOW_PUSH,
    EV_YELLOW_RUBY,
    F_ANCHOR,
    F_BASE_LIMIT,
    F_DOUBLE,
    F_LIMIT,
    F_NBAG,
    F_NPOT,
    F_RUBIES,
    F_WHITE,
    F_YELLOW_PTR,
    POT_P,
    POT_T,
    R_BOOK,
    R_LAST,
    STOP_SCRIPT,
)
from sim.rules.chips import TYPE_COLOUR, TYPE_VALUE, WHITE, YELLOW


@kernel(inline=True)
def yellow_extra(P, s, t, G, R, SK, SP, SC, rng, E, UF):
    """Extra spaces of yellow chip t. Set 4: the 1st / 2nd / 3rd yellow chip of the round may move
    +1 / +2 / +3. Set 6: the strategy may pay 1 ruby for +3."""
    book = R[R_BOOK + YELLOW]
    if book == 4 and P[s, F_YELLOW_PTR] < 3:
        return offer_extra(P, s, P[s, F_YELLOW_PTR] + 1, t, G, R, SK, SP, SC, rng, E, UF)
    if book == 6 and P[s, F_RUBIES] >= 1:
        if decide_book(P, s, Q_YELLOW_RUBY, t, G, R, SK, SP, SC, rng, UF) != 0:
            P[s, F_RUBIES] -= 1
            record(E, G, s, EV_YELLOW_RUBY, 3, 0, 0)
            return 3
    return 0


@kernel(inline=True)
def raise_limit(P, s, raise_by, G, E):
    """Raise this round's explosion limit to base + ``raise_by`` unless it is already higher:
    raises (yellow Set 3, Living in Luxury) never add up, the larger counts."""
    new = P[s, F_BASE_LIMIT] + raise_by
    if new > P[s, F_LIMIT]:
        P[s, F_LIMIT] = new
        record(E, G, s, EV_LIMIT, new, 0, 0)


YELLOW_ABORT = -2  # yellow_placed: a scripted draw failed


@kernel(inline=True)
def yellow_placed(P, s, G, R, SK, SP, SC, FD, rng, E, UF):
    """Resolve the yellow chip just placed; return 0, or ``YELLOW_ABORT``.

    Set 1: if the chip before it is white, the strategy may put that white back into the bag
    (its space stays empty, the yellow stays where it landed).
    Set 2: the next chip placed may move twice as far (offered when it is placed).
    Set 3: after the 1st yellow the explosion limit is base + 1, after the 3rd base + 2.
    Set 5: one more chip is drawn; the yellow may move on by its value (locoweed 1), and the chip
    goes back to the bag with no effect (nothing on the last space: a "next chip" effect).
    """
    book = R[R_BOOK + YELLOW]
    if book == 1:
        k = P[s, F_NPOT]
        if k >= 2 and TYPE_COLOUR[P[s, POT_T + k - 2]] == WHITE:
            wt = P[s, POT_T + k - 2]
            if decide_yellow(P, s, wt, G, R, SK, SP, SC, rng, UF):
                wpos = P[s, POT_P + k - 2]
                remove_pot_entry(P, s, k - 2)
                P[s, F_WHITE] -= TYPE_VALUE[wt]
                return_chip(P, s, wt)
                record(E, G, s, EV_YELLOW, wt, wpos, 0)
    elif book == 2:
        P[s, F_DOUBLE] = 1
        record(E, G, s, EV_DOUBLE, 0, 0, 0)
    elif book == 3:
        nth = P[s, F_YELLOW_PTR] + 1
        raise_limit(P, s, 2 if nth >= 3 else 1, G, E)
    elif book == 5 and P[s, F_ANCHOR] < R[R_LAST] and P[s, F_NBAG] > 0:
        u = draw_chip(P, s, FD, rng)
        if u < 0:
            finish_potion(P, s, STOP_SCRIPT, E, G)
            return YELLOW_ABORT
        k = P[s, F_NPOT] - 1
        return_chip(P, s, u)
        spaces = offer_extra(P, s, TYPE_VALUE[u], P[s, POT_T + k], G, R, SK, SP, SC, rng, E, UF)
        pos = min(P[s, POT_P + k] + spaces, R[R_LAST])
        P[s, POT_P + k] = pos
        P[s, F_ANCHOR] = pos
        record(E, G, s, EV_YELLOW_PUSH, u, spaces, pos)
    P[s, F_YELLOW_PTR] += 1
    return 0
