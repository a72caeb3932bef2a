"""The choices that books, cards and the test-tube track offer, compiled with Numba: the built-in
answers and the call into slot functions (see ``slots``: ``TUBE_*`` kinds; for a book's
question, ``book_answer``, for a card's choice, ``card_answer``:
each book's and card's built-in answer is in its own module, ``sim.kernel.books.<colour>_<set>``,
``sim.kernel.cards.<id>``). Split from ``decide``, which holds the
choices every game asks (draw, flask, blue, yellow, red, explosion, buying, rubies, purple).
"""

from __future__ import annotations

import numpy as np

from sim.kernel.decisions.slot_call import call_slot
from sim.kernel.decisions.slots import (
    BOOK_DECLINE,
    BUILT_IN,
    P_TUBE_COIN,
    P_TUBE_RUBY,
    P_TUBE_SPACE,
    SC_CARD,
    SC_NCARD,
    SC_NTUBE,
    SC_TUBE,
    SCRIPTED,
    SLOT_BOOK,
    SLOT_CARD,
    SLOT_TUBE,
    TUBE_ALWAYS,
    TUBE_DEFAULTS,
    TUBE_POT,
    USER_BASE,
)
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    F_CARD_PTR,
    F_TUBE,
    F_TUBE_PTR,
    G_BREWED,
    G_ROUND,
    G_SUPPLY,
    R_BOOK,
    R_BOOK_ROUND,
    R_PRICE,
    R_ROUNDS,
    R_TUBE_GLASS,
    TUBE_RUBY,
    TUBE_VP,
)
from sim.rules.chips import (
    BLACK,
    LOCOWEED,
    N_TYPES,
    ORANGE,
    PURPLE,
    TYPE_COLOUR,
    TYPE_VALUE,
    WHITE,
)


@kernel(inline=True)
def book_out(G, R, colour):
    """Whether a colour's book is in the game and out this round (chips of it may be granted)."""
    return R[R_BOOK + colour] > 0 and G[G_ROUND] >= R[R_BOOK_ROUND + colour]


@kernel(inline=True)
def grantable(G, R, t):
    """A chip type that may be given to a player now: its book is out and the supply has one."""
    return book_out(G, R, TYPE_COLOUR[t]) and G[G_SUPPLY + t] > 0


@kernel
def upgrade_target(t, tier):
    """The chip type chip t becomes at a purple Set 4 tier, or -1 (orange never upgrades)."""
    c = TYPE_COLOUR[t]
    v = TYPE_VALUE[t]
    if c == ORANGE or c == PURPLE or c == BLACK or c == LOCOWEED:
        return -1
    want_from = 2 if tier == 2 else 1
    want_to = 2 if tier == 1 else 4
    if v != want_from:
        return -1
    for u in range(N_TYPES):
        if TYPE_COLOUR[u] == c and TYPE_VALUE[u] == want_to:
            return u
    return -1


@kernel
def book_answer(P, s, q, arg, G, R, SK, SP, SC, rng, UF):
    """A strategy's answer to book question ``q`` (numbered by ``sim.rules.book_numbers``) with
    argument ``arg``: (True, answer) from a slot function; (False, decline) when the book's
    built-in answer applies (its ``default`` in ``sim.kernel.books.<colour>_<set>``, which the
    effect then calls), ``decline`` 1 for the ``BOOK_DECLINE`` slot value (an optional effect is
    otherwise taken); a slot function's ``BUILT_IN`` leaves it to the built-in answer too. A
    scripted seat (``SCRIPTED``) gets its round file's answer from the book itself (its
    ``scripted``, ``sim.kernel.books.common.scripting``); here it is not answered."""
    k = SK[s, SLOT_BOOK]
    ok = True
    a = 0
    if k >= USER_BASE:
        a = call_slot(UF, k - USER_BASE, P, s, G, R, SP, q, arg)
        if a == BUILT_IN:
            ok = False
            a = 0
    else:
        ok = False
        a = 1 if k == BOOK_DECLINE else 0
    return ok, a


def next_values() -> np.ndarray:
    """Per chip type, the next-higher chip of its colour (white 1 -> 2 -> 3; green, blue, red,
    yellow 1 -> 2 -> 4), or -1 (orange, purple, black, locoweed and the top values have none)."""
    out = np.full(N_TYPES, -1, dtype=np.int64)
    for t in range(N_TYPES):
        if TYPE_COLOUR[t] in (ORANGE, PURPLE, BLACK, LOCOWEED):
            continue
        higher = [u for u in range(N_TYPES)
                  if TYPE_COLOUR[u] == TYPE_COLOUR[t] and TYPE_VALUE[u] > TYPE_VALUE[t]]
        out[t] = min(higher, key=lambda u: TYPE_VALUE[u], default=-1)
    return out


NEXT_VALUE = next_values()


@kernel(inline=True)
def next_value_type(t):
    """The next-higher chip of t's colour, or -1 (``next_values``: a table, asked per chip a card
    looks at)."""
    return NEXT_VALUE[t]


@kernel
def dearest(G, R, lo, hi, value):
    """The grantable chip type of ``value`` among types lo..hi-1 with the highest price, or -1."""
    best = -1
    for t in range(lo, hi):
        if TYPE_VALUE[t] == value and TYPE_COLOUR[t] != WHITE and grantable(G, R, t):
            if best < 0 or R[R_PRICE + t] > R[R_PRICE + best]:
                best = t
    return best


@kernel(inline=True)
def card_slot_answers(SK, s):
    """Whether ``card_answer`` may give seat s an answer (its card slot is scripted or a slot
    function); else the card's built-in answer applies, and the call can be skipped."""
    k = SK[s, SLOT_CARD]
    return k == SCRIPTED or k >= USER_BASE


@kernel
def card_answer(P, s, card, arg, G, R, SK, SP, SC, rng, UF):
    """A scripted or strategy answer to card ``card``'s choice with argument ``arg``: (True,
    answer); (False, 0) when the card's built-in answer applies (its ``default`` in
    ``sim.kernel.cards.<id>``, which the effect then calls): the card slot's kind is not scripted
    or a slot function, the round file has no answer left, or the slot function said
    ``BUILT_IN``."""
    k = SK[s, SLOT_CARD]
    ok = False
    a = 0
    if k == SCRIPTED:
        i = P[s, F_CARD_PTR]
        P[s, F_CARD_PTR] = i + 1
        if i < SC[s, SC_NCARD]:
            ok = True
            a = SC[s, SC_CARD + i]
    elif k >= USER_BASE:
        a = call_slot(UF, k - USER_BASE, P, s, G, R, SP, card, arg)
        ok = a != BUILT_IN
        if not ok:
            a = 0
    return ok, a


@kernel
def glass_value(G, R, code, rounds_left, ruby_value, coin_value):
    """What a test-tube glass's bonus is worth, in VP: VP as printed, a ruby at ``ruby_value``,
    a chip at its price x ``coin_value`` while a round is left to draw it (0 if it cannot be
    given: book not out or supply empty)."""
    if code >= TUBE_VP:
        return float(code - TUBE_VP)
    if code >= TUBE_RUBY:
        return (code - TUBE_RUBY) * ruby_value
    if code < 0 or code >= N_TYPES or rounds_left <= 0 or not grantable(G, R, code):
        return 0.0
    return max(R[R_PRICE + code], 0) * coin_value


@kernel
def tube_default(P, s, G, R, space_value, ruby_value, coin_value):
    """1 to move the test-tube droplet: the next glass's bonus is worth at least a pot space
    (``space_value`` VP a round) for every round in which the pot droplet still helps."""
    glass = P[s, F_TUBE] + 1
    rounds_left = R[R_ROUNDS] - G[G_ROUND] + (1 if G[G_BREWED] == 0 else 0)
    bonus = glass_value(G, R, R[R_TUBE_GLASS + glass], rounds_left, ruby_value, coin_value)
    return 1 if bonus >= space_value * rounds_left else 0


@kernel
def decide_tube(P, s, G, R, SK, SP, SC, rng, UF):
    """1 to move the test-tube droplet one glass, 0 to move the pot droplet one space; asked for
    every single droplet move on the test-tube side while a glass is left."""
    k = SK[s, SLOT_TUBE]
    if k == SCRIPTED:
        i = P[s, F_TUBE_PTR]
        P[s, F_TUBE_PTR] = i + 1
        if i < SC[s, SC_NTUBE]:
            return (SC[s, SC_TUBE] >> i) & 1
        return tube_default(P, s, G, R, TUBE_DEFAULTS[0], TUBE_DEFAULTS[1], TUBE_DEFAULTS[2])
    if k >= USER_BASE:
        return 1 if call_slot(UF, k - USER_BASE, P, s, G, R, SP, P[s, F_TUBE] + 1, 0) != 0 else 0
    if k == TUBE_POT:
        return 0
    if k == TUBE_ALWAYS:
        return 1
    return tube_default(P, s, G, R, SP[s, SLOT_TUBE, P_TUBE_SPACE], SP[s, SLOT_TUBE, P_TUBE_RUBY],
                        SP[s, SLOT_TUBE, P_TUBE_COIN])
