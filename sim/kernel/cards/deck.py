"""The game's deck: dealt at set-up (``deal_deck``), a card forced into one round if the ruleset
says so (``force_card``), one card turned up a round (``round_card``). Card numbers follow
``sim.rules.card_numbers.CARD_DECK`` (1..; 0 = no card); the kernel reads which cards there are
from the ruleset's mask only (``R_CARD_MASK``), so a user's card needs nothing here."""

from __future__ import annotations

import numpy as np

from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    EV_CARD,
    G_CARD,
    G_DECK,
    G_DECK_N,
    G_ROUND,
    R_CARD_FORCE,
    R_CARD_FORCE_ROUND,
    R_CARD_MASK,
    R_CARD_ORDER,
    R_CARD_ORDER_N,
    R_DECK,
    R_ROUNDS,
)
from sim.kernel.rng import DECK_STREAM, randint, stream_seed

# The stream a forced card's round is drawn from (cards.force_round = 0), seeded with the game
# index of the deck's stream (``sim.kernel.rng.DECK_STREAM``). No other draw of a game uses it,
# so forcing a card changes no other random draw, and every game of a deal (the same seed and
# game index, whatever the seating) draws the same round.
FORCE_STREAM = 0xF0C0


@kernel
def deal_deck(G, R, rng):
    """The game's deck: the fixed order if the ruleset gives one, else every card left in,
    shuffled from the deck's own stream (``DECK_STREAM``). No deck when ``cards.deck`` is off."""
    G[G_DECK_N] = 0
    if R[R_DECK] == 0:
        return
    if R[R_CARD_ORDER_N] > 0:
        for i in range(R[R_CARD_ORDER_N]):
            G[G_DECK + i] = R[R_CARD_ORDER + i]
        G[G_DECK_N] = R[R_CARD_ORDER_N]
        return
    k = 0
    c = 1
    mask = R[R_CARD_MASK] >> 1
    while mask != 0:  # every card in the mask, shipped or a user's (bit c: card c)
        if mask & 1:
            G[G_DECK + k] = c
            k += 1
        mask >>= 1
        c += 1
    for i in range(k - 1, 0, -1):  # Fisher-Yates
        j = randint(rng, DECK_STREAM, i + 1)
        c = G[G_DECK + i]
        G[G_DECK + i] = G[G_DECK + j]
        G[G_DECK + j] = c
    G[G_DECK_N] = k


@kernel(nrt=True)
def forced_round(seed, game, R):
    """The round the forced card is played in: ``cards.force_round``, or with 0 one of rounds
    1..``game.rounds``, uniform, from the game's own ``FORCE_STREAM``."""
    k = R[R_CARD_FORCE_ROUND]
    if k > 0:
        return k
    st = np.empty(1, dtype=np.uint64)
    st[0] = stream_seed(seed, game, FORCE_STREAM)
    return 1 + randint(st, 0, R[R_ROUNDS])


@kernel(nrt=True)
def force_card(G, R, seed, game):
    """Put the forced card (``cards.force``; none: nothing changes) into round K
    (``forced_round``) of the dealt deck. A card in the deck swaps places with round K's card,
    so the deck stays a permutation and the card round K would have had moves to the forced
    card's old place; a card not in the deck (left out, outside a fixed order, no deck at all)
    replaces round K's card. A deck shorter than K is lengthened with rounds without a card."""
    c = R[R_CARD_FORCE]
    if c == 0:
        return
    k = forced_round(seed, game, R)
    n = G[G_DECK_N]
    while n < k:
        G[G_DECK + n] = 0
        n += 1
    G[G_DECK_N] = n
    for i in range(n):
        if G[G_DECK + i] == c:
            G[G_DECK + i] = G[G_DECK + k - 1]
            break
    G[G_DECK + k - 1] = c


@kernel(inline=True)
def round_card(G, E):
    """The card of this round (0 once the deck runs out or without a deck)."""
    r = G[G_ROUND]
    card = G[G_DECK + r - 1] if r <= G[G_DECK_N] else 0
    G[G_CARD] = card
    if card > 0:
        record(E, G, -1, EV_CARD, card, 0, 0)
    return card
