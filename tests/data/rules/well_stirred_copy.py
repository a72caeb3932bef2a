"""Well Stirred rewritten as a user's rules file (tests/test_rules_files.py: its games are the
built-in card's): each player may put the first white chip they draw back into the bag, without
the flask.

Choice: b = the white chip type; answer 1 returns it to the bag. Default: return it.
"""

from __future__ import annotations

from sim.kernel.bag import remove_pot_entry, return_chip
from sim.kernel.cards.common import GAIN_REMOVE
from sim.kernel.decisions.choices import card_answer
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import EV_CARD_GAIN, F_CARD_USED, F_NPOT, F_WHITE, POT_T
from sim.rules.chips import TYPE_COLOUR, TYPE_VALUE, WHITE
from sim.rules.declare import BLUE, card

CARD = card(0, "well-stirred-copy", BLUE, name="Well Stirred (a rules file)",
            puts_back="white", doc=(
    "Each player may put the first white chip they draw back into the bag, without the flask."))
WELL_STIRRED = CARD.number


@kernel
def default(P, s, arg, G, R):
    """The built-in answer."""
    return 1



@kernel
def _stir(P, s, G, R, SK, SP, SC, rng, E, UF):
    """The first white chip drawn (just placed) may go back into the bag."""
    P[s, F_CARD_USED] = 1
    k = P[s, F_NPOT]
    t = P[s, POT_T + k - 1]
    ok, a = card_answer(P, s, WELL_STIRRED, t, G, R, SK, SP, SC, rng, UF)
    if (a if ok else default(P, s, t, G, R)) == 1:
        remove_pot_entry(P, s, k - 1)
        P[s, F_WHITE] -= TYPE_VALUE[t]
        return_chip(P, s, t)
        record(E, G, s, EV_CARD_GAIN, GAIN_REMOVE, t, WELL_STIRRED)


@kernel(inline=True)
def after_placed(P, s, t, G, R, SK, SP, SC, rng, E, UF):
    """Drawn chip t was just placed, the pot intact (per chip: a compare or two)."""
    if P[s, F_CARD_USED] == 0 and TYPE_COLOUR[t] == WHITE:
        _stir(P, s, G, R, SK, SP, SC, rng, E, UF)
