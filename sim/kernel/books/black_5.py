"""Herb Witches (any player count): a black chip bought, or given by a card, goes into the left
neighbour's bag and the buyer's droplet moves 1; at B, 1 ruby per black chip in the left neighbour's
pot and per own black chip last or next-to-last.

Black Set 5 (hawkmoth, Herb Witches): at B, 1 ruby per black chip in the left neighbour's pot
and 1 per black chip that is the seat's own last or next-to-last chip. A black chip the seat gains
(bought, or from a card) goes into the left neighbour's bag instead, and the seat moves its
droplet +1 (``chip_bought``)."""

from __future__ import annotations

from sim.kernel.bag import add_chip
from sim.kernel.droplet import move_droplet
from sim.kernel.event_codes import event_code
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import F_NPOT, F_RUBIES, G_NP, POT_T, R_BOOK
from sim.rules.chips import BLACK, TYPE_COLOUR
from sim.rules.declare import book, event

BOOK = book("black", 5, "B", prices=5, flags=('buying_moves_droplet',), doc=__doc__,
            events=(
                event("black_ruby", a="rubies", text="black ruby: rubies {rubies}"),
                event("black_gift", a="to_seat", text="black gift: to seat {to_seat}",
                      doc="the seat whose bag the black chip goes into"),
            ))
EV_BLACK_RUBY = event_code(BOOK, "black_ruby")
EV_BLACK_GIFT = event_code(BOOK, "black_gift")


@kernel
def _black_last_two(P, s):
    """Black chips among the last and next-to-last chips in seat s's pot."""
    n = 0
    for i in range(max(0, P[s, F_NPOT] - 2), P[s, F_NPOT]):
        if TYPE_COLOUR[P[s, POT_T + i]] == BLACK:
            n += 1
    return n


@kernel(inline=True)
def black_at_b(P, s, black, G, E):
    """Step B for seat s; ``black[s]`` = black chips in seat s's pot."""
    rub = black[(s + 1) % G[G_NP]] + _black_last_two(P, s)
    if rub > 0:
        P[s, F_RUBIES] += rub
        record(E, G, s, EV_BLACK_RUBY, rub, 0, 0)


@kernel
def chip_bought(P, s, t, G, R, E):
    """Chip t seat s gains: with this book and a black chip, it goes into the left neighbour's bag
    and the seat moves its droplet +1; True if it did (else the chip is the seat's). A card's
    chip (``sim.kernel.cards.grant.grant_chip``) calls this directly; buying through
    ``hooks.chip_bought``."""
    if R[R_BOOK + BLACK] != 5 or TYPE_COLOUR[t] != BLACK:
        return False
    left = (s + 1) % G[G_NP]
    if add_chip(P, left, t):
        move_droplet(P, s, 1)
        record(E, G, s, EV_BLACK_GIFT, left, 0, 0)
        return True
    return False


# the name the cards' common code calls (a black chip a card gives)
gift = chip_bought
