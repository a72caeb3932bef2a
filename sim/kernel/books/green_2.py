"""Each green chip last or next-to-last earns a free chip into the bag: green 1 an orange 1; green 2
a blue 1 or red 1; green 4 a yellow 1 or purple 1 (only once that book is out).

Green Set 2 (garden spider, B): each green chip last or next-to-last earns a free chip into the
bag (green 1 an orange 1; green 2 a blue 1 or red 1; green 4 a yellow 1 or purple 1; only once
that book is out and the supply has one).

Question ``green-chip`` (b = the green chip's value; the chip type taken, -1 none); default the
dearer chip (declining: none). Round-file key ``green``."""

from __future__ import annotations

from sim.kernel.bag import add_chip
from sim.kernel.books.common import green_question
from sim.kernel.decisions.choices import grantable
from sim.kernel.decisions.slots import script_slot
from sim.kernel.event_codes import event_code
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import R_PRICE
from sim.rules.book_numbers import question_number
from sim.rules.chips import B1, O1, P1, R1, Y1
from sim.rules.declare import SCRIPT_CHIPS, book, event, script_key

BOOK = book("green", 2, "B", prices=2, choices=('which chip to take (or none)',),
            flags=('grants_at_b',), doc=__doc__,
            script=(script_key("green", SCRIPT_CHIPS, 4, bools=True, doc="one per green chip "
                                  "last or next-to-last: the chip taken or \"none\""),),
            events=event("green_chip", a="chip:chip", text="green: takes {chip}",
                         doc="the chip type taken"))
EV_GREEN_CHIP = event_code(BOOK, "green_chip")
QUESTION = question_number("green-chip")
GREEN = script_slot(BOOK, "green")  # its answers in SC


@kernel
def default(P, s, arg, G, R, decline):
    """The built-in answer: the better chip (by this ruleset's price) a green chip of value
    ``arg`` grants; declining: none."""
    if decline:
        return -1
    a, b = -1, -1
    if arg == 1:
        a = O1
    elif arg == 2:
        a, b = B1, R1
    else:
        a, b = Y1, P1
    best = -1
    for t in (a, b):
        if t >= 0 and grantable(G, R, t) and (best < 0 or R[R_PRICE + t] > R[R_PRICE + best]):
            best = t
    return best



@kernel(inline=True)
def _grant_ok(value, t):
    """Green 1 -> orange 1; green 2 -> blue 1 or red 1; green 4 -> yellow 1 or purple 1."""
    if value == 1:
        return t == O1
    if value == 2:
        return t == B1 or t == R1
    return t == Y1 or t == P1


@kernel(inline=True)
def green_at_b(P, s, G, R, supply, SK, SP, SC, rng, E, UF):
    """Step B for seat s."""
    for k in range(2):
        value, ok, t = green_question(P, s, k, QUESTION, GREEN, G, R, SK, SP, SC, rng, UF)
        if value == 0:
            continue
        t = t if ok else default(P, s, value, G, R, t != 0)
        if 0 <= t < supply.shape[0] and _grant_ok(value, t) and grantable(G, R, t):
            if add_chip(P, s, t):
                supply[t] -= 1
                record(E, G, s, EV_GREEN_CHIP, t, 0, 0)
