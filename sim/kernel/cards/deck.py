"""The game's deck: dealt at set-up (``deal_deck``), one card turned up a round (``round_card``).
Card numbers follow ``sim.rules.cards.CARDS`` (1..; 0 = no card)."""

from __future__ import annotations

from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    EV_CARD,
    G_CARD,
    G_DECK,
    G_DECK_N,
    G_ROUND,
    R_CARD_MASK,
    R_CARD_ORDER,
    R_CARD_ORDER_N,
    R_DECK,
)
from sim.kernel.rng import randint
from sim.rules.cards import CARDS

N_CARDS = len(CARDS)


@kernel
def deal_deck(G, R, rng, stream):
    """The game's deck: the fixed order if the ruleset gives one, else every card left in,
    shuffled from the shared random stream. No deck when ``cards.deck`` is off."""
    G[G_DECK_N] = 0
    if R[R_DECK] == 0:
        return
    if R[R_CARD_ORDER_N] > 0:
        for i in range(R[R_CARD_ORDER_N]):
            G[G_DECK + i] = R[R_CARD_ORDER + i]
        G[G_DECK_N] = R[R_CARD_ORDER_N]
        return
    k = 0
    for c in range(1, N_CARDS + 1):
        if (R[R_CARD_MASK] >> c) & 1:
            G[G_DECK + k] = c
            k += 1
    for i in range(k - 1, 0, -1):  # Fisher-Yates
        j = randint(rng, stream, i + 1)
        c = G[G_DECK + i]
        G[G_DECK + i] = G[G_DECK + j]
        G[G_DECK + j] = c
    G[G_DECK_N] = k


@kernel(inline=True)
def round_card(G, E):
    """The card of this round (0 once the deck runs out or without a deck)."""
    r = G[G_ROUND]
    card = G[G_DECK + r - 1] if r <= G[G_DECK_N] else 0
    G[G_CARD] = card
    if card > 0:
        record(E, G, -1, EV_CARD, card, 0, 0)
    return card
