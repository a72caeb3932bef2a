"""What several books share: the optional extra distance (red Sets 1, 3, 5 through the red
question; red Set 4's white 1, yellow Sets 2, 4, 5 through ``offer_extra``), chips of a colour in
the pot, chips granted from the supply or taken out of the pot, the explosion limit raised
(yellow Set 3, Living in Luxury), the base and Set 6 black reward; reading a round file's answers
(``scripting``, ``scripted_entry``, ``scripted_bit``: a book's ``scripted`` answer, asked in place
of its strategy's for a scripted seat)."""

from __future__ import annotations

from sim.kernel.bag import add_chip, discard_chip, remove_pot_entry
from sim.kernel.decisions.choices import book_answer
from sim.kernel.decisions.decide import decide_extra, decide_red
from sim.kernel.decisions.slots import SCRIPTED, SLOT_BOOK
from sim.kernel.droplet import move_droplet
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    EV_BLACK,
    EV_LIMIT,
    EV_RED,
    F_BASE_LIMIT,
    F_EXTRA_PTR,
    F_GREEN_PTR,
    F_LIMIT,
    F_NPOT,
    F_NRED,
    F_RED_PTR,
    F_RUBIES,
    POT_T,
)
from sim.rules.chips import BLACK, GREEN, TYPE_COLOUR, TYPE_VALUE

ACTION_NONE = -1  # hooks.chip_action: no chip to place next
ACTION_ABORT = -2  # hooks.chip_action: a scripted draw failed; the potion is finished


@kernel
def offer_extra(P, s, extra, t, G, R, SK, SP, SC, rng, E, UF):
    """Offer chip t ``extra`` more spaces; return the spaces taken (``extra`` or 0)."""
    if extra <= 0:
        return 0
    take = decide_extra(P, s, extra, t, P[s, F_EXTRA_PTR], G, R, SK, SP, SC, rng, UF)
    P[s, F_EXTRA_PTR] += 1
    record(E, G, s, EV_RED, t, extra, 1 if take else 0)
    return extra if take else 0


@kernel(inline=True)
def offer_red(P, s, t, extra, G, R, SK, SP, SC, rng, E, UF):
    """Red chip t: offer the extra distance its book gives (``extra``, 0 for none; the red
    question, scripted by the round file's ``red`` list) and count the red chip."""
    if extra > 0:
        take = decide_red(P, s, extra, t, P[s, F_RED_PTR], G, R, SK, SP, SC, rng, UF)
        record(E, G, s, EV_RED, t, extra, 1 if take else 0)
        if not take:
            extra = 0
    P[s, F_RED_PTR] += 1
    P[s, F_NRED] += 1
    return extra


@kernel(inline=True)
def count_colour(P, s, colour):
    """Chips of one colour in the pot."""
    n = 0
    for i in range(P[s, F_NPOT]):
        if TYPE_COLOUR[P[s, POT_T + i]] == colour:
            n += 1
    return n


@kernel(inline=True)
def count_black(P, n, black):
    """black[s] = black chips in seat s's pot, for every seat (counted before anyone gains)."""
    for s in range(n):
        black[s] = count_colour(P, s, BLACK)


@kernel
def last_two_green(P, s):
    """Green chips among the last and next-to-last chips in the pot."""
    npot = P[s, F_NPOT]
    g = 0
    for i in range(max(0, npot - 2), npot):
        if TYPE_COLOUR[P[s, POT_T + i]] == GREEN:
            g += 1
    return g


@kernel(inline=True)
def scripting(SK, s):
    """Whether seat s's book questions are answered by the round file (its book slot is
    ``SCRIPTED``): a book then asks its own ``scripted`` in place of ``book_answer``."""
    return SK[s, SLOT_BOOK] == SCRIPTED


@kernel(inline=True)
def scripted_entry(P, s, ptr, at, SC):
    """The round file's answer number ``P[s, ptr]`` of a list key whose count is at SC offset
    ``at`` and entries after it: (answered, answer); (False, 0) past the list."""
    i = P[s, ptr]
    if i < SC[s, at]:
        return True, SC[s, at + 1 + i]
    return False, 0


@kernel(inline=True)
def scripted_bit(P, s, ptr, at, SC):
    """As ``scripted_entry`` for a key of true/false kept as bits (count, then the bits)."""
    i = P[s, ptr]
    if i < SC[s, at]:
        return True, (SC[s, at + 1] >> i) & 1
    return False, 0


@kernel(inline=True)
def green_question(P, s, k, q, at, G, R, SK, SP, SC, rng, UF):
    """Book question q about the k-th (0, 1) of the last two chips in seat s's pot, asked if
    that chip is green (a scripted answer is the next entry of the green book's round-file key at
    SC offset ``at``, so the question is counted in ``F_GREEN_PTR``): (its value, answered,
    answer); value 0 when there is no such chip or it is not green. Not answered: the answer is
    the decline flag and the book's ``default`` applies (``book_answer``)."""
    i = P[s, F_NPOT] - 2 + k
    if i < 0 or TYPE_COLOUR[P[s, POT_T + i]] != GREEN:
        return 0, False, 0
    value = TYPE_VALUE[P[s, POT_T + i]]
    ok, a = (scripted_entry(P, s, F_GREEN_PTR, at, SC) if scripting(SK, s)
             else book_answer(P, s, q, value, G, R, SK, SP, SC, rng, UF))
    P[s, F_GREEN_PTR] += 1
    return value, ok, a


@kernel(inline=True)
def grant(P, s, t, supply):
    """A chip from the supply into the player's bag, if the supply has one."""
    if supply[t] > 0 and add_chip(P, s, t):
        supply[t] -= 1


@kernel
def remove_from_pot(P, s, t, supply):
    """Take the last chip of type t out of the pot and out of the game (back to the supply)."""
    for k in range(P[s, F_NPOT] - 1, -1, -1):
        if P[s, POT_T + k] == t:
            remove_pot_entry(P, s, k)
            discard_chip(P, s, t)
            supply[t] += 1
            return True
    return False


@kernel(inline=True)
def raise_limit(P, s, raise_by, G, E):
    """Raise this round's explosion limit to base + ``raise_by`` unless it is already higher:
    raises (yellow Set 3, Living in Luxury) never add up, the larger counts."""
    new = P[s, F_BASE_LIMIT] + raise_by
    if new > P[s, F_LIMIT]:
        P[s, F_LIMIT] = new
        record(E, G, s, EV_LIMIT, new, 0, 0)


@kernel(inline=True)
def black_reward(P, s, drop, rub, G, E):
    """The base and Set 6 black books' reward: droplet + ``drop``, ``rub`` rubies (one event)."""
    if drop + rub > 0:
        move_droplet(P, s, drop)
        P[s, F_RUBIES] += rub
        record(E, G, s, EV_BLACK, drop, rub, 0)
