"""A Second Chance (blue): each player's first 5 chips are the card's draws and never explode the
pot; once they are placed the player may go on, or put everything back and brew again from the
start with ordinary draws.

A pot left over the limit by the card's draws explodes on the next ordinary draw; the restart is a
new potion with ordinary draws.

Choice: b = 1 if the white total is over the limit (the next draw explodes); answer 1 starts the
potion again. Default: again when over, or within 1 of, the limit.
"""

from __future__ import annotations

from sim.kernel.bag import reset_potion
from sim.kernel.books.gain_hooks import bag_refilled, potion_restarted
from sim.kernel.cards.common import GAIN_RESTART, answer, card_event
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    F_BASE_LIMIT,
    F_BOWL_N,
    F_CARD_USED,
    F_LIMIT,
    F_NPOT,
    F_SIX_N,
    F_START,
    F_WHITE,
)
from sim.rules.declare import BLUE, card

CARD = card(24, "a-second-chance", BLUE, name="A Second Chance", puts_back="any", doc=(
    "Each player's first 5 chips are the card's draws: they never explode the pot. Once they "
    "are placed, the player may go on (a pot over the limit may still stop intact, and explodes "
    "on the next ordinary draw) or put everything back (chips set aside or held included) and "
    "brew the potion again from the start, with ordinary draws."))


@kernel
def default(P, s, arg, G, R):
    """The built-in answer."""
    return 1 if arg != 0 or P[s, F_WHITE] >= P[s, F_LIMIT] - 1 else 0



@kernel(inline=True)
def free_draws(P, s):
    """True while a chip placed now is one of the first five: the card's draws, which carry no
    risk (the explosion check skips them)."""
    return P[s, F_CARD_USED] == 0 and P[s, F_NPOT] + P[s, F_BOWL_N] < 5


@kernel
def _second_chance(P, s, G, R, SK, SP, SC, rng, E, UF):
    """Once the first 5 chips are placed (drawn without risk): the strategy may put everything
    back and brew again from the start; return True if it did. Everything of the abandoned potion
    goes back to the bag: the pot, the bowl, held chips and a witch's chips in hand; what a book
    keeps of it is its hook point ``potion_restarted`` (red Set 2: its chips set beside the pot
    during it go back, those kept from earlier rounds stay out; green Set 5: its picks are placed
    first again). The flask and witch pennies stay spent."""
    P[s, F_CARD_USED] = 1
    over = 1 if P[s, F_WHITE] > P[s, F_LIMIT] else 0
    if answer(P, s, over, default(P, s, over, G, R), G, R, SK, SP, SC, rng, UF) != 1:
        return False
    potion_restarted(P, s, R)  # what the books keep of it, before the pot is emptied
    reset_potion(P, s, P[s, F_START], P[s, F_BASE_LIMIT])
    bag_refilled(P, s, R)
    P[s, F_SIX_N] = 0
    P[s, F_CARD_USED] = 1
    card_event(E, G, s, GAIN_RESTART, 0)
    return True


@kernel(inline=True)
def after_chip(P, s, G, R, SK, SP, SC, rng, E, UF):
    """After a chip (pot or bowl): once the first 5 are placed, the question; True if the potion
    starts again."""
    return P[s, F_CARD_USED] == 0 and P[s, F_NPOT] + P[s, F_BOWL_N] >= 5 \
        and _second_chance(P, s, G, R, SK, SP, SC, rng, E, UF)


@kernel(inline=True)
def exploded(P, s, G, R, SK, SP, SC, rng, E, UF):
    """The pot exploded before the question (an action placed a sixth chip with the fifth): ask
    now; True if the potion starts again."""
    return P[s, F_CARD_USED] == 0 and _second_chance(P, s, G, R, SK, SP, SC, rng, E, UF)
