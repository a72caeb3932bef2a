"""Purple chips in the pot: 1 upgrades a 1-chip to a 2-chip of its colour, 2 a 2-chip to a 4-chip, 3
or more a 1-chip to a 4-chip (new chip into the bag, old to supply).

Purple Set 4 (ghost's breath, B): 1 purple -> one 1-chip in the pot becomes the 2-chip of its
colour; 2 -> a 2-chip becomes a 4-chip; 3+ -> a 1-chip becomes a 4-chip (a lower tier allowed;
never orange). The new chip goes into the bag, the old one to the supply.

Question ``purple-upgrade`` (b = purple chips; tier * 32 + chip type in the pot, -1 none); default
the highest tier, the upgrade that gains most by price (declining: none). Round-file key
``upgrade``."""

from __future__ import annotations

from sim.kernel.books.common import count_colour, grant, remove_from_pot, scripting
from sim.kernel.decisions.choices import book_answer, upgrade_target
from sim.kernel.decisions.slots import script_slot
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import EV_UPGRADE, F_NPOT, G_SUPPLY, POT_T, R_PRICE
from sim.rules.book_numbers import question_number
from sim.rules.chips import PURPLE, TYPE_COLOUR, WHITE
from sim.rules.declare import NOT_SCRIPTED, SCRIPT_UPGRADE, book, script_key

BOOK = book("purple", 4, "B", prices=4,
            choices=('which chip to upgrade; a lower tier (or none) is allowed',),
            flags=('grants_at_b',), doc=__doc__,
            script=(script_key("upgrade", SCRIPT_UPGRADE, doc="the chip upgraded and its upgrade",
                               words=(("1>2", 1), ("2>4", 2), ("1>4", 3))),))
QUESTION = question_number("purple-upgrade")
UPGRADE = script_slot(BOOK, "upgrade")  # its answer in SC: tier * 32 + chip type, -1 none


@kernel
def default(P, s, arg, G, R, decline):
    """The built-in answer: the highest tier (``arg`` purple chips) with a coloured (not white)
    chip to upgrade, the one whose upgrade gains most by price; tier * 32 + chip type, -1 none
    (declining: none)."""
    if decline:
        return -1
    for tier in range(min(arg, 3), 0, -1):
        best = -1
        gain = -1
        for i in range(P[s, F_NPOT]):
            t = P[s, POT_T + i]
            if TYPE_COLOUR[t] == WHITE:
                continue
            u = upgrade_target(t, tier)
            if u >= 0 and G[G_SUPPLY + u] > 0 and R[R_PRICE + u] - R[R_PRICE + t] > gain:
                gain = R[R_PRICE + u] - R[R_PRICE + t]
                best = t
        if best >= 0:
            return tier * 32 + best
    return -1


@kernel(inline=True)
def scripted(P, s, q, arg, SC):
    """The round file's answer: its ``upgrade``, if it gives one."""
    a = SC[s, UPGRADE]
    if a == NOT_SCRIPTED:
        return False, 0
    return True, a


@kernel(inline=True)
def purple_at_b(P, s, G, R, supply, SK, SP, SC, rng, E, UF):
    """Step B for seat s: nothing without a purple chip in the pot."""
    npurple = count_colour(P, s, PURPLE)
    if npurple == 0:
        return
    ok, a = (scripted(P, s, QUESTION, npurple, SC) if scripting(SK, s)
             else book_answer(P, s, QUESTION, npurple, G, R, SK, SP, SC, rng, UF))
    a = a if ok else default(P, s, npurple, G, R, a != 0)
    if a < 0:
        return
    tier = a // 32
    t = a % 32
    if tier < 1 or tier > min(npurple, 3) or t >= supply.shape[0] or TYPE_COLOUR[t] == WHITE:
        return
    u = upgrade_target(t, tier)
    if u < 0 or supply[u] <= 0:
        return
    if remove_from_pot(P, s, t, supply):
        grant(P, s, u, supply)
        record(E, G, s, EV_UPGRADE, t, u, 0)
