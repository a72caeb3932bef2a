"""Purple chips may go back to the supply for one trade: 1 for a black 1, 1 VP, 1 ruby; 2 for a
green 1, blue 2, 3 VP, droplet +1; 3 for a yellow 4, 6 VP, 1 ruby, droplet +2.

Purple Set 2 (ghost's breath, B): trade 1, 2 or 3 purple chips from the pot (back to the
supply) for one tier: black 1 + 1 VP + 1 ruby; green 1 + blue 2 + 3 VP + droplet +1; yellow 4 +
6 VP + 1 ruby + droplet +2.

Question ``purple-trade`` (b = purple chips in the pot; the tier 0..3); default the highest
(declining: 0). Round-file key ``purple``."""

from __future__ import annotations

from sim.kernel.books.common import count_colour, grant, remove_from_pot, scripting
from sim.kernel.decisions.choices import book_answer
from sim.kernel.decisions.slots import SC_PURPLE
from sim.kernel.droplet import move_droplet
from sim.kernel.event_codes import event_code
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import F_RUBIES, F_SCORE
from sim.rules.book_numbers import question_number
from sim.rules.chips import B2, G1, K1, P1, PURPLE, Y4
from sim.rules.declare import book, event

BOOK = book("purple", 2, "B", prices=2, choices=('which trade (or none)',), flags=('grants_at_b',),
            doc=__doc__,
            events=event("purple_trade", a="tier", text="purple: trades tier {tier}",
                         doc="a: the tier; b: the purple chips discarded"))
EV_PURPLE_TRADE = event_code(BOOK, "purple_trade")
QUESTION = question_number("purple-trade")


@kernel
def default(P, s, arg, G, R, decline):
    """The built-in answer: the highest tier the ``arg`` purple chips allow; declining: 0."""
    return 0 if decline else min(arg, 3)


@kernel(inline=True)
def scripted(P, s, q, arg, SC):
    """The round file's answer: its ``purple`` tier (the base game's key), at most ``arg`` and
    3; not answered without one (-1)."""
    tier = SC[s, SC_PURPLE]
    if tier < 0:
        return False, 0
    return True, min(tier, arg, 3)


@kernel(inline=True)
def purple_at_b(P, s, G, R, supply, SK, SP, SC, rng, E, UF):
    """Step B for seat s: nothing without a purple chip in the pot."""
    npurple = count_colour(P, s, PURPLE)
    if npurple == 0:
        return
    ok, tier = (scripted(P, s, QUESTION, npurple, SC) if scripting(SK, s)
                else book_answer(P, s, QUESTION, npurple, G, R, SK, SP, SC, rng, UF))
    tier = tier if ok else default(P, s, npurple, G, R, tier != 0)
    tier = max(0, min(tier, npurple, 3))
    if tier == 0:
        return
    for _ in range(tier):
        remove_from_pot(P, s, P1, supply)
    if tier == 1:
        grant(P, s, K1, supply)
        P[s, F_SCORE] += 1
        P[s, F_RUBIES] += 1
    elif tier == 2:
        grant(P, s, G1, supply)
        grant(P, s, B2, supply)
        P[s, F_SCORE] += 3
        move_droplet(P, s, 1)
    else:
        grant(P, s, Y4, supply)
        P[s, F_SCORE] += 6
        P[s, F_RUBIES] += 1
        move_droplet(P, s, 2)
    record(E, G, s, EV_PURPLE_TRADE, tier, tier, 0)
