"""Brewing: the draw-or-stop loop around ``sim.kernel.brew.potion_step`` for one potion
(``brew_until_stop``) and for every potion of a round by its information model (``brew_round``),
and the herb witches who act between draws (``sim.kernel.witches.potion_hooks``).
"""

from __future__ import annotations

from sim.kernel.bag import finish_potion
from sim.kernel.brew import place_first, potion_step
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
    G_BREWED,
    G_INFO,
    G_NP,
    G_SEEN,
    G_START_PLAYER,
    INFO_SEQUENTIAL,
    INFO_SYNCHRONIZED,
    STOP_CHOICE,
    STOP_EMPTY,
    STOP_SCRIPT,
)
from sim.kernel.records import W_WANT
from sim.kernel.rng import peek_u64
from sim.kernel.seats import seat_after
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


@kernel(llvm_inline=True)
def potion_start(P, s, G, R, SK, SP, SC, FD, rng, E, UF):
    """Seat s's potion begins: the chips a rule picked to go first are placed first, then True if
    the first chip is to be drawn (never refused), False if the potion is already over (placed
    first, a script with no draws, an empty bag)."""
    if P[s, F_NFIRST] > 0:
        place_first(P, s, G, R, SK, SP, SC, FD, rng, E, UF)
        if P[s, F_DONE] != 0:
            return False
    if P[s, F_FORCED_N] < 0:  # scripted with no draws at all
        finish_potion(P, s, STOP_SCRIPT, E, G)
        return False
    if P[s, F_NBAG] == 0:
        finish_potion(P, s, STOP_EMPTY, E, G)
        return False
    return True


@kernel
def decide_again(P, s, G, R, SK, SP, SC, rng, UF):
    """``wants_draw`` after a witch changed the pot (a call, so the hot loop keeps one copy)."""
    return wants_draw(P, s, G, R, SK, SP, SC, rng, UF)


@kernel(llvm_inline=True)
def go_on(P, s, G, R, SK, SP, SC, FD, rng, E, UF):
    """Whether seat s draws again. With a witch who acts between draws in play: a scripted or user
    strategy is asked before every draw (a script's "after N chips"); every strategy once more
    when it would stop, and if it calls her, it decides again."""
    if (SK[s, SLOT_WITCH] == SCRIPTED or SK[s, SLOT_WITCH] >= USER_BASE) and \
            potion_hooks.between_draws_possible(P, s, G, R):
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
    """Brew a whole potion for seat s (``quacks potion``; a game brews through ``brew_round``)."""
    if not potion_start(P, s, G, R, SK, SP, SC, FD, rng, E, UF):
        return
    ahead = peek_u64(rng, s)
    while True:
        potion_step(P, s, G, R, SK, SP, SC, FD, rng, E, UF, ahead)
        if P[s, F_DONE] != 0:
            return
        ahead = peek_u64(rng, s)  # (as in brew_round)
        if not go_on(P, s, G, R, SK, SP, SC, FD, rng, E, UF):
            if P[s, F_DONE] == 0:
                stop_by_choice(P, s, E, G)
            return


@kernel(inline=True)
def next_independent(P, k, first, seen, G, R, SK, SP, SC, FD, rng, E, UF):
    """Independent and sequential brewing, one potion after another from the start player: the
    seat that draws next, from the k-th in that order (``first``: its potion begins), and the
    state after it, ``(seat, k, first, seen)``; seat -1 once every potion is over. ``seen``: the
    seats whose potions are over, which a sequential brewer sees (``G_SEEN``)."""
    n = G[G_NP]
    while k < n:
        s = seat_after(G[G_START_PLAYER], k, n)
        if first:
            G[G_SEEN] = seen if G[G_INFO] == INFO_SEQUENTIAL else 0
            if potion_start(P, s, G, R, SK, SP, SC, FD, rng, E, UF):
                return s, k, False, seen
        elif P[s, F_DONE] == 0:
            if go_on(P, s, G, R, SK, SP, SC, FD, rng, E, UF):
                return s, k, False, seen
            if P[s, F_DONE] == 0:  # (a witch may have ended the potion)
                stop_by_choice(P, s, E, G)
        seen |= 1 << s
        k += 1
        first = True
    return -1, k, first, seen


@kernel(inline=True)
def decide_all(P, G, R, SK, SP, SC, FD, rng, E, W, UF):
    """Synchronized brewing, before a reveal: every active player decides on the same view
    (``W_WANT``: 1 draws, -1 stops, 0 over), then the stops are revealed. Returns how many draw.
    Inlined: it runs once per pass of every round (a call passed its 11 arrays word by word,
    about 100 pushes, 4-5% of a base game's samples with the call's own entry and exit)."""
    n = G[G_NP]
    sp = G[G_START_PLAYER]
    want = W[W_WANT : W_WANT + n]
    active = 0
    for k in range(n):
        s = seat_after(sp, k, n)
        want[s] = 0
        if P[s, F_DONE] == 0:
            if go_on(P, s, G, R, SK, SP, SC, FD, rng, E, UF):
                want[s] = 1
                active += 1
            elif P[s, F_DONE] == 0:  # (a witch may have ended the potion)
                want[s] = -1
    for k in range(n):
        s = seat_after(sp, k, n)
        if want[s] < 0:
            stop_by_choice(P, s, E, G)
    return active


@kernel(inline=True)
def next_synchronized(P, k, first, G, R, SK, SP, SC, FD, rng, E, W, UF):
    """Synchronized brewing in lock-step: the seat that draws next and the state after it,
    ``(seat, k, first)``; seat -1 once nobody draws on. First every seat's first chip in order
    (``first``), then pass after pass: all decide (``decide_all``), then all who go on draw one."""
    n = G[G_NP]
    while True:
        if k == n:  # every seat has had its turn in this pass
            k = 0
            first = False
            if decide_all(P, G, R, SK, SP, SC, FD, rng, E, W, UF) == 0:
                return -1, k, first
        s = seat_after(G[G_START_PLAYER], k, n)
        k += 1
        if first:
            if potion_start(P, s, G, R, SK, SP, SC, FD, rng, E, UF):
                return s, k, first
        elif W[W_WANT + s] > 0:
            return s, k, first


@kernel
def brew_round(P, G, R, SK, SP, SC, FD, rng, E, W, UF):
    """Every player brews, by the round's information model: one after another from the start
    player (independent: nobody sees another potion of this round; sequential: each sees the
    potions brewed before theirs), or synchronized (everyone sees every pot so far). One loop
    serves every model, so the chip step is compiled once and a chip costs no call: each pass
    names the seat that draws next and draws for it."""
    n = G[G_NP]
    sync = G[G_INFO] == INFO_SYNCHRONIZED
    if sync:
        G[G_SEEN] = (1 << n) - 1
    k = 0
    first = True
    seen = 0
    ahead = peek_u64(rng, 0)
    while True:
        if sync:
            s, k, first = next_synchronized(P, k, first, G, R, SK, SP, SC, FD, rng, E, W, UF)
        else:
            s, k, first, seen = next_independent(P, k, first, seen, G, R, SK, SP, SC, FD, rng,
                                                 E, UF)
        if s < 0:
            break
        potion_step(P, s, G, R, SK, SP, SC, FD, rng, E, UF, ahead)
        # s's next random number, hashed while the strategy decides whether to draw it (in
        # synchronized brewing another seat draws next: its draw hashes its own)
        ahead = peek_u64(rng, s)
    G[G_SEEN] = (1 << n) - 1
    G[G_BREWED] = 1
