"""The hook table of the fortune-teller deck: every point where a card can change the round, each
a kernel function that switches on the round's card (``G[G_CARD]``) and calls that card's own
function in its module (``sim.kernel.cards.<id>``). The round, brewing, evaluation and single-potion
code call these hooks and never name a card.

Hook points, in the order of a round:

- ``before_round``: the card just turned up: Visit from a Witch's visitor; a purple card resolved
  for every player (``purple_first`` before the seats, ``purple_seat`` for each seat in
  start-player order, ``purple_last`` after them), then the droplets settle.
- ``rat_tails``: the rat tails a seat gets (Rat Infestation, Rats Are Your Friends, A Good Start).
- ``potion_setup``: a seat's potion once its pot is empty, in a round and in ``quacks potion``
  (Living in Luxury).
- per chip, inlined (keep each one compare when no card acts): ``free_draws`` (a draw that carries
  no risk: A Second Chance), ``placed_move`` (extra spaces: Pumpkin Patch Party), ``after_placed``
  (a drawn chip placed, pot intact: Well Stirred), ``after_chip`` (the potion may start again: A
  Second Chance), ``exploded`` (the pot just exploded: A Second Chance).
- ``after_brewing``: every potion has ended (Seasoned Perfectly, Strong Ingredient, Schadenfreude).
- ``die_rolls``: bonus-die rolls instead of one (The Pot is Full).
- ``ruby_space_rubies`` / ``after_ruby_space``: step C on a ruby space (It's Shining Extra Bright,
  Lucky Devil).
- ``end_of_round``: after step F (Magic Potion, A Joyful Reunion).

Purple (resolved before the round) is the card's declared timing
(``sim.rules.card_numbers``).
"""

from __future__ import annotations

from sim.kernel.cards import (
    a_good_start,
    a_joyful_reunion,
    a_quick_exchange,
    a_second_chance,
    an_opportunistic_moment,
    beginners_bonus,
    charity,
    choose_wisely,
    its_shining_extra_bright,
    just_in_time,
    less_is_more,
    living_in_luxury,
    lucky_devil,
    magic_potion,
    pumpkin_patch_party,
    rat_infestation,
    rats_are_your_friends,
    roll_the_die,
    schadenfreude,
    seasoned_perfectly,
    strong_ingredient,
    the_pot_is_filling_up,
    the_pot_is_full,
    visit_from_a_witch,
    well_stirred,
    wheel_and_deal,
    you_only_get_to_choose_one,
)
from sim.kernel.droplet import settle_all
from sim.kernel.jit import kernel
from sim.kernel.layout import F_CARD_ARG, G_CARD, G_NP, G_START_PLAYER
from sim.rules.card_numbers import PURPLE_CARDS  # bit c: card c is purple


@kernel(inline=True)
def is_purple(card):
    """Whether a card is resolved once before the round (its declared timing is purple)."""
    return card > 0 and (PURPLE_CARDS >> card) & 1 != 0


# --- before the round ----------------------------------------------------------------------------

@kernel(inline=True)
def before_round(P, G, R, supply, die, DS, FD, SK, SP, SC, rng, E, UF):
    """The round's card just turned up, before the rats: what it does at once (inlined: no call
    unless a card acts; the per-round hooks below are so too)."""
    card = G[G_CARD]
    if card == visit_from_a_witch.VISIT_WITCH:
        visit_from_a_witch.before_round(P, G, R, rng, E)
    if is_purple(card):
        purple_phase(P, G, R, supply, die, DS, FD, SK, SP, SC, rng, E, UF)
        settle_all(P, G, R, supply, SK, SP, SC, rng, E, UF)  # before the rats: the start moves


@kernel
def purple_phase(P, G, R, supply, die, DS, FD, SK, SP, SC, rng, E, UF):
    """Resolve this round's purple card for every player, in start-player order."""
    card = G[G_CARD]
    n = G[G_NP]
    sp = G[G_START_PLAYER]
    ctx = purple_first(P, G)
    for k in range(n):
        s = (sp + k) % n
        P[s, F_CARD_ARG] = 0
        purple_seat(P, s, ctx, G, R, supply, die, DS, FD, SK, SP, SC, rng, E, UF)
    if card == less_is_more.LESS_IS_MORE:
        less_is_more.last(P, G, R, supply, E)
    elif card == rat_infestation.RAT_INFESTATION:
        rat_infestation.last(G, E)


@kernel(inline=True)
def purple_first(P, G):
    """Before any seat: a value every seat's part reads (fewest rubies, fewest VP), else 0."""
    card = G[G_CARD]
    if card == charity.CHARITY:
        return charity.first(P, G[G_NP])
    if card == beginners_bonus.BEGINNERS_BONUS:
        return beginners_bonus.first(P, G[G_NP])
    return 0


@kernel(inline=True)
def purple_seat(P, s, ctx, G, R, supply, die, DS, FD, SK, SP, SC, rng, E, UF):
    """Seat s's part of this round's purple card."""
    card = G[G_CARD]
    if card == roll_the_die.ROLL_THE_DIE:
        roll_the_die.seat(P, s, G, die, DS, supply, rng, E)
    elif card == the_pot_is_filling_up.POT_FILLING_UP:
        the_pot_is_filling_up.seat(P, s, G, E)
    elif card == charity.CHARITY:
        charity.seat(P, s, ctx, G, E)
    elif card == beginners_bonus.BEGINNERS_BONUS:
        beginners_bonus.seat(P, s, ctx, G, R, supply, E)
    elif card == just_in_time.JUST_IN_TIME:
        just_in_time.seat(P, s, G, R, supply, SK, SP, SC, rng, E, UF)
    elif card == you_only_get_to_choose_one.CHOOSE_ONE:
        you_only_get_to_choose_one.seat(P, s, G, R, supply, SK, SP, SC, rng, E, UF)
    elif card == choose_wisely.CHOOSE_WISELY:
        choose_wisely.seat(P, s, G, R, supply, SK, SP, SC, rng, E, UF)
    elif card == wheel_and_deal.WHEEL_AND_DEAL:
        wheel_and_deal.seat(P, s, G, R, supply, SK, SP, SC, rng, E, UF)
    elif card == an_opportunistic_moment.OPPORTUNISTIC:
        an_opportunistic_moment.seat(P, s, G, R, supply, FD, SK, SP, SC, rng, E, UF)
    elif card == a_quick_exchange.QUICK_EXCHANGE:
        a_quick_exchange.seat(P, s, G, R, supply, SK, SP, SC, rng, E, UF)
    elif card == less_is_more.LESS_IS_MORE:
        less_is_more.seat(P, s, G, R, FD, rng, E)


# --- rats and the potion's set-up ----------------------------------------------------------------

@kernel(inline=True)
def rat_tails(P, s, tails_n, G, R, supply, SK, SP, SC, rng, E, UF):
    """The rat tails seat s gets this round, given the printed ones (before its bag is refilled)."""
    card = G[G_CARD]
    if card == rat_infestation.RAT_INFESTATION:
        return rat_infestation.rats(tails_n)
    if card == rats_are_your_friends.RATS_FRIENDS:
        return rats_are_your_friends.rats(P, s, tails_n, G, R, supply, SK, SP, SC, rng, E, UF)
    if card == a_good_start.GOOD_START:
        return a_good_start.rats(P, s, tails_n, G, R, supply, SK, SP, SC, rng, E, UF)
    return tails_n


@kernel(inline=True)
def potion_setup(P, s, G, E):
    """Seat s's potion once its pot is empty (in a round after the rats; in ``quacks potion``)."""
    if G[G_CARD] == living_in_luxury.LUXURY:
        living_in_luxury.potion_setup(P, s, G, E)


# --- per chip ------------------------------------------------------------------------------------

@kernel(inline=True)
def free_draws(P, s, G):
    """True while a chip placed now is one of a card's risk-free draws (the explosion check skips
    it; the built-in stoppers always draw it)."""
    return G[G_CARD] == a_second_chance.SECOND_CHANCE and a_second_chance.free(P, s)


@kernel(inline=True)
def placed_move(c, G):
    """Extra spaces a chip of colour c placed now moves (before a yellow Set 2 doubling). Called
    only for the colours whose book has no extra distance (orange, green, blue, black, purple):
    red, white, yellow and locoweed chips take their books' branch in ``place_chip``, which keeps
    this hook off the path of most chips."""
    return pumpkin_patch_party.move(c) if G[G_CARD] == pumpkin_patch_party.PUMPKIN_PARTY else 0


@kernel(inline=True)
def after_placed(P, s, t, G, R, SK, SP, SC, rng, E, UF):
    """Drawn chip t was just placed with its action, the pot intact (before the flask)."""
    if G[G_CARD] == well_stirred.WELL_STIRRED:
        well_stirred.placed(P, s, t, G, R, SK, SP, SC, rng, E, UF)


@kernel(inline=True)
def after_chip(P, s, G, R, SK, SP, SC, rng, E, UF):
    """After a drawn chip (pot or bowl) and the flask: True if the potion starts again."""
    return G[G_CARD] == a_second_chance.SECOND_CHANCE and \
        a_second_chance.after_chip(P, s, G, R, SK, SP, SC, rng, E, UF)


@kernel(inline=True)
def exploded(P, s, G, R, SK, SP, SC, rng, E, UF):
    """The pot just exploded (before the witches' rescue): True if the potion starts again."""
    if G[G_CARD] == a_second_chance.SECOND_CHANCE:
        return a_second_chance.exploded(P, s, G, R, SK, SP, SC, rng, E, UF)
    return False


# --- after brewing, evaluation, end of round ------------------------------------------------------

@kernel(inline=True)
def after_brewing(P, G, R, supply, FD, SK, SP, SC, rng, E, UF):
    """Every potion has ended (before the reward spaces' coins are counted)."""
    card = G[G_CARD]
    if card == seasoned_perfectly.SEASONED:
        seasoned_perfectly.after_brewing(P, G, R, E)
    elif card == strong_ingredient.STRONG_INGREDIENT:
        strong_ingredient.after_brewing(P, G, R, FD, SK, SP, SC, rng, E, UF)
    elif card == schadenfreude.SCHADENFREUDE:
        schadenfreude.after_brewing(P, G, R, supply, SK, SP, SC, rng, E, UF)


@kernel(inline=True)
def die_rolls(G):
    """How many times a player who rolls the bonus die rolls it (each result taken)."""
    if G[G_CARD] == the_pot_is_full.POT_IS_FULL:
        return the_pot_is_full.die_rolls()
    return 1


@kernel(inline=True)
def ruby_space_rubies(G):
    """Step C: the rubies a reward space that shows a ruby gives."""
    if G[G_CARD] == its_shining_extra_bright.SHINING:
        return its_shining_extra_bright.ruby_space_rubies()
    return 1


@kernel(inline=True)
def after_ruby_space(P, s, G, E):
    """Step C, after seat s took the rubies of a ruby space."""
    if G[G_CARD] == lucky_devil.LUCKY_DEVIL:
        lucky_devil.ruby_space(P, s, G, E)


@kernel(inline=True)
def end_of_round(P, G, R, SK, SP, SC, rng, E, UF):
    """After step F, before the droplets settle and the round is recorded."""
    card = G[G_CARD]
    if card == magic_potion.MAGIC_POTION:
        magic_potion.end_of_round(P, G, E)
    elif card == a_joyful_reunion.JOYFUL_REUNION:
        a_joyful_reunion.end_of_round(P, G, R, SK, SP, SC, rng, E, UF)
