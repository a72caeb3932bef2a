"""Green (garden spider): evaluation step B, Sets 1-6."""

from __future__ import annotations

from sim.kernel.bag import add_chip
from sim.kernel.cards.hooks import die_rolls
from sim.kernel.decisions.choices import decide_book, grantable
from sim.kernel.decisions.slots import Q_GREEN_CHIP, Q_GREEN_FIRST, Q_GREEN_RUBY
from sim.kernel.die import roll_die
from sim.kernel.droplet import move_droplet
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    EV_GREEN,
    EV_GREEN_CHIP,
    EV_GREEN_DIE,
    EV_GREEN_DROPLET,
    EV_GREEN_FIRST,
    EV_GREEN_MOVE,
    F_COINS,
    F_EXPLODED,
    F_FINALPOS,
    F_GREEN_PTR,
    F_NFIRST,
    F_NPOT,
    F_REWARD,
    F_RUBIES,
    F_WHITE,
    FIRST_T,
    POT_P,
    POT_T,
    R_BOOK,
    R_COINS,
    R_LAST,
    R_LIMIT,
)
from sim.rules.chips import B1, GREEN, N_TYPES, O1, P1, R1, TYPE_COLOUR, TYPE_VALUE, Y1


@kernel
def last_two_green(P, s):
    """Green chips among the last and next-to-last chips in the pot."""
    npot = P[s, F_NPOT]
    g = 0
    for i in range(max(0, npot - 2), npot):
        if TYPE_COLOUR[P[s, POT_T + i]] == GREEN:
            g += 1
    return g


@kernel
def first_left(P, s, t):
    """Green Set 5: chips of type t in the pot not yet picked to go first."""
    n = 0
    for i in range(P[s, F_NPOT]):
        if P[s, POT_T + i] == t:
            n += 1
    for i in range(P[s, F_NFIRST]):
        if P[s, FIRST_T + i] == t:
            n -= 1
    return n


@kernel(inline=True)
def green_grant_ok(value, t):
    """Green Set 2: green 1 -> orange 1; green 2 -> blue 1 or red 1; green 4 -> yellow 1 or purple 1."""
    if value == 1:
        return t == O1
    if value == 2:
        return t == B1 or t == R1
    return t == Y1 or t == P1


@kernel(inline=True)
def green_at_b(P, s, G, R, supply, die, DS, SK, SP, SC, rng, E, UF):
    """Green chips at B, by book.

    Set 1: one ruby for each green chip that is the last or next-to-last chip in the pot.
    Set 2: for each such green chip, a free chip (by its value; the strategy picks).
    Set 3: white total exactly the explosion limit: the last chip moves on by the values of all
    green chips in the pot (a new reward space for C-E).
    Set 4: for each such green chip, the strategy may pay 1 ruby for droplet +1.
    Set 5: for each such green chip, the strategy may pick a chip in the pot worth no more than
    it (locoweed 1), to be placed first in the next potion (``sim.kernel.brewing``).
    Set 6: for each such green chip, one roll of the bonus die (two with The Pot is Full).
    """
    book = R[R_BOOK + GREEN]
    npot = P[s, F_NPOT]
    if book == 1:
        g = last_two_green(P, s)
        if g > 0:
            P[s, F_RUBIES] += g
            record(E, G, s, EV_GREEN, g, 0, 0)
    elif book == 2 or book == 4:
        moves = 0
        for i in range(max(0, npot - 2), npot):
            gt = P[s, POT_T + i]
            if TYPE_COLOUR[gt] != GREEN:
                continue
            if book == 2:
                t = decide_book(P, s, Q_GREEN_CHIP, TYPE_VALUE[gt], G, R, SK, SP, SC, rng, UF)
                P[s, F_GREEN_PTR] += 1
                if 0 <= t < supply.shape[0] and green_grant_ok(TYPE_VALUE[gt], t) and grantable(G, R, t):
                    if add_chip(P, s, t):
                        supply[t] -= 1
                        record(E, G, s, EV_GREEN_CHIP, t, 0, 0)
            else:
                pay = decide_book(P, s, Q_GREEN_RUBY, TYPE_VALUE[gt], G, R, SK, SP, SC, rng, UF)
                P[s, F_GREEN_PTR] += 1
                if pay != 0 and P[s, F_RUBIES] >= 1:
                    P[s, F_RUBIES] -= 1
                    move_droplet(P, s, 1)
                    moves += 1
        if moves > 0:
            record(E, G, s, EV_GREEN_DROPLET, moves, 0, 0)
    elif book == 5:
        for i in range(max(0, npot - 2), npot):
            gt = P[s, POT_T + i]
            if TYPE_COLOUR[gt] != GREEN:
                continue
            t = decide_book(P, s, Q_GREEN_FIRST, TYPE_VALUE[gt], G, R, SK, SP, SC, rng, UF)
            P[s, F_GREEN_PTR] += 1
            if 0 <= t < N_TYPES and TYPE_VALUE[t] <= TYPE_VALUE[gt] and first_left(P, s, t) > 0:
                P[s, FIRST_T + P[s, F_NFIRST]] = t
                P[s, F_NFIRST] += 1
                record(E, G, s, EV_GREEN_FIRST, t, 0, 0)
    elif book == 6:
        g = last_two_green(P, s)
        for _ in range(g * die_rolls(G)):
            roll_die(P, s, G, die, DS, supply, rng, E)
        if g > 0:
            record(E, G, s, EV_GREEN_DIE, g, 0, 0)
    elif book == 3:
        if P[s, F_EXPLODED] == 0 and npot > 0 and P[s, F_WHITE] == R[R_LIMIT]:
            g = 0
            for i in range(npot):
                if TYPE_COLOUR[P[s, POT_T + i]] == GREEN:
                    g += TYPE_VALUE[P[s, POT_T + i]]
            if g > 0:
                pos = min(P[s, POT_P + npot - 1] + g, R[R_LAST])
                P[s, POT_P + npot - 1] = pos
                P[s, F_FINALPOS] = pos
                P[s, F_REWARD] = pos + 1
                P[s, F_COINS] = R[R_COINS + pos + 1]
                record(E, G, s, EV_GREEN_MOVE, g, pos + 1, 0)
