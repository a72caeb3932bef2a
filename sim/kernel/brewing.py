"""Brewing a whole potion: the draw-or-stop loop around ``sim.kernel.brew.potion_step``, and the
potion witches called between draws (six chips, whites back; Herb Witches).
"""

from __future__ import annotations

from sim.kernel.bag import draw_chip, finish_potion, return_chip
from sim.kernel.brew import place_drawn_call, place_first, potion_step, potion_step_call
from sim.kernel.cards.hooks import free_draws
from sim.kernel.decisions.decide import decide_draw
from sim.kernel.decisions.slots import (
    SCRIPTED,
    SLOT_STOP,
    SLOT_WITCH,
    STOP_EV,
    STOP_OPTIMAL,
    STOP_RISK,
    STOP_WHITE,
    USER_BASE,
    W_SIX_CHIPS,
    W_WHITES_BACK,
    WQ_SIX_NEXT,
)
from sim.kernel.decisions.witch import decide_witch
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    EV_DRAW,
    EV_WITCH_LOOK,
    F_DONE,
    F_DRAWS,
    F_FORCED_N,
    F_FORCED_PTR,
    F_LIMIT,
    F_NBAG,
    F_NFIRST,
    F_PENNY,
    F_SIX_N,
    F_SIX_PTR,
    F_VISITED,
    F_WHITE,
    G_VISIT,
    G_WITCH,
    R_WITCHES,
    STOP_CHOICE,
    STOP_EMPTY,
    STOP_SCRIPT,
    WITCH_LOOK,
    WITCH_LOOK_NO,
)
from sim.kernel.witches import call_witch, whites_back, witch_ready


@kernel(inline=True)
def wants_draw(P, s, G, R, SK, SP, SC, rng, UF):
    """Whether seat s draws again: forced draws run to the end of their list, else the strategy.
    The built-in stoppers that weigh the risk always draw A Second Chance's risk-free chips and
    stop a pot those left over the limit (its next draw explodes, whatever the chip)."""
    if P[s, F_FORCED_N] > 0:
        return P[s, F_FORCED_PTR] < P[s, F_FORCED_N]
    k = SK[s, SLOT_STOP]
    if k == STOP_WHITE or k == STOP_RISK or k == STOP_EV or k == STOP_OPTIMAL:
        if free_draws(P, s, G):
            return True
        if P[s, F_WHITE] > P[s, F_LIMIT]:
            return False
    return decide_draw(P, s, G, R, SK, SP, SC, rng, UF)


@kernel
def stop_by_choice(P, s, E, G):
    """End the potion because the player (or the end of a script) says stop."""
    finish_potion(P, s, STOP_SCRIPT if P[s, F_FORCED_N] > 0 else STOP_CHOICE, E, G)


@kernel
def brew_first(P, s, G, R, SK, SP, SC, FD, rng, E, UF):
    """The first chip of a potion (never stop before it), or the end if the bag is empty; the
    chips a green Set 5 chip picked come before it."""
    if P[s, F_NFIRST] > 0:
        place_first(P, s, G, R, SK, SP, SC, FD, rng, E, UF)
        if P[s, F_DONE] != 0:
            return
    if P[s, F_FORCED_N] < 0:  # scripted with no draws at all
        finish_potion(P, s, STOP_SCRIPT, E, G)
    elif P[s, F_NBAG] == 0:
        finish_potion(P, s, STOP_EMPTY, E, G)
    else:
        potion_step_call(P, s, G, R, SK, SP, SC, FD, rng, E, UF)


@kernel
def six_chips(P, s, G, R, SK, SP, SC, FD, rng, E, UF):
    """Six chips (witch 2): draw up to 6 chips; the seat places any of them, one at a time in the
    order it chooses, each with its action (into the bowl past the last space); the rest go back
    to the bag. Brewing then goes on as usual."""
    n = min(6, P[s, F_NBAG])
    for i in range(n):
        u = draw_chip(P, s, FD, rng)
        if u < 0:
            for j in range(i):
                return_chip(P, s, P[s, WITCH_LOOK + j])
            finish_potion(P, s, STOP_SCRIPT, E, G)
            return
        P[s, WITCH_LOOK + i] = u
        P[s, WITCH_LOOK_NO + i] = P[s, F_DRAWS]
        record(E, G, s, EV_WITCH_LOOK, u, 0, 0)
    P[s, F_SIX_N] = n
    P[s, F_SIX_PTR] = 0
    call_witch(P, s, G, E, W_SIX_CHIPS, n, 0)
    while P[s, F_SIX_N] > 0 and P[s, F_DONE] == 0:
        held = P[s, F_SIX_N]
        j = decide_witch(P, s, WQ_SIX_NEXT, held, G, R, SK, SP, SC, rng, UF)
        P[s, F_SIX_PTR] += 1
        if j < 0 or j >= held:
            break
        t = P[s, WITCH_LOOK + j]
        t_no = P[s, WITCH_LOOK_NO + j]
        P[s, WITCH_LOOK + j] = P[s, WITCH_LOOK + held - 1]
        P[s, WITCH_LOOK_NO + j] = P[s, WITCH_LOOK_NO + held - 1]
        P[s, F_SIX_N] = held - 1
        record(E, G, s, EV_DRAW, t, 0, 0)
        place_drawn_call(P, s, t, t_no, G, R, SK, SP, SC, FD, rng, E, UF, True)
    for i in range(P[s, F_SIX_N]):  # (none after A Second Chance: the restart took them back)
        return_chip(P, s, P[s, WITCH_LOOK + i])
    P[s, F_SIX_N] = 0
    if P[s, F_DONE] == 0 and P[s, F_NBAG] == 0:
        finish_potion(P, s, STOP_EMPTY, E, G)


@kernel
def potion_witch(P, s, stopping, G, R, SK, SP, SC, FD, rng, E, UF):
    """Between draws of an intact pot: the six-chips or the whites-back witch, if in play and
    the seat calls her (``stopping``: the seat would stop now). True if one was called."""
    if witch_ready(P, s, G, R, W_SIX_CHIPS):
        if P[s, F_NBAG] > 0 and decide_witch(P, s, W_SIX_CHIPS, stopping, G, R, SK, SP, SC, rng, UF) != 0:
            six_chips(P, s, G, R, SK, SP, SC, FD, rng, E, UF)
            return True
    elif witch_ready(P, s, G, R, W_WHITES_BACK) and P[s, F_WHITE] > 0:
        n = decide_witch(P, s, W_WHITES_BACK, stopping, G, R, SK, SP, SC, rng, UF)
        if n > 0 and whites_back(P, s, min(n, 2), G, R, E) > 0:
            return True
    return False


@kernel(inline=True)
def potion_witch_possible(P, s, G, R):
    """Whether a potion witch who acts between draws (six chips, whites back) is in play and
    seat s still holds the potion penny, or visits this round (a quick test: most decisions
    skip the witch calls)."""
    w = G[G_WITCH]
    v = G[G_VISIT]
    return R[R_WITCHES] != 0 and (
        ((w == W_SIX_CHIPS or w == W_WHITES_BACK) and (P[s, F_PENNY] & 1) != 0)
        or ((v == W_SIX_CHIPS or v == W_WHITES_BACK) and P[s, F_VISITED] == 0))


@kernel
def decide_again(P, s, G, R, SK, SP, SC, rng, UF):
    """``wants_draw`` after a witch changed the pot (a call, so the hot loop keeps one copy)."""
    return wants_draw(P, s, G, R, SK, SP, SC, rng, UF)


@kernel(inline=True)
def go_on(P, s, G, R, SK, SP, SC, FD, rng, E, UF):
    """Whether seat s draws again. With a potion witch in play: a scripted or user strategy is
    asked before every draw (a script's "after N chips"); every strategy once more when it would
    stop, and if it calls her, it decides again."""
    if potion_witch_possible(P, s, G, R) and (SK[s, SLOT_WITCH] == SCRIPTED or SK[s, SLOT_WITCH] >= USER_BASE):
        if potion_witch(P, s, 0, G, R, SK, SP, SC, FD, rng, E, UF) and P[s, F_DONE] != 0:
            return False
    if wants_draw(P, s, G, R, SK, SP, SC, rng, UF):
        return True
    if potion_witch_possible(P, s, G, R) and potion_witch(P, s, 1, G, R, SK, SP, SC, FD, rng, E, UF):
        return P[s, F_DONE] == 0 and decide_again(P, s, G, R, SK, SP, SC, rng, UF)
    return False


@kernel
def brew_until_stop(P, s, G, R, SK, SP, SC, FD, rng, E, UF):
    """Brew a whole potion for seat s (the independent information model)."""
    if P[s, F_NFIRST] > 0:  # green Set 5: chips placed first
        place_first(P, s, G, R, SK, SP, SC, FD, rng, E, UF)
        if P[s, F_DONE] != 0:
            return
    if P[s, F_FORCED_N] < 0:  # scripted with no draws at all
        finish_potion(P, s, STOP_SCRIPT, E, G)
        return
    if P[s, F_NBAG] == 0:
        finish_potion(P, s, STOP_EMPTY, E, G)
        return
    while True:  # one inlined copy of the step: the first chip is never refused
        potion_step(P, s, G, R, SK, SP, SC, FD, rng, E, UF)
        if P[s, F_DONE] != 0:
            return
        if not go_on(P, s, G, R, SK, SP, SC, FD, rng, E, UF):
            if P[s, F_DONE] == 0:
                stop_by_choice(P, s, E, G)
            return
