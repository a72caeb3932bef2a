"""Draw 6 chips; place any of them, in any order, each with its action (into the overflow bowl past
the last space); the rest go back to the bag. Brewing then goes on.

Six chips (potion group) acts between draws of an intact pot: she draws up to 6 chips (as many as
the bag holds), placed one at a time in the order the seat chooses.

Questions: ``SIX_CHIPS`` (b = 1 if the player is about to stop; answer 1 calls her; default:
when about to stop) and, once called, ``WQ_SIX_NEXT`` for each placement (b = chips held,
``P[s, WITCH_LOOK:]``; answer: the index of the chip placed next, -1 done; default
``_next_default``). A round file scripts ``after * 4 + 1`` and the chips placed in order
(``SC_SIX``).
"""

from __future__ import annotations

import numpy as np

from sim.kernel.bag import draw_chip, finish_potion, return_chip
from sim.kernel.brew import place_drawn_call
from sim.kernel.decisions.slots import SC_NSIX, SC_SIX, WQ_SIX_NEXT
from sim.kernel.decisions.witch import (
    ASK_DECLINE,
    ASK_DEFAULT,
    ASK_RANDOM,
    ASK_SCRIPT,
    ask_witch_when,
    witch_answer,
)
from sim.kernel.event_codes import event_code
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    EV_DRAW,
    F_DONE,
    F_DRAWS,
    F_LIMIT,
    F_NBAG,
    F_SIX_N,
    F_SIX_PTR,
    F_WHITE,
    STOP_EMPTY,
    STOP_SCRIPT,
    WITCH_LOOK,
    WITCH_LOOK_NO,
)
from sim.kernel.rng import CHOICE_STREAM, randint
from sim.kernel.witches.common import call_witch
from sim.rules.chips import BLUE, GREEN, N_TYPES, ORANGE, RED, TYPE_COLOUR, TYPE_VALUE, WHITE
from sim.rules.declare import SCRIPT_SIX, event, witch

WITCH = witch(2, "six-chips", "potion", name="Six chips", doc=__doc__,
    phase='potion phase, pot intact', first_round=6, script=SCRIPT_SIX,
    events=(event("witch", b="drawn"),
            event("witch_look", a="chip:chip", doc="a: a chip type she drew to choose from")))
SIX_CHIPS = WITCH.number
EV_WITCH_LOOK = event_code(WITCH, "witch_look")


@kernel(inline=True)
def default(P, s, arg, G, R, SP):
    """The built-in answer: call her when about to stop."""
    return 1 if arg == 1 else 0


def _six_rank(t: int) -> int:
    """Order the built-in strategy places chips in: pumpkins first (a red chip counts them), then
    green, blue and the rest, reds last; whites after all coloured chips."""
    c = TYPE_COLOUR[t]
    if c == WHITE:
        return 100 - int(TYPE_VALUE[t])
    if c == ORANGE:
        return 0
    if c == RED:
        return 50
    if c == GREEN or c == BLUE:
        return 10
    return 20


# ``_six_rank`` of every chip type, a table Numba freezes into the code (a lookup, not a call for
# every chip held at every placement)
SIX_RANK = np.array([_six_rank(t) for t in range(N_TYPES)], dtype=np.int64)


@kernel(inline=True)
def _next_default(P, s, held):
    """Index of the drawn chip to place next: every coloured chip, then the biggest white that
    keeps the pot from exploding; -1 when none is left worth placing."""
    best, rank = -1, 1000
    for i in range(held):
        t = P[s, WITCH_LOOK + i]
        if TYPE_COLOUR[t] == WHITE and P[s, F_WHITE] + TYPE_VALUE[t] > P[s, F_LIMIT]:
            continue
        r = SIX_RANK[t]
        if r < rank:
            best, rank = i, r
    return best


@kernel
def _next_scripted(P, s, held, SC):
    """A round file's order (``SC_SIX``; the default order when not given): the index of its next
    chip among those held, -1 when the list is done."""
    i = P[s, F_SIX_PTR]
    if SC[s, SC_NSIX] == 0:
        return _next_default(P, s, held)
    if i >= SC[s, SC_NSIX]:
        return -1
    for j in range(held):
        if P[s, WITCH_LOOK + j] == SC[s, SC_SIX + i]:
            return j
    return -1


@kernel
def _place_six(P, s, G, R, SK, SP, SC, FD, rng, E, UF):
    """Draw up to 6 chips; place those the seat picks, in its order, each with its action; the
    rest go back to the bag. The seat's answer to ``WQ_SIX_NEXT`` (which chip held is placed
    next, -1 done) is asked here, not through a call passing ten arrays per placement."""
    n = min(6, P[s, F_NBAG])
    for i in range(n):
        u = draw_chip(P, s, FD, rng)
        if u < 0:
            for j in range(i):
                return_chip(P, s, P[s, WITCH_LOOK + j])
            finish_potion(P, s, STOP_SCRIPT, E, G)
            return
        P[s, WITCH_LOOK + i] = u
        P[s, WITCH_LOOK_NO + i] = P[s, F_DRAWS]
        record(E, G, s, EV_WITCH_LOOK, u, 0, 0)
    P[s, F_SIX_N] = n
    P[s, F_SIX_PTR] = 0
    call_witch(P, s, G, E, SIX_CHIPS, n, 0)
    while P[s, F_SIX_N] > 0 and P[s, F_DONE] == 0:
        held = P[s, F_SIX_N]
        how, j = witch_answer(P, s, WQ_SIX_NEXT, held, G, R, SK, SP, SC, rng, UF)
        if how == ASK_DEFAULT:
            j = _next_default(P, s, held)
        elif how == ASK_SCRIPT:
            j = _next_scripted(P, s, held, SC)
        elif how == ASK_RANDOM:
            j = randint(rng, CHOICE_STREAM + s, held + 1)
            j = j if j < held else -1
        elif how == ASK_DECLINE:
            j = -1
        P[s, F_SIX_PTR] += 1
        if j < 0 or j >= held:
            break
        t = P[s, WITCH_LOOK + j]
        t_no = P[s, WITCH_LOOK_NO + j]
        P[s, WITCH_LOOK + j] = P[s, WITCH_LOOK + held - 1]
        P[s, WITCH_LOOK_NO + j] = P[s, WITCH_LOOK_NO + held - 1]
        P[s, F_SIX_N] = held - 1
        record(E, G, s, EV_DRAW, t, 0, 0)
        place_drawn_call(P, s, t, t_no, G, R, SK, SP, SC, FD, rng, E, UF, True)
    for i in range(P[s, F_SIX_N]):  # (none after A Second Chance: the restart took them back)
        return_chip(P, s, P[s, WITCH_LOOK + i])
    P[s, F_SIX_N] = 0
    if P[s, F_DONE] == 0 and P[s, F_NBAG] == 0:
        finish_potion(P, s, STOP_EMPTY, E, G)


@kernel(inline=True)
def between_draws(P, s, stopping, G, R, SK, SP, SC, FD, rng, E, UF):
    """Between draws of an intact pot (``stopping``: the seat would stop now): True if called."""
    if P[s, F_NBAG] > 0 and ask_witch_when(P, s, SIX_CHIPS, stopping, default, G, R, SK, SP,
                                           SC, rng, UF)[1] != 0:
        _place_six(P, s, G, R, SK, SP, SC, FD, rng, E, UF)
        return True
    return False
