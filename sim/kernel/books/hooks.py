"""The hook table of the ingredient books: every point where a book can change the round, each a
kernel function that switches on the book of the colour it serves (``R[R_BOOK + colour]``) and
calls that book's own function in its module (``sim.kernel.books.<colour>_<set>``). The brewing,
round, evaluation and single-potion code call these hooks and never test a book number.

Hook points, in the order of a round:

- ``bag_refilled``: a seat's bag refilled before its potion (red Set 2's chips beside the pot);
- per chip, inlined (keep each one compare when no book acts): ``not_placed`` (a drawn chip is
  set beside the pot instead: red Set 2), ``acting_type`` (the chip whose value and action it takes:
  locoweed Set 6), ``chip_move`` (the spaces a placed chip moves with its book's extra distance:
  red Sets 1, 3, 5, red Set 4's white 1, yellow Sets 4, 6, locoweed Set 5), ``doubled_move`` (a
  yellow Set 2 doubling, capped: locoweed Set 5), ``has_action`` / ``chip_action`` (what a chip
  does once placed: yellow Sets 1-3, 5, blue Sets 1-6, red Set 6);
- ``before_draw_chip``: a chip held beside the pot placed now (red Set 6);
- ``potion_ended``: a seat's potion has ended, in start-player order (red Set 2);
- step B, each seat in start-player order: ``grants_at_b`` (whether a book at B grants chips, so
  the supply is shown), ``green_at_b``, ``purple_at_b``, ``coins_at_b`` (coins to buy with at once:
  purple Set 5), ``black_at_b`` (the black counts from ``count_black``);
- buying: ``chip_bought`` (a black chip bought goes to the neighbour: black Set 5),
  ``buying_moves_droplet`` (black Set 5 moved the droplet while buying).

Chips held beside the pot (red Set 6) and chips picked to go first (green Set 5) are placed by
``sim.kernel.brew`` (``place_held``, ``place_first``), which owns the placement: those are driven by
their state (``F_NHOLD``, ``F_NFIRST``), not by a book number.
"""

from __future__ import annotations

from sim.kernel.books import (
    black_1,
    black_5,
    black_6,
    blue_1,
    blue_2,
    blue_3,
    blue_4,
    blue_5,
    blue_6,
    green_1,
    green_2,
    green_3,
    green_4,
    green_5,
    green_6,
    locoweed_5,
    locoweed_6,
    purple_1,
    purple_2,
    purple_3,
    purple_4,
    purple_5,
    purple_6,
    red_1,
    red_2,
    red_3,
    red_4,
    red_5,
    red_6,
    yellow_1,
    yellow_2,
    yellow_3,
    yellow_4,
    yellow_5,
    yellow_6,
)
from sim.kernel.books.common import ACTION_ABORT, ACTION_NONE, count_colour, offer_red
from sim.kernel.books.user_hooks import user_at_b, user_has_action, user_placed
from sim.kernel.jit import kernel
from sim.kernel.layout import F_DRAWS, F_NPOT, F_YELLOW_PTR, LOOK_NO, LOOK_T, POT_P, R_BOOK
from sim.rules.chips import (
    BLACK,
    BLUE,
    GREEN,
    LOCOWEED,
    PURPLE,
    RED,
    TYPE_COLOUR,
    TYPE_VALUE,
    WHITE,
    YELLOW,
)

NO_BOOK_MOVE = -1  # chip_move: no book gives this colour a distance (a card's may apply)


# --- the potion's set-up --------------------------------------------------------------------------

@kernel(inline=True)
def bag_refilled(P, s):
    """Seat s's bag was just refilled: red chips kept beside the pot from earlier rounds (red Set
    2, or a round file's ``beside``) stay out. Driven by that state, so no book test."""
    red_2.hold_aside(P, s)


# --- per chip -------------------------------------------------------------------------------------

@kernel(inline=True)
def not_placed(P, s, t, G, R, E):
    """Drawn chip t is set beside the pot instead of placed (True), to be resolved once the potion
    ends (red Set 2)."""
    if TYPE_COLOUR[t] == RED and R[R_BOOK + RED] == 2:
        red_2.set_aside(P, s, t, G, E)
        return True
    return False


@kernel(inline=True)
def acting_type(P, s, t, G, R, E):
    """The chip whose value and on-draw action chip t takes: t itself, or for a locoweed Set 6 the
    last coloured chip in the pot."""
    if TYPE_COLOUR[t] != LOCOWEED or R[R_BOOK + LOCOWEED] != 6:
        return t
    return locoweed_6.acting_type(P, s, t, G, E)


@kernel(inline=True)
def chip_move(P, s, act, c, G, R, SK, SP, SC, rng, E, UF):
    """The spaces a chip acting as ``act`` (colour c) moves when placed, with its book's extra
    distance (each may be declined); ``NO_BOOK_MOVE`` for the colours no book moves (orange, green,
    blue, black, purple), which take a card's (``sim.kernel.cards.hooks.placed_move``)."""
    if c == RED:
        book = R[R_BOOK + RED]
        extra = 0
        if book == 1:
            extra = red_1.extra(P, s, act)
        elif book == 3:
            extra = red_3.extra(P, s, act)
        elif book == 5:
            extra = red_5.extra(P, s, act)
        return TYPE_VALUE[act] + offer_red(P, s, act, extra, G, R, SK, SP, SC, rng, E, UF)
    if c == WHITE:
        if R[R_BOOK + RED] == 4:
            return TYPE_VALUE[act] + red_4.white_move(P, s, act, G, R, SK, SP, SC, rng, E, UF)
        return TYPE_VALUE[act]
    if c == YELLOW:
        book = R[R_BOOK + YELLOW]
        if book == 4:
            return TYPE_VALUE[act] + yellow_4.move(P, s, act, G, R, SK, SP, SC, rng, E, UF)
        if book == 6:
            return TYPE_VALUE[act] + yellow_6.move(P, s, act, G, R, SK, SP, SC, rng, E, UF)
        return TYPE_VALUE[act]
    if c == LOCOWEED:
        if R[R_BOOK + LOCOWEED] == 5:
            return locoweed_5.move(P, s, G, E)
        return 1
    return NO_BOOK_MOVE


@kernel(inline=True)
def doubled_move(c, move, R):
    """A distance just doubled (yellow Set 2), as far as the chip's book lets it go."""
    if c == LOCOWEED and R[R_BOOK + LOCOWEED] == 5:
        return locoweed_5.doubled(move)
    return move


@kernel(inline=True)
def has_action(act, R):
    """Whether a chip acting as ``act`` does something once placed (``chip_action``): every
    yellow and blue chip (their books act, or count them), a red one with red Set 6."""
    c = TYPE_COLOUR[act]
    return (c == YELLOW or c == BLUE or (c == RED and R[R_BOOK + RED] == 6)
            or user_has_action(c, R))


@kernel(inline=True)
def chip_action(P, s, act, G, R, SK, SP, SC, FD, rng, E, UF):
    """The action of the chip just placed, acting as ``act``: (next chip, its draw number), next
    chip ``ACTION_NONE`` when nothing is placed next and ``ACTION_ABORT`` when a scripted draw
    failed (the potion is finished). Called only when ``has_action``. A user's book of the
    chip's colour (a rules file: ``user_hooks``) acts instead of the shipped ones."""
    c = TYPE_COLOUR[act]
    if user_has_action(c, R):
        user_placed(P, s, act, G, R, SK, SP, SC, FD, rng, E, UF)
        if c == YELLOW:
            P[s, F_YELLOW_PTR] += 1
        return ACTION_NONE, 0
    if c == YELLOW:
        book = R[R_BOOK + YELLOW]
        if book == 1:
            yellow_1.placed(P, s, G, R, SK, SP, SC, rng, E, UF)
        elif book == 2:
            yellow_2.placed(P, s, G, E)
        elif book == 3:
            yellow_3.placed(P, s, G, E)
        elif book == 5:
            if yellow_5.placed(P, s, G, R, SK, SP, SC, FD, rng, E, UF) == ACTION_ABORT:
                return ACTION_ABORT, 0
        P[s, F_YELLOW_PTR] += 1
        return ACTION_NONE, 0
    if c == RED:
        if R[R_BOOK + RED] == 6:
            nxt = red_6.placed(P, s, G, R, SK, SP, SC, FD, rng, E, UF)
            return nxt, P[s, F_DRAWS]
        return ACTION_NONE, 0
    if c == BLUE:
        book = R[R_BOOK + BLUE]
        if book == 1:
            pick = blue_1.placed(P, s, act, G, R, SK, SP, SC, FD, rng, E, UF)
            if pick >= 0:  # the chip the blue chose is placed next, with its own action
                return P[s, LOOK_T + pick], P[s, LOOK_NO + pick]
            return pick, 0
        pos = P[s, POT_P + P[s, F_NPOT] - 1]
        if book == 2:
            blue_2.placed(P, s, act, G, E)
        elif book == 3:
            blue_3.placed(P, s, pos, G, R, E)
        elif book == 4:
            blue_4.placed(P, s, act, pos, G, R, E)
        elif book == 5:
            blue_5.placed(P, s, act, G, E)
        elif book == 6:
            blue_6.placed(P, s, act, G, E)
    return ACTION_NONE, 0


# --- before a draw, after the potion --------------------------------------------------------------

@kernel(inline=True)
def before_draw_chip(P, s, G, R, SK, SP, SC, rng, E, UF):
    """Before a draw while seat s holds chips beside the pot: the one it places now, or -1."""
    if R[R_BOOK + RED] == 6:
        return red_6.before_draw(P, s, G, R, SK, SP, SC, rng, E, UF)
    return -1


@kernel(inline=True)
def potion_ended(P, s, G, R, SK, SP, SC, rng, E, UF):
    """Seat s's potion has ended (stopped or exploded), in start-player order in a round: red
    chips beside the pot placed, kept or returned (red Set 2)."""
    if R[R_BOOK + RED] == 2 and red_2.has_aside(P, s):  # a call is dear: only if needed
        red_2.after_stop(P, s, G, R, SK, SP, SC, rng, E, UF)


# --- evaluation step B ----------------------------------------------------------------------------

@kernel(inline=True)
def grants_at_b(R):
    """Whether a book at B grants chips from the supply (green Set 2, purple Sets 2 and 4): the
    supply is shown to the strategies before each grant."""
    return R[R_BOOK + GREEN] == 2 or R[R_BOOK + PURPLE] == 2 or R[R_BOOK + PURPLE] == 4


@kernel(inline=True)
def green_at_b(P, s, G, R, supply, die, DS, SK, SP, SC, rng, E, UF):
    """Green chips at B for seat s."""
    book = R[R_BOOK + GREEN]
    if book == 1:
        green_1.at_b(P, s, G, E)
    elif book == 2:
        green_2.at_b(P, s, G, R, supply, SK, SP, SC, rng, E, UF)
    elif book == 4:
        green_4.at_b(P, s, G, R, SK, SP, SC, rng, E, UF)
    elif book == 5:
        green_5.at_b(P, s, G, R, SK, SP, SC, rng, E, UF)
    elif book == 6:
        green_6.at_b(P, s, G, die, DS, supply, rng, E)
    elif book == 3:
        green_3.at_b(P, s, G, R, E)


@kernel(inline=True)
def purple_at_b(P, s, G, R, supply, SK, SP, SC, rng, E, UF):
    """Purple chips at B for seat s (nothing without one)."""
    npurple = count_colour(P, s, PURPLE)
    book = R[R_BOOK + PURPLE]
    if npurple == 0:
        return
    if book == 1:
        purple_1.at_b(P, s, npurple, G, R, SK, SP, SC, rng, E, UF)
    elif book == 2:
        purple_2.at_b(P, s, npurple, G, R, supply, SK, SP, SC, rng, E, UF)
    elif book == 3:
        purple_3.at_b(P, s, G, R, E)
    elif book == 6:
        purple_6.at_b(P, s, G, E)
    elif book == 4:
        purple_4.at_b(P, s, npurple, G, R, supply, SK, SP, SC, rng, E, UF)


@kernel(inline=True)
def coins_at_b(P, s, R):
    """Coins seat s buys with at once at B (``sim.kernel.evaluation.buy_at_b``): purple Set 5."""
    if R[R_BOOK + PURPLE] == 5:
        return purple_5.coins(P, s, R)
    return 0


@kernel(inline=True)
def black_at_b(P, s, black, R, G, E):
    """Black chips at B for seat s; ``black[s]`` = black chips in seat s's pot, counted before
    anyone gains (``sim.kernel.books.common.count_black``)."""
    book = R[R_BOOK + BLACK]
    if book == 5:
        black_5.at_b(P, s, black, G, E)
    elif book == 6:
        black_6.at_b(P, s, G, E)
    else:
        black_1.at_b(P, s, black, G, E)


@kernel(inline=True)
def user_books_at_b(P, s, G, R, supply, die, DS, SK, SP, SC, rng, E, UF):
    """A user's book at B for seat s (a rules file; nothing without one)."""
    user_at_b(P, s, G, R, supply, die, DS, SK, SP, SC, rng, E, UF)


# --- buying ---------------------------------------------------------------------------------------

@kernel(inline=True)
def chip_bought(P, s, t, G, R, E):
    """Chip t bought by seat s went elsewhere than its bag (True): black Set 5's gift."""
    if R[R_BOOK + BLACK] == 5:
        return black_5.gift(P, s, t, G, R, E)
    return False


@kernel(inline=True)
def buying_moves_droplet(R):
    """Whether buying may move a droplet (black Set 5), so it settles after each seat buys."""
    return R[R_BOOK + BLACK] == 5
