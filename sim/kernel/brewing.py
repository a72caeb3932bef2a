"""Brewing a whole potion: the draw-or-stop loop around ``sim.kernel.brew.potion_step``, and the
herb witches who act between draws (``sim.kernel.witches.potion_hooks``).
"""

from __future__ import annotations

from sim.kernel.bag import finish_potion
from sim.kernel.brew import place_first, potion_step, potion_step_call
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
)
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    F_DONE,
    F_FORCED_N,
    F_FORCED_PTR,
    F_LIMIT,
    F_NBAG,
    F_NFIRST,
    F_WHITE,
    STOP_CHOICE,
    STOP_EMPTY,
    STOP_SCRIPT,
)
from sim.kernel.witches import potion_hooks


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
def decide_again(P, s, G, R, SK, SP, SC, rng, UF):
    """``wants_draw`` after a witch changed the pot (a call, so the hot loop keeps one copy)."""
    return wants_draw(P, s, G, R, SK, SP, SC, rng, UF)


@kernel(inline=True)
def go_on(P, s, G, R, SK, SP, SC, FD, rng, E, UF):
    """Whether seat s draws again. With a witch who acts between draws in play: a scripted or user
    strategy is asked before every draw (a script's "after N chips"); every strategy once more
    when it would stop, and if it calls her, it decides again."""
    if potion_hooks.between_draws_possible(P, s, G, R) and (
            SK[s, SLOT_WITCH] == SCRIPTED or SK[s, SLOT_WITCH] >= USER_BASE):
        if potion_hooks.between_draws(P, s, 0, G, R, SK, SP, SC, FD, rng, E, UF) \
                and P[s, F_DONE] != 0:
            return False
    if wants_draw(P, s, G, R, SK, SP, SC, rng, UF):
        return True
    if potion_hooks.between_draws_possible(P, s, G, R) and \
            potion_hooks.between_draws(P, s, 1, G, R, SK, SP, SC, FD, rng, E, UF):
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
