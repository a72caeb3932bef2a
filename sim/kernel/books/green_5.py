"""For each green chip last or next-to-last, the player may pick a chip in the pot worth no more
than that green (locoweed counts 1); next round it is placed first, before any draw, with its action
(two: in the order picked; again in a potion A Second Chance restarts).

Green Set 5 (garden spider, B): for each green chip last or next-to-last, the player may pick a
chip in the pot worth no more than it (locoweed 1), to be placed first in the next potion
(``FIRST_T``; placed by ``sim.kernel.brew.place_first``).

Question ``green-first`` (b = the green chip's value; the chip type, -1 none); default the highest
value, then the dearest (declining: none). Round-file keys ``green`` (answers), ``first`` (chips
picked last round)."""

from __future__ import annotations

from sim.kernel.books.common import green_question
from sim.kernel.decisions.slots import script_slot
from sim.kernel.event_codes import event_code
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import F_FIRST_USED, F_NFIRST, F_NPOT, FIRST_T, POT_T, R_PRICE
from sim.rules.book_numbers import question_number
from sim.rules.chips import N_TYPES, TYPE_COLOUR, TYPE_VALUE, WHITE
from sim.rules.declare import SCRIPT_CHIPS, book, event, script_key, state_key

BOOK = book("green", 5, "B", prices=5, choices=('which chip to place first next round (or none)',),
            doc=__doc__,
            script=(script_key("green", SCRIPT_CHIPS, 4, bools=True, doc="one per green chip "
                                  "last or next-to-last: the chip placed first or \"none\""),),
            state=(state_key("first", doc="chips picked last round, placed first"),),
            events=event("green_first", a="chip:chip",
                         doc="the chip type to place first next round"))
EV_GREEN_FIRST = event_code(BOOK, "green_first")
MOST_FIRST = 2  # chips picked in a round: one per green chip last or next-to-last
QUESTION = question_number("green-first")
GREEN = script_slot(BOOK, "green")  # its answers in SC


@kernel
def default(P, s, arg, G, R, decline):
    """The built-in answer: the chip in the pot (not white) worth at most ``arg`` to place first
    next round, the highest value, then the dearest; -1 if none (declining: none)."""
    if decline:
        return -1
    best = -1
    for i in range(P[s, F_NPOT]):
        t = P[s, POT_T + i]
        if TYPE_COLOUR[t] == WHITE or TYPE_VALUE[t] > arg:
            continue
        if best < 0 or (TYPE_VALUE[t] * 1000 + R[R_PRICE + t]
                        > TYPE_VALUE[best] * 1000 + R[R_PRICE + best]):
            best = t
    return best



@kernel
def _first_left(P, s, t):
    """Chips of type t in the pot not yet picked to go first."""
    n = 0
    for i in range(P[s, F_NPOT]):
        if P[s, POT_T + i] == t:
            n += 1
    for i in range(P[s, F_NFIRST]):
        if P[s, FIRST_T + i] == t:
            n -= 1
    return n


@kernel(inline=True)
def green_at_b(P, s, G, R, SK, SP, SC, rng, E, UF):
    """Step B for seat s."""
    for k in range(2):
        value, ok, t = green_question(P, s, k, QUESTION, GREEN, G, R, SK, SP, SC, rng, UF)
        if value == 0:
            continue
        t = t if ok else default(P, s, value, G, R, t != 0)
        if 0 <= t < N_TYPES and TYPE_VALUE[t] <= value and _first_left(P, s, t) > 0:
            P[s, FIRST_T + P[s, F_NFIRST]] = t
            P[s, F_NFIRST] += 1
            record(E, G, s, EV_GREEN_FIRST, t, 0, 0)


@kernel
def potion_restarted(P, s):
    """A Second Chance's restart, before the pot is emptied (which zeroes ``F_FIRST_USED``, not
    ``F_NFIRST``): the picks placed first in the abandoned potion are placed first again, before
    the next draw (``sim.kernel.brew.before_draw``)."""
    P[s, F_NFIRST] = P[s, F_FIRST_USED]


def read_state(P, s, key, first, bag):
    """The round file's ``first`` (plain Python, read whatever book the ruleset chose): the chips
    picked last round, placed first (``FIRST_T``, ``F_NFIRST``); the error message, or None."""
    if len(first) > MOST_FIRST or any(bag.count(t) < first.count(t) for t in first):
        return (f"key '{key}': at most {MOST_FIRST} chips of the bag, placed first (picked by "
                "green Set 5 chips last round)")
    P[s, FIRST_T:FIRST_T + len(first)] = first
    P[s, F_NFIRST] = len(first)
    return None
