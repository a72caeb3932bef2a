"""Purple (ghost's breath): evaluation step B."""

from __future__ import annotations

from sim.kernel.bag import add_chip, discard_chip, remove_pot_entry
from sim.kernel.decisions.choices import decide_book, upgrade_target
from sim.kernel.decisions.decide import decide_purple
from sim.kernel.decisions.slots import Q_PURPLE_TRADE, Q_PURPLE_UPGRADE
from sim.kernel.droplet import move_droplet
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    EV_PURPLE,
    EV_PURPLE_TRADE,
    EV_PURPLE_VP,
    EV_UPGRADE,
    F_NPOT,
    F_RUBIES,
    F_SCORE,
    POT_P,
    POT_T,
    R_BOOK,
    R_COINS,
    R_VP,
)
from sim.rules.chips import B2, G1, K1, P1, PURPLE, TYPE_COLOUR, TYPE_VALUE, WHITE, Y4


@kernel
def count_colour(P, s, colour):
    """Chips of one colour in the pot."""
    n = 0
    for i in range(P[s, F_NPOT]):
        if TYPE_COLOUR[P[s, POT_T + i]] == colour:
            n += 1
    return n


@kernel(inline=True)
def grant(P, s, t, supply):
    """A chip from the supply into the player's bag, if the supply has one."""
    if supply[t] > 0 and add_chip(P, s, t):
        supply[t] -= 1


@kernel
def remove_from_pot(P, s, t, supply):
    """Take the last chip of type t out of the pot and out of the game (back to the supply)."""
    for k in range(P[s, F_NPOT] - 1, -1, -1):
        if P[s, POT_T + k] == t:
            remove_pot_entry(P, s, k)
            discard_chip(P, s, t)
            supply[t] += 1
            return True
    return False


@kernel
def purple_coins(P, s, R):
    """Set 5: the VP printed on the spaces that hold purple chips, added up."""
    coins = 0
    for i in range(P[s, F_NPOT]):
        if TYPE_COLOUR[P[s, POT_T + i]] == PURPLE:
            coins += R[R_VP + P[s, POT_P + i]]
    return coins


@kernel(inline=True)
def purple_at_b(P, s, G, R, supply, SK, SP, SC, rng, E, UF):
    """Purple chips at B, by book.

    Set 1: one tier (a lower one may be chosen): 1 -> 1 VP; 2 -> 1 VP and 1 ruby; 3 or more ->
    2 VP and droplet +1.
    Set 2: trade 1, 2 or 3 purple chips from the pot (back to the supply) for one tier:
    black 1 + 1 VP + 1 ruby; green 1 + blue 2 + 3 VP + droplet +1; yellow 4 + 6 VP + 1 ruby +
    droplet +2.
    Set 3: each purple chip scores by the printed coin number of its space: 0-9 none, 10-19 1 VP,
    20-29 2 VP, 30 and up 3 VP.
    Set 4: 1 purple -> one 1-chip in the pot becomes the 2-chip of its colour; 2 -> a 2-chip
    becomes a 4-chip; 3+ -> a 1-chip becomes a 4-chip (lower tier allowed; never orange). The
    new chip goes into the bag, the old one to the supply.
    Set 5: the VP printed on the purple chips' spaces are coins to buy with at once
    (``purple_coins``; the buying is ``sim.kernel.evaluation.purple_buy``).
    Set 6: each purple chip scores the printed value of the chip placed right after it.
    """
    npurple = count_colour(P, s, PURPLE)
    book = R[R_BOOK + PURPLE]
    if npurple == 0:
        return
    if book == 1:
        tier = decide_purple(P, s, npurple, G, R, SK, SP, SC, rng, UF)
        if tier == 1:
            P[s, F_SCORE] += 1
        elif tier == 2:
            P[s, F_SCORE] += 1
            P[s, F_RUBIES] += 1
        elif tier >= 3:
            P[s, F_SCORE] += 2
            move_droplet(P, s, 1)
        record(E, G, s, EV_PURPLE, tier, 0, 0)
    elif book == 2:
        tier = decide_book(P, s, Q_PURPLE_TRADE, npurple, G, R, SK, SP, SC, rng, UF)
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
    elif book == 3:
        vp = 0
        for i in range(P[s, F_NPOT]):
            if TYPE_COLOUR[P[s, POT_T + i]] == PURPLE:
                c = R[R_COINS + P[s, POT_P + i]]
                vp += 3 if c >= 30 else c // 10
        if vp > 0:
            P[s, F_SCORE] += vp
        record(E, G, s, EV_PURPLE_VP, vp, 0, 0)
    elif book == 6:
        vp = 0
        for i in range(P[s, F_NPOT] - 1):
            if TYPE_COLOUR[P[s, POT_T + i]] == PURPLE:
                vp += TYPE_VALUE[P[s, POT_T + i + 1]]
        if vp > 0:
            P[s, F_SCORE] += vp
        record(E, G, s, EV_PURPLE_VP, vp, 0, 0)
    elif book == 4:
        a = decide_book(P, s, Q_PURPLE_UPGRADE, npurple, G, R, SK, SP, SC, rng, UF)
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
