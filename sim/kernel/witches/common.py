"""What the herb witches share: whether a seat may call a witch now (``witch_ready``), calling her
(``call_witch``: the penny, the event), dealing them at set-up, the pennies scored at the end,
and the visiting witch of Visit from a Witch. Groups and numbers come from
``sim.rules.witch_numbers`` (the shipped witches': the deal and the visitor draw among them). A
user's witch plays when the ruleset fixes her in her group (``R_WITCH_FIXED``), or joins her
group's deal and the visitor's draw (``R_WITCH_EXTRA``, ``witches.extra``).
"""

from __future__ import annotations

from sim.kernel.decisions.witch import pennies_held
from sim.kernel.event_codes import WITCH_EVENTS
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    EV_VISIT,
    EV_WITCH,
    EV_WITCHES,
    F_PENNY,
    F_SCORE,
    F_VISITED,
    F_WITCHES,
    G_NP,
    G_VISIT,
    G_WITCH,
    R_PENNY_VP,
    R_WITCH_EXTRA,
    R_WITCH_FIXED,
    R_WITCHES,
)
from sim.kernel.rng import WITCH_STREAM, randint
from sim.rules.event_declare import EVENTS_PER_RULE
from sim.rules.witch_numbers import N_GROUPS, N_WITCHES, PER_GROUP

ALL_PENNIES = (1 << N_GROUPS) - 1  # F_PENNY: bit g, the penny of group g


@kernel(inline=True)
def in_group(G, w):
    """The group witch w is in play in (her group's witch this game), -1 if she is not: a
    shipped witch's group is her number's (one compare), a user's the one the ruleset fixed
    her in."""
    if 1 <= w <= N_WITCHES:
        g = (w - 1) // PER_GROUP
        return g if G[G_WITCH + g] == w else -1
    for g in range(N_GROUPS):
        if G[G_WITCH + g] == w:
            return g
    return -1


@kernel(inline=True)
def witch_ready(P, s, G, R, w):
    """True when witch w is in play and seat s still holds the penny of her group, or she is
    this round's visitor (Visit from a Witch) and the seat has not called her yet."""
    if R[R_WITCHES] == 0:
        return False
    g = in_group(G, w)
    if g >= 0 and ((P[s, F_PENNY] >> g) & 1) != 0:
        return True
    return G[G_VISIT] == w and P[s, F_VISITED] == 0


@kernel
def call_witch(P, s, G, E, w, b, c):
    """Seat s gives up the penny of witch w's group (a visiting witch is free: once a round);
    her call's event (the first she declares, ``WITCH_CALL``: its code is her first,
    ``sim.kernel.event_codes.rule_events_base``) says what she did (b, c)."""
    if G[G_VISIT] == w:
        P[s, F_VISITED] = 1
    else:
        P[s, F_PENNY] &= ~(1 << in_group(G, w))
    P[s, F_WITCHES] |= 1 << w
    record(E, G, s, WITCH_EVENTS + w * EVENTS_PER_RULE, w, b, c)


@kernel
def deal_witches(P, G, R, rng, E):
    """Set-up: one witch per group (fixed by the ruleset, else drawn from the game's witch
    stream ``WITCH_STREAM`` among the group's shipped witches and its extra one, if any, drawn
    last) and one penny per group for every seat."""
    if R[R_WITCHES] == 0:
        return
    for g in range(N_GROUPS):
        f = R[R_WITCH_FIXED + g]
        if f == 0:
            x = R[R_WITCH_EXTRA + g]
            k = randint(rng, WITCH_STREAM, PER_GROUP + (1 if x > 0 else 0))
            f = x if k == PER_GROUP else PER_GROUP * g + 1 + k
        G[G_WITCH + g] = f
    for s in range(G[G_NP]):
        P[s, F_PENNY] = ALL_PENNIES
    record(E, G, -1, EV_WITCHES, G[G_WITCH], G[G_WITCH + 1], G[G_WITCH + 2])


@kernel
def penny_points(P, G, R, E):
    """The end of the game: every penny still held scores ``game.penny_vp``."""
    if R[R_WITCHES] == 0:
        return
    for s in range(G[G_NP]):
        n = pennies_held(P, s)
        if n > 0:
            P[s, F_SCORE] += n * R[R_PENNY_VP]
            record(E, G, s, EV_WITCH, 0, n, n * R[R_PENNY_VP])


@kernel
def users_in_play(G):
    """How many user witches (rules files) are in play: each leaves one more shipped witch out of
    play, a candidate visitor."""
    n = 0
    for g in range(N_GROUPS):
        if G[G_WITCH + g] > N_WITCHES:
            n += 1
    return n


@kernel
def extras_out(G, R):
    """How many extra witches (``witches.extra``) are not in play: candidate visitors."""
    n = 0
    for g in range(N_GROUPS):
        x = R[R_WITCH_EXTRA + g]
        if x > 0 and in_group(G, x) < 0:
            n += 1
    return n


@kernel
def visiting_witch(P, G, R, rng, E):
    """Visit from a Witch: unless already set (a round file names her), one of the witches not
    in play, drawn from the game's witch stream, visits this round: the shipped ones in number
    order, then the extra ones (``witches.extra``) in group order."""
    if G[G_VISIT] == 0:
        k = randint(rng, WITCH_STREAM, N_WITCHES - N_GROUPS + users_in_play(G) + extras_out(G, R))
        for w in range(1, N_WITCHES + 1):
            if in_group(G, w) < 0:
                if k == 0:
                    G[G_VISIT] = w
                    break
                k -= 1
        for g in range(N_GROUPS):
            x = R[R_WITCH_EXTRA + g]
            if G[G_VISIT] == 0 and x > 0 and in_group(G, x) < 0:
                if k == 0:
                    G[G_VISIT] = x
                k -= 1
    for s in range(G[G_NP]):
        P[s, F_VISITED] = 0
    record(E, G, -1, EV_VISIT, G[G_VISIT], 0, 0)
