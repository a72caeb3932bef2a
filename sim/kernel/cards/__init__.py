"""The fortune-teller deck, one module per card.

Each card is one module, ``sim.kernel.cards.<id with - as _>``: its declaration (``CARD =
card(number, id, timing, name=..., doc=text, ...)``, ``sim.rules.declare``: its number, timing,
name, text and what the api layer needs), its own numbers (VP, rubies, spaces), its effect in
functions named after the hook points they serve, and the built-in answer to its choice
(``default``, taken where ``card_answer`` has no scripted or strategy answer). The hook table
``sim.kernel.cards.hooks``, which the round, brewing, evaluation and single-potion code call, is
generated from the declarations.
``deck`` deals the deck and turns up a round's card; ``common`` holds what cards share (gains,
granted chips, chips looked at, the ``EV_CARD_GAIN`` kinds).

Purple cards resolve once before the round, right after the round-start chips and before the
rats; blue cards are rules for the round, called from the phase they change. Draws a card makes
never explode a pot: Strong Ingredient's, and A Second Chance's first five chips
(``hooks.free_draws``); a chip a card grants goes into the bag at once, and only if its book is
out and the supply has one.

A card's number is declared once, in its ``CARD = card(...)`` (``card_number`` of
``sim.rules.card_numbers`` finds it by id); its functions run only when the round's card
``G[G_CARD]`` is that card, so they read it from there (``common.answer``,
``common.card_event``). A new card needs no line here.
"""

from __future__ import annotations

from sim.kernel.cards.common import (
    GAIN_CHIP,
    GAIN_DROPLET,
    GAIN_FLASK,
    GAIN_PENNY_BACK,
    GAIN_PENNY_GIVEN,
    GAIN_RATS_DOUBLED,
    GAIN_REMOVE,
    GAIN_RESTART,
    GAIN_RUBY,
    GAIN_VP,
    TAKE_RUBIES,
)
from sim.kernel.cards.deck import deal_deck, round_card
from sim.kernel.cards.hooks import free_draws, is_purple
from sim.rules.card_numbers import N_CARDS

__all__ = [
    "GAIN_CHIP", "GAIN_DROPLET", "GAIN_FLASK", "GAIN_PENNY_BACK", "GAIN_PENNY_GIVEN",
    "GAIN_RATS_DOUBLED", "GAIN_REMOVE", "GAIN_RESTART", "GAIN_RUBY", "GAIN_VP", "N_CARDS",
    "TAKE_RUBIES", "deal_deck", "free_draws", "is_purple", "round_card",
]
