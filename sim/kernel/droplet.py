"""Droplet moves, and the test-tube side of the pot (component-data.md 2.1).

Every source of a droplet move (the bonus die, black and purple chips, green Set 4, cards, two
rubies) calls ``move_droplet``, which only counts the move. ``settle_droplets`` then gives the
counted moves away at the end of the step that granted them: on the ordinary side all to the pot
droplet; on the test-tube side one at a time, each to the pot or one glass along the test-tube
track as the strategy's ``tube`` slot decides (a 2-space move is two single moves), the glass's
bonus taken at once. After the last glass only the pot droplet moves.
"""

from __future__ import annotations

from sim.kernel.bag import add_chip, show_supply
from sim.kernel.decisions.choices import book_out, decide_tube
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    EV_TUBE,
    F_DROP_PEND,
    F_DROPLET,
    F_RUBIES,
    F_SCORE,
    F_TUBE,
    G_NP,
    R_TUBE,
    R_TUBE_GLASS,
    TUBE_GLASSES,
    TUBE_RUBY,
    TUBE_VP,
)
from sim.rules.chips import TYPE_COLOUR


@kernel(inline=True)
def move_droplet(P, s, k):
    """Seat s is granted k droplet moves (given away by the next ``settle_droplets``)."""
    P[s, F_DROP_PEND] += k


@kernel
def glass_bonus(P, s, glass, G, R, supply, E):
    """The bonus of the glass just entered: rubies, VP, or a chip straight into the bag (if its
    book is out and the supply has one)."""
    code = R[R_TUBE_GLASS + glass]
    lost = 0
    if code >= TUBE_VP:
        P[s, F_SCORE] += code - TUBE_VP
    elif code >= TUBE_RUBY:
        P[s, F_RUBIES] += code - TUBE_RUBY
    elif 0 <= code < supply.shape[0]:
        if book_out(G, R, TYPE_COLOUR[code]) and supply[code] > 0 and add_chip(P, s, code):
            supply[code] -= 1
        else:
            lost = 1
    record(E, G, s, EV_TUBE, glass, code, lost)


@kernel
def tube_moves(P, s, k, G, R, supply, SK, SP, SC, rng, E, UF):
    """Test-tube side: k single droplet moves, each to the pot or the next glass."""
    show_supply(G, supply)  # what the strategy sees of the supply (a glass may give a chip)
    for _ in range(k):
        if P[s, F_TUBE] < TUBE_GLASSES and decide_tube(P, s, G, R, SK, SP, SC, rng, UF) != 0:
            P[s, F_TUBE] += 1
            glass_bonus(P, s, P[s, F_TUBE], G, R, supply, E)
        else:
            P[s, F_DROPLET] += 1


@kernel(inline=True)
def settle_droplets(P, s, G, R, supply, SK, SP, SC, rng, E, UF):
    """Give seat s's counted droplet moves to the pot droplet (or, on the test-tube side, to the
    pot or the tube, one decision per move)."""
    k = P[s, F_DROP_PEND]
    if k <= 0:
        return
    P[s, F_DROP_PEND] = 0
    if R[R_TUBE] == 0:
        P[s, F_DROPLET] += k
    else:
        tube_moves(P, s, k, G, R, supply, SK, SP, SC, rng, E, UF)


@kernel(llvm_inline=True)
def settle_all(P, G, R, supply, SK, SP, SC, rng, E, UF):
    """``settle_droplets`` for every seat."""
    for s in range(G[G_NP]):
        settle_droplets(P, s, G, R, supply, SK, SP, SC, rng, E, UF)
