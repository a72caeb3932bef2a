"""``master``'s answers to the choices of fortune-teller cards, ingredient books and the test tube:
each option weighed on master's own scale (``master_worth``: VP, rubies, chips by the marginal
buyer, droplet spaces), the option worth most taken.

A card or book question it has no value answer for gets ``BUILT_IN``, so the built-in answer of
the card's or book's module decides (the answers that are no choice of worth: Well Stirred's
free return, A Second Chance's restart, Strong Ingredient's placing, the witch pennies of A Quick
Exchange and A Joyful Reunion, and the books' placing questions), and so does Opportunistic, whose
value answer measured worse than the built-in one on paired deals.

Reached through the slot-function table (``UF_MASTER_CARD``, ``UF_MASTER_BOOK``,
``UF_MASTER_TUBE``) with the uniform slot signature.
"""

from __future__ import annotations

from sim.kernel.cards.a_good_start import GOOD_START_MAX
from sim.kernel.cards.choose_wisely import CHOOSE_WISELY_SPACES
from sim.kernel.cards.just_in_time import JUST_IN_TIME_VP
from sim.kernel.cards.you_only_get_to_choose_one import CHOOSE_ONE_RUBIES
from sim.kernel.decisions.choices import dearest, grantable, upgrade_target
from sim.kernel.decisions.master_worth import (
    chip_worth,
    gain_context,
    grant_worth,
    potion_space_worth,
    ruby_worth,
    space_worth,
    white_removal_worth,
)
from sim.kernel.decisions.slots import (
    BUILT_IN,
    CARD_CHOOSE_ONE,
    CARD_CHOOSE_WISELY,
    CARD_GOOD_START,
    CARD_JUST_IN_TIME,
    CARD_RATS_FRIENDS,
    CARD_SCHADENFREUDE,
    CARD_TAKE_OTHER,
    CARD_WHEEL_AND_DEAL,
)
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    F_NPOT,
    G_SUPPLY,
    POT_T,
    R_TUBE_GLASS,
    TUBE_RUBY,
    TUBE_VP,
)
from sim.rules.book_numbers import question_number
from sim.rules.chips import B1, G1, K1, N_TYPES, O1, P1, R1, TYPE_COLOUR, TYPE_VALUE, W1, WHITE, Y1

# the book questions master answers by its worth of each option (sim.rules.book_numbers)
GREEN_RUBY, YELLOW_RUBY = question_number("green-ruby"), question_number("yellow-ruby")
PURPLE_UPGRADE = question_number("purple-upgrade")


@kernel
def best_grant(P, s, G, R, SP, value, other, other_worth):
    """The grantable non-white chip of ``value`` (or black 1 too, ``value`` 2 with ``other`` =
    ``CARD_TAKE_OTHER`` for You Only Get to Choose One) worth most to seat s now, if it is worth
    more than ``other_worth``; else ``other``."""
    ctx = gain_context(P, s, G, R, SP)
    best = other
    worth = other_worth
    for t in range(N_TYPES):
        if TYPE_COLOUR[t] == WHITE or TYPE_VALUE[t] != value:
            continue
        w = grant_worth(G, R, SP, s, t, ctx)
        if w > worth:
            best = t
            worth = w
    return best, worth


@kernel
def card_choice(P, s, card, b, G, R, SP):
    """Seat s's answer to ``card``'s choice with argument ``b`` (``slots``' ``CARD_*`` lines), or
    ``BUILT_IN``."""
    if card == CARD_JUST_IN_TIME:
        take = b > 0 and white_removal_worth(P, s, G, R, SP, W1) > JUST_IN_TIME_VP
        return W1 if take else -1
    if card == CARD_CHOOSE_ONE:
        ctx = gain_context(P, s, G, R, SP)
        best, worth = best_grant(P, s, G, R, SP, 2, CARD_TAKE_OTHER,
                                 ruby_worth(P, s, G, R, SP, CHOOSE_ONE_RUBIES))
        return K1 if grant_worth(G, R, SP, s, K1, ctx) > worth else best
    if card == CARD_RATS_FRIENDS:  # the dearest 4-chip (a chosen one measured worse) or b VP
        best = dearest(G, R, 0, N_TYPES, 4)
        if best < 0:
            return CARD_TAKE_OTHER
        ctx = gain_context(P, s, G, R, SP)
        return best if chip_worth(SP, s, best, ctx) > b else CARD_TAKE_OTHER
    if card == CARD_SCHADENFREUDE:
        best = best_grant(P, s, G, R, SP, 2, -1, -0.5)[0]
        return best if best >= 0 else BUILT_IN
    if card == CARD_CHOOSE_WISELY:
        ctx = gain_context(P, s, G, R, SP)
        purple = grant_worth(G, R, SP, s, P1, ctx)
        return P1 if purple > space_worth(SP, s, ctx, CHOOSE_WISELY_SPACES) else 0
    if card == CARD_GOOD_START:
        best = 0
        worth = 0.0
        for n in range(1, min(b, GOOD_START_MAX) + 1):
            w = ruby_worth(P, s, G, R, SP, n) - potion_space_worth(SP, s, n)
            if w > worth:
                best = n
                worth = w
        return best
    if card == CARD_WHEEL_AND_DEAL:
        if b < 1:
            return -1
        ctx = gain_context(P, s, G, R, SP)
        best = -1
        worth = -ruby_worth(P, s, G, R, SP, -1)  # what the ruby paid is worth
        for t in (O1, G1, B1, R1, Y1):
            w = grant_worth(G, R, SP, s, t, ctx)
            if w > worth:
                best = t
                worth = w
        return best
    return BUILT_IN


def master_card(P, s, G, R, SP, a, b, M):
    """Slot function (card): card ``a``'s choice with argument ``b`` by master's worth of each
    option (module docstring), or ``BUILT_IN``."""
    return card_choice(P, s, a, b, G, R, SP)


@kernel
def book_choice(P, s, q, b, G, R, SP):
    """Seat s's answer to book question ``q`` with argument ``b``, or ``BUILT_IN``."""
    if q == GREEN_RUBY:  # 1 ruby for a droplet space, from the next potion on
        ctx = gain_context(P, s, G, R, SP)
        return 1 if space_worth(SP, s, ctx, 1) > -ruby_worth(P, s, G, R, SP, -1) else 0
    if q == YELLOW_RUBY:  # 1 ruby for 3 spaces more in this potion
        return 1 if potion_space_worth(SP, s, 3) > -ruby_worth(P, s, G, R, SP, -1) else 0
    if q == PURPLE_UPGRADE:  # a chip in the pot for a higher one, into the bag
        ctx = gain_context(P, s, G, R, SP)
        best = -1
        gain = 0.0
        for tier in range(1, min(b, 3) + 1):
            for i in range(P[s, F_NPOT]):
                t = P[s, POT_T + i]
                u = upgrade_target(t, tier) if TYPE_COLOUR[t] != WHITE else -1
                if u < 0 or G[G_SUPPLY + u] <= 0:
                    continue
                g = chip_worth(SP, s, u, ctx) - chip_worth(SP, s, t, ctx)
                if g > gain:
                    best = tier * 32 + t
                    gain = g
        return best
    return BUILT_IN


def master_book(P, s, G, R, SP, a, b, M):
    """Slot function (book): book question ``a`` with argument ``b`` by master's worth of each
    option, or ``BUILT_IN``."""
    return book_choice(P, s, a, b, G, R, SP)


@kernel
def glass_worth(P, s, G, R, SP, code):
    """VP of a test-tube glass's bonus to seat s on master's scale (0 for a chip it cannot have)."""
    if code >= TUBE_VP:
        return float(code - TUBE_VP)
    if code >= TUBE_RUBY:
        return ruby_worth(P, s, G, R, SP, code - TUBE_RUBY)
    if code < 0 or code >= N_TYPES or not grantable(G, R, code):
        return 0.0
    return chip_worth(SP, s, code, gain_context(P, s, G, R, SP))


def master_tube(P, s, G, R, SP, a, b, M):
    """Slot function (tube): 1 to move the test-tube droplet into glass ``a`` if its bonus is
    worth more than a pot-droplet space for the potions still to brew."""
    ctx = gain_context(P, s, G, R, SP)
    bonus = glass_worth(P, s, G, R, SP, R[R_TUBE_GLASS + a])
    return 1 if bonus > space_worth(SP, s, ctx, 1) else 0
