"""One round as a sequence of phases: start, card, rats, brew, then the evaluation steps A-F
(``sim.kernel.evaluation``: die, chip actions, rubies, points, buying or the final conversions,
spending rubies) and the round record.

``play_round`` is inlined into ``play_rounds``, the whole game's rounds in one call from
``play_game`` (the fast batch path), and compiled on its own for ``quacks round`` (a scripted
round from a file) and a game file. Each phase is one function that reads on one screen; the
phases are compiled once each and inlined by LLVM (``llvm_inline``): inlined by Numba, the whole
round was typed and lowered as one function, 23 of the game kernel's 154 CPU s of compiling.
"""

from __future__ import annotations

import numpy as np

from sim.kernel.bag import add_chip, reset_potion
from sim.kernel.books.hooks import bag_refilled
from sim.kernel.brew import after_potions
from sim.kernel.brewing import brew_round
from sim.kernel.cards.deck import round_card
from sim.kernel.cards.hooks import (
    after_brewing,
    before_round,
    end_of_round,
    potion_setup,
    rat_tails,
)
from sim.kernel.droplet import settle_all
from sim.kernel.evaluation import (
    final_conversions,
    phase_a_die,
    phase_b_actions,
    phase_c_rubies,
    phase_d_points,
    phase_e_buy,
    phase_f_rubies,
    round_end,
)
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    EV_BOOK,
    EV_RAT,
    EV_REWARD,
    EV_ROUND,
    EV_WHITE_ADDED,
    F_CARD_PTR,
    F_COINS,
    F_DROPLET,
    F_EXPLODED,
    F_EXPLOSIONS,
    F_FINALPOS,
    F_NPOT,
    F_RAT,
    F_REWARD,
    F_RUBYGAIN,
    F_SCORE,
    F_SCRIPT_ERR,
    F_START,
    F_TUBE_PTR,
    F_VPGAIN,
    G_BREWED,
    G_INFO,
    G_NP,
    G_ROUND,
    G_SEEN,
    G_START_PLAYER,
    G_VISIT,
    POT_P,
    R_FINAL_INFO,
    R_INFO,
    R_LAP,
    R_LAST,
    R_LIMIT,
    R_RATS_FROM,
    R_ROUNDS,
    R_TEAMS,
    R_WHITE_ROUND,
)
from sim.kernel.records import (
    GERR_BLUE,
    game_error,
)
from sim.kernel.seats import seat_after
from sim.rules.chips import W1


@kernel(inline=True)
def tails_below(tails, lap, y):
    """Printed rat tails t + lap*k (k >= 0; every t in [0, lap), increasing, as the ruleset
    checks) below score y."""
    if y <= 0:
        return 0
    q = y // lap
    return q * tails.shape[0] + np.searchsorted(tails, y - q * lap)


@kernel(inline=True)
def tails_between(tails, lap, a, b):
    """Rat tails strictly between scores a <= b: printed tails t + lap*k with a <= t + lap*k < b."""
    if a >= b:
        return 0
    if 0 <= a and b <= lap:  # both in the first lap (most of a game): count without dividing
        n = 0
        for t in tails:
            n += (a <= t) & (t < b)
        return n
    return tails_below(tails, lap, b) - tails_below(tails, lap, a)


@kernel(llvm_inline=True)
def round_start(P, G, R, supply, book_round, book_set, E):
    """New books out, and the extra white chip before round ``R_WHITE_ROUND``."""
    r = G[G_ROUND]
    n = G[G_NP]
    sp = G[G_START_PLAYER]
    record(E, G, -1, EV_ROUND, sp, 0, 0)
    for s in range(n):
        P[s, F_VPGAIN] = P[s, F_SCORE]  # score at round start; turned into the gain at the end
        P[s, F_RUBYGAIN] = 0
        P[s, F_CARD_PTR] = 0
        P[s, F_TUBE_PTR] = 0
    G[G_BREWED] = 0
    G[G_SEEN] = (1 << n) - 1  # outside brewing every potion is on the table
    for c in range(book_set.shape[0]):
        if book_set[c] > 0 and book_round[c] == r and r > 1:
            record(E, G, -1, EV_BOOK, c, 0, 0)
    if r == R[R_WHITE_ROUND]:
        for k in range(n):
            s = seat_after(sp, k, n)
            if supply[W1] > 0 and add_chip(P, s, W1):
                supply[W1] -= 1
                record(E, G, s, EV_WHITE_ADDED, W1, 0, 0)


@kernel(llvm_inline=True)
def rats_phase(P, G, R, tails, supply, SK, SP, SC, rng, E, UF):
    """Rat tails between each player and the leader move their start; every pot is emptied."""
    n = G[G_NP]
    leader = 0
    for s in range(n):
        leader = max(leader, P[s, F_SCORE])
    for s in range(n):
        tails_n = 0
        if G[G_ROUND] >= R[R_RATS_FROM]:
            tails_n = tails_between(tails, R[R_LAP], P[s, F_SCORE], leader)
        tails_n = rat_tails(P, s, tails_n, G, R, supply, SK, SP, SC, rng, E, UF)
        P[s, F_RAT] = tails_n
        start = min(P[s, F_DROPLET] + tails_n, R[R_LAST])
        reset_potion(P, s, start, R[R_LIMIT])
        bag_refilled(P, s, R)
        potion_setup(P, s, G, E)
        record(E, G, s, EV_RAT, tails_n, start, 0)


@kernel(llvm_inline=True)
def potions_done(P, G, R, coins, vp, supply, FD, SK, SP, SC, rng, E, UF):
    """After brewing: red chips beside the pot (red Set 2) or held after a red chip (red Set 6),
    explosions counted, coins of the reward space, the tie-break position."""
    n = G[G_NP]
    after_potions(P, G, R, SK, SP, SC, rng, E, UF)
    after_brewing(P, G, R, supply, FD, SK, SP, SC, rng, E, UF)
    for s in range(n):
        if P[s, F_SCRIPT_ERR] != 0:
            game_error(G, GERR_BLUE, s, P[s, F_SCRIPT_ERR])
        if P[s, F_EXPLODED] != 0:
            P[s, F_EXPLOSIONS] += 1
        rw = P[s, F_REWARD]
        P[s, F_COINS] = coins[rw]
        record(E, G, s, EV_REWARD, rw, coins[rw], vp[rw])
        np_ = P[s, F_NPOT]
        P[s, F_FINALPOS] = P[s, POT_P + np_ - 1] if np_ > 0 else P[s, F_START]


@kernel(inline=True)
def play_round(P, G, R, coins, vp, ruby, tails, die, supply, price, book_round, book_set,
               SK, SP, SC, FD, DS, rng, E, rd, W, UF):
    """Play round G[G_ROUND] from its start (books, white chip, card, rats) to the end of step F.

    ``rd`` (rounds x seats x RD_WIDTH, or empty) receives the per-round record; ``W`` is scratch
    space (int64, at least W_WIDTH) so the hot loop allocates nothing.
    """
    final = G[G_ROUND] >= R[R_ROUNDS]
    round_start(P, G, R, supply, book_round, book_set, E)
    round_card(G, E)
    before_round(P, G, R, supply, die, DS, FD, SK, SP, SC, rng, E, UF)
    rats_phase(P, G, R, tails, supply, SK, SP, SC, rng, E, UF)
    G[G_INFO] = R[R_FINAL_INFO] if final else R[R_INFO]
    brew_round(P, G, R, SK, SP, SC, FD, rng, E, W, UF)
    potions_done(P, G, R, coins, vp, supply, FD, SK, SP, SC, rng, E, UF)
    settle_all(P, G, R, supply, SK, SP, SC, rng, E, UF)
    phase_a_die(P, G, R, die, DS, supply, SK, SP, SC, rng, E, UF)
    phase_b_actions(P, G, R, supply, die, DS, SK, SP, SC, rng, E, W, UF)
    phase_c_rubies(P, G, R, vp, ruby, SK, SP, SC, rng, E, UF)
    phase_d_points(P, G, R, vp, coins, SK, SP, SC, rng, E, UF)
    if final:
        final_conversions(P, G, R, SK, SP, SC, rng, E, UF)
    else:
        phase_e_buy(P, G, R, supply, price, book_round, book_set, SK, SP, SC, rng, E, UF)
        phase_f_rubies(P, G, R, supply, SK, SP, SC, rng, E, UF)
    end_of_round(P, G, R, SK, SP, SC, rng, E, UF)
    G[G_VISIT] = 0
    settle_all(P, G, R, supply, SK, SP, SC, rng, E, UF)
    round_end(P, G, coins, E, rd)
    G[G_START_PLAYER] = seat_after(G[G_START_PLAYER], 1, G[G_NP])


@kernel
def play_rounds(P, G, R, coins, vp, ruby, tails, die, supply, price, book_round, book_set,
                SK, SP, SKr, SPr, SC, FD, DS, rng, E, rd, W, UF, first, last):
    """Play rounds ``first`` to ``last`` of a game (a game: 1 to ``R[R_ROUNDS]``; a round file:
    its one round), ``play_round`` inlined: one call per game instead of one per round (a call
    passes its two dozen arrays word by word, 7% of a game's time as nine calls), and the one
    compiled round that games and round files share (``play_round`` is never an entry point of
    its own: a second entry compiled the whole round again).
    ``SKr``/``SPr``: with teams, the rows of the players deciding for the cauldrons, filled each
    round from ``SK``/``SP`` (else the same arrays)."""
    nc = G[G_NP]
    for r in range(first, last + 1):
        G[G_ROUND] = r
        if R[R_TEAMS] != 0:  # who decides for each cauldron this round
            for s in range(nc):
                m = s + nc * ((r - 1) % 2)
                for j in range(SK.shape[1]):  # element by element: a row copy needs NRT
                    SKr[s, j] = SK[m, j]
                for j in range(SP.shape[1]):
                    for i in range(SP.shape[2]):
                        SPr[s, j, i] = SP[m, j, i]
        play_round(P, G, R, coins, vp, ruby, tails, die, supply, price, book_round, book_set,
                   SKr, SPr, SC, FD, DS, rng, E, rd, W, UF)
