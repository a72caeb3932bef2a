"""Rats Are Your Friends (purple, resolved at the rats): any 4-chip whose book is out, or 1 VP for
every rat tail this round.

Choice: b = rat tails this round; answer a 4-chip type, or TAKE_RUBIES for the VP. Default: the VP
with 4 or more tails (or no 4-chip to have), else the dearest 4-chip.
"""

from __future__ import annotations

from sim.kernel.bag import show_supply
from sim.kernel.cards.common import GAIN_VP, TAKE_RUBIES, answer, gain
from sim.kernel.cards.grant import grant_chip
from sim.kernel.decisions.choices import dearest
from sim.kernel.jit import kernel
from sim.rules.chips import N_TYPES, TYPE_VALUE
from sim.rules.declare import PURPLE, TAKE_OTHER, card

CARD = card(8, "rats-are-your-friends", PURPLE, name="Rats Are Your Friends",
            words=(("vp", TAKE_OTHER),), doc=(
    "Each player chooses: any 4-chip whose book is out (into the bag at once), or 1 VP for "
    "every rat tail they get this round."))


@kernel
def default(P, s, arg, G, R):
    """The built-in answer."""
    best = dearest(G, R, 0, N_TYPES, 4)
    return TAKE_RUBIES if arg >= 4 or best < 0 else best



@kernel
def rat_tails(P, s, tails_n, G, R, supply, SK, SP, SC, rng, E, UF):
    """Once seat s's rat tails are known (before its bag is refilled, so a granted chip can be
    drawn): the chip or the VP; return the tails the seat keeps (all of them)."""
    show_supply(G, supply)
    a = answer(P, s, tails_n, default(P, s, tails_n, G, R), G, R, SK, SP, SC, rng, UF)
    if a == TAKE_RUBIES or not (0 <= a < supply.shape[0] and TYPE_VALUE[a] == 4) \
            or not grant_chip(P, s, a, G, R, supply, E):
        gain(P, s, G, E, GAIN_VP, tails_n)
    return tails_n
