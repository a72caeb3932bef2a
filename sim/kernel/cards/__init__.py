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

The names below are re-exported for readers and tests (the numbers the kernel has always used);
a new card needs no line here.
"""

from __future__ import annotations

from sim.kernel.cards.a_good_start import GOOD_START
from sim.kernel.cards.a_joyful_reunion import JOYFUL_REUNION
from sim.kernel.cards.a_quick_exchange import QUICK_EXCHANGE
from sim.kernel.cards.a_second_chance import SECOND_CHANCE
from sim.kernel.cards.an_opportunistic_moment import OPPORTUNISTIC
from sim.kernel.cards.beginners_bonus import BEGINNERS_BONUS
from sim.kernel.cards.charity import CHARITY
from sim.kernel.cards.choose_wisely import CHOOSE_WISELY
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
from sim.kernel.cards.its_shining_extra_bright import SHINING
from sim.kernel.cards.just_in_time import JUST_IN_TIME
from sim.kernel.cards.less_is_more import LESS_IS_MORE
from sim.kernel.cards.living_in_luxury import LUXURY
from sim.kernel.cards.lucky_devil import LUCKY_DEVIL
from sim.kernel.cards.magic_potion import MAGIC_POTION
from sim.kernel.cards.pumpkin_patch_party import PUMPKIN_PARTY
from sim.kernel.cards.rat_infestation import RAT_INFESTATION
from sim.kernel.cards.rats_are_your_friends import RATS_FRIENDS
from sim.kernel.cards.roll_the_die import ROLL_THE_DIE
from sim.kernel.cards.schadenfreude import SCHADENFREUDE
from sim.kernel.cards.seasoned_perfectly import SEASONED
from sim.kernel.cards.strong_ingredient import STRONG_INGREDIENT
from sim.kernel.cards.the_pot_is_filling_up import POT_FILLING_UP
from sim.kernel.cards.the_pot_is_full import POT_IS_FULL
from sim.kernel.cards.visit_from_a_witch import VISIT_WITCH
from sim.kernel.cards.well_stirred import WELL_STIRRED
from sim.kernel.cards.wheel_and_deal import WHEEL_AND_DEAL
from sim.kernel.cards.you_only_get_to_choose_one import CHOOSE_ONE
from sim.rules.card_numbers import N_CARDS

# the base deck's purple cards are 1..LAST_PURPLE (hooks.is_purple reads timings)
LAST_PURPLE = LESS_IS_MORE

__all__ = [
    "BEGINNERS_BONUS", "CHARITY", "CHOOSE_ONE", "CHOOSE_WISELY", "GAIN_CHIP", "GAIN_DROPLET",
    "GAIN_FLASK", "GAIN_PENNY_BACK", "GAIN_PENNY_GIVEN", "GAIN_RATS_DOUBLED", "GAIN_REMOVE",
    "GAIN_RESTART", "GAIN_RUBY", "GAIN_VP", "GOOD_START", "JOYFUL_REUNION", "JUST_IN_TIME",
    "LAST_PURPLE", "LESS_IS_MORE", "LUCKY_DEVIL", "LUXURY", "MAGIC_POTION", "N_CARDS",
    "OPPORTUNISTIC", "POT_FILLING_UP", "POT_IS_FULL", "PUMPKIN_PARTY", "QUICK_EXCHANGE",
    "RATS_FRIENDS", "RAT_INFESTATION", "ROLL_THE_DIE", "SCHADENFREUDE", "SEASONED",
    "SECOND_CHANCE", "SHINING", "STRONG_INGREDIENT", "TAKE_RUBIES", "VISIT_WITCH", "WELL_STIRRED",
    "WHEEL_AND_DEAL", "deal_deck", "free_draws", "is_purple", "round_card",
]
