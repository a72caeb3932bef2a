"""Blue (crow skull): what a blue chip does once placed: look and place (Set 1), a protection
window (Set 2), a ruby (Set 3) or VP (Set 4) on a ruby space, VP with enough pumpkins in the pot
(Set 5), rubies for the white 1-chips just before it (Set 6)."""

from __future__ import annotations

from sim.kernel.bag import (
    ERR_BLUE_NOT_SEEN,
    ERR_BLUE_SCRIPT,
    draw_chip,
    finish_potion,
    return_chip,
)
from sim.kernel.decisions.decide import decide_blue
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    EV_BLUE_LOOK,
    EV_BLUE_PICK,
    EV_BLUE_RUBY,
    EV_BLUE_VP,
    EV_PROTECT,
    F_ANCHOR,
    F_BLUE_PTR,
    F_DRAWS,
    F_NBAG,
    F_NORANGE,
    F_NPOT,
    F_PROTECT,
    F_RUBIES,
    F_SCORE,
    F_SCRIPT_ERR,
    LOOK_NO,
    LOOK_T,
    POT_T,
    R_BOOK,
    R_LAST,
    R_RUBY,
    STOP_SCRIPT,
)
from sim.rules.chips import BLUE, TYPE_VALUE, W1

BLUE_NONE = -1  # no chip to place next
BLUE_ABORT = -2  # a scripted draw failed; the potion is finished


@kernel(inline=True)
def blue_placed(P, s, t, pos, G, R, SK, SP, SC, FD, rng, E, UF):
    """Resolve blue chip t just placed on space ``pos``; return the index into ``LOOK_T`` of the
    chip to place next (Set 1), ``BLUE_NONE`` or ``BLUE_ABORT``.

    Set 2: a window over the next (value) draws in which an explosion still scores VP and coins;
    windows do not add up, the longer remaining one counts.
    Set 3: on a ruby space, one ruby at once. Set 4: on a ruby space, VP = its value at once.
    Set 5: with at least as many orange chips in the pot as its value, VP = its value at once.
    Set 6: one ruby for each white 1-chip among the (value) chips placed just before it.
    """
    book = R[R_BOOK + BLUE]
    if book == 2:
        if TYPE_VALUE[t] > P[s, F_PROTECT]:
            P[s, F_PROTECT] = TYPE_VALUE[t]
        record(E, G, s, EV_PROTECT, P[s, F_PROTECT], 0, 0)
        return BLUE_NONE
    if book == 3 or book == 4:
        if R[R_RUBY + pos] != 0:
            if book == 3:
                P[s, F_RUBIES] += 1
                record(E, G, s, EV_BLUE_RUBY, 1, 0, 0)
            else:
                P[s, F_SCORE] += TYPE_VALUE[t]
                record(E, G, s, EV_BLUE_VP, TYPE_VALUE[t], 0, 0)
        return BLUE_NONE
    if book == 5:
        if P[s, F_NORANGE] >= TYPE_VALUE[t]:
            P[s, F_SCORE] += TYPE_VALUE[t]
            record(E, G, s, EV_BLUE_VP, TYPE_VALUE[t], 0, 0)
        return BLUE_NONE
    if book == 6:
        k = P[s, F_NPOT] - 1  # the blue chip's own entry
        n = 0
        for i in range(max(0, k - TYPE_VALUE[t]), k):
            if P[s, POT_T + i] == W1:
                n += 1
        if n > 0:
            P[s, F_RUBIES] += n
            record(E, G, s, EV_BLUE_RUBY, n, 0, 0)
        return BLUE_NONE
    if book != 1 or P[s, F_ANCHOR] >= R[R_LAST] or P[s, F_NBAG] == 0:
        return BLUE_NONE
    return blue_look(P, s, t, G, R, SK, SP, SC, FD, rng, E, UF)


@kernel(inline=True)
def blue_look(P, s, t, G, R, SK, SP, SC, FD, rng, E, UF):
    """Set 1: look at as many chips as its value; the strategy may place one of them next (its
    own action resolves), the rest go back."""
    looked = P[s, LOOK_T : LOOK_T + 4]
    m = min(TYPE_VALUE[t], P[s, F_NBAG])
    for i in range(m):
        u = draw_chip(P, s, FD, rng)
        if u < 0:
            finish_potion(P, s, STOP_SCRIPT, E, G)
            return BLUE_ABORT
        looked[i] = u
        P[s, LOOK_NO + i] = P[s, F_DRAWS]
        record(E, G, s, EV_BLUE_LOOK, u, 0, 0)
    pick = decide_blue(P, s, looked, m, G, R, SK, SP, SC, rng, UF)
    P[s, F_BLUE_PTR] += 1
    if pick <= -3:
        P[s, F_SCRIPT_ERR] = ERR_BLUE_SCRIPT if pick == -3 else ERR_BLUE_NOT_SEEN
        pick = -1
    for i in range(m):
        if i != pick:
            return_chip(P, s, looked[i])
    if pick >= 0:
        record(E, G, s, EV_BLUE_PICK, looked[pick], 0, 0)
        return pick
    record(E, G, s, EV_BLUE_PICK, -1, 0, 0)
    return BLUE_NONE
