"""After the red chip, one more chip is drawn and set beside the pot; it must be placed this round:
at once or before any later draw (with its action), or when the potion ends (then placed like a
drawn chip, with its book's distance and the card's bonuses but no action, into the overflow bowl
past the last space; a white still counts towards the explosion, even after one).

Red Set 6 (toadstool, draw): after a red chip is placed, one more chip is drawn; the player
places it at once (with its action) or holds it beside the pot. Before each later draw a held chip
may be placed (as if just drawn); chips still held when the potion ends are placed after the last
chip without their action (``sim.kernel.brew.place_held``).

Questions ``red-hold`` (b = the chip drawn; 1 place it now, 0 hold it; default now) and
``red-place`` (b = chips held; the index of the one placed now, -1 none; default none: held to the
end). Round-file keys: ``red_hold``, ``red_place``."""

from __future__ import annotations

from sim.kernel.bag import draw_chip, finish_potion
from sim.kernel.books.common import (
    ACTION_ABORT,
    ACTION_NONE,
    scripted_bit,
    scripted_entry,
    scripting,
)
from sim.kernel.decisions.choices import book_answer
from sim.kernel.decisions.slots import script_slot
from sim.kernel.event_codes import event_code
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    F_ANCHOR,
    F_BOOK_PTR,
    F_DRAWS,
    F_HELD_PTR,
    F_NBAG,
    F_NHOLD,
    HOLD_T,
    R_LAST,
    STOP_SCRIPT,
)
from sim.rules.book_numbers import question_number
from sim.rules.declare import SCRIPT_BITS, SCRIPT_CHIPS, book, event, script_key
from sim.rules.event_declare import chip_field

BOOK = book("red", 6, "draw", prices=6,
            choices=('place the chip drawn at once, or hold it',
                     'before each later draw: place a held chip now, or keep holding it'),
            doc=__doc__,
            script=(script_key("red_hold", SCRIPT_BITS, 16, doc="one per chip drawn after a red "
                               "chip: true places it at once, false when the potion ends"),
                    script_key("red_place", SCRIPT_CHIPS, 8, doc="one per draw made while a chip "
                               "is held beside the pot: the held chip placed before that draw, "
                               'or "none"')),
            events=event("red_hold", decode=lambda a, b, c: {
                             "chip": chip_field(a), "held": b == 1,
                             **({"placed_from_beside": True} if b == 2 else {})},
                         doc="a: the chip type drawn after a red chip; b: 1 held for the end / 0 "
                         "placed at once / 2 a held chip placed now, before a draw"))
EV_RED_HOLD = event_code(BOOK, "red_hold")
Q_HOLD, Q_PLACE = question_number("red-hold"), question_number("red-place")
HOLD, PLACE = script_slot(BOOK, "red_hold"), script_slot(BOOK, "red_place")  # answers in SC


@kernel
def default(P, s, arg, G, R, decline):
    """The built-in answer to ``red-hold``: place the chip now (it has to be placed this round;
    declining it is not possible)."""
    return 1



@kernel
def _place_default(P, s, arg, G, R, decline):
    """The built-in answer to ``red-place``: none (held chips are placed when the potion ends)."""
    return -1


@kernel
def scripted(P, s, q, arg, SC):
    """The round file's answer: ``red-hold``, the next of its ``red_hold`` (counted in
    ``F_BOOK_PTR``); ``red-place``, the index among the ``arg`` chips held of the chip its next
    ``red_place`` entry names (counted in ``F_HELD_PTR``; -1 when none is held)."""
    if q == Q_HOLD:
        return scripted_bit(P, s, F_BOOK_PTR, HOLD, SC)
    ok, want = scripted_entry(P, s, F_HELD_PTR, PLACE, SC)
    if not ok:
        return False, 0
    a = -1
    for i in range(arg):
        if P[s, HOLD_T + i] == want:
            a = i
            break
    return True, a


@kernel(inline=True)
def _ask(P, s, q, arg, G, R, SK, SP, SC, rng, UF):
    """The seat's answer to question q: scripted, or its strategy's (``book_answer``)."""
    if scripting(SK, s):
        return scripted(P, s, q, arg, SC)
    return book_answer(P, s, q, arg, G, R, SK, SP, SC, rng, UF)


@kernel
def _draw_next(P, s, G, R, SK, SP, SC, FD, rng, E, UF):
    """After a red chip is placed: draw one more chip; return it to be placed at once (resolved
    next) or hold it beside the pot (``ACTION_NONE``). On the last space (a "next chip" effect,
    lost there), with an empty bag or four chips held: nothing. ``ACTION_ABORT``: a scripted draw
    failed."""
    if P[s, F_ANCHOR] >= R[R_LAST] or P[s, F_NBAG] == 0 or P[s, F_NHOLD] >= 4:
        return ACTION_NONE
    u = draw_chip(P, s, FD, rng)
    if u < 0:
        finish_potion(P, s, STOP_SCRIPT, E, G)
        return ACTION_ABORT
    ok, a = _ask(P, s, Q_HOLD, u, G, R, SK, SP, SC, rng, UF)
    a = a if ok else default(P, s, u, G, R, a != 0)
    now = a != 0
    P[s, F_BOOK_PTR] += 1
    record(E, G, s, EV_RED_HOLD, u, 0 if now else 1, 0)
    if now:
        return u
    P[s, HOLD_T + P[s, F_NHOLD]] = u
    P[s, F_NHOLD] += 1
    return ACTION_NONE


@kernel
def before_draw_chip(P, s, G, R, SK, SP, SC, rng, E, UF):
    """Before a draw while chips are held: the held chip the seat places now, as if just drawn
    (taken off the held list), or -1 (keep them all to the end)."""
    n = P[s, F_NHOLD]
    ok, i = _ask(P, s, Q_PLACE, n, G, R, SK, SP, SC, rng, UF)
    i = i if ok else _place_default(P, s, n, G, R, i != 0)
    P[s, F_HELD_PTR] += 1
    if i < 0 or i >= n:
        return -1
    t = P[s, HOLD_T + i]
    for j in range(i, n - 1):
        P[s, HOLD_T + j] = P[s, HOLD_T + j + 1]
    P[s, F_NHOLD] = n - 1
    record(E, G, s, EV_RED_HOLD, t, 2, 0)
    return t


@kernel(inline=True)
def chip_action(P, s, G, R, SK, SP, SC, FD, rng, E, UF):
    """After a red chip is placed: (the chip drawn, placed at once, and its draw number), or
    (``ACTION_NONE`` / ``ACTION_ABORT``, the draw number)."""
    nxt = _draw_next(P, s, G, R, SK, SP, SC, FD, rng, E, UF)
    return nxt, P[s, F_DRAWS]
